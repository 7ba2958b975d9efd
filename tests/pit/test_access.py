"""Who may open the pit page: loopback by default, a login anywhere else."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tablectl.pit.auth import AuthError, check_bind, is_loopback
from tablectl.supervisor import hash_credential

from .conftest import Page, isolated_env, start_page, until

PASSWORD = "tall-green-ledger-42"


def test_a_non_loopback_address_without_a_login_refuses_to_start_in_one_line(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "tablectl", "pit", "nats://127.0.0.1:4222", "--listen", "0.0.0.0:8080"],
                       capture_output=True, text=True, timeout=60, env=isolated_env(tmp_path), check=False)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "refusing to listen on 0.0.0.0 without a login" in lines[0]
    assert "serving" not in r.stdout


@pytest.mark.parametrize("host", ["127.0.0.1", "127.9.9.9", "::1", "localhost"])
def test_loopback_needs_no_login(host: str) -> None:
    assert is_loopback(host)
    check_bind(host, None)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.7", "pit.example"])
def test_any_other_address_needs_a_login(host: str) -> None:
    with pytest.raises(AuthError, match="refusing"):
        check_bind(host, None)
    check_bind(host, {"pit-anna": hash_credential(PASSWORD)})


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    root = tmp_path_factory.mktemp("pit-login")
    users = root / "users.toml"
    users.write_text(f'[users]\n"pit-anna" = "{hash_credential(PASSWORD, n=2**12)}"\n', encoding="utf-8")
    page = start_page(["nats://127.0.0.1:9", "--users", str(users)], isolated_env(root))
    yield page
    page.stop()


def test_with_a_login_the_page_asks_for_it_and_refuses_a_wrong_password(browser: Any, guarded: Page) -> None:
    context = browser.new_context()
    p = context.new_page()
    p.goto(guarded.url)
    assert "/login" in p.url
    p.fill("input[name=user]", "pit-anna")
    p.fill("input[name=password]", "not-the-password")
    p.click("button[type=submit]")
    until(lambda: p.query_selector(".error"), 10.0, "the login's error")
    assert "/login" in p.url
    context.close()


def test_with_the_right_password_the_floor_opens(browser: Any, guarded: Page) -> None:
    context = browser.new_context()
    p = context.new_page()
    p.goto(guarded.url)
    p.fill("input[name=user]", "pit-anna")
    p.fill("input[name=password]", PASSWORD)
    p.click("button[type=submit]")
    until(lambda: p.query_selector("#tiles"), 10.0, "the floor after the login")
    assert p.url == guarded.url
    context.close()
