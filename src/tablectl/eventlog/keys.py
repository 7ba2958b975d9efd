"""Ed25519 signing keys for the event log: generate, save, load, and name them (key id).

The private key is written as unencrypted PKCS#8 PEM with file mode 0600 (the table controller
must read it unattended); the public key as SubjectPublicKeyInfo PEM. A key id is the first 16
hex characters of SHA-256 over the 32 raw public-key bytes; checkpoints name the key that signed
them by this id, so a verifier given the wrong key says so instead of only "bad signature".
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from tablectl.files import MAX_KEY_BYTES, create_new, link_refused, private_mkdir, read_regular

PRIVATE_KEY_FILE = "table.key"
PUBLIC_KEY_FILE = "table.pub"


class KeyFileError(ValueError):
    """A key file is missing, unreadable, or does not hold the expected kind of Ed25519 key."""


@dataclass(frozen=True)
class KeyPairFiles:
    """Where :func:`save_keypair` wrote a key pair, and its key id."""

    private: Path
    public: Path
    key_id: str


def generate_key() -> Ed25519PrivateKey:
    """A fresh Ed25519 signing key."""
    return Ed25519PrivateKey.generate()


def public_bytes(key: Ed25519PrivateKey | Ed25519PublicKey) -> bytes:
    """The 32 raw bytes of the public half of *key*."""
    pub = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return pub.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    """The key's fingerprint: 16 hex characters of SHA-256 over the raw public key."""
    return hashlib.sha256(public_bytes(key)).hexdigest()[:16]


def _write_new(path: Path, data: bytes, mode: int, what: str) -> None:
    fd = create_new(path, mode, what)  # O_EXCL, never through a link; exactly *mode* whatever the umask
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def save_keypair(
    directory: Path, key: Ed25519PrivateKey | None = None, *, name: str = "table"
) -> KeyPairFiles:
    """Write ``<directory>/<name>.key`` (mode 0600) and ``<name>.pub``; never overwrites.

    Creates *directory* (and its missing parents) if needed, mode 0755 whatever the umask (never
    group- or world-writable). Raises ``FileExistsError`` (with ``filename`` set) if either file
    already exists, and ``LinkRefusedError`` if either is a link, before writing anything.
    """
    key = key if key is not None else generate_key()
    private_mkdir(directory, 0o755)  # what it creates: never group- or world-writable, whatever the umask
    private_path, public_path = directory / f"{name}.key", directory / f"{name}.pub"
    for path, what in ((private_path, "private key"), (public_path, "public key")):
        if path.is_symlink():
            raise link_refused(path, what)
        if os.path.lexists(path):
            raise FileExistsError(17, "file exists", str(path))
    private_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    public_pem = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    _write_new(private_path, private_pem, 0o600, "private key")
    _write_new(public_path, public_pem, 0o644, "public key")
    _fsync_dir(directory)
    return KeyPairFiles(private_path, public_path, key_id(key))


def _read(path: Path, what: str) -> bytes:
    """The bytes of key file ``path``: a regular file of at most ``MAX_KEY_BYTES`` (a FIFO or a
    device such as ``/dev/zero`` is refused at once), or a one-line :class:`KeyFileError`."""
    try:
        return read_regular(path, f"{what} file", MAX_KEY_BYTES)
    except FileNotFoundError:
        raise KeyFileError(f"{path}: no such {what} file") from None
    except IsADirectoryError:
        raise KeyFileError(f"{path}: is a directory, not a {what} file") from None
    except OSError as exc:
        raise KeyFileError(f"{path}: cannot read {what} file: {exc.strerror}") from None


def load_private_key(path: Path) -> Ed25519PrivateKey:
    """Load an Ed25519 private key (unencrypted PEM). Raises :class:`KeyFileError`."""
    data = _read(path, "private key")
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        raise KeyFileError(f"{path}: not an unencrypted PEM private key") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"{path}: not an Ed25519 private key")
    return key


def load_public_key(path: Path) -> Ed25519PublicKey:
    """Load an Ed25519 public key (PEM). Raises :class:`KeyFileError`."""
    data = _read(path, "public key")
    if b"PRIVATE KEY" in data:
        raise KeyFileError(f"{path}: is a private key; give the public key (.pub) to verify")
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        raise KeyFileError(f"{path}: not a PEM public key") from None
    if not isinstance(key, Ed25519PublicKey):
        raise KeyFileError(f"{path}: not an Ed25519 public key")
    return key
