"""The signing key of a simulated table: one per table id, kept private to this user, and enrolled
in the keyring so that ``tablectl review LOGS`` verifies what the simulated table dealt.

The private key is ``$XDG_STATE_HOME/tablectl/session-keys/<table>.key`` (folders 0700, key 0600,
whatever the umask), never in the log folder: whoever copies the logs must not get it, and a key
beside a log vouches for nothing. It is keyed by the table id, not the log folder's path, so a
moved or copied log folder keeps its key. A key left by an older version (per folder, or as
``session.key`` in the log folder) is adopted so its logs still verify.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tablectl.eventlog import keyring
from tablectl.eventlog import logformat as fmt
from tablectl.eventlog.keys import generate_key, key_id, load_private_key
from tablectl.files import create_new, private_mkdir

#: the note of a simulated table's enrolment: the simulator may replace only what it enrolled
SIMULATED = "simulated table's session key"
DIR_MODE = 0o700
KEY_MODE = 0o600


@dataclass(frozen=True)
class SessionKey:
    """Where a simulated table's key is, and what was done to have it."""

    private: Path
    key_id: str
    new: bool
    enrolled_from: int | None  # the seq it was enrolled from now (None: already enrolled)
    keyring: Path


def session_keys_dir() -> Path:
    """Where simulated tables keep their signing keys."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "tablectl" / "session-keys"


def session_key(table: str, log_dir: Path, keyring_dir: Path | None = None) -> SessionKey:
    """The simulated *table*'s key, made on first use and enrolled in the keyring. Raises
    ``OSError`` or ``KeyringError``."""
    keys = session_keys_dir()
    _private_dirs(keys)
    private = keys / f"{table}.key"
    new = False
    legacy = _legacy_key(log_dir)
    if not private.exists():
        new = _install(private, load_private_key(legacy) if legacy is not None else generate_key())
    if legacy is not None and legacy.parent == Path(log_dir):
        legacy.unlink()  # a private key has no place in the log folder
    key = load_private_key(private)
    directory = keyring_dir or keyring.default_dir()
    enrolled = _enrol(directory, table, key, Path(log_dir))
    return SessionKey(private, key_id(key), new, enrolled, directory)


def _private_dirs(keys: Path) -> None:
    """``.../tablectl/session-keys`` 0700, and every folder made on the way (the umask cannot
    widen them)."""
    private_mkdir(keys, DIR_MODE)
    os.chmod(keys, DIR_MODE)


def _install(path: Path, key: Ed25519PrivateKey) -> bool:
    """Write *key* at *path* unless another process has just done so; whether this one did."""
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(10)}.tmp")  # unpredictable; O_EXCL, never through a link
    fd = create_new(tmp, KEY_MODE, "session key")
    try:
        os.write(fd, pem)
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, path)  # never replaces a key another run made meanwhile
        return True
    except FileExistsError:
        return False
    finally:
        tmp.unlink()


def _legacy_key(log_dir: Path) -> Path | None:
    """A key an older version kept for *log_dir*: per folder in the state folder, or in the folder."""
    name = hashlib.sha256(str(Path(log_dir).resolve()).encode()).hexdigest()[:24]
    for path in (session_keys_dir() / f"{name}.key", Path(log_dir) / "session.key"):
        if path.is_file():
            return path
    return None


def _enrol(directory: Path, table: str, key: Ed25519PrivateKey, log_dir: Path) -> int | None:
    """Enrol the key for *table* unless the keyring already trusts it: from seq 1, or, when the log
    in *log_dir* was last signed by another key, from the seq this key takes over at."""
    kid = key_id(key)
    enrolled = keyring.load(directory, table)
    if any(e.key_id == kid for e in enrolled):
        return None
    last_seq, last_key = _log_end(log_dir, table)
    from_seq = 1 if last_key in (None, kid) else last_seq + 1
    for e in enrolled:
        if e.from_seq == from_seq and e.note == SIMULATED:
            keyring.remove(directory, table, e.key_id, from_seq)
    keyring.enrol(directory, table, key.public_key(), from_seq=from_seq, note=SIMULATED)
    return from_seq


def _log_end(log_dir: Path, table: str) -> tuple[int, str | None]:
    """The last seq of *table*'s log in *log_dir* and the key id its last checkpoint names
    ((0, None) for no log)."""
    import orjson

    files = fmt.log_files(log_dir, table).get(table, []) if log_dir.is_dir() else []
    last_seq, last_key = 0, None
    for path in files:
        for line in path.read_bytes().split(b"\n"):
            head = fmt.split_head(line)
            if head is None:
                continue
            last_seq = head[0]
            if head[1] == fmt.CHECKPOINT:
                kid = orjson.loads(line).get("key")
                last_key = kid if isinstance(kid, str) else None
    return last_seq, last_key
