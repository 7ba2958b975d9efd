"""The feed and the fan-out without a broker or a browser: lines in, page events out."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import orjson
import pytest

from tablectl.pit.feed import Client, Feed, Hub, another_stream
from tablectl.pit.rounds import RoundBook
from tablectl.pit.state import Floor
from tablectl.pit.views import Views

from .test_state import Log, a_round, started


def parts() -> tuple[Floor, Hub, Feed]:
    floor, rounds = Floor(), RoundBook()
    hub = Hub(Views(floor, rounds, None))
    return floor, hub, Feed("nats://unused", floor, rounds, hub.changed)


def events(c: Client) -> list[tuple[str, dict]]:
    out = []
    while not c.queue.empty():
        item = c.queue.get_nowait()
        assert item is not None
        out.append((item[0], orjson.loads(item[1])))
    return out


def feed(f: Feed, records: list[dict]) -> None:
    for r in records:
        f.take(f"tablectl.{r['table']}.log", orjson.dumps(r))


def test_a_page_that_joins_gets_every_tile_and_the_alarms() -> None:
    _floor, hub, f = parts()
    feed(f, started(Log("A")) + started(Log("B")))
    got = events(hub.join(None))
    tiles = next(e for e in got if e[0] == "tiles")[1]["tiles"]
    assert [t[0] for t in tiles] == ["A", "B"]
    assert any(e[0] == "alarms" for e in got)


def test_a_page_that_joins_after_the_feed_and_the_alarms_changed_is_told_each_once() -> None:
    floor, hub, f = parts()
    feed(f, started(Log("A")))
    hub.feed_status("live from the stream")
    floor.external_alarm("A", "2026-05-01T21:00:05.000000Z", "gap", "seq 7 to 9 missing", "look at the copy")
    hub.flush()  # no page open yet
    page = hub.join(None)
    hub.flush()
    kinds = [kind for kind, _ in events(page)]
    assert kinds.count("feed") == 1 and kinds.count("alarms") == 1


def test_the_tiles_changed_since_the_last_flush_go_out_in_one_event() -> None:
    _floor, hub, f = parts()
    a, b = Log("A"), Log("B")
    feed(f, started(a) + started(b))
    page = hub.join(None)
    events(page)
    feed(f, a_round(a, 1)[:3] + a_round(b, 1)[:3])
    hub.flush()
    got = [e for e in events(page) if e[0] == "tiles"]
    assert len(got) == 1
    assert {t[0]: 'data-round="1"' in t[1] for t in got[0][1]["tiles"]} == {"A": True, "B": True}


def test_a_table_page_gets_its_layout_and_rounds_but_not_other_tables() -> None:
    _floor, hub, f = parts()
    a, b = Log("A"), Log("B")
    feed(f, started(a) + started(b))
    hub.flush()
    page = hub.join("A")
    events(page)
    feed(f, a_round(b, 1)[:3])
    hub.flush()
    assert events(page) == []
    feed(f, a_round(a, 1) + a_round(a, 2)[:3])  # round 1 is listed once round 2 has started
    hub.flush()
    assert [e[0] for e in events(page)] == ["tile", "layout", "rounds"]


def test_a_line_on_another_tables_subject_is_not_taken() -> None:
    floor, _hub, f = parts()
    r = started(Log("A"))[0]
    f.take("tablectl.B.log", orjson.dumps(r))
    assert (f.refused, list(floor.tables)) == (1, [])


def test_a_message_the_stream_delivers_again_is_taken_once() -> None:
    _floor, _hub, f = parts()
    records = started(Log("A"))
    for i, r in enumerate(records, 1):
        f.take("tablectl.A.log", orjson.dumps(r), stream_seq=i)
    f.take("tablectl.A.log", orjson.dumps(records[-1]), stream_seq=len(records))
    assert f.lines == len(records)


def test_a_page_too_slow_to_keep_up_is_dropped_and_told_to_reconnect() -> None:
    c = Client(None)
    for _ in range(c.queue.maxsize + 1):
        c.put("tiles", b"{}")
    assert c.dropped
    items = [c.queue.get_nowait() for _ in range(c.queue.qsize())]
    assert items[-1] is None


def test_the_collectors_alarm_is_listed_with_the_table() -> None:
    floor, _hub, f = parts()
    f.take_alarm("tablectl.A.alarm", orjson.dumps({"table": "A", "kind": "bad_signature", "message": "seq 9: the signature does not verify",
                                                   "ts": "2026-05-01T21:00:00.000000Z"}))
    alarm = floor.alarms[0]
    assert (alarm.table, alarm.kind, alarm.what) == ("A", "bad_signature", "seq 9: the signature does not verify")
    assert "tablectl review" in alarm.what_to_do


def test_the_publishers_status_shows_on_the_tile() -> None:
    _floor, hub, f = parts()
    feed(f, started(Log("A")))
    f.take_status("tablectl.A.status", orjson.dumps({"table": "A", "published_seq": 4, "log_seq": 6, "connected": False,
                                                     "unreachable_s": 190}))
    assert "publishing: 2 lines behind, broker unreachable 3 min" in hub.views.tile("A")


def test_a_line_whose_field_has_another_type_than_the_table_writes_is_refused_and_counted() -> None:
    floor, _hub, f = parts()
    log = Log("A")
    feed(f, started(log) + a_round(log, 1))
    forged = {**log("settled", round=1, seat=2, bet="primary", stake=1000, outcome="lose", pays=""), "net": "x"}
    f.take("tablectl.A.log", orjson.dumps(forged))
    t = floor.tables["A"]
    assert (f.refused, t.last_seq, t.day.win) == (1, forged["seq"] - 1, 500)  # type: ignore[union-attr]


def test_a_fragment_that_fails_to_render_is_logged_once_and_every_other_update_goes_out(
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    _floor, hub, f = parts()
    a, b = Log("A"), Log("B")
    feed(f, started(a) + started(b))
    floor_page, b_page = hub.join(None), hub.join("B")
    events(floor_page), events(b_page)
    layout = hub.views.layout

    def broken(table: str) -> str:
        if table == "B":
            raise ValueError("cannot render")
        return layout(table)

    monkeypatch.setattr(hub.views, "layout", broken)
    for n in (1, 2):
        feed(f, a_round(a, n)[:3] + a_round(b, n)[:3])
        hub.flush()
        tiles = dict(next(e for e in events(floor_page) if e[0] == "tiles")[1]["tiles"])
        assert all(f'data-round="{n}"' in tiles[t] for t in "AB")
        kinds = [kind for kind, _ in events(b_page)]
        assert kinds[0] == "tile" and "layout" not in kinds
    failures = [r for r in caplog.records if r.exc_info]
    assert len(failures) == 1 and "layout of B" in failures[0].getMessage()


def test_a_stream_created_at_another_time_or_ending_below_what_was_taken_is_another_stream() -> None:
    def info(created: datetime | None, last_seq: int) -> SimpleNamespace:
        return SimpleNamespace(created=created, state=SimpleNamespace(last_seq=last_seq))

    then, later = datetime(2026, 5, 1, 21, tzinfo=UTC), datetime(2026, 5, 1, 22, tzinfo=UTC)
    assert not another_stream(then, 100, info(then, 120))
    assert not another_stream(None, 0, info(then, 5))
    assert another_stream(then, 100, info(later, 120))
    assert another_stream(then, 100, info(then, 40))
