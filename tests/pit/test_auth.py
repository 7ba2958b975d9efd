"""Who may open the pit page, from plain values: the listen address, the users file, the sessions
and the login's throttle (no server; test_access.py covers the process and the browser)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablectl.pit.auth import AuthError, Login, Sessions, load_users, parse_listen
from tablectl.supervisor import hash_credential

PASSWORD = "tall-green-ledger-42"
STORED = hash_credential(PASSWORD, n=2**12)  # a cheap scrypt: the check is what is tested, not its cost


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.mark.parametrize(("text", "expected"), [("127.0.0.1:8080", ("127.0.0.1", 8080)), ("[::1]:8443", ("::1", 8443)),
                                                ("pit.example:0", ("pit.example", 0))])
def test_a_listen_address_is_host_and_port(text: str, expected: tuple[str, int]) -> None:
    assert parse_listen(text) == expected


@pytest.mark.parametrize("text", ["8080", "127.0.0.1:", ":8080", "127.0.0.1:http", "127.0.0.1:65536"])
def test_a_listen_address_without_a_host_or_a_port_in_range_is_refused_with_an_example(text: str) -> None:
    with pytest.raises(AuthError, match=r"expected HOST:PORT, e\.g\. 127\.0\.0\.1:8080"):
        parse_listen(text)


def test_a_users_file_gives_each_user_their_stored_hash(tmp_path: Path) -> None:
    path = tmp_path / "users.toml"
    path.write_text(f'[users]\n"pit-anna" = "{STORED}"\n', encoding="utf-8")
    assert load_users(path) == {"pit-anna": STORED}


@pytest.mark.parametrize(("text", "says"), [
    ("[users\n", "not TOML"),
    ("[other]\nx = 1\n", "no [users]"),
    ("[users]\n", "no [users]"),
    ('[users]\n"pit-anna" = 42\n', "users.pit-anna: expected a password hash"),
    ('[users]\n"pit-anna" = "tall-green-ledger-42"\n', "users.pit-anna: "),  # a password in the clear is no hash
])
def test_a_users_file_that_cannot_serve_refuses_to_start_naming_the_file(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "users.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(AuthError, match=str(path)) as e:
        load_users(path)
    assert says in str(e.value)


def test_a_users_file_that_is_not_there_is_said_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(AuthError, match="cannot read the users file") as e:
        load_users(tmp_path / "missing.toml")
    assert "\n" not in str(e.value)


def test_a_session_names_its_user_until_it_ends() -> None:
    s = Sessions()
    a, b = s.new("pit-anna"), s.new("pit-bob")
    assert a != b and len(a) >= 32
    assert (s.user(a), s.user(b)) == ("pit-anna", "pit-bob")
    s.end(a)
    assert (s.user(a), s.user(b)) == (None, "pit-bob")


def test_a_session_expires_after_its_shift() -> None:
    clock = Clock()
    s = Sessions(clock=clock, seconds=3600)
    token = s.new("pit-anna")
    clock.t += 3600
    assert s.user(token) == "pit-anna"
    clock.t += 1
    assert s.user(token) is None
    assert token not in s.tokens


@pytest.mark.parametrize("token", [None, "", "not-a-token"])
def test_no_token_or_an_unknown_one_is_nobody(token: str | None) -> None:
    s = Sessions()
    s.new("pit-anna")
    assert s.user(token) is None
    s.end(token)  # ending what is not there changes nothing
    assert len(s.tokens) == 1


def test_the_right_password_gives_a_session_of_that_user() -> None:
    login = Login({"pit-anna": STORED})
    token = login.check("pit-anna", PASSWORD)
    assert token is not None and login.sessions.user(token) == "pit-anna"


@pytest.mark.parametrize(("user", "password"), [("pit-anna", "not-the-password"), ("pit-anna", ""),
                                                ("pit-bob", PASSWORD)])
def test_a_wrong_password_or_an_unknown_user_gives_no_session(user: str, password: str) -> None:
    login = Login({"pit-anna": STORED})
    assert login.check(user, password) is None
    assert login.sessions.tokens == {}


def test_five_wrong_passwords_lock_the_user_out_even_with_the_right_one() -> None:
    login = Login({"pit-anna": STORED})
    for _ in range(5):
        assert login.check("pit-anna", "guess") is None
    assert login.check("pit-anna", PASSWORD) is None


def test_the_right_password_before_the_fifth_wrong_one_starts_the_count_again() -> None:
    login = Login({"pit-anna": STORED})
    for _ in range(4):
        login.check("pit-anna", "guess")
    assert login.check("pit-anna", PASSWORD) is not None
    for _ in range(4):
        login.check("pit-anna", "guess")
    assert login.check("pit-anna", PASSWORD) is not None
