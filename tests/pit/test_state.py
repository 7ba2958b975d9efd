"""The pit's floor state, folded from plain log records (no broker, no browser)."""

from __future__ import annotations

from typing import Any

import orjson

from tablectl.eventlog.records import Envelope, from_dict, read_line
from tablectl.pit.state import Floor, epoch
from tablectl.table.procedure.validation import WHAT_TO_DO

T0 = "2026-05-01T21:00:00.000000Z"


class Log:
    """Records of one table, numbered and timed as the table writes them (each a dict, the line's
    JSON; :func:`typed` reads it as the feed does)."""

    def __init__(self, table: str = "T1", start: str = T0) -> None:
        self.table, self.seq, self.t = table, 0, epoch(start)

    def __call__(self, event: str, *, after: float = 0.1, **fields: Any) -> dict[str, Any]:
        import datetime as dt

        self.seq += 1
        self.t += after
        ts = dt.datetime.fromtimestamp(self.t, dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        return {"seq": self.seq, "event": event, "ts": ts, "table": self.table, **fields}


def typed(record: dict[str, Any]) -> Envelope:
    """A line as the feed reads it (the log's typed schema)."""
    return from_dict(record)


def started(log: Log) -> list[dict[str, Any]]:
    return [
        log("log_opened", previous=None),
        log("table_started", game="one-card-poker", decks=6, cap=0.75, seats=7, source="shoe", source_kind="shoe",
            house_rules={"dp_declines_war": "push"}, pay_tables={}),
        log("state", to="idle", round=None, **{"from": "offline"}),
        log("dealer_change", dealer="dealer-7", burns_due=0),
        log("shoe_loaded", shoe=1, decks=6, cards=312, deck_ok=True, device="shoe", event_no=1),
        log("state", to="ready", round=None, **{"from": "idle"}),
    ]


def a_round(log: Log, n: int, net: int = -500) -> list[dict[str, Any]]:
    def dealt(card: str, to: str, face: str, penetration: float) -> dict[str, Any]:
        return log("dealt", card=card, to=to, face=face, round=n, shoe=1, penetration=penetration, device="shoe",
                   event_no=3 * n + int(penetration * 100))

    return [
        log("round_started", round=n, seats=[2, 5], wagers={"2": {"primary": 1000}, "5": {"primary": 500, "tie": 100}},
            banker=1, banker_stake=100000, shoe=1, dealer="dealer-7", last_round=False),
        log("state", to="in_round", round=n, **{"from": "ready"}),
        dealt("TC", "seat:2", "up", 0.01),
        dealt("QS", "seat:5", "up", 0.02),
        dealt("9H", "dp", "down", 0.03),
        log("settled", round=n, seat=2, bet="primary", stake=1000, outcome="lose", pays="", net=net),
        log("state", to="settling", round=n, **{"from": "in_round"}),
        log("round_ended", round=n, complete=True),
        log("state", to="ready", round=n, **{"from": "settling"}),
    ]


def floor_of(*records: list[dict[str, Any]]) -> Floor:
    f = Floor()
    for batch in records:
        for r in batch:
            f.apply(typed(r))
    return f


def test_a_table_started_shows_its_game_dealer_and_state() -> None:
    log = Log()
    t = floor_of(started(log)).tables["T1"]
    assert (t.game, t.dealer, t.state) == ("one-card-poker", "dealer-7", "ready")


def test_a_round_started_is_the_tiles_round_and_its_seats_are_in_play() -> None:
    log = Log()
    f = floor_of(started(log), a_round(log, 1), a_round(log, 2)[:3])
    t = f.tables["T1"]
    assert t.round == 2
    assert t.seats_in_play() == [2, 5]
    assert t.status(t.last_heard)[:2] == ("dealing", "dealing round 2")


def test_the_days_handle_and_win_come_from_the_wagers_and_the_settlement() -> None:
    log = Log()
    t = floor_of(started(log), a_round(log, 1, net=-1000), a_round(log, 2, net=1000), a_round(log, 3, net=-1000)).tables["T1"]
    assert t.day is not None
    assert (t.day.rounds, t.day.handle, t.day.win) == (3, 3 * 1600, 1000)
    assert t.day.hold == 1000 / 4800


def test_the_expected_hold_weighs_each_wagers_edge_by_its_stake() -> None:
    log = Log()
    t = floor_of(started(log), a_round(log, 1)).tables["T1"]
    edges = {"primary": 0.0, "tie": 0.15}
    assert t.expected_hold(lambda game, decks, rules: edges) == (1500 * 0.0 + 100 * 0.15) / 1600


def test_no_math_no_expected_hold() -> None:
    log = Log()
    t = floor_of(started(log), a_round(log, 1)).tables["T1"]
    assert t.expected_hold(lambda game, decks, rules: None) is None


def test_a_face_down_card_stays_hidden_on_the_layout_until_revealed() -> None:
    log = Log()
    first = started(log) + a_round(log, 1)[:5]
    log.seq = first[-1]["seq"]  # the round goes on after its face-down card
    f = floor_of(first)
    lay = f.tables["T1"].layout
    assert lay is not None and dict(lay.others()) == {"dp": [None]}
    f.apply(typed(log("revealed", round=1, to="dp", cards=["9H"])))
    assert dict(lay.others()) == {"dp": ["9H"]}


def test_a_violation_holds_the_table_with_why_and_what_to_do() -> None:
    log = Log()
    f = floor_of(started(log), a_round(log, 1)[:3])
    f.apply(typed(log("violation", kind="burn_missing", round=1, detail="the shuffle's burn was not drawn")))
    f.apply(typed(log("state", to="held", round=1, **{"from": "in_round"})))
    t = f.tables["T1"]
    kind, status, todo = t.status(t.last_heard)
    assert kind == "held"
    assert "burn missing" in status and "the shuffle's burn was not drawn" in status
    assert todo == WHAT_TO_DO["burn_missing"]
    assert (t.day.violations, t.day.holds) == (1, 1)  # type: ignore[union-attr]


def test_an_alarm_lists_the_table_time_what_happened_and_what_to_do_newest_first() -> None:
    a, b = Log("A"), Log("B")
    f = floor_of(started(a), started(b))
    f.apply(typed(a("violation", kind="too_many_cards", round=3, detail="a card the round does not need")))
    f.apply(typed(b("violation", kind="penetration_cap", round=9, detail="past the cap")))
    assert [(x.table, x.kind, x.what_to_do) for x in f.alarms] == [
        ("B", "penetration_cap", WHAT_TO_DO["penetration_cap"]),
        ("A", "too_many_cards", WHAT_TO_DO["too_many_cards"]),
    ]


def test_a_resolution_closes_the_alarm_with_the_supervisor_and_the_note() -> None:
    log = Log()
    f = floor_of(started(log))
    v = log("violation", kind="too_many_cards", round=1, detail="x")
    f.apply(typed(v))
    f.apply(typed(log("resolved", supervisor="pit-anna", note="card found under the shoe", violations=[v["seq"]],
                      kinds=["too_many_cards"])))
    alarm = f.alarms[0]
    assert (alarm.open, alarm.resolved_by, alarm.note) == (False, "pit-anna", "card found under the shoe")
    assert f.tables["T1"].open_alarms() == ()


def test_a_device_fault_says_what_the_attendant_must_do() -> None:
    log = Log()
    f = floor_of(started(log))
    f.apply(typed(log("fault", fault="jam", cleared=False, detail="card jammed", device="shoe", event_no=9)))
    f.apply(typed(log("state", to="device_fault", round=None, **{"from": "ready"})))
    kind, status, todo = f.tables["T1"].status(f.tables["T1"].last_heard)
    assert (kind, todo) == ("fault", "Clear the device fault (attendant).")
    assert "card jammed" in status


def test_a_table_heard_nothing_from_for_30_seconds_is_silent() -> None:
    log = Log()
    t = floor_of(started(log)).tables["T1"]
    assert t.status(t.last_heard + 29.0)[0] == "ready"
    kind, status, _ = t.status(t.last_heard + 30.0)
    assert kind == "silent" and "silent for 30 s" in status


def test_a_stopped_table_says_so_until_it_writes_again() -> None:
    log = Log()
    f = floor_of(started(log))
    f.apply(typed(log("table_stopped", reason="stop", round=None)))
    assert f.tables["T1"].status(f.tables["T1"].last_heard)[0] == "stopped"
    f.apply(typed(log("log_opened", previous="x")))
    assert f.tables["T1"].status(f.tables["T1"].last_heard)[0] != "stopped"


def test_a_line_taken_twice_counts_once() -> None:
    log = Log()
    records = started(log) + a_round(log, 1)
    f = floor_of(records, records)
    assert f.tables["T1"].day.handle == 1600  # type: ignore[union-attr]


def test_a_new_day_starts_the_figures_again() -> None:
    log = Log(start="2026-05-01T23:59:50.000000Z")
    f = floor_of(started(log), a_round(log, 1))
    log.t += 60
    f.apply_all(map(typed, a_round(log, 2)))
    day = f.tables["T1"].day
    assert day is not None and (day.date, day.rounds, day.handle) == ("2026-05-02", 1, 1600)


def test_a_well_typed_line_with_odd_values_is_taken_without_breaking_the_table() -> None:
    log = Log()
    f = floor_of(started(log))
    line = orjson.dumps(log("table_started", game="one-card-poker", decks=6, cap=0.75, seats=7, source="shoe",
                            source_kind="shoe", house_rules="deep", pay_tables={}))
    deep = line.replace(b'"deep"', b'{"a":' * 300 + b"1" + b"}" * 300)  # deeper than orjson writes back
    record = read_line(deep)
    assert not isinstance(record, str), record
    f.apply(record)
    f.apply(typed(log("round_started", round=1, seats=[2], wagers={"²": {"primary": 100}, "2": {"primary": 1000}},
                      banker=None, banker_stake=None, shoe=1, dealer="d", last_round=False, players={"²": "p"})))
    f.apply_all(map(typed, a_round(log, 2)))
    t = f.tables["T1"]
    assert (t.rules, t.round, t.day.handle) == (None, 2, 1000 + 1600)  # type: ignore[union-attr]


FORGED = {"seq": 1_000_000_000, "event": "state", "ts": "2099-01-01T00:00:00.000000Z", "from": "in_round", "to": "ready"}


def test_a_line_far_ahead_of_the_tables_seq_is_dropped_with_an_alarm_when_the_table_goes_on_from_its_own() -> None:
    log = Log()
    f = floor_of(started(log), a_round(log, 1))
    assert f.apply(typed({**FORGED, "table": "T1"})) == []
    genuine = a_round(log, 2) + a_round(log, 3)
    f.apply_all(map(typed, genuine))
    t = f.tables["T1"]
    assert (t.round, t.day.rounds, t.last_seq, t.last_ts) == (3, 3, genuine[-1]["seq"], genuine[-1]["ts"])  # type: ignore[union-attr]
    assert t.last_heard == epoch(genuine[-1]["ts"])
    alarm = f.alarms[0]
    assert (alarm.table, alarm.kind) == ("T1", "foreign_line")
    assert "seq 1,000,000,000 (state)" in alarm.what and "not shown" in alarm.what


def test_lines_missing_from_the_stream_are_an_alarm_and_the_table_goes_on_from_the_next() -> None:
    log = Log()
    lines = started(log) + a_round(log, 1)
    f = floor_of(lines[:8] + lines[10:])  # seq 9 and 10 never came
    t = f.tables["T1"]
    assert (t.last_seq, t.day.rounds, t.state) == (lines[-1]["seq"], 1, "ready")  # type: ignore[union-attr]
    assert [(a.kind, a.what) for a in f.alarms] == [
        ("lines_missing", "seq 9 to 10 never came on the stream; the page goes on from seq 11")]


def test_a_jump_of_two_forged_lines_is_undone_when_the_table_goes_on_from_where_it_was() -> None:
    log = Log()
    f = floor_of(started(log), a_round(log, 1))
    f.apply(typed({**FORGED, "table": "T1"}))
    f.apply(typed({**FORGED, "table": "T1", "seq": FORGED["seq"] + 1}))
    f.apply_all(map(typed, a_round(log, 2)))
    t = f.tables["T1"]
    assert (t.round, t.last_seq) == (2, log.seq)
    assert [a.kind for a in f.alarms] == ["foreign_line", "lines_missing"]


def test_a_new_log_under_the_same_table_id_starts_the_tile_again() -> None:
    old, new = Log(), Log()
    f = floor_of(started(old), a_round(old, 1), a_round(old, 2), started(new), a_round(new, 1))
    t = f.tables["T1"]
    assert (t.round, t.last_seq, t.day.rounds, list(f.alarms)) == (1, new.seq, 1, [])  # type: ignore[union-attr]


def test_a_line_stamped_in_the_future_counts_as_heard_when_it_was_taken() -> None:
    log = Log()
    f = floor_of(started(log))
    taken_at = epoch(T0) + 60
    f.apply(typed({**log("state", to="idle", round=None, **{"from": "ready"}), "ts": "2099-01-01T00:00:00.000000Z"}),
            taken_at)
    t = f.tables["T1"]
    assert t.last_heard == taken_at
    assert t.status(taken_at + 30)[0] == "silent"
