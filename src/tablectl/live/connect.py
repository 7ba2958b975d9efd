"""Connecting to the floor's broker with the settings of ``tablectl.connection``, reconnecting for ever."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablectl.connection import Credentials, servers


def inbox_prefix(client: str) -> str:
    """``_INBOX_<client>``: a client's own reply subjects, so the floor's permissions can let a
    table subscribe to its replies only (``.`` in a name written ``~``)."""
    return "_INBOX_" + client.replace(".", "~")


async def connect(url: str, credentials: Credentials | None = None, *, name: str = "tablectl",
                  inbox: str | None = None, **callbacks: Callable[..., Any]) -> Any:
    """A nats-py connection to ``url`` that reconnects for ever (every half second). nats-py also
    tries a first connection for ever: callers bound it (``asyncio.wait_for``) and try again."""
    import nats

    async def quiet(e: Exception) -> None:  # reconnect noise: the callers report their own state
        return None

    options: dict[str, Any] = {
        "servers": servers(url), "name": name, "max_reconnect_attempts": -1, "reconnect_time_wait": 0.5,
        "connect_timeout": 2, "allow_reconnect": True, "error_cb": quiet, "ping_interval": 5,
        "max_outstanding_pings": 2,
    }
    if inbox is not None:
        options["inbox_prefix"] = inbox
    if credentials is not None:
        options.update(credentials.options())
    options.update(callbacks)
    return await nats.connect(**options)


__all__ = ["connect", "inbox_prefix"]
