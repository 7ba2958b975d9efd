"""The anomaly list: violations and their resolutions, holds, device faults, unclean shutdowns,
gaps and duplicates in device event numbers, rounds cut short — and penetration per shoe.

Some logs come from the real controller (``tablectl run --simulate --autoplay``, with planted
mistakes); the rest are written line by line with the real ``EventLog``, in the controller's
event names and fields (``tablectl.table.core``), to produce one situation each.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tablectl.review.engine import review
from tablectl.table.simulated.virtual_dealer import EXPECTED_VIOLATION

if TYPE_CHECKING:
    from reviewhelpers import RunTable, TableLog, WriteConfig


def kinds(report: Any) -> list[str]:
    return [a.kind for a in report.anomalies]


def test_a_log_of_clean_rounds_has_no_anomaly(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()
    t.round(1)
    t.round(2)
    t.close()
    report = review([tmp_path], [t.key.public_key()])
    assert report.clean and [r.settlement for r in report.rounds] == ["match", "match"]


def test_device_event_numbers_never_logged_are_a_gap_naming_them(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()
    t.card("drawn", "5H", "discard", event_no=6)  # events 3, 4, 5 never reached the log
    t.close()
    report = review([tmp_path])
    gaps = [a for a in report.anomalies if a.kind == "event_gap"]
    assert [a.detail for a in gaps] == ["shoe: events 3..5 (3) never logged"]
    assert report.recon.devices["shoe"].missing == 3 and not report.recon.devices["shoe"].exactly_once


def test_a_device_event_logged_a_second_time_is_a_duplicate_naming_its_line(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()
    t.card("drawn", "5H", "discard")
    again = t.card("drawn", "5H", "discard", event_no=3)
    t.close()
    report = review([tmp_path])
    dups = [a for a in report.anomalies if a.kind == "event_duplicate"]
    assert [(a.seq, a.detail) for a in dups] == [(again, "shoe: event 3 logged again")]
    assert dups[0].where is not None and dups[0].where.endswith(f":{again}")


def test_a_duplicate_or_out_of_order_device_event_carries_its_line_s_time(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()
    t.card("drawn", "5H", "discard", event_no=5)  # events 3 and 4 not yet logged
    late = t.card("drawn", "6H", "discard", event_no=3)
    again = t.card("drawn", "6H", "discard", event_no=3)
    t.close()
    times = {r["seq"]: r["ts"] for p in sorted(tmp_path.glob("*.jsonl")) for r in map(json.loads, p.read_text().splitlines())}
    report = review([tmp_path])
    found = {a.kind: a for a in report.anomalies if a.kind in ("event_out_of_order", "event_duplicate")}
    assert (found["event_out_of_order"].seq, found["event_out_of_order"].ts) == (late, times[late])
    assert (found["event_duplicate"].seq, found["event_duplicate"].ts) == (again, times[again])


def test_the_cards_of_one_packet_share_its_event_number_without_being_duplicates(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()
    n = t.next_no
    for c in ("AS", "KD", "QH"):
        t.card("drawn", c, "discard", event_no=n, packet=0)
    t.card("drawn", "JC", "discard")
    t.close()
    report = review([tmp_path])
    assert report.recon.devices["shoe"].exactly_once and report.recon.devices["shoe"].last == n + 1


def test_an_unclean_shutdown_is_listed_with_what_the_next_start_found(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()
    t.close(clean=False)
    t.open()
    t.close()
    report = review([tmp_path], [t.key.public_key()])
    assert report.ok and kinds(report) == ["unclean_shutdown"]
    assert "unsigned" in report.anomalies[0].detail
    assert [s.ended_by for s in report.recon.sessions] == ["crash", "log end"]


def test_a_round_cut_short_by_a_crash_is_interrupted_and_not_settled(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()
    t.log.append("round_started", round=1, seats=[2], wagers={"2": {"primary": 1000}}, banker=1, banker_stake=None,
                 shoe=1, dealer=None, last_round=False)
    t.card("dealt", "9S", "seat:2", 1)
    t.close(clean=False)
    t.open()
    t.close()
    report = review([tmp_path])
    (rnd,) = report.rounds
    assert (rnd.status, rnd.settlement) == ("interrupted", "not_settled")
    assert rnd.end_seq == report.recon.recoveries[0].last_seq == report.recon.sessions[0].end_seq
    assert rnd.positions == {"seat:2": ["9S"]}
    assert [a.detail for a in report.anomalies if a.kind == "round_interrupted"] == ["the controller crashed during the round"]


def test_a_device_fault_is_listed_with_when_it_cleared(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()
    raised = t.device("fault", fault="jam", cleared=False, detail="card stuck at the exit")
    cleared = t.device("fault", fault="jam", cleared=True, detail=None)
    t.close()
    report = review([tmp_path])
    (fault,) = [a for a in report.anomalies if a.kind == "device_fault"]
    assert fault.seq == raised and fault.device == "shoe" and "jam" in fault.detail
    assert fault.resolution is not None and fault.resolution.startswith(f"cleared at seq {cleared}")


def test_a_hold_is_listed_with_its_violations_and_how_it_ended(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()
    t.card("drawn", "5H", "discard")
    v = t.log.append("violation", kind="wrong_state", round=None, detail="a card was drawn while the table is ready",
                     card="5H", device="shoe", event_no=t.next_no - 1)
    held = t.log.append("state", **{"from": "ready", "to": "held", "trigger": "hold", "round": None})
    t.log.append("resolved", supervisor="sue", note="put back", kinds=["wrong_state"], violations=[v], round=None, void_round=False)
    back = t.log.append("state", **{"from": "held", "to": "ready", "trigger": "resolve", "round": None})
    t.close()
    report = review([tmp_path])
    (violation,) = [a for a in report.anomalies if a.kind == "violation"]
    assert violation.resolution == f"resolved by sue at seq {v + 2} (put back)"
    (hold,) = [a for a in report.anomalies if a.kind == "hold"]
    assert (hold.seq, hold.until_seq) == (held, back) and f"until seq {back} (ready)" in hold.detail


def test_a_review_without_a_key_is_never_clean(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()
    t.round(1)
    t.close()
    report = review([tmp_path])
    assert report.ok and not report.clean and kinds(report) == ["not_authenticated"]


def test_an_unresolved_violation_says_so(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()
    t.log.append("violation", kind="foreign_card", round=None, detail="AS beyond the composition", card="AS")
    t.close()
    (v,) = review([tmp_path], [t.key.public_key()]).anomalies
    assert (v.kind, v.resolution) == ("violation", "unresolved")


def test_a_round_number_repeated_after_a_restart_is_told_apart_by_its_session(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()
    t.round(1)
    t.close()
    t.open()
    t.shoe()
    t.round(1)
    t.close()
    report = review([tmp_path])
    assert [r.id for r in report.rounds] == ["1", "2.1"]  # the first keeps its number: ids are given as rounds close
    assert [r.id for r in report.find_rounds("2.1")] == ["2.1"]
    assert [r.id for r in report.find_rounds("1.1")] == ["1"]
    assert [r.id for r in report.find_rounds("1")] == ["1", "2.1"]


@pytest.fixture(scope="module")
def with_mistakes(tmp_path_factory: pytest.TempPathFactory, write_config: WriteConfig,
                  run_table: RunTable) -> tuple[Path, list[dict[str, Any]]]:
    tmp = tmp_path_factory.mktemp("mistakes")
    config, _ = write_config(tmp, "one-card-poker.toml")
    run_table(config, tmp / "log", 60, seed=21, mistakes=0.25)
    planted = [json.loads(line) for line in (tmp / "mistakes.jsonl").read_text().splitlines()]
    return tmp / "log", planted


def test_every_planted_mistake_is_a_violation_in_its_round_with_the_supervisor_s_resolution(
    with_mistakes: tuple[Path, list[dict[str, Any]]],
) -> None:
    log, planted = with_mistakes
    report = review([log])
    violations = {(a.round, a.detail.split(":")[0]): a for a in report.anomalies if a.kind == "violation"}
    assert len(planted) >= 5
    for mistake in planted:
        found = violations.get((str(mistake["round"]), EXPECTED_VIOLATION[mistake["kind"]]))
        assert found is not None, mistake
        assert found.resolution is not None and found.resolution.startswith("resolved by virtual-supervisor")


def test_penetration_per_shoe_is_the_share_of_the_shoe_drawn(with_mistakes: tuple[Path, list[dict[str, Any]]]) -> None:
    log, _ = with_mistakes
    shoes = review([log]).recon.shoes
    assert shoes and all(s.size == 312 for s in shoes)
    for s in shoes:
        assert s.max_penetration == pytest.approx(s.cards_drawn / s.size, abs=1e-4)


def test_a_shoe_loaded_while_the_table_is_held_is_listed_as_not_taken(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()
    t.card("drawn", "5H", "discard")
    t.log.append("violation", kind="wrong_state", round=None, detail="a card was drawn while the table is ready",
                 card="5H", device="shoe", event_no=t.next_no - 1)
    loaded = t.device("shoe_loaded", shoe=2, decks=6, cards=312, deck_ok=True)
    t.log.append("violation", kind="wrong_state", round=None, detail="a shoe was loaded while the table is held",
                 device="shoe", event_no=t.next_no - 1)
    t.card("drawn", "7C", "discard")  # still from shoe 1, as far as the controller knows
    t.close()
    first, second = review([tmp_path]).recon.shoes
    assert (first.shoe, first.ended_by, first.cards_drawn) == (1, "log end", 3)
    assert (second.shoe, second.start_seq, second.cards_drawn) == (2, loaded, 0)
    assert second.ended_by.startswith("not taken")


def test_rounds_dealt_with_no_dealer_signed_in_are_one_anomaly_per_run(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()
    t.round(1)
    t.log.append("round_started", round=2, seats=[2], wagers={"2": {"primary": 1000}}, banker=1, banker_stake=100000,
                 shoe=1, dealer=None, last_round=False)
    t.card("dealt", "9S", "seat:2", 2)
    t.card("dealt", "4D", "dp", 2)
    t.log.append("settled", round=2, seat=2, bet="primary", stake=1000, outcome="win", pays="1:1", net=1000)
    t.log.append("round_ended", round=2, complete=True)
    t.close()
    report = review([tmp_path], [t.key.public_key()])
    assert kinds(report) == ["no_dealer"]
    assert not report.clean
    assert "round 2 dealt with no dealer signed in" in report.anomalies[0].detail


def test_a_run_of_rounds_with_no_dealer_is_one_anomaly_from_its_first_round_to_its_last(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()
    for number, dealer in ((1, "D-01"), (2, None), (3, None), (4, None), (5, "D-02"), (6, None)):
        t.round(number, dealer)
    t.close()
    found = [(a.round, a.detail) for a in review([tmp_path], [t.key.public_key()]).anomalies if a.kind == "no_dealer"]
    assert found == [("2", "3 rounds, 2 to 4 dealt with no dealer signed in"), ("6", "round 6 dealt with no dealer signed in")]


def test_a_refused_supervisor_credential_is_an_anomaly_naming_the_id_tried(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()
    refused = t.log.append("supervisor_refused", supervisor="pit-zed", action="void",
                           reason="supervisor 'pit-zed': credential not accepted", state="in_round", round=None)
    t.close()
    report = review([tmp_path])
    (a,) = [a for a in report.anomalies if a.kind == "supervisor_refused"]
    assert a.seq == refused and "pit-zed" in a.detail and "void" in a.detail
