"""A large log is reviewed on two cores (verification in a forked worker while this process reads,
reconstructs and checks the rounds): the report, the errors and the exit codes are those of the
one-pass review in one process, whatever the log holds.

The parallel path is forced on small logs (``review(..., parallel=True)``, or the size threshold
patched for the command line)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from click.testing import CliRunner
from forgery import copy_log, edit_line

from tablectl.cli import main
from tablectl.eventlog import load_public_key
from tablectl.eventlog.errors import LogInputError
from tablectl.review import engine, workers
from tablectl.review.engine import review
from tablectl.review.model import TableSetup

if TYPE_CHECKING:
    from reviewhelpers import TableLog


def _both(files: list[Path], keys: list[Any], **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The report of the one-pass review and of the parallel one (without their timings)."""
    one = review(files, keys, parallel=False, **kwargs).to_dict()
    two = review(files, keys, parallel=True, **kwargs).to_dict()
    one.pop("timings"), two.pop("timings")
    return one, two


def test_an_intact_log_gets_the_same_report(mistaken_table: tuple[Path, Path, Path]) -> None:
    log, pub, _ = mistaken_table
    files = sorted(log.glob("*.jsonl"))
    one, two = _both(files, [load_public_key(pub)])
    assert one == two and one["ok"] and {r["settlement"] for r in one["rounds"]} >= {"match"}


def test_a_tampered_log_gets_the_same_findings_at_the_same_lines(mistaken_table: tuple[Path, Path, Path], tmp_path: Path) -> None:
    log, pub, _ = mistaken_table
    files = sorted(copy_log(log, tmp_path / "log").glob("*.jsonl"))
    edit_line(files[1], b'"face":"up"', b'"face":"dn"')  # still JSON, no longer the line that was hashed
    one, two = _both(files, [load_public_key(pub)])
    assert one == two and not one["ok"] and "altered" in {f["kind"] for f in one["findings"]}


def test_a_line_that_is_not_json_is_unreadable_in_both(mistaken_table: tuple[Path, Path, Path], tmp_path: Path) -> None:
    log, pub, _ = mistaken_table
    files = sorted(copy_log(log, tmp_path / "log").glob("*.jsonl"))
    edit_line(files[2], b'"event":"', b'"event":')
    one, two = _both(files, [load_public_key(pub)])
    assert one == two and one["unreadable"] and one["unreadable"][0]["file"] == str(files[2])


def test_a_torn_tail_is_reported_alike(mistaken_table: tuple[Path, Path, Path], tmp_path: Path) -> None:
    log, pub, _ = mistaken_table
    files = sorted(copy_log(log, tmp_path / "log").glob("*.jsonl"))
    with open(files[-1], "ab") as f:
        f.write(b'{"seq":99999,"event":"dealt"')
    one, two = _both(files, [load_public_key(pub)])
    assert one == two and "torn_tail" in {f["kind"] for f in one["findings"]}


def test_a_slice_of_a_log_is_reviewed_alike(mistaken_slice: tuple[list[Path], Path, TableSetup]) -> None:
    files, pub, setup = mistaken_slice
    one, two = _both(files, [load_public_key(pub)], partial=True, setup=setup)
    assert one == two and one["anomalies"][0]["kind"] == "partial_log"


def test_a_crashed_and_recovered_log_gets_the_same_report(tmp_path: Path, table_log: TableLog) -> None:
    table_log.crash_in_round_2()
    one, two = _both([tmp_path], [])
    assert one == two and {a["kind"] for a in one["anomalies"]} >= {"unclean_shutdown", "round_interrupted"}


def test_an_empty_log_is_the_same_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "tablectl-T1-000001.jsonl").write_bytes(b"")
    errors = []
    for parallel in (False, True):
        with pytest.raises(LogInputError) as e:
            review([tmp_path], parallel=parallel)
        errors.append(str(e.value))
    assert errors[0] == errors[1] and errors[0].endswith("the log is empty")


def test_a_file_that_cannot_be_read_is_the_same_error(mistaken_table: tuple[Path, Path, Path], tmp_path: Path) -> None:
    unreadable = Path("/proc/self/mem")  # a regular file whose first byte no process can read
    if not unreadable.exists():
        pytest.skip("needs Linux's /proc")
    log, _, _ = mistaken_table
    files = sorted(copy_log(log, tmp_path / "log").glob("*.jsonl"))
    files[1].unlink()
    files[1].symlink_to(unreadable)
    errors = []
    for parallel in (False, True):
        with pytest.raises(LogInputError) as e:
            review(files, parallel=parallel)
        errors.append(str(e.value))
    assert errors[0] == errors[1] and errors[0].startswith(f"{files[1]}: ")


def test_a_verification_worker_that_dies_is_replaced_by_verifying_here(
    mistaken_table: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    log, pub, _ = mistaken_table
    files = sorted(log.glob("*.jsonl"))
    here = os.getpid()
    real = engine.verify

    def dying(*args: Any, **kwargs: Any) -> Any:
        if os.getpid() != here:
            os._exit(9)
        return real(*args, **kwargs)

    one = review(files, [load_public_key(pub)], parallel=False).to_dict()
    monkeypatch.setattr(engine, "verify", dying)
    two = review(files, [load_public_key(pub)], parallel=True).to_dict()
    one.pop("timings"), two.pop("timings")
    assert one == two


@pytest.mark.parametrize("how, code", [("intact", 1), ("tampered", 3), ("empty", 2)])
def test_the_command_exits_and_prints_alike(mistaken_table: tuple[Path, Path, Path], tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch, how: str, code: int) -> None:
    log, pub, _ = mistaken_table
    files = sorted(copy_log(log, tmp_path / "log").glob("*.jsonl"))
    if how == "tampered":
        edit_line(files[1], b'"face":"up"', b'"face":"dn"')
    elif how == "empty":
        for f in files:
            f.write_bytes(b"")
    monkeypatch.setattr(engine, "can_fork", lambda: True)
    results = []
    for threshold in (1 << 62, 0):  # one process, then two
        monkeypatch.setattr(engine, "PARALLEL_BYTES", threshold)
        results.append(CliRunner().invoke(main, ["review", str(tmp_path / "log"), "--key", str(pub)]))
    one, two = results
    assert (one.exit_code, one.stdout, one.stderr) == (two.exit_code, two.stdout, two.stderr)
    assert one.exit_code == code and "Traceback" not in one.output


def test_a_worker_hands_back_its_result_or_its_exception() -> None:
    assert workers.Forked(lambda: sum(range(10))).result() == 45
    with pytest.raises(LogInputError, match="bad input"):
        workers.Forked(lambda: (_ for _ in ()).throw(LogInputError("bad input"))).result()
    with pytest.raises(workers.WorkerFailed):
        workers.Forked(lambda: os._exit(3)).result()
