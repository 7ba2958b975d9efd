"""When the log's disk fills up: ``tablectl run`` holds the table, acknowledges nothing it could not
write, exits 5 (the code systemd restarts on), and once there is space again a restart takes
every event the device still holds — each card in the log exactly once, and the log verifies.

The device is a ``tablectl sim`` process of its own (a device outlives the controller, as real
hardware does), reached over a pty. The full disk is real: the run's file-size limit
(``RLIMIT_FSIZE``, writes fail with EFBIG) in the default suite, a small tmpfs filled to the brim
(ENOSPC) under ``-m slow``.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import orjson
import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "drivers"))
from test_contract_rig import control  # noqa: E402


def tablectl(*args: str, **kw) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    return subprocess.run([sys.executable, "-m", "tablectl", *args], capture_output=True, text=True, timeout=120, **kw)


class Shoe:
    """A simulated shoe in its own process: its pty and control channel."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tablectl", "sim", "shoe", "--seed", "9", "--pty", "--control", "127.0.0.1:0"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        assert self.proc.stdout is not None
        self.address, self.channel = self.proc.stdout.readline().strip(), self.proc.stdout.readline().strip()
        assert self.address.startswith("/dev/"), "tablectl sim did not start"

    def draw(self, n: int) -> None:
        assert control(self.channel, f"draw {n}").startswith("ok ")

    def last_event_no(self) -> int:
        status = control(self.channel, "info")
        return int(status.split("last_event=")[1].split()[0])

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)
        assert self.proc.stdout is not None
        self.proc.stdout.close()


@pytest.fixture
def shoe() -> Iterator[Shoe]:
    s = Shoe()
    yield s
    s.close()


