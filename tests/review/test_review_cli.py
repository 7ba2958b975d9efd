"""``tablectl review``: exit codes, the terminal report, ``--json``, ``--round``, ``--html``, and
one-line errors for bad input."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
import pytest
from reviewhelpers import review_command as review

if TYPE_CHECKING:
    from reviewhelpers import RunTable, WriteConfig


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory, write_config: WriteConfig, run_table: RunTable) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("clean")
    config, pub = write_config(tmp, "three-card-poker.toml")
    run_table(config, tmp / "log", 30, seed=4)
    return tmp / "log", pub


@pytest.fixture(scope="module")
def eventful(tmp_path_factory: pytest.TempPathFactory, write_config: WriteConfig,
             run_table: RunTable) -> tuple[Path, Path, Path]:
    tmp = tmp_path_factory.mktemp("eventful")
    config, pub = write_config(tmp, "one-card-poker.toml")
    run_table(config, tmp / "log", 60, seed=21, mistakes=0.25)
    return tmp / "log", pub, config


def test_a_clean_log_exits_0_and_says_so(clean: tuple[Path, Path]) -> None:
    log, pub = clean
    result = review(log, "--key", pub, "--config", log.parent / "table.toml")
    assert result.exit_code == 0, result.stdout
    assert "verification: OK" in result.stdout and "anomalies: none" in result.stdout
    assert result.stdout.rstrip().endswith("result: verified; clean")


def test_a_log_with_anomalies_exits_1_and_lists_them_one_per_line(eventful: tuple[Path, Path, Path]) -> None:
    log, pub, config = eventful
    result = review(log, "--key", pub, "--config", config)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("anomalies: "))
    count = int(lines[header].split()[1])
    listed = [line for line in lines[header + 1 : header + 1 + count] if re.match(r"  seq \d+ ", line)]
    assert count > 0 and len(listed) == count
    assert any("[violation]" in line and "resolved by virtual-supervisor" in line for line in listed)


def edit_line_6(log: Path, tmp_path: Path, edit: Callable[[bytes], bytes]) -> tuple[Path, Path]:
    """A copy of *log* with line 6 of its longest file changed by *edit*: (the copy, that file)."""
    copy = tmp_path / "log"
    copy.mkdir()
    files = sorted(log.iterdir())
    for f in files:
        (copy / f.name).write_bytes(f.read_bytes())
    target = max((copy / f.name for f in files), key=lambda p: p.read_bytes().count(b"\n"))
    lines = target.read_bytes().split(b"\n")
    lines[5] = edit(lines[5])
    target.write_bytes(b"\n".join(lines))
    return copy, target


def test_a_tampered_log_exits_3_naming_the_file_and_line_on_stderr(clean: tuple[Path, Path], tmp_path: Path) -> None:
    log, pub = clean
    copy, target = edit_line_6(log, tmp_path, lambda line: line.replace(b'"ts":"2', b'"ts":"3', 1))  # a changed time
    result = review(copy, "--key", pub)
    assert result.exit_code == 3
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("tablectl: integrity failure: ")
    assert f"{target}:6:" in result.stderr
    assert "INTEGRITY FAILURE" in result.stdout


def test_a_line_whose_event_is_not_a_name_is_an_integrity_failure_not_a_crash(clean: tuple[Path, Path], tmp_path: Path) -> None:
    log, pub = clean
    copy, target = edit_line_6(log, tmp_path, lambda line: re.sub(rb'"event":"\w+"', b'"event":["dealt"]', line, count=1))
    result = review(copy, "--key", pub)
    assert result.exit_code == 3
    assert f"{target}:6:" in result.stderr


def test_json_carries_verification_rounds_anomalies_devices_shoes_and_shuffle_quality(eventful: tuple[Path, Path, Path]) -> None:
    log, pub, config = eventful
    result = review(log, "--key", pub, "--config", config, "--json")
    report = orjson.loads(result.stdout)
    assert result.exit_code == 1 and report["result"] == "anomalies"
    assert report["ok"] is True and report["signatures_checked"] is True
    assert len(report["rounds"]) == 60
    complete = [r for r in report["rounds"] if r["status"] == "complete"]
    assert complete and all(r["settlement"] == "match" and r["recomputed"] == [
        {k: s[k] for k in ("seat", "bet", "stake", "outcome", "pays", "net")} for s in r["settled"]] for r in complete)
    assert all("dp" in r["positions"] for r in complete)
    assert {a["kind"] for a in report["anomalies"]} >= {"violation", "hold"}
    assert report["devices"]["shoe"]["exactly_once"] is True
    assert report["shoes"] and report["shuffle_quality"][0]["results"][0]["verdict"] in ("pass", "warn", "fail", "n/a")


def test_round_prints_that_round_in_full(eventful: tuple[Path, Path, Path]) -> None:
    log, _, config = eventful
    result = review(log, "--config", config, "--round", "3")
    text = result.stdout
    assert "round 3 (session 1, round 3): complete; settlement check: match" in text
    assert "cards by position:" in text and re.search(r"\n    dp +\S\S", text)
    assert "settlement: logged | recomputed with the rules engine" in text and "| same" in text


def test_html_is_one_self_contained_file_with_the_plots(eventful: tuple[Path, Path, Path], tmp_path: Path) -> None:
    log, pub, _ = eventful
    out = tmp_path / "report.html"
    result = review(log, "--key", pub, "--html", out)
    assert result.exit_code == 1 and sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    assert not re.search(r"<script|<link|<img|<iframe|@import|url\(", html, re.IGNORECASE)
    assert re.findall(r"https?://[^\"' ]+", html) == ["http://www.w3.org/2000/svg"] * html.count("<svg ")
    svgs = re.findall(r"<svg .*?</svg>", html, re.DOTALL)
    for s in svgs:
        ET.fromstring(s)  # well-formed
    titles = [ET.fromstring(s).findtext("{http://www.w3.org/2000/svg}title") for s in svgs]
    assert "Highest penetration reached, per shoe" in titles
    assert any(t.startswith("Anomalies over the log") for t in titles)
    assert "card position chi square" in titles and "dfh guessing with feedback" in titles


def test_html_of_a_long_log_lists_the_rounds_with_a_finding_and_counts_the_others(
        mistaken_table: tuple[Path, Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tablectl.review import tally

    monkeypatch.setattr(tally, "LISTED_ROUNDS", 1)  # a "long" log: more rounds than the report lists
    log, pub, _ = mistaken_table
    out = tmp_path / "report.html"
    assert review(log, "--key", pub, "--html", out).exit_code == 1
    html = out.read_text(encoding="utf-8")
    rows = re.findall(r"<tr><td>([\d.]+)</td>", html.split("<h2>Rounds</h2>")[1])
    said = re.search(r"<p>(\d+) round\(s\) whose settlement matched are not listed(?:, nor (\d+) more with a finding)?", html)
    counts = orjson.loads(review(log, "--key", pub, "--json").stdout)["counts"]
    odd = counts["rounds"] - counts["settlement:match"]  # rounds voided by a supervisor: one or more, as the play fell
    assert said is not None and len(rows) == 1 and odd >= 1
    matched, more = int(said[1]), int(said[2] or 0)
    assert (matched, more) == (counts["settlement:match"], odd - 1)


@pytest.mark.parametrize(
    "case, message",
    [
        ("missing_path", "no such file or directory"),
        ("empty_dir", "no tablectl log files"),
        ("not_a_log", "not a tablectl event log"),
        ("missing_key", "no such public key file"),
        ("missing_config", "cannot read"),
        ("config_of_another_game", "a three-card-poker table; the log is of one-card-poker"),
        ("unknown_round", "no round '999'"),
        ("html_unwritable", "cannot write the HTML report"),
    ],
)
def test_bad_input_is_a_one_line_error_with_exit_2(eventful: tuple[Path, Path, Path], tmp_path: Path, case: str, message: str,
                                                   write_config: WriteConfig) -> None:
    log, _, _ = eventful
    (tmp_path / "empty").mkdir()
    (tmp_path / "notes.txt").write_text("not a log\n")
    other, _ = write_config(tmp_path / "other", "three-card-poker.toml")
    args = {
        "missing_path": [tmp_path / "nope"],
        "empty_dir": [tmp_path / "empty"],
        "not_a_log": [tmp_path / "notes.txt"],
        "missing_key": [log, "--key", tmp_path / "nope.pub"],
        "missing_config": [log, "--config", tmp_path / "nope.toml"],
        "config_of_another_game": [log, "--config", other],
        "unknown_round": [log, "--round", "999"],
        "html_unwritable": [log, "--html", tmp_path / "no" / "such" / "dir.html"],
    }[case]
    result = review(*args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("tablectl: ") and message in result.stderr


def test_a_slice_of_a_log_is_reviewed_with_the_game_and_rules_its_table_config_gives(
    tmp_path: Path, write_config: WriteConfig, run_table: RunTable
) -> None:
    config, pub = write_config(tmp_path, "one-card-poker.toml")
    run_table(config, tmp_path / "log", 150, seed=8)
    files = sorted((tmp_path / "log").glob("*.jsonl"))
    assert len(files) >= 3  # a file per shoe
    report = orjson.loads(review(files[1], "--key", pub, "--partial", "--config", config, "--json").stdout)
    assert report["first_seq"] > 1 and report["anomalies"][0]["kind"] == "partial_log"
    assert report["sessions"][0]["game"] == "one-card-poker" and report["rules"][0]["source"] == f"config {config}"
    complete = [r for r in report["rounds"] if r["status"] == "complete"]
    assert complete and {r["settlement"] for r in complete} == {"match"}
