"""``tablectl supervisor add|remove|list``: run as a pit manager would, as a real process, on a
copy of a shipped table config (the credential typed at a real terminal, or piped by a script)."""

from __future__ import annotations

import os
import pty
import select
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from tablectl.supervisor import verify_credential, weakness

REPO = Path(__file__).resolve().parents[2]
SECRET = "Bluff-Harbor-42"


def tablectl(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tablectl", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "ocp.toml"
    shutil.copy(REPO / "config" / "tables" / "one-card-poker.toml", path)
    return path


def stored(config: Path) -> dict[str, str]:
    return tomllib.loads(config.read_text(encoding="utf-8")).get("supervisors", {})


def test_add_stores_only_the_hash_and_keeps_the_rest_of_the_file(config: Path) -> None:
    before = config.read_text(encoding="utf-8")
    done = tablectl("supervisor", "add", str(config), "pit-anna", stdin=SECRET + "\n")
    assert done.returncode == 0, done.stderr
    after = config.read_text(encoding="utf-8")
    assert SECRET not in after
    assert verify_credential(SECRET, stored(config)["pit-anna"])
    assert after.startswith(before.rstrip("\n"))  # comments and layout kept: only the table added
    assert tablectl("config", "check", "--simulate", str(config)).returncode == 0


@pytest.mark.parametrize(
    "secret, reason",
    [("hunter2", "too short"), ("password123", "commonly used"), ("1234567890", "consecutive"), ("pit-anna-2026", "supervisor id")],
)
def test_a_weak_credential_is_refused_in_one_line_and_nothing_written(config: Path, secret: str, reason: str) -> None:
    before = config.read_bytes()
    done = tablectl("supervisor", "add", str(config), "pit-anna", stdin=secret + "\n")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and reason in done.stderr
    assert config.read_bytes() == before


def test_an_existing_supervisor_is_only_replaced_when_asked(config: Path) -> None:
    assert tablectl("supervisor", "add", str(config), "pit-anna", stdin=SECRET + "\n").returncode == 0
    again = tablectl("supervisor", "add", str(config), "pit-anna", stdin="Other-Secret-77\n")
    assert again.returncode == 2 and "already there" in again.stderr
    assert verify_credential(SECRET, stored(config)["pit-anna"])
    replaced = tablectl("supervisor", "add", str(config), "pit-anna", "--replace", stdin="Other-Secret-77\n")
    assert replaced.returncode == 0, replaced.stderr
    assert verify_credential("Other-Secret-77", stored(config)["pit-anna"])


def test_remove_revokes_and_list_names_the_rest(config: Path) -> None:
    for who in ("pit-anna", "pit-marc"):
        assert tablectl("supervisor", "add", str(config), who, stdin=SECRET + "\n").returncode == 0
    assert tablectl("supervisor", "remove", str(config), "pit-anna").returncode == 0
    assert tablectl("supervisor", "list", str(config)).stdout.split() == ["pit-marc"]
    missing = tablectl("supervisor", "remove", str(config), "pit-anna")
    assert missing.returncode == 2 and "no such supervisor" in missing.stderr


def test_a_config_that_does_not_load_is_not_rewritten(config: Path) -> None:
    config.write_text(config.read_text(encoding="utf-8").replace("decks = 6", "decks = 0"), encoding="utf-8")
    before = config.read_bytes()
    done = tablectl("supervisor", "add", str(config), "pit-anna", stdin=SECRET + "\n")
    assert done.returncode == 2 and "not changed" in done.stderr and "decks" in done.stderr
    assert config.read_bytes() == before
    assert not [p for p in config.parent.iterdir() if p.name.startswith(".")]


def _converse(argv: list[str], answers: list[str], timeout: float = 30.0) -> tuple[int, str]:
    """Run ``argv`` on a real terminal, typing each answer after the next hidden prompt: click
    writes the prompt's text, then getpass turns echo off and writes the final space, so the
    answer is typed only once the output ends in ': '."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-m", "tablectl", *argv])
    out = b""
    deadline = time.monotonic() + timeout
    pending = list(answers)
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
                if pending and out.endswith(b": "):
                    os.write(fd, pending.pop(0).encode() + b"\r")
                    out += b"\n"
    finally:
        reaped, status = 0, 0
        until = time.monotonic() + 5.0
        while not reaped and time.monotonic() < until:
            reaped, status = os.waitpid(pid, os.WNOHANG)
            time.sleep(0.02)
        if not reaped:
            os.kill(pid, 9)  # still waiting for input: the conversation went wrong
            _, status = os.waitpid(pid, 0)
        os.close(fd)
    return os.waitstatus_to_exitcode(status), out.decode(errors="replace")


def test_at_a_terminal_the_credential_is_asked_twice_and_never_echoed(config: Path) -> None:
    code, screen = _converse(["supervisor", "add", str(config), "pit-anna"], [SECRET, SECRET])
    assert code == 0, screen
    assert screen.count("Credential for pit-anna") == 1 and "Repeat for confirmation" in screen
    assert SECRET not in screen
    assert verify_credential(SECRET, stored(config)["pit-anna"])


def test_weakness_accepts_a_long_mixed_credential() -> None:
    assert weakness("Tr0mbone-Ladder-9", "pit-anna") is None
