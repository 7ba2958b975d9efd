"""A mutation campaign (``-m slow``): real logs of three tables, copied and damaged the ways an
attacker or bad luck would, each copy reviewed with the table's key and its anchor file.
Every copy must be an integrity failure (exit 3): no traceback, no "anomalies" (exit 1) and no
"clean" (exit 0) for a log that is not the one the controller wrote. Prints the table of counts
(class x outcome) that docs/review.md quotes.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from forgery import LogCopy
from tablectl.eventlog import load_public_key
from tablectl.eventlog import anchor as anc
from tablectl.review.engine import review

PER_CLASS = 60
_VALUES: list[Any] = [None, True, -1, 0, 2**62, 1.5, "", "x", "AS", [], [1], {}, {"a": 1}]


def _field_line(log: LogCopy, rng: random.Random) -> tuple[int, int, dict[str, Any]]:
    while True:
        fi, li = rng.choice(log.where())
        record = log.record(fi, li)
        if len(record) > 4 and record["event"] not in ("log_opened", "checkpoint"):
            return fi, li, record


def type_change(log: LogCopy, rng: random.Random) -> None:
    fi, li, record = _field_line(log, rng)
    field = rng.choice([k for k in record if k not in ("seq", "prev", "sig", "event", "ts", "table")])
    value = rng.choice([v for v in _VALUES if type(v) is not type(record[field])])
    log.edit(fi, li, lambda r: r.__setitem__(field, value))
    log.relink(strip=True)


def field_rename(log: LogCopy, rng: random.Random) -> None:
    fi, li, record = _field_line(log, rng)
    field = rng.choice([k for k in record if k not in ("seq", "prev", "sig", "event")])
    log.edit(fi, li, lambda r: r.__setitem__(field + "_", r.pop(field)))
    log.relink(strip=True)


def line_deleted(log: LogCopy, rng: random.Random) -> None:
    fi, li = rng.choice(log.where()[1:])
    del log.files[fi][li]


def lines_swapped(log: LogCopy, rng: random.Random) -> None:
    fi = rng.randrange(len(log.files))
    if len(log.files[fi]) < 3:
        return lines_swapped(log, rng)
    a = rng.randrange(len(log.files[fi]) - 1)
    log.files[fi][a], log.files[fi][a + 1] = log.files[fi][a + 1], log.files[fi][a]


def byte_flipped(log: LogCopy, rng: random.Random) -> None:
    fi, li = rng.choice(log.where())
    line = bytearray(log.files[fi][li])
    at = rng.randrange(len(line))
    line[at] ^= 1 << rng.randrange(7)
    log.files[fi][li] = bytes(line).replace(b"\n", b" ")


def truncated(log: LogCopy, rng: random.Random) -> None:
    cut = rng.randrange(1, len(log.where()))
    kept = log.where()[:cut]
    for fi in range(len(log.files)):
        log.files[fi] = [log.files[fi][li] for f, li in kept if f == fi]
    while log.files and not log.files[-1]:
        log.files.pop()
        log.names.pop()


def last_files_deleted(log: LogCopy, rng: random.Random) -> None:
    if len(log.files) < 2:  # a log of one file (a continuous shuffler's: no shoe ends to rotate at)
        return truncated(log, rng)
    drop = rng.randrange(1, len(log.files))
    del log.files[-drop:], log.names[-drop:]


def signatures_stripped(log: LogCopy, rng: random.Random) -> None:
    fi, li, record = _field_line(log, rng)
    if "card" in record:
        log.edit(fi, li, lambda r: r.__setitem__("card", "AS" if r["card"] != "AS" else "KD"))
    log.relink(strip=True)


def huge_number(log: LogCopy, rng: random.Random) -> None:
    fi, li = rng.choice(log.where())
    line = log.files[fi][li]
    log.files[fi][li] = line.replace(b'{"seq":', b'{"seq":' + b"9" * rng.choice((20, 400, 5000)) + b',"was":', 1)
    log.relink(strip=True)


def cr_endings(log: LogCopy, rng: random.Random) -> None:
    """Written with CR line endings (see the campaign's loop)."""


CLASSES: dict[str, Callable[[LogCopy, random.Random], None]] = {
    "CR-only line endings": cr_endings,
    "type change, re-linked, unsigned": type_change,
    "field renamed, re-linked, unsigned": field_rename,
    "line deleted": line_deleted,
    "lines swapped": lines_swapped,
    "byte flipped": byte_flipped,
    "log cut short": truncated,
    "last files deleted": last_files_deleted,
    "card changed, re-linked, unsigned": signatures_stripped,
    "huge seq, re-linked, unsigned": huge_number,
}


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory, write_config, run_table) -> list[tuple[Path, Path, Path]]:  # type: ignore[no-untyped-def]
    """(log, public key, anchor file) of three real tables, each log over several files."""
    out = []
    for name in ("one-card-poker.toml", "one-for-the-money-csm.toml", "three-card-poker.toml"):
        tmp = tmp_path_factory.mktemp(name.split(".")[0])
        config, public = write_config(tmp, name, drop=("house_rules", "pay_tables"))
        run_table(config, tmp / "log", 30, seed=8)
        anchor = tmp / "anchors.jsonl"
        done = subprocess.run([sys.executable, "-m", "tablectl", "anchor", str(tmp / "log"), "--key", str(public), "--anchor", str(anchor)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        out.append((tmp / "log", public, anchor))
    return out


def outcome(directory: Path, public: Path, anchor: Path) -> str:
    try:
        report = review([directory], [load_public_key(public)], anchors=anc.read_anchors(anchor))
    except Exception as e:  # noqa: BLE001 - what the campaign counts
        return f"traceback {type(e).__name__}"
    if not report.ok:
        return "integrity failure (3)"
    return "anomalies (1)" if report.anomalies else "clean (0)"


@pytest.mark.slow
def test_every_mutated_copy_of_a_real_log_is_an_integrity_failure(tables: list[tuple[Path, Path, Path]], tmp_path: Path) -> None:
    rng = random.Random(14)
    table: dict[str, Counter[str]] = {}
    for name, mutate in CLASSES.items():
        counts: Counter[str] = Counter()
        for n in range(PER_CLASS):
            log_dir, public, anchor = tables[n % len(tables)]
            log = LogCopy.read(log_dir)
            mutate(log, rng)
            target = tmp_path / f"m{n}"
            log.write(target, newline=b"\r" if mutate is cr_endings else b"\n")
            counts[outcome(target, public, anchor)] += 1
            shutil.rmtree(target)
        table[name] = counts
    width = max(map(len, table))
    print(f"\n{'class':{width}}  " + "  ".join(sorted({k for c in table.values() for k in c})))
    for name, counts in table.items():
        print(f"{name:{width}}  {dict(counts)}")
    print(f"{sum(sum(c.values()) for c in table.values())} mutated copies")
    assert {k for c in table.values() for k in c} == {"integrity failure (3)"}, table
