"""How to reach the floor's broker: its URLs, how to sign in, and TLS, as settings and their checks
(connecting is ``tablectl.live.connect``).

Credentials come from a table's config (``[publish]``) or the collector's and the pit's options,
never from a log folder: a file that lies inside a log folder being published or collected is
refused (whoever can write the log could swap it). Supported: a NATS user credentials file
(``creds``: JWT and nkey seed), an nkey seed file (``nkey``), or a user and a password file; TLS
with a CA (and a client certificate and key when the server verifies clients).
"""

from __future__ import annotations

import ssl
from collections.abc import Iterable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tablectl.files import MAX_CONFIG_BYTES, read_regular

_SCHEMES = ("nats://", "tls://", "ws://", "wss://")


class ConnectError(ValueError):
    """A URL, credentials or TLS setting that cannot be used: one line naming what and where."""


def servers(url: str) -> list[str]:
    """The server URLs in ``url`` (comma-separated: a cluster's nodes); ``host:port`` alone is
    ``nats://host:port``. :class:`ConnectError` for one no client could connect to (another
    scheme, no host, a port outside 1-65535): said at the start, not retried for ever."""
    out = []
    for part in url.split(","):
        part = part.strip()
        if not part:
            continue
        if "://" not in part:
            part = "nats://" + part
        if not part.startswith(_SCHEMES):
            raise ConnectError(f"{part}: not a NATS URL (nats://HOST:PORT, tls://HOST:PORT)")
        address = urlsplit(part)
        try:
            port = address.port  # a port outside 0-65535, or not a number: ValueError
        except ValueError:
            port = -1
        if not address.hostname or port == -1 or port == 0:
            raise ConnectError(f"{part}: not a broker URL (no host, or no port 1-65535)")
        out.append(part)
    if not out:
        raise ConnectError(f"{url!r}: no broker URL")
    return out


@dataclass(frozen=True)
class Credentials:
    """How to prove who we are to the broker, and TLS. Every field optional; at most one of
    ``creds``, ``nkey`` and ``user`` (with ``password_file``)."""

    creds: Path | None = None
    nkey: Path | None = None
    user: str | None = None
    password_file: Path | None = None
    tls_ca: Path | None = None
    tls_cert: Path | None = None
    tls_key: Path | None = None

    def files(self) -> list[tuple[str, Path]]:
        """``(setting, path)`` of every file named."""
        return [(f.name, Path(v)) for f in fields(self) if f.name != "user" and (v := getattr(self, f.name)) is not None]

    def check(self, log_dirs: Iterable[Path] = ()) -> None:
        """:class:`ConnectError` for settings that do not go together, a file that cannot be
        read, or a file inside one of ``log_dirs``."""
        if sum(x is not None for x in (self.creds, self.nkey, self.user)) > 1:
            raise ConnectError("credentials: give one of creds, nkey, user")
        if (self.user is None) != (self.password_file is None):
            raise ConnectError("credentials: user and password_file go together")
        if (self.tls_cert is None) != (self.tls_key is None):
            raise ConnectError("credentials: tls_cert and tls_key go together")
        dirs = [Path(d).resolve() for d in log_dirs]
        for name, path in self.files():
            where = path.resolve()
            for d in dirs:
                if where == d or d in where.parents:
                    raise ConnectError(f"{name} {path}: inside the log folder {d}; keep credentials apart from the log")
            try:
                read_regular(path, name, MAX_CONFIG_BYTES)  # a FIFO in its place is refused, not waited on
            except FileNotFoundError:
                raise ConnectError(f"{name} {path}: no such file") from None
            except OSError as e:
                raise ConnectError(f"{name} {path}: {e.strerror or e}") from None

    def tls_context(self) -> ssl.SSLContext | None:
        """An SSL context for ``tls_ca`` (and the client certificate), or None without TLS settings."""
        if self.tls_ca is None and self.tls_cert is None:
            return None
        ctx = ssl.create_default_context(cafile=str(self.tls_ca) if self.tls_ca else None)
        if self.tls_cert is not None and self.tls_key is not None:
            ctx.load_cert_chain(str(self.tls_cert), str(self.tls_key))
        return ctx

    def options(self) -> dict[str, Any]:
        """Keyword arguments for ``nats.connect``."""
        out: dict[str, Any] = {}
        if self.creds is not None:
            out["user_credentials"] = str(self.creds)
        if self.nkey is not None:
            out["nkeys_seed"] = str(self.nkey)
        if self.user is not None and self.password_file is not None:
            out["user"] = self.user
            out["password"] = read_regular(self.password_file, "password_file", MAX_CONFIG_BYTES).decode().strip()
        tls = self.tls_context()
        if tls is not None:
            out["tls"] = tls
        return out


__all__ = ["ConnectError", "Credentials", "servers"]
