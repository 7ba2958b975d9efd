"""A forged record — edited, the chain re-linked behind it, the signatures stripped — is an
integrity failure at its file and line: ``tablectl review`` exits 3 with no traceback, never the
"anomalies" exit 1 a script would take for a normal log, and ``tablectl run`` refuses to start on
it (exit 3) instead of reading it back."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from forgery import LogCopy
from tablectl.review.engine import review

Change = Callable[[dict[str, Any]], None]


def _set(field: str, value: Any) -> Change:
    return lambda r: r.__setitem__(field, value)


def _rename(old: str, new: str) -> Change:
    return lambda r: r.__setitem__(new, r.pop(old))


#: (event of the line forged, how) — the reproductions of issue 14's D1
FORGERIES: dict[str, tuple[str, Change]] = {
    "dealt card an object": ("dealt", _set("card", {"rank": "A"})),
    "event_no a string": ("dealt", _set("event_no", "7")),
    "stake renamed in settled": ("settled", _rename("stake", "stakes")),
    "device a list": ("dealt", _set("device", ["shoe"])),
    "shoe a dict": ("dealt", _set("shoe", {"id": 1})),
    "penetration a string": ("dealt", _set("penetration", "0.5")),
    "seq of 5,000 digits": ("dealt", lambda r: None),  # written as bytes: see forge
}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, write_config, run_table) -> Path:  # type: ignore[no-untyped-def]
    tmp = tmp_path_factory.mktemp("played")
    config, _ = write_config(tmp, "one-for-the-money-shoe.toml", drop=("house_rules", "pay_tables"))
    run_table(config, tmp / "log", 8, seed=4)
    return tmp / "log"


def forge(source: Path, target: Path, event: str, change: Change) -> tuple[str, int]:
    """A copy of *source* with the 3rd *event* line changed, re-linked, signatures stripped;
    the (file name, line number) of the forged line."""
    log = LogCopy.read(source)
    fi, li = log.find(event, 2)
    if change is FORGERIES["seq of 5,000 digits"][1]:  # more digits than Python parses to an int by default
        log.files[fi][li] = log.files[fi][li].replace(b'{"seq":', b'{"seq":' + b"9" * 5000 + b',"was":', 1)
    else:
        log.edit(fi, li, change)
    log.relink(strip=True)
    log.write(target)
    return log.names[fi], li + 1


@pytest.mark.parametrize("name", list(FORGERIES))
def test_review_of_a_forged_record_is_an_integrity_failure_at_its_line(played: Path, tmp_path: Path, name: str) -> None:
    event, change = FORGERIES[name]
    file_name, line = forge(played, tmp_path / "forged", event, change)
    done = subprocess.run([sys.executable, "-m", "tablectl", "review", str(tmp_path / "forged")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 3, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert f"{file_name}:{line}" in done.stdout
    report = review([tmp_path / "forged"])
    assert not report.ok


def test_run_refuses_to_start_on_a_forged_log_with_one_line_and_exit_3(played: Path, tmp_path: Path, write_config) -> None:  # type: ignore[no-untyped-def]
    event, change = FORGERIES["dealt card an object"]
    forged = tmp_path / "forged"
    forge(played, forged, event, change)
    config, _ = write_config(tmp_path, "one-for-the-money-shoe.toml", drop=("house_rules", "pay_tables"))
    done = subprocess.run(
        [sys.executable, "-m", "tablectl", "run", str(config), "--simulate", "--headless", "--autoplay", "1", "--log-dir", str(forged)],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 3, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("tablectl: ")]
    assert len(errors) == 1 and "log" in errors[0] and "Traceback" not in done.stderr
    assert orjson.loads((sorted(forged.glob("*.jsonl"))[0]).read_bytes().splitlines()[0])["seq"] == 1
