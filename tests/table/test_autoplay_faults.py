"""``tablectl run ... --simulate --headless --autoplay N --fault SPEC``: the virtual dealer meets the
simulators' faults as a dealer would and plays every round; no fault ends autoplay in a traceback.
A jam is cleared and the card drawn (or the rest of the cards returned) again; a misread card is
named before the supervisor resolves the hold. Read back from the signed log."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tablectl.cli import main
from tablectl.eventlog import iter_events
from tablectl.simulators.faults import ALL_FAULTS

CONFIGS = Path(__file__).resolve().parents[2] / "config" / "tables"
TABLES = ("one-card-poker", "one-for-the-money-csm", "three-card-poker")  # a shoe, a CSM, a batch shuffler


def autoplay(tmp_path: Path, table: str, rounds: int, seed: int, fault: str) -> list[dict[str, Any]]:
    """The table played through the front door; its log's records (the run must exit 0)."""
    log_dir = tmp_path / f"{table}-{fault}-{seed}"
    result = CliRunner().invoke(main, [
        "run", str(CONFIGS / f"{table}.toml"), "--simulate", "--headless", "--autoplay", str(rounds), "--seed", str(seed),
        "--fault", fault, "--log-dir", str(log_dir),
    ])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 0, result.output
    return list(iter_events([log_dir]))


def outcomes(records: list[dict[str, Any]]) -> Counter[str]:
    """What happened at the table, counted from its log."""
    out: Counter[str] = Counter()
    for r in records:
        event = r["event"]
        if event == "round_ended":
            out["rounds"] += 1
        elif event == "fault":
            out[f"fault {r['fault']}{' cleared' if r['cleared'] else ''}"] += 1
        elif event == "violation":
            out[f"violation {r['kind']}"] += 1
        elif event in ("identified", "resolved", "round_voided"):
            out[event] += 1
    return out


@pytest.mark.parametrize(("table", "seed"), [("one-card-poker", 3), ("one-for-the-money-csm", 1), ("three-card-poker", 1)])
def test_autoplay_through_jams_plays_every_round_and_clears_every_jam(tmp_path: Path, table: str, seed: int) -> None:
    got = outcomes(autoplay(tmp_path, table, 10, seed, "jam=0.02"))
    assert got["rounds"] == 10
    assert got["fault jam"] >= 1
    assert got["fault jam cleared"] == got["fault jam"]


@pytest.mark.parametrize(("table", "seed"), [("one-card-poker", 1), ("one-for-the-money-csm", 1), ("three-card-poker", 1)])
def test_a_misread_card_is_named_before_the_supervisor_resolves_the_hold(tmp_path: Path, table: str, seed: int) -> None:
    records = autoplay(tmp_path, table, 10, seed, "misread=0.05")
    got = outcomes(records)
    assert got["rounds"] == 10
    assert got["violation misread"] >= 1
    assert got["identified"] == got["violation misread"]
    order = [r["event"] for r in records if r["event"] in ("identified", "resolved")]
    assert order[0] == "identified" and order[-1] == "resolved"


@pytest.mark.slow
@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("kind", ALL_FAULTS)
def test_200_rounds_of_autoplay_under_each_fault_kind(tmp_path: Path, table: str, kind: str) -> None:
    got = outcomes(autoplay(tmp_path, table, 200, 11, f"{kind}=0.02"))
    print(f"\n{table} {kind}=0.02: " + ", ".join(f"{k} {n}" for k, n in sorted(got.items())))
    assert got["rounds"] == 200
