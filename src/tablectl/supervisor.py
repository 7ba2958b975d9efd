"""Supervisor credentials: stored hashed (scrypt) in the table config, checked at the display.

A supervisor action at the table (resolving a hold, voiding a round) asks for the supervisor's
id and credential. The config stores only a hash per supervisor id, made with
``tablectl config hash-credential``::

    [supervisors]
    pit-anna = "scrypt$16384$8$1$<salt, base64>$<hash, base64>"

The stored form is ``scrypt$N$r$p$salt_b64$hash_b64`` (standard base64 with padding; a 16-byte
random salt; a 32-byte key; N = 2**14, r = 8, p = 1 by default). ``verify_credential`` reads the
parameters from the stored string, so stronger ones can be used later without breaking old
hashes, and compares in constant time.

``weakness`` says why a new credential is too easy to guess (``tablectl supervisor add`` refuses
it); ``Throttle`` slows down guessing at the display: after a few wrong credentials for one id,
further tries for it are refused for a while without being checked.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import time
from collections.abc import Callable, Mapping

SCHEME = "scrypt"
N = 2**14
R = 8
P = 1
SALT_BYTES = 16
KEY_BYTES = 32
_MAX_N = 2**20  # refuse absurd work factors from a (possibly tampered) config
_MAXMEM = 64 * 1024 * 1024


class CredentialFormatError(ValueError):
    """A stored credential hash that is not ``scrypt$N$r$p$salt_b64$hash_b64``."""


def _derive(secret: str, salt: bytes, n: int, r: int, p: int, length: int) -> bytes:
    return hashlib.scrypt(secret.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=length, maxmem=_MAXMEM)


def hash_credential(secret: str, *, n: int = N, r: int = R, p: int = P, salt: bytes | None = None) -> str:
    """The stored form of ``secret``: ``scrypt$N$r$p$salt_b64$hash_b64`` (a fresh random salt)."""
    if not secret:
        raise ValueError("an empty credential cannot be stored")
    salt = os.urandom(SALT_BYTES) if salt is None else salt
    key = _derive(secret, salt, n, r, p, KEY_BYTES)
    b64 = base64.b64encode
    return f"{SCHEME}${n}${r}${p}${b64(salt).decode()}${b64(key).decode()}"


def parse_stored(stored: str) -> tuple[int, int, int, bytes, bytes]:
    """``(n, r, p, salt, key)`` of a stored hash, or ``CredentialFormatError`` saying why."""
    parts = stored.strip().split("$")
    if len(parts) != 6 or parts[0] != SCHEME:
        raise CredentialFormatError("expected scrypt$N$r$p$salt$hash (make one with `tablectl config hash-credential`)")
    try:
        n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
    except ValueError:
        raise CredentialFormatError("N, r and p must be whole numbers") from None
    if n < 2 or n & (n - 1) or n > _MAX_N:
        raise CredentialFormatError(f"N must be a power of two from 2 to {_MAX_N}, not {n}")
    if not (1 <= r <= 64 and 1 <= p <= 16):
        raise CredentialFormatError(f"r must be 1-64 and p 1-16, not r={r}, p={p}")
    if 128 * r * n > _MAXMEM // 2:
        raise CredentialFormatError(f"N={n}, r={r} needs more memory than allowed")
    try:
        salt = base64.b64decode(parts[4], validate=True)
        key = base64.b64decode(parts[5], validate=True)
    except (binascii.Error, ValueError):
        raise CredentialFormatError("salt and hash must be base64") from None
    if len(salt) < 8 or len(key) < 16:
        raise CredentialFormatError("salt (8+ bytes) or hash (16+ bytes) too short")
    return n, r, p, salt, key


def verify_credential(secret: str, stored: str) -> bool:
    """Whether ``secret`` matches the stored hash (constant-time compare). A malformed stored
    hash never matches."""
    try:
        n, r, p, salt, key = parse_stored(stored)
    except CredentialFormatError:
        return False
    candidate = _derive(secret, salt, n, r, p, len(key))
    return hmac.compare_digest(candidate, key)


def check_supervisor(supervisors: Mapping[str, str], supervisor: str, secret: str) -> bool:
    """Whether ``supervisor`` is configured and ``secret`` is their credential. An unknown id
    costs the same work as a wrong credential (no timing hint about which ids exist)."""
    stored = supervisors.get(supervisor)
    if stored is None:
        verify_credential(secret, _DUMMY)
        return False
    return verify_credential(secret, stored)


MIN_LENGTH = 10
MIN_DISTINCT = 5
# guessed first by anyone who tries (NIST SP 800-63B: compare against commonly used values)
_COMMON = frozenset(
    """password passw0rd p@ssw0rd letmein welcome monkey dragon master shadow sunshine qwerty
    qwertyuiop asdfghjkl zxcvbnm iloveyou admin administrator supervisor casino poker dealer
    blackjack roulette changeme default secret trustno1 football baseball abcdefghij""".split()
)

_RUNS = ("0123456789" * 3, "abcdefghijklmnopqrstuvwxyz" * 2, "qwertyuiopasdfghjklzxcvbnm" * 2)


def weakness(secret: str, supervisor: str = "") -> str | None:
    """Why ``secret`` is too weak for a supervisor credential, or None when it will do.

    At least ``MIN_LENGTH`` characters and ``MIN_DISTINCT`` different ones; not the supervisor's
    id, a common word or a keyboard/number run padded with digits, nor a run such as ``1234...``
    or ``abcd...``."""
    if len(secret) < MIN_LENGTH:
        return f"too short: at least {MIN_LENGTH} characters"
    if len(set(secret)) < MIN_DISTINCT:
        return f"too few different characters (at least {MIN_DISTINCT})"
    lowered = secret.lower()
    if supervisor and supervisor.lower() in lowered:
        return "contains the supervisor id"
    core = lowered.strip("0123456789!@#$%^&*._- ")
    if lowered in _COMMON or core in _COMMON:
        return "a commonly used credential"
    if any(lowered in run or lowered in run[::-1] for run in _RUNS):
        return "a run of consecutive characters"
    return None


class Throttle:
    """Wrong-credential throttling per supervisor id (pure but for the clock it is given).

    After ``limit`` wrong credentials within ``window`` seconds, the id is locked for ``lockout``
    seconds: tries are refused unchecked. A right credential clears the count."""

    def __init__(
        self, *, limit: int = 3, window: float = 60.0, lockout: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit, self.window, self.lockout, self.clock = limit, window, lockout, clock
        self._failures: dict[str, list[float]] = {}
        self._locked_until: dict[str, float] = {}

    def locked(self, supervisor: str) -> float:
        """Seconds until ``supervisor`` may try again (0: now)."""
        return max(0.0, self._locked_until.get(supervisor, 0.0) - self.clock())

    def failed(self, supervisor: str) -> None:
        now = self.clock()
        recent = [t for t in self._failures.get(supervisor, []) if now - t < self.window] + [now]
        if len(recent) >= self.limit:
            self._locked_until[supervisor] = now + self.lockout
            recent = []
        self._failures[supervisor] = recent

    def tries_left(self, supervisor: str) -> int:
        """Wrong credentials ``supervisor`` may still type before the lockout."""
        now = self.clock()
        return max(0, self.limit - len([t for t in self._failures.get(supervisor, []) if now - t < self.window]))

    def succeeded(self, supervisor: str) -> None:
        self._failures.pop(supervisor, None)
        self._locked_until.pop(supervisor, None)


#: a simulated table with no ``[supervisors]`` (``tablectl run --simulate``) gets this one, so
#: that a hold can be resolved at the keys; the screen and the log say so. Never on real devices.
DEMO_SUPERVISOR = "demo"
DEMO_CREDENTIAL = "demo"


def demo_supervisors() -> dict[str, str]:
    """The demo supervisor's id -> credential hash."""
    return {DEMO_SUPERVISOR: hash_credential(DEMO_CREDENTIAL)}


# a well-formed hash nobody knows the secret of (for equal work on unknown ids)
_DUMMY = f"{SCHEME}${N}${R}${P}${base64.b64encode(b'tablectl-dummy-s').decode()}${base64.b64encode(bytes(KEY_BYTES)).decode()}"


__all__ = [
    "DEMO_CREDENTIAL",
    "DEMO_SUPERVISOR",
    "MIN_LENGTH",
    "CredentialFormatError",
    "Throttle",
    "check_supervisor",
    "demo_supervisors",
    "hash_credential",
    "parse_stored",
    "verify_credential",
    "weakness",
]