def table_config(tmp_path: Path, shoe: Shoe, log_dir: Path) -> Path:
    assert tablectl("keygen", str(tmp_path / "keys")).returncode == 0
    text = (REPO / "config" / "tables" / "one-card-poker.toml").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.strip().startswith(("address", "dir ", "dir=", "signing_key"))]
    text = "\n".join(lines).replace("[devices.shoe]", f'[devices.shoe]\naddress = "{shoe.address}"')
    text = text.replace("[log]", f'[log]\ndir = "{log_dir}"\nsigning_key = "{tmp_path / "keys" / "table.key"}"')
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def start_run(config: Path, limit: int | None = None) -> subprocess.Popen[str]:
    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))  # type: ignore[arg-type]

    return subprocess.Popen(
        [sys.executable, "-m", "tablectl", "run", str(config), "--headless"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=limited if limit is not None else None,
        start_new_session=True,  # signals meant for the test run's process group are not for it
    )


def wait_for(predicate: Callable[[], bool], timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def card_events(log_dir: Path) -> Counter[int]:
    """event_no -> how many lines of the log record that event of the shoe (a violation line
    names the event it is about, but is not the event)."""
    seen: Counter[int] = Counter()
    for path in sorted(log_dir.glob("*.jsonl")):
        for line in path.read_bytes().split(b"\n")[:-1]:  # whole lines: not a tail cut by the full disk
            record = orjson.loads(line)
            if record.get("device") == "shoe" and "event_no" in record and record["event"] != "violation":
                seen[record["event_no"]] += 1
    return seen


def log_bytes(log_dir: Path) -> int:
    return sum(p.stat().st_size for p in log_dir.glob("*.jsonl"))


def test_a_full_disk_holds_the_table_exits_5_and_a_restart_logs_every_card_once(tmp_path: Path, shoe: Shoe) -> None:
    log_dir = tmp_path / "logs"
    config = table_config(tmp_path, shoe, log_dir)
    first = start_run(config)
    wait_for(lambda: log_bytes(log_dir) > 0)
    first.send_signal(signal.SIGTERM)
    assert first.wait(30) == 130
    room = log_bytes(log_dir) + 6000  # a few cards more, then the disk is "full"

    run = start_run(config, limit=room)
    deadline = time.monotonic() + 90
    while run.poll() is None and time.monotonic() < deadline:  # deal until the log is full
        shoe.draw(1)
        time.sleep(0.02)
    out, err = run.communicate(timeout=30)
    assert run.returncode == 5, err
    failure = [line for line in err.splitlines() if line.startswith("tablectl: ") and "WARNING" not in line]
    assert len(failure) == 1 and "log storage failure" in failure[0] and "restart once" in failure[0]
    shoe.draw(3)  # the device goes on dealing while nobody listens
    drawn = shoe.last_event_no()

    again = start_run(config)  # space is back
    wait_for(lambda: max(card_events(log_dir), default=0) >= drawn)
    again.send_signal(signal.SIGTERM)
    assert again.wait(30) == 130
    counts = card_events(log_dir)
    cards = sorted(n for n in counts if n > 1)  # event 1 is the shoe loaded
    assert cards == list(range(2, drawn + 1)), "a card event is missing"
    assert all(counts[n] == 1 for n in cards), f"logged twice: {[n for n in cards if counts[n] > 1]}"
    review = tablectl("review", str(log_dir), "--key", str(tmp_path / "keys" / "table.pub"))
    assert review.returncode in (0, 1), review.stdout + review.stderr  # verified (the cards came outside rounds)
    assert "verification: OK" in review.stdout


def test_a_start_on_a_full_disk_exits_5_and_sets_nothing_aside(tmp_path: Path, shoe: Shoe) -> None:
    log_dir = tmp_path / "logs"
    config = table_config(tmp_path, shoe, log_dir)
    first = start_run(config)
    wait_for(lambda: log_bytes(log_dir) > 0)
    first.send_signal(signal.SIGKILL)  # no shutdown checkpoint: the next start must write a recovery
    first.wait(30)
    (path,) = log_dir.glob("*.jsonl")
    with open(path, "ab") as f:
        f.write(b'{"seq": 99, "torn')  # a write cut in the middle of a line
    before = path.read_bytes()
    run = start_run(config, limit=0)  # not a byte more fits
    _, err = run.communicate(timeout=60)
    assert run.returncode == 5, err
    assert "log storage failure" in err.splitlines()[-1]
    assert not list(log_dir.glob("*.torn*")), "an empty copy of the torn tail was left"
    assert path.read_bytes() == before


def test_log_files_and_directory_are_private_to_the_group_whatever_the_umask(tmp_path: Path) -> None:
    log_dir = tmp_path / "logs"
    done = subprocess.run(
        [sys.executable, "-m", "tablectl", "run", str(REPO / "config" / "tables" / "one-card-poker.toml"),
         "--simulate", "--headless", "--autoplay", "1", "--pace", "0", "--log-dir", str(log_dir)],
        capture_output=True, text=True, timeout=120, preexec_fn=lambda: os.umask(0),
        env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "TABLECTL_KEYRING": str(tmp_path / "keyring")},
    )
    assert done.returncode == 0, done.stderr
    assert log_dir.stat().st_mode & 0o777 == 0o750
    logs = list(log_dir.glob("*.jsonl")) + list(log_dir.glob(".tablectl-*.lock"))
    assert logs and all(p.stat().st_mode & 0o777 == 0o640 for p in logs)


def test_a_simulated_table_keeps_its_keys_out_of_the_log_directory_and_enrols_its_public_key(tmp_path: Path) -> None:
    log_dir, state = tmp_path / "logs", tmp_path / "state"
    env = {**os.environ, "XDG_STATE_HOME": str(state), "TABLECTL_KEYRING": str(tmp_path / "keyring")}
    args = [sys.executable, "-m", "tablectl", "run", str(REPO / "config" / "tables" / "one-card-poker.toml"),
            "--simulate", "--headless", "--autoplay", "1", "--pace", "0", "--log-dir", str(log_dir)]
    for _ in range(2):  # the second run signs with the same key
        assert subprocess.run(args, capture_output=True, text=True, timeout=120, env=env).returncode == 0
    assert [p.name for p in log_dir.iterdir() if not p.name.endswith(".jsonl") and not p.name.startswith(".")] == []
    keys = state / "tablectl" / "session-keys"
    assert keys.stat().st_mode & 0o777 == 0o700 and [p.name for p in keys.glob("*.key")] == ["ocp-1.key"]
    assert [p.name for p in (tmp_path / "keyring").glob("*.toml")] == ["ocp-1.toml"]
    review = tablectl("review", str(log_dir), env=env)
    assert review.returncode == 0, review.stdout


@pytest.mark.parametrize("attempt", range(8))
def test_sigterm_at_any_moment_of_a_start_leaves_a_signed_log(tmp_path: Path, attempt: int) -> None:
    sigterm_during_start(tmp_path, delay=0.1 + attempt * 0.15)


@pytest.mark.slow
@pytest.mark.parametrize("attempt", range(30))
def test_sigterm_at_any_moment_of_a_start_leaves_a_signed_log_30_tries(tmp_path: Path, attempt: int) -> None:
    sigterm_during_start(tmp_path, delay=0.02 + attempt * 0.05)


def sigterm_during_start(tmp_path: Path, delay: float) -> None:
    log_dir = tmp_path / "logs"
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    run = subprocess.Popen(
        [sys.executable, "-m", "tablectl", "run", str(REPO / "config" / "tables" / "one-card-poker.toml"),
         "--simulate", "--headless", "--log-dir", str(log_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    time.sleep(delay)  # the point is an arbitrary moment, not a synchronisation
    run.send_signal(signal.SIGTERM)
    _, err = run.communicate(timeout=30)
    files = list(log_dir.glob("*.jsonl")) if log_dir.exists() else []
    if run.returncode == -signal.SIGTERM:
        # the interpreter had not loaded tablectl yet (its first few tens of ms): nothing was opened
        assert not files and not log_dir.exists(), err
        return
    assert run.returncode == 130, err
    if files:
        last = orjson.loads(files[-1].read_bytes().splitlines()[-1])
        assert (last["event"], last.get("reason")) == ("checkpoint", "shutdown") and "sig" in last


def test_sigterm_stops_the_display_even_when_its_terminal_stopped_reading(tmp_path: Path) -> None:
    import pty

    master, slave = pty.openpty()
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
    run = subprocess.Popen(
        [sys.executable, "-m", "tablectl", "run", str(REPO / "config" / "tables" / "one-card-poker.toml"),
         "--simulate", "--autoplay", "1000000", "--pace", "0", "--log-dir", str(tmp_path / "logs")],
        stdin=slave, stdout=slave, stderr=subprocess.PIPE, env=env, start_new_session=True,
    )
    os.close(slave)
    try:
        # nobody reads the terminal: its buffer fills within the first frames; the table deals on
        deadline = time.monotonic() + 60
        while _rounds_ended(tmp_path / "logs") < 50:
            assert run.poll() is None and time.monotonic() < deadline, "the table did not deal 50 rounds"
            time.sleep(0.2)
        run.send_signal(signal.SIGTERM)
        _, err = run.communicate(timeout=15)
        assert run.returncode == 130, err
    finally:
        if run.poll() is None:
            run.kill()
        os.close(master)


def _rounds_ended(log_dir: Path) -> int:
    return sum(f.read_bytes().count(b'"event":"round_ended"') for f in log_dir.glob("*.jsonl"))


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs of its own (needs root and mount(2); skipped with the reason otherwise)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip() or done.returncode}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path, leave: int) -> Path:
    """Fill ``disk`` but for about ``leave`` bytes; returns the filler file."""
    filler = disk / "filler"
    free = shutil.disk_usage(disk).free
    with open(filler, "wb") as f:
        f.write(b"\0" * max(0, free - leave))
    return filler


@pytest.mark.slow
def test_a_real_full_disk_end_to_end(tmp_path: Path, shoe: Shoe, small_disk: Path) -> None:
    log_dir = small_disk / "logs"
    config = table_config(tmp_path, shoe, log_dir)
    first = start_run(config)
    wait_for(lambda: log_bytes(log_dir) > 0)
    first.send_signal(signal.SIGTERM)
    assert first.wait(30) == 130
    filler = fill(small_disk, leave=8192)

    run = start_run(config)
    deadline = time.monotonic() + 120
    while run.poll() is None and time.monotonic() < deadline:
        shoe.draw(1)
        time.sleep(0.02)
    _, err = run.communicate(timeout=30)
    assert run.returncode == 5, err
    assert "No space left on device" in err and "log storage failure" in err

    still_full = start_run(config)  # a restart before space is back fails the same way, leaving nothing
    _, err = still_full.communicate(timeout=60)
    assert still_full.returncode == 5, err
    assert not [p for p in log_dir.glob("*.torn*") if p.stat().st_size == 0]

    shoe.draw(5)
    drawn = shoe.last_event_no()
    filler.unlink()  # space is back
    again = start_run(config)
    wait_for(lambda: max(card_events(log_dir), default=0) >= drawn)
    again.send_signal(signal.SIGTERM)
    assert again.wait(30) == 130
    counts = card_events(log_dir)
    cards = sorted(n for n in counts if n > 1)
    assert cards == list(range(2, drawn + 1))
    assert all(counts[n] == 1 for n in cards)
    review = tablectl("review", str(log_dir), "--key", str(tmp_path / "keys" / "table.pub"))
    assert "verification: OK" in review.stdout, review.stdout + review.stderr
    print(f"\nfull disk end to end: {drawn - 1} cards drawn, {len(cards)} in the log, each once; review exit {review.returncode}")


def test_a_session_key_left_in_a_log_directory_is_moved_out_and_still_signs(tmp_path: Path) -> None:
    from tablectl.eventlog import save_keypair

    log_dir, state = tmp_path / "logs", tmp_path / "state"
    written = save_keypair(log_dir, name="session")  # as a simulated table kept it before
    env = {**os.environ, "XDG_STATE_HOME": str(state), "TABLECTL_KEYRING": str(tmp_path / "keyring")}
    done = subprocess.run(
        [sys.executable, "-m", "tablectl", "run", str(REPO / "config" / "tables" / "one-card-poker.toml"),
         "--simulate", "--headless", "--autoplay", "1", "--pace", "0", "--log-dir", str(log_dir)],
        capture_output=True, text=True, timeout=120, env=env,
    )
    assert done.returncode == 0, done.stderr
    assert not (log_dir / "session.key").exists() and written.key_id in done.stderr
    assert tablectl("review", str(log_dir), env=env).returncode == 0
