"""Review's walk of a round's lines through the game's deal script (``tablectl.review.replay``).

The walk checks a run of card lines against the phase's steps as it comes and hands the cards to
the cursor together; that must come to what placing each card in turn comes to: the same first
line refused, for the same reason, and the same hands at the end. The reference below is that
one-by-one walk, spelt out with the cursor's single-card calls.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablectl.cards import DECK_SIZE, text
from tablectl.eventlog.records import SCHEMA, Envelope, from_dict
from tablectl.games import GAMES
from tablectl.games.procedure import BURN_DEALER_CHANGE, BURN_SHUFFLE, RoundContext, Trade
from tablectl.review.model import SETTLED_FIELDS
from tablectl.review.replay import _card, _trades, _wagers, _walk
from tablectl.rounds import BetResult
from tablectl.table.procedure.cursor import CursorError, RoundCursor

SOURCE = "shoe"
NOT_SCRIPT_BURNS = {BURN_SHUFFLE, BURN_DEALER_CHANGE, "extra"}


def one_by_one(cursor: RoundCursor, events: Sequence[Mapping[str, Any]], source: str) -> str | None:
    """The walk placing each card as its line comes (the behaviour ``_walk`` keeps)."""
    misreads: list[bool] = []
    last_placed = False
    expected: list[tuple[int, int]] = []
    logged: list[tuple[Any, int | None]] = []
    for rec in events:
        ev = rec["event"]
        if ev in ("dealt", "burned", "drawn"):
            card_text = rec.get("card")
            script_card = ev == "dealt" or (ev == "burned" and rec.get("reason") not in NOT_SCRIPT_BURNS)
            last_placed = script_card
            if card_text is None and (script_card or rec.get("device") == source):
                misreads.append(script_card)
            if not script_card:
                continue
            to = rec.get("to")
            try:
                if ev == "dealt" and (due := cursor.expected()) is not None and due.burn:
                    cursor.skip_burns()
                step = cursor.place(_card(card_text))
            except CursorError as e:
                return f"seq {rec['seq']}: {ev} {card_text} to {to}: {e}"
            if step.to != to:
                return f"seq {rec['seq']}: {card_text} was logged to {to}; the procedure puts it to {step.to}"
        elif ev == "decision":
            last_placed = False
            try:
                cursor.decide(rec.get("seat"), rec.get("decision"))  # type: ignore[arg-type]
            except CursorError as e:
                return f"seq {rec['seq']}: decision {rec.get('decision')!r} of seat {rec.get('seat')}: {e}"
        elif ev == "identified":
            in_script = misreads.pop(0) if misreads else False
            if in_script and cursor.unidentified:
                try:
                    cursor.identify(_card(rec.get("card")))  # type: ignore[arg-type]
                except CursorError as e:
                    return f"seq {rec['seq']}: identified {rec.get('card')}: {e}"
        elif ev == "corrected":
            frm = str(rec.get("from"))
            try:
                step, card = cursor.retract()
            except CursorError as e:
                return f"seq {rec['seq']}: exposed card {rec.get('card')}: {e}"
            if step.to != frm or card != _card(rec.get("card")):
                return f"seq {rec['seq']}: the exposed card {rec.get('card')} from {frm} is not the last card the procedure placed"
        elif ev == "traded":
            logged.append((rec.get("seat"), _card(rec.get("card"))))
        elif ev == "discarded":
            if cursor.discard:
                try:
                    cursor.discarded(int(rec.get("count") or 0))
                except CursorError as e:
                    return f"seq {rec['seq']}: discard: {e}"
        elif ev == "violation":
            if rec.get("kind") == "burn_missing" and not last_placed:
                cursor.skip_burns()
        else:
            continue
        expected += [(t.seat, t.card) for t in cursor.take_effects() if isinstance(t, Trade)]
    if expected != logged:
        return f"trades logged ({_trades(logged)}) differ from the procedure's ({_trades(expected)})"  # type: ignore[arg-type]
    return None


def played(rng: random.Random, game_id: str) -> tuple[RoundContext, list[dict[str, Any]]]:
    """A round of *game_id* dealt by its script with random cards and choices, as logged lines."""
    game = GAMES[game_id]
    seats = sorted(rng.sample(range(1, game.max_seats + 1), rng.randint(1, game.max_seats - 1)))
    banker = next((s for s in range(1, game.max_seats + 2) if s not in seats), None) if game.banker else None
    wagers = {s: {bet: rng.choice((100, 500)) for bet in game.wagers if bet in game.required or rng.random() < 0.5}
              for s in seats}
    ctx = RoundContext(tuple(seats), wagers, banker, "shuffler" in game.devices, game.procedure_rules())
    cursor = RoundCursor(game.script, ctx)
    deck = [c for c in range(DECK_SIZE) for _ in range(6)]
    rng.shuffle(deck)
    lines: list[dict[str, Any]] = []
    while not cursor.done:
        if cursor.decision is not None:
            d = cursor.decision
            choice = rng.choice(d.options)
            lines.append({"event": "decision", "seat": d.seat, "decision": choice})
            cursor.decide(d.seat, choice)
        elif cursor.discard:
            lines.append({"event": "discarded", "count": 10})
            cursor.discarded(10)
        else:
            card = deck.pop()
            step = cursor.place(card)
            if step.burn:
                lines.append({"event": "burned", "card": text(card), "to": step.to, "reason": step.reason})  # type: ignore[union-attr]
            else:
                lines.append({"event": "dealt", "card": text(card), "to": step.to})
        for effect in cursor.take_effects():
            if isinstance(effect, Trade):
                lines.append({"event": "traded", "seat": effect.seat, "card": text(effect.card)})
    lines.append({"event": "round_ended"})
    return ctx, lines


def mistaken(rng: random.Random, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """*lines* with a few random mistakes: lines lost, swapped or repeated, cards misread (and
    identified), misplaced, exposed, burned extra or missing, decisions changed."""
    lines = [dict(line) for line in lines]
    cards = [i for i, line in enumerate(lines) if line["event"] in ("dealt", "burned")]
    for _ in range(rng.randint(0, 3)):
        i = rng.randrange(len(lines))
        kind = rng.randrange(9)
        if kind == 0 and len(lines) > 1:
            del lines[i]
        elif kind == 1 and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif kind == 2:
            lines.insert(i, dict(lines[i]))
        elif kind == 3 and cards:
            j = rng.choice(cards)
            if j < len(lines):
                lines[j]["card"] = None
                lines.insert(rng.randint(j + 1, len(lines)), {"event": "identified", "card": text(rng.randrange(DECK_SIZE))})
        elif kind == 4 and cards:
            j = rng.choice(cards)
            if j < len(lines):
                lines[j]["to"] = rng.choice(["seat:1", "seat:2", "dealer", "dp", "board", "burn"])
        elif kind == 5:
            card = text(rng.randrange(DECK_SIZE))
            lines.insert(i, {"event": "corrected", "card": card, "from": rng.choice(["seat:1", "dealer", "dp"])})
        elif kind == 6:
            reason = rng.choice(["extra", BURN_SHUFFLE, "war"])
            lines.insert(i, {"event": "burned", "card": text(rng.randrange(DECK_SIZE)), "to": "burn", "reason": reason, "device": SOURCE})
        elif kind == 7:
            lines.insert(i, {"event": "violation", "kind": "burn_missing"})
        elif kind == 8 and lines[i]["event"] == "decision":
            lines[i]["decision"] = rng.choice(["play", "fold", "extend", "surrender", "check", "raise", "trade", "stand"])
    return [{**line, "seq": n} for n, line in enumerate(lines, start=1)]


#: what a line of these tests leaves out that its kind requires (the walk reads none of it)
_FILL = {"seq": 0, "ts": "t", "table": "T1", "round": 1, "shoe": 1, "device": SOURCE, "event_no": 1, "to": "burn",
         "from": "seat:1", "detail": "", "complete": True}


def as_records(lines: list[dict[str, Any]]) -> list[Envelope]:
    """*lines* as review reads them: records, each with what its kind requires."""
    envelope = {"seq", "ts", "table"}
    return [from_dict({**{k: v for k, v in _FILL.items() if k in envelope or k in SCHEMA[line["event"]]}, **line})
            for line in lines]


def walked(walk: Any, ctx: RoundContext, game_id: str, lines: list[dict[str, Any]]) -> tuple[Any, ...]:
    cursor = RoundCursor(GAMES[game_id].script, ctx)
    try:
        refused = walk(cursor, as_records(lines) if walk is _walk else lines, SOURCE)
    except Exception as e:  # noqa: BLE001 - a script may refuse what a mistaken log feeds it
        return ("raised", type(e), str(e))
    return (refused, cursor.done, cursor.hands)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(sorted(GAMES)))
def test_checking_a_run_of_cards_at_once_comes_to_placing_each_in_turn(seed: int, game_id: str) -> None:
    rng = random.Random(seed)
    ctx, lines = played(rng, game_id)
    lines = mistaken(rng, lines)
    assert walked(_walk, ctx, game_id, lines) == walked(one_by_one, ctx, game_id, lines)


def test_a_script_that_fails_on_a_completed_phase_fails_before_its_last_card_is_checked() -> None:
    rng = random.Random(3)
    ctx, lines = played(rng, "three-card-poker")
    # no discard after the deal: the players' decisions, which compare each ante stake, come next
    ctx = ctx._replace(packets=False, wagers={s: {"ante": "100"} for s in ctx.seats})  # a stake it cannot compare
    last_card = max(i for i, line in enumerate(lines) if line["event"] == "dealt")
    lines[last_card]["to"] = "seat:9"
    lines = [{**line, "seq": n} for n, line in enumerate(lines, start=1)]
    assert walked(_walk, ctx, "three-card-poker", lines)[0] == "raised"
    assert walked(_walk, ctx, "three-card-poker", lines) == walked(one_by_one, ctx, "three-card-poker", lines)


@pytest.mark.parametrize("logged", [{}, {"3": {"primary": 100}}, {"1": {"ante": 5}, "12": {}, "03": {"tie": 1}}, {" 4 ": {"x": 1}}])
def test_the_logged_wagers_are_read_by_seat_number(logged: dict[str, dict[str, int]]) -> None:
    assert _wagers(logged) == {int(s): w for s, w in logged.items()}


@pytest.mark.parametrize("seat", ["x", "", "1.5", "seat:1"])
def test_a_seat_that_is_not_a_number_makes_the_wagers_unreadable(seat: str) -> None:
    with pytest.raises(ValueError):
        _wagers({"1": {"ante": 5}, seat: {"ante": 5}})


def test_a_recomputed_row_has_a_settled_lines_fields_in_order() -> None:
    assert BetResult._fields == SETTLED_FIELDS
