"""``tablectl review`` and ``tablectl keygen``: results, exit codes, one-line errors."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from tablectl.cli import main
from tablectl.eventlog import EventLog, save_keypair


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


@pytest.fixture
def pub(tmp_path, key) -> Path:
    return save_keypair(tmp_path / "keys", key).public


def test_review_of_an_intact_log_exits_0(signed_log, pub):
    result = run("review", str(signed_log), "--key", str(pub))
    assert result.exit_code == 0
    assert "result: verified" in result.stdout


def test_review_of_a_tampered_log_exits_3_naming_file_and_line(signed_log, pub, log_files):
    second = log_files(signed_log)[1]
    second.write_bytes(second.read_bytes().replace(b'"card":"', b'"card":"X', 1))
    result = run("review", str(signed_log), "--key", str(pub))
    assert result.exit_code == 3
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("tablectl: integrity failure: ")
    assert f"{second}:" in result.stderr and "INTEGRITY FAILURE" in result.stdout


def test_review_of_a_recovered_crash_exits_1_with_an_unclean_shutdown_warning(tmp_path, key, clock, pub, deal):
    log = EventLog(tmp_path / "log", "T1", signing_key=key, clock=clock)
    deal(log, 1, 4, 1)
    log.commit()
    log.close(clean=False)
    EventLog(tmp_path / "log", "T1", signing_key=key, clock=clock).close()
    result = run("review", str(tmp_path / "log"), "--key", str(pub))
    assert result.exit_code == 1
    assert "WARN [unclean_shutdown]" in result.stdout and "FAIL" not in result.stdout


def test_review_json_is_the_report(signed_log, pub):
    result = run("review", str(signed_log), "--key", str(pub), "--json")
    report = orjson.loads(result.stdout)
    assert result.exit_code == 0 and report["ok"] and report["signatures_checked"] and report["findings"] == []


def test_review_without_a_key_says_signatures_were_not_checked(signed_log):
    result = run("review", str(signed_log))
    assert result.exit_code == 1 and "NOT CHECKED" in result.stdout  # anomalies: never "clean" without a key


@pytest.mark.parametrize(
    "case, message",
    [
        ("missing_path", "no such file or directory"),
        ("empty_dir", "no tablectl log files"),
        ("not_a_log", "not a tablectl event log"),
        ("missing_key", "no such public key file"),
        ("key_not_a_key", "not a PEM public key"),
    ],
)
def test_review_bad_input_is_a_one_line_error_with_exit_2(tmp_path, signed_log, case, message):
    (tmp_path / "empty").mkdir()
    (tmp_path / "notes.txt").write_text("not a log\n")
    (tmp_path / "bad.pub").write_text("not a key\n")
    args = {
        "missing_path": [str(tmp_path / "nope")],
        "empty_dir": [str(tmp_path / "empty")],
        "not_a_log": [str(tmp_path / "notes.txt")],
        "missing_key": [str(signed_log), "--key", str(tmp_path / "nope.pub")],
        "key_not_a_key": [str(signed_log), "--key", str(tmp_path / "bad.pub")],
    }[case]
    result = run("review", *args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("tablectl: ") and message in result.stderr


def test_keygen_writes_the_key_pair(tmp_path):
    result = run("keygen", str(tmp_path / "keys"))
    assert result.exit_code == 0
    assert (tmp_path / "keys" / "table.key").exists() and (tmp_path / "keys" / "table.pub").exists()
    assert "key id" in result.stdout


def test_keygen_refuses_to_overwrite_with_exit_2(tmp_path):
    run("keygen", str(tmp_path))
    before = (tmp_path / "table.key").read_bytes()
    result = run("keygen", str(tmp_path))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and "refusing to overwrite" in result.stderr
    assert (tmp_path / "table.key").read_bytes() == before


def test_keygen_into_a_file_path_is_a_one_line_error(tmp_path):
    (tmp_path / "afile").write_text("x")
    result = run("keygen", str(tmp_path / "afile"))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and "not a directory" in result.stderr
