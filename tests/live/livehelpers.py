"""Helpers of the live floor's tests (``from livehelpers import ...``): real nats-server processes
(never a mock) on free loopback ports, tables run as real ``tablectl run`` processes, collectors
as real ``tablectl collect`` processes. Every wait is on a condition with a deadline."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import nats

from tablectl.eventlog import logformat as fmt
from tablectl.live import stream

ROOT = Path(__file__).resolve().parents[2]
TABLES = ROOT / "config" / "tables"


def wait_for(condition: Callable[[], Any], timeout: float = 30.0, what: str = "condition") -> Any:
    """Poll ``condition`` until it is true (returned) or ``timeout`` seconds pass (a failure)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.02)


def make_streams(url: str, replicas: int = 1, **settings: Any) -> None:
    async def go() -> None:
        nc = await nats.connect(url)
        try:
            await stream.ensure_stream(nc.jetstream(timeout=10), stream.StreamSettings(replicas=replicas, **settings))
        finally:
            await nc.close()

    asyncio.run(go())


def purge(url: str) -> None:
    """An empty log stream with no consumers."""
    async def go() -> None:
        nc = await nats.connect(url)
        try:
            js = nc.jetstream()
            for info in await js.consumers_info(stream.STREAM):
                await js.delete_consumer(stream.STREAM, info.name)
            await js.purge_stream(stream.STREAM)
        finally:
            await nc.close()

    asyncio.run(go())


def table_config(tmp: Path, table: str, source: str = "one-card-poker.toml", publish: str | None = None) -> Path:
    """A shipped table config renamed ``table`` (a simulated table signs with its session key);
    with ``publish``, a ``[publish]`` section that lets the publisher drain for 30 s after the
    table stops (a test's table deals 200 rounds in seconds, a cluster elects a leader in 5)."""
    text = (TABLES / source).read_text()
    data = tomllib.loads(text)
    text = text.replace(f'table = "{data["table"]}"', f'table = "{table}"', 1)
    if publish is not None:
        text += f'\n[publish]\nurl = "{publish}"\ndrain = 30\n'

    path = tmp / f"{table}.toml"
    path.write_text(text)
    return path


def tablectl(*args: str) -> list[str]:
    return [sys.executable, "-m", "tablectl", *args]


class Proc:
    """A tablectl process with its output in files (killed after its test, if still running:
    :func:`kill_left_running`)."""

    running_now: ClassVar[list[Proc]] = []

    def __init__(self, args: list[str], out: Path) -> None:
        self.out = out
        self.args = args
        self._f = open(out, "wb")  # noqa: SIM115 - closed in wait/kill
        self.p = subprocess.Popen(args, stdout=self._f, stderr=subprocess.STDOUT, cwd=ROOT)
        Proc.running_now.append(self)

    @property
    def running(self) -> bool:
        return self.p.poll() is None

    def wait(self, timeout: float = 60.0) -> int:
        try:
            code = self.p.wait(timeout)
        finally:
            self._f.close()
        return code

    def signal(self, signum: int) -> None:
        self.p.send_signal(signum)

    def kill9(self) -> None:
        self.p.send_signal(signal.SIGKILL)
        self.wait()

    def output(self) -> str:
        return self.out.read_text(errors="replace")


def kill_left_running() -> None:
    """Kill every :class:`Proc` a test left running (one that failed before stopping them)."""
    while Proc.running_now:
        proc = Proc.running_now.pop()
        if proc.running:
            proc.p.kill()
        proc.p.wait()
        proc._f.close()


def run_table(tmp: Path, table: str, url: str, rounds: int = 200, seed: int = 7) -> tuple[Proc, Path]:
    logs = tmp / "logs" / table
    # [publish] names a broker no one runs: --publish overrides it
    args = tablectl("run", str(table_config(tmp, table, publish="nats://127.0.0.1:1")), "--simulate", "--headless", "--autoplay", str(rounds),
                    "--seed", str(seed), "--log-dir", str(logs), "--publish", url)
    return Proc(args, tmp / f"{table}.out"), logs


def run_collector(tmp: Path, url: str, to: Path, *extra: str, name: str = "collect") -> Proc:
    return Proc(tablectl("collect", url, "--to", str(to), *extra), tmp / f"{name}.out")


def log_lines(log_dir: Path, table: str) -> list[bytes]:
    out: list[bytes] = []
    for path in fmt.log_files(log_dir, table).get(table, []) if log_dir.is_dir() else []:
        data = path.read_bytes()
        out += data[: data.rfind(b"\n") + 1].split(b"\n")[:-1]
    return out


def last_line(log_dir: Path, table: str) -> bytes | None:
    lines = log_lines(log_dir, table)
    return lines[-1] if lines else None


def assert_copy_identical(log_dir: Path, copy_dir: Path, table: str) -> None:
    """The copy holds the table's files, byte for byte, and nothing else; every seq once."""
    logs = [p.name for p in fmt.log_files(log_dir, table)[table]]
    copies = [p.name for p in fmt.log_files(copy_dir, table)[table]]
    assert copies == logs
    for name in logs:
        assert (copy_dir / name).read_bytes() == (log_dir / name).read_bytes(), name
    seqs = [fmt.split_head(line)[0] for line in log_lines(copy_dir, table)]  # type: ignore[index]
    assert seqs == list(range(1, len(seqs) + 1))


def assert_review_clean(copy_dir: Path, stopped_mid_round: bool = False) -> None:
    """``tablectl review`` verifies the copy, with no anomaly (but the round a SIGTERM cut, when
    the table was ``stopped_mid_round``)."""
    out = subprocess.run(tablectl("review", str(copy_dir)), capture_output=True, text=True, cwd=ROOT, timeout=300, check=False)
    assert out.returncode in ((0, 1) if stopped_mid_round else (0,)), out.stdout[-2000:] + out.stderr[-2000:]
    assert "result: verified" in out.stdout
    if out.returncode:
        assert "anomalies: 1 (1 round_open)" in out.stdout, out.stdout[-2000:]


def refusals(copy_root: Path) -> list[dict[str, Any]]:
    import orjson

    path = copy_root / ".collect" / "collector.jsonl"
    if not path.exists():
        return []
    return [r for r in map(orjson.loads, path.read_bytes().splitlines()) if r.get("level") == "refused"]


def copy_complete(log_dir: Path, copy_dir: Path, table: str) -> bool:
    want = last_line(log_dir, table)
    return want is not None and copy_dir.is_dir() and last_line(copy_dir, table) == want
