"""Review keeps one block's rounds at a time: each round is checked once the next one has started
and the block of lines that started it is read, handed to the caller's sink and let go. The report is the one a review that keeps every round gives,
whatever the log holds, and ``tablectl review --json`` streams the same JSON."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from click.testing import CliRunner
from forgery import copy_log, edit_line

from tablectl.cli import main
from tablectl.eventlog import load_public_key
from tablectl.review.engine import review
from tablectl.review.model import TableSetup

if TYPE_CHECKING:
    from reviewhelpers import TableLog


def _both(files: list[Path], keys: list[Any], **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The report of a review that keeps its rounds, and of one that hands them to a sink (its
    rounds as the sink got them), without their timings."""
    kept = review(files, keys, **kwargs).to_dict()
    handed: list[dict[str, Any]] = []
    streamed = review(files, keys, rounds=lambda rnd: handed.append(rnd.to_dict()), **kwargs).to_dict()
    assert streamed["rounds"] == []
    streamed["rounds"] = handed
    kept.pop("timings"), streamed.pop("timings")
    return kept, streamed


def test_rounds_handed_to_a_sink_are_those_the_report_keeps_otherwise(mistaken_table: tuple[Path, Path, Path]) -> None:
    log, pub, _ = mistaken_table
    kept, streamed = _both(sorted(log.glob("*.jsonl")), [load_public_key(pub)])
    assert kept == streamed and kept["ok"] and kept["counts"]["rounds"] == len(kept["rounds"]) >= 120
    assert {r["settlement"] for r in kept["rounds"]} >= {"match"}


def test_a_tampered_log_gets_the_same_findings_at_the_same_lines(mistaken_table: tuple[Path, Path, Path], tmp_path: Path) -> None:
    log, pub, _ = mistaken_table
    files = sorted(copy_log(log, tmp_path / "log").glob("*.jsonl"))
    edit_line(files[1], b'"face":"up"', b'"face":"dn"')  # still JSON, no longer the line that was hashed
    kept, streamed = _both(files, [load_public_key(pub)])
    assert kept == streamed and not kept["ok"] and "altered" in {f["kind"] for f in kept["findings"]}


def test_a_slice_of_a_log_is_reviewed_alike(mistaken_slice: tuple[list[Path], Path, TableSetup]) -> None:
    files, pub, setup = mistaken_slice
    kept, streamed = _both(files, [load_public_key(pub)], partial=True, setup=setup)
    assert kept == streamed and kept["anomalies"][0]["kind"] == "partial_log"


def test_a_round_interrupted_by_a_crash_is_handed_on_once_after_the_next_start(tmp_path: Path, table_log: TableLog) -> None:
    table_log.crash_in_round_2()
    kept, streamed = _both([tmp_path], [])
    assert kept == streamed
    assert [(r["id"], r["status"]) for r in kept["rounds"]] == [("1", "complete"), ("2", "interrupted"), ("2.1", "complete")]
    assert {a["kind"] for a in kept["anomalies"]} >= {"unclean_shutdown", "round_interrupted"}


_LET_GO = """
import gc, sys
from pathlib import Path
from tablectl.eventlog import load_public_key
from tablectl.review import tally
from tablectl.review.engine import review
from tablectl.review.model import RoundRecord

def live_rounds():
    gc.collect()
    return sum(type(o) is RoundRecord for o in gc.get_objects())

tally.LISTED_ROUNDS = 0  # (else the report keeps a small log's rounds to list them)
log, pub = Path(sys.argv[1]), Path(sys.argv[2])
live = []
blocks = []  # per block of lines read, the rounds that start in it
before = live_rounds()
report = review(sorted(log.glob("*.jsonl")), [load_public_key(pub)], rounds=lambda rnd: live.append(live_rounds()),
                lines=lambda records: blocks.append(sum(r.event == "round_started" for r in records)))
print(len(live), report.tally.rounds, len(report.rounds), before, max(live), live_rounds(), len(blocks), max(blocks))
"""


def test_each_round_is_let_go_once_the_sink_has_it(mistaken_table: tuple[Path, Path, Path]) -> None:
    # counted in a fresh interpreter: walking this test session's whole heap once per round is slow
    log, pub, _ = mistaken_table
    done = subprocess.run([sys.executable, "-c", _LET_GO, str(log), str(pub)], capture_output=True, text=True,
                          timeout=120, check=True)
    sunk, rounds, kept, before, most, after, blocks, per_block = map(int, done.stdout.split())
    assert sunk == rounds >= 120 and kept == 0
    # the rounds of one block are checked together once the block is read: at most those of the
    # block (the rounds that started in it), the one still open from the block before, the one
    # being read and one whose end was not logged
    bound = per_block + 3
    assert blocks >= 4 and bound < rounds // 2  # far fewer than the log's rounds: kept without bound, they would all be live
    assert most - before <= bound
    assert after == before


def test_the_command_streams_the_json_of_the_whole_report(mistaken_table: tuple[Path, Path, Path]) -> None:
    log, pub, _ = mistaken_table
    done = subprocess.run([sys.executable, "-m", "tablectl", "review", str(log), "--key", str(pub), "--json"],
                          capture_output=True, timeout=300, check=False)
    assert done.returncode == 1 and done.stderr == b""
    got = orjson.loads(done.stdout)
    want = review([log], [load_public_key(pub)]).to_dict()
    got.pop("timings"), want.pop("timings")
    assert got == want
    assert done.stdout == orjson.dumps(orjson.loads(done.stdout), option=orjson.OPT_INDENT_2) + b"\n"


def test_the_command_shows_one_round_in_full_from_a_streamed_review(mistaken_table: tuple[Path, Path, Path]) -> None:
    log, pub, _ = mistaken_table
    done = CliRunner().invoke(main, ["review", str(log), "--key", str(pub), "--round", "7"])
    assert done.exit_code == 1 and "round 7 (session 1, round 7)" in done.stdout
    missing = CliRunner().invoke(main, ["review", str(log), "--key", str(pub), "--round", "99999"])
    assert missing.exit_code == 2 and "no round '99999' in the log" in missing.stderr


def test_json_rounds_that_the_temporary_directory_cannot_hold_stop_the_review_with_one_line_and_exit_5(
        mistaken_table: tuple[Path, Path, Path]) -> None:
    import resource
    import signal

    def small_files() -> None:  # files of this process may not grow past 64 KiB (EFBIG, not SIGXFSZ)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 16, 1 << 16))

    log, pub, _ = mistaken_table
    done = subprocess.run([sys.executable, "-m", "tablectl", "review", str(log), "--key", str(pub), "--json"],
                          capture_output=True, timeout=300, check=False, preexec_fn=small_files)
    assert done.returncode == 5 and done.stdout == b""
    assert done.stderr.decode().count("\n") == 1 and "cannot hold the rounds of the JSON report" in done.stderr.decode()
