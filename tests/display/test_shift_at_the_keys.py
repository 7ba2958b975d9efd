"""A whole shift dealt at the keys, for every shipped table config: ``tablectl run CONFIG
--simulate`` on a real pty (80x24 and 120x40), no virtual dealer and no API call — a dealer who
reads the screen signs in, enters wagers (one refused over the table maximum), lets the bank pass
in the banked games (one seat shows the bank on every screen), changes dealer and shoe, has the
demo supervisor void a round mid-round (no hold before: its wagers shown returned, the next step
"return wagers"), presses n once before the continuous shuffler's cards are back (refused with
what to do, not held), ends one round early on purpose and has the demo supervisor resolve it;
then ``tablectl review`` of the log the run wrote finds every other round settled and matching,
the voided one with its wagers returned, and nothing but the planted violation.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from atthekeys import Screen, Shift, run_shift, tablectl_command

from tablectl.eventlog.verify import iter_events

REPO = Path(__file__).resolve().parents[2]


# config -> (wager lines typed at $ by round: "seat what"), the seats offered the bank
SHIFTS: dict[str, tuple[dict[int, list[bytes]], list[int]]] = {
    "one-card-poker": ({1: [b"3 25 tie 5"], 8: [b"4 9999"], 9: [b"4 10"]}, [1, 2]),
    "three-card-poker": ({1: [b"3 25 pairplus 5 scb 5"], 8: [b"4 9999"], 9: [b"4 10"]}, [1, 2]),
    "one-for-the-money-shoe": ({1: [b"2 25 perfect-match 5"], 8: [b"3 9999"], 9: [b"3 10"]}, []),
    "one-for-the-money-csm": ({1: [b"2 25 three-card-bonus 5"], 8: [b"3 9999"], 9: [b"3 10"]}, []),
    "three-card-poker-florida": ({1: [b"2 ante 25 pairplus 10"], 8: [b"3 9999"], 9: [b"3 p 10"]}, []),
    "texas-holdem-bonus": ({1: [b"2 25 bonus 5"], 8: [b"3 9999"], 9: [b"3 10"]}, []),
}


VOID = 4  # the round the supervisor voids mid-round
SLIP = 3  # n before this round while the shuffler's cards are out


def bank_rows(s: Screen) -> list[str]:
    """The seats' rows that show the bank (BANK, DP)."""
    return [ln for ln in s.seat_lines() if re.match(r"^[ ▶]\d+ (◆ )?(BANK|DP)\b", ln)]


def deal_a_shift(table: str, tmp_path: Path, rows: int, cols: int, seen: list[Screen] | None = None) -> tuple[Any, Any, list[dict[str, Any]], dict[str, Any], int]:
    wagers, bank = SHIFTS[table]
    shift = Shift(rounds=20, wagers=wagers, bank=bank, sit_out={3: [5], 7: [5]}, void=VOID, slip=SLIP)
    log_dir = tmp_path / "logs"
    argv = [tablectl_command(), "run", str(REPO / "config" / "tables" / f"{table}.toml"), "--simulate", "--seed", "7", "--log-dir", str(log_dir)]
    terminal, done = run_shift(argv, shift, rows=rows, cols=cols, seed=11, on_screen=seen.append if seen is not None else None)
    events = list(iter_events(sorted(log_dir.glob("*.jsonl"))))
    review = subprocess.run(
        [tablectl_command(), "review", str(log_dir), "--json"],
        capture_output=True, text=True, timeout=120,
    )
    report = json.loads(review.stdout) if review.stdout.strip() else {}
    assert report, f"review printed no report (exit {review.returncode}): {review.stderr}"
    return terminal, done, events, report, review.returncode


