"""A damaged log read through the front door (``LogReader`` into the ``Reconstructor``): every line
that is not a record of its kind is reported unreadable, just those lines (the schema's one-line
check and the Structs' parse agree), and the rest reconstruct without an exception, whatever their
order, numbering or rounds."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import orjson
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tablectl.eventlog.records import problem
from tablectl.review.logread import LogReader
from tablectl.review.reconstruct import Reconstructor

# Logs shaped like the controller's (rounds of card lines between round_started and round_ended,
# device event numbers counting up), with some damage: a field missing or of another type, a line
# of another round or device, numbers repeated or skipped.
_ODD = st.sampled_from([None, 0, 2.5, "7", True, [], {}, "seat:1"])


@st.composite
def _logs(draw: st.DrawFn) -> list[dict[str, Any]]:
    damage = draw(st.sampled_from([0.0, 0.02, 0.1]))
    kind = draw(st.sampled_from(["shoe", "csm", "shuffler"]))
    lines: list[dict[str, Any]] = []
    number = 0

    def add(event: str, **fields: Any) -> None:
        for key in list(fields):
            if draw(st.floats(0, 1)) < damage:
                if draw(st.booleans()):
                    del fields[key]
                else:
                    fields[key] = draw(_ODD)
        lines.append({"seq": len(lines) + 1, "event": event, "ts": f"t{len(lines) + 1}", "table": "T1", **fields})

    def device(event: str, **fields: Any) -> None:
        nonlocal number
        number += draw(st.sampled_from([1, 1, 1, 1, 0, 2, -3]))
        add(event, device=draw(st.sampled_from([kind] * 8 + ["other"])), event_no=number, **fields)

    if draw(st.integers(0, 5)):  # most logs start where the controller starts them
        add("log_opened", previous=None, event_nos=draw(st.sampled_from([{}, {kind: 3}])))
        add("table_started", game="one-card-poker", decks=6, cap=0.9, seats=7, source=kind, source_kind=kind,
            devices={kind: kind})
    shoe = 1
    for round_no in range(1, draw(st.integers(0, 6)) + 1):
        if draw(st.integers(0, 3)) == 0:
            shoe += 1
            device("shoe_loaded", shoe=shoe, decks=6, cards=312, deck_ok=True)
        add("round_started", round=round_no, seats=[1, 2], wagers={"1": {"primary": 500}}, banker=1,
            banker_stake=10**5, shoe=shoe, dealer=draw(st.sampled_from([None, "Ann"])), last_round=False)
        packet = draw(st.sampled_from([None, 0]))
        for _ in range(draw(st.integers(0, 8))):
            event = draw(st.sampled_from(["dealt", "dealt", "dealt", "burned", "drawn", "returned", "identified",
                                          "settled", "state"]))
            card = draw(st.sampled_from(["AS", "KD", "7H", "2C", None]))
            if event == "burned":
                to = "burn"
            elif event in ("drawn", "returned"):
                to = "discard"
            else:
                to = draw(st.sampled_from(["seat:1", "seat:2", "dp", "burn", "discard"]))
            if event in ("settled", "state"):
                add(event, round=round_no, seat=1, net=100, to="idle")
                continue
            fields: dict[str, Any] = {"card": card, "to": to, "face": "up", "shoe": shoe,
                                      "round": round_no if draw(st.integers(0, 9)) else round_no + 1}
            if kind != "csm":
                fields["penetration"] = draw(st.floats(0, 1, allow_nan=False))
            if packet is not None and kind == "shuffler":
                fields["packet"] = packet
                if draw(st.booleans()):
                    number -= 1  # the next card of the same packet: the same device event
            device(event, **fields)
        if draw(st.integers(0, 5)):
            add("round_ended", round=round_no, complete=draw(st.booleans()))
        if draw(st.integers(0, 9)) == 0:
            add("log_opened", previous="x", event_nos={})
    return lines


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(log=_logs(), keep=st.booleans())
def test_a_damaged_log_reconstructs_and_reports_just_its_damaged_lines(tmp_path: Path, log: list[dict[str, Any]], keep: bool) -> None:
    assume(log)  # an empty file is not a log (review refuses it)
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in log))
    builder = Reconstructor(keep_events=keep)
    reader = LogReader([path], builder.feed)
    reader.read()
    dataclasses.asdict(builder.finish(reader.lines))
    assert [u.line for u in reader.unreadable] == [i for i, line in enumerate(log, start=1) if problem(line) is not None]
