"""Who may open the pit page, and where it may listen.

The page listens on the loopback address by default (reached on the machine itself, or through a
TLS reverse proxy, docs/pit.md). Any other address needs a login: users in a TOML file, each
password stored hashed the way the supervisors' credentials are (``tablectl.supervisor``: scrypt,
``tablectl config hash-credential`` makes one)::

    [users]
    pit-anna = "scrypt$16384$8$1$<salt>$<hash>"

Without one the page refuses to start, in one line (:class:`AuthError`). A login gives a random
session token in an HttpOnly, SameSite=Strict cookie; wrong passwords are throttled per user
(``tablectl.supervisor.Throttle``).
"""

from __future__ import annotations

import ipaddress
import secrets
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tablectl.supervisor import (
    CredentialFormatError,
    Throttle,
    check_supervisor,
    parse_stored,
)

COOKIE = "pit_session"
SESSION_SECONDS = 12 * 3600  # one shift


class AuthError(Exception):
    """The page cannot start as asked (one line)."""


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8080`` for IPv6) -> (host, port)."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not (0 <= int(port) < 65536) or not host:
        raise AuthError(f"--listen {text}: expected HOST:PORT, e.g. 127.0.0.1:8080")
    return host.strip("[]"), int(port)


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def load_users(path: Path) -> dict[str, str]:
    """The ``[users]`` of a users file: user -> stored password hash (each checked)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise AuthError(f"{path}: cannot read the users file: {e.strerror or e}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise AuthError(f"{path}: not TOML ({e})") from None
    users = data.get("users")
    if not isinstance(users, dict) or not users:
        raise AuthError(f"{path}: no [users] (user = \"<hash from tablectl config hash-credential>\")")
    for user, stored in users.items():
        if not isinstance(stored, str):
            raise AuthError(f"{path}: users.{user}: expected a password hash")
        try:
            parse_stored(stored)
        except CredentialFormatError as e:
            raise AuthError(f"{path}: users.{user}: {e}") from None
    return dict(users)


def check_bind(host: str, users: dict[str, str] | None) -> None:
    """Refuse a non-loopback address without a login configured."""
    if not is_loopback(host) and not users:
        raise AuthError(f"pit: refusing to listen on {host} without a login: give --users FILE, or listen on "
                        "127.0.0.1 behind a TLS reverse proxy (docs/pit.md)")


@dataclass
class Sessions:
    """Logged-in sessions: token -> (user, expiry)."""

    clock: Callable[[], float] = time.monotonic
    seconds: float = SESSION_SECONDS
    tokens: dict[str, tuple[str, float]] = field(default_factory=dict)

    def new(self, user: str) -> str:
        token = secrets.token_urlsafe(32)
        self.tokens[token] = (user, self.clock() + self.seconds)
        return token

    def user(self, token: str | None) -> str | None:
        found = self.tokens.get(token or "")
        if found is None:
            return None
        if found[1] < self.clock():
            del self.tokens[token]  # type: ignore[arg-type]
            return None
        return found[0]

    def end(self, token: str | None) -> None:
        self.tokens.pop(token or "", None)


class Login:
    """The users file, the sessions and the throttle (``check`` is blocking scrypt: run it off the loop)."""

    def __init__(self, users: dict[str, str]) -> None:
        self.users = users
        self.sessions = Sessions()
        self.throttle = Throttle(limit=5, window=60.0, lockout=60.0)

    def check(self, user: str, password: str) -> str | None:
        """A session token for a right password; None otherwise (and while the user is locked out)."""
        if self.throttle.locked(user):
            return None
        if check_supervisor(self.users, user, password):
            self.throttle.succeeded(user)
            return self.sessions.new(user)
        self.throttle.failed(user)
        return None


__all__ = ["COOKIE", "AuthError", "Login", "Sessions", "check_bind", "is_loopback", "load_users", "parse_listen"]