@pytest.mark.parametrize("table", sorted(SHIFTS))
def test_a_shift_dealt_at_the_keys_reviews_settled_and_matching_with_only_the_planted_violation(table: str, tmp_path: Path) -> None:
    seen: list[Screen] = []
    terminal, done, events, report, code = deal_a_shift(table, tmp_path, 24, 80, seen)
    assert terminal.status == 0, terminal.screen()
    # at 80x24 every screen the dealer read kept the header, what the table waits for and the keys
    assert all(len(s.text.splitlines()) <= 24 and "? help" in " ".join(s.text.rstrip().splitlines()[-3:]) for s in seen)
    assert all(s.text.rstrip().endswith("Q quit") for s in seen)
    # ... and no seat's wagers or results, nor the bank's line, cut
    for s in seen:
        assert all(len(line) <= 80 for line in s.text.splitlines()), s.text
        assert not any("…" in line for line in s.seat_lines()), s.text
        if s.state == "SETTLING":
            assert re.search(r"[+-]\$\d|push|NA |returned", "\n".join(s.seat_lines())), s.text
    if SHIFTS[table][1]:
        playing = [s for s in seen if s.state in ("IN ROUND", "SETTLING")]
        assert playing and all(re.search(r"stake \$\d|covers every bet|round voided", s.bank_line() or "") for s in playing), next(
            s.text for s in playing if not re.search(r"stake \$\d|covers every bet|round voided", s.bank_line() or ""))
        assert all(len(bank_rows(s)) == 1 for s in playing), next(s.text for s in playing if len(bank_rows(s)) != 1)
        assert all(len(bank_rows(s)) <= 1 for s in seen), next(s.text for s in seen if len(bank_rows(s)) > 1)
    # the void mid-round, with no hold: every seat in play shows its wagers returned, the next step
    # is to return them; review has the round voided with the wagers the round started with returned
    started = {e["round"]: e for e in events if e["event"] == "round_started"}
    voided = done.void_screen
    assert done.voided_in == VOID and voided is not None and f"VOID {VOID}" in voided.text.splitlines()[0], voided
    in_play = [ln for ln in voided.seat_lines() if re.match(r"^[ ▶]\d+ in play", ln)]
    assert in_play and all("returned" in ln for ln in in_play), voided.text
    assert voided.next.startswith("return wagers") and voided.state == "SETTLING"
    by_round = {r["round"]: r for r in report["rounds"]}
    assert by_round[VOID]["status"] == "voided" and by_round[VOID]["returned"] == started[VOID]["wagers"]
    assert [e["round"] for e in events if e["event"] == "round_voided"] == [VOID]
    assert not any(e["event"] == "state" and e["to"] == "held" and e["round"] == VOID for e in events)
    # the continuous shuffler: n before the cards are back is refused with what to do, not held
    if table.endswith("-csm"):
        slip = done.slip_screen
        assert slip is not None and "return the cards to the shuffler first" in slip.status and slip.state != "HELD", slip
    # every other round settled and matching; the one violation is the planted one, resolved
    rounds = [r for r in report["rounds"] if r["round"] != VOID]
    assert len(rounds) >= 19
    assert all(r["status"] == "complete" and r["settlement"] == "match" for r in rounds), [
        (r["round"], r["status"], r["settlement"]) for r in rounds if r["settlement"] != "match"
    ]
    assert all(r["dealer"] for r in rounds), "a round was dealt with no dealer signed in"
    violations = [e for e in events if e["event"] == "violation"]
    assert [(v["kind"], v["round"]) for v in violations] == [("too_few_cards", done.planted_in)]
    assert [(e["supervisor"], e["void_round"]) for e in events if e["event"] == "resolved"] == [("demo", True), ("demo", False)]
    assert code in (0, 1) and report["ok"]
    assert {a["kind"] for a in report["anomalies"]} == {"violation", "hold", "round_voided"}, report["anomalies"]
    # wagers entered at the keys, the refused one refused on screen, the bank passing, the changes
    typed_seat, _, _ = SHIFTS[table][0][1][0].partition(b" ")
    assert started[1]["wagers"][typed_seat.decode()] and started[20]["wagers"][typed_seat.decode()] == started[1]["wagers"][typed_seat.decode()]
    assert any("ante: $9,999 is outside the limits $5-$500" in r or "primary: $9,999 is outside the limits $5-$500" in r for r in done.refusals), done.refusals
    assert any(e["event"] == "dealer_change" and e["dealer"] == "D-02" for e in events)
    assert any(e["event"] == "shoe_change" for e in events)
    if SHIFTS[table][1]:
        assert len({e["banker"] for e in started.values()}) >= 2, "the bank never passed"
        assert all(e["banker"] not in e["seats"] for e in started.values())


def test_a_shift_at_120x40_shows_every_seat_and_the_results_of_each_bet(tmp_path: Path) -> None:
    seen: list[Screen] = []
    terminal, done, events, report, code = deal_a_shift("three-card-poker", tmp_path, 40, 120, seen)
    assert terminal.status == 0
    assert all(r["settlement"] == "match" for r in report["rounds"] if r["round"] != VOID)
    settled = [s for s in seen if s.state == "SETTLING"]
    assert settled and all(all(f" {seat} " in s.text for seat in range(1, 9)) for s in settled)
    assert any(re.search(r"ante [+-]\$\d+", s.text) for s in settled), "no bet's result was shown"
