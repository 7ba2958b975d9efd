"""Replay one round from its log lines: cards by position, the game's procedure, the settlement.

Two views of the same lines, checked against each other:

1. **As logged** — each card line says where the card went (``to``): ``seat:N``, ``dealer``,
   ``dp``, ``board``, ``burn``, ``discard``; corrections (an exposed card becomes a burn), trades
   (One for the Money) and identifications (a misread card named by the dealer) amend that. The
   reconstruction pass (:mod:`tablectl.review.reconstruct`) lays the round out this way as it
   reads the lines.
2. **As the procedure says** — the game's own deal script (``tablectl.games``) is walked with
   the controller's own cursor (``tablectl.table.procedure.cursor.RoundCursor``), fed the logged cards and
   decisions in log order. Every card must land where the log says it went; at the end the script
   returns the round's hands, which are settled with the rules engine
   (``tablectl.rules.settle.settle``) and compared, bet by bet, with the ``settled`` lines.

Nothing here knows a game: the script and the rules engine are the single source of each rule
(ARCHITECTURE.md: one settlement engine). The house rules in force come from the log when the
controller records them, else from a table config given to ``tablectl review --config``, else
the defaults (and the report says which).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tablectl.cards import CARD_OF_TEXT
from tablectl.cards import text as card_text
from tablectl.games import GAMES, GameDef
from tablectl.games.procedure import (
    BURN_DEALER_CHANGE,
    BURN_SHUFFLE,
    Phase,
    RoundContext,
    Trade,
)
from tablectl.review.model import (
    BOTH_FAILED,
    COMPLETE,
    MATCH,
    MISMATCH,
    NO_WAGERS,
    NOT_RECOMPUTED,
    NOT_SETTLED,
    REPLAY_FAILED,
    VOIDED,
    RoundRecord,
)
from tablectl.rules.configure import RulesConfigError
from tablectl.rules.errors import SettlementError
from tablectl.rules.houserules import rules_from_dict
from tablectl.rules.settle import settle
from tablectl.table.procedure.cursor import CursorError, RoundCursor

#: burns that are not the procedure's own steps: due after a shuffle / dealer change, or extra
_NOT_SCRIPT_BURNS = frozenset({BURN_SHUFFLE, BURN_DEALER_CHANGE, "extra"})
#: the lines other than card lines that the walk reads (the others, such as round_ended, pass by)
_WALKED = frozenset({"drawn", "decision", "identified", "corrected", "traded", "discarded", "violation"})
_SEAT_NUMBERS = {str(n): n for n in range(1, 100)}  # "3" -> 3 without parsing (``int`` reads the others)
BURN_MISSING = "burn_missing"
SETTLEMENT_FAILED = "settlement_failed"


@dataclass(frozen=True)
class GameRules:
    """The game and its house rules as review applies them to a session's rounds."""

    game: GameDef
    procedure: Any
    settlement: Any
    source: str  # "log", "config <file>", "defaults (not in the log)"


def game_rules(game_id: str, data: Mapping[str, Any] | None, source: str) -> GameRules:
    """The game's procedure and settlement rules from house rules + pay tables given as in a table
    config (``house_rules`` keys and ``pay_tables`` tables); raises ``ValueError`` (one line)."""
    try:
        game = GAMES[game_id]
    except KeyError:
        raise ValueError(f"unknown game {game_id!r}") from None
    house = dict((data or {}).get("house_rules") or {})
    pay_tables = dict((data or {}).get("pay_tables") or {})
    keys = game.procedure_keys()
    procedure = {k: v for k, v in house.items() if k.replace("-", "_") in keys}
    settlement = {k: v for k, v in house.items() if k.replace("-", "_") not in keys}
    settlement.update(pay_tables)
    try:
        return GameRules(game, game.procedure_rules(procedure), rules_from_dict(game_id, settlement), source)
    except RulesConfigError as e:
        raise ValueError(f"house rules: {e}") from None


def _card(text: str | None) -> int | None:
    return CARD_OF_TEXT.get(text)  # type: ignore[arg-type]  # None: a card not read


_CARD_OF = CARD_OF_TEXT.get
_new = tuple.__new__


def replay_round(rnd: RoundRecord, rules: GameRules | None, *, packets: bool, source: str | None) -> None:
    """Check *rnd* against its game's procedure and settle it again: ``rnd.settlement`` (the
    comparison with the logged settlement), ``rnd.recomputed_rows`` and any procedure problems.

    The round's layout (positions, burns, discards, decisions, corrections) is the
    reconstruction's; this walks the same lines through the deal script.
    *rules* None: the game is unknown (no ``table_started`` in the log): nothing to check.
    *packets*: the cards came in packets from a hand-forming shuffler; *source*: the card device.
    """
    problems = rnd.problems
    wagers: dict[int, dict[str, int]] | None = None
    if rnd.wagers is not None:
        try:
            wagers = _wagers(rnd.wagers)
        except ValueError:
            problems.append("the round's wagers are not readable")
    if rules is None:
        rnd.settlement = NOT_RECOMPUTED
        problems.append("the game is not known (no table_started line; give --config): not recomputed")
        return
    try:
        # RoundContext(...) from its fields, as its generated __new__ makes it (one call fewer per round)
        cursor = RoundCursor(rules.game.script,
                             _new(RoundContext, (tuple(rnd.seats), wagers, rnd.banker, packets, rules.procedure)))
    except Exception as e:  # noqa: BLE001 - a script that cannot start on these values
        replay_error: str | None = f"the deal script cannot start: {e}"
    else:
        replay_error = _walk(cursor, rnd.events, source)
    if replay_error is not None:
        problems.append(replay_error)
        rnd.settlement = REPLAY_FAILED
        return
    if rnd.status == VOIDED:
        rnd.settlement = NOT_SETTLED
        return
    if not cursor.done:
        rnd.settlement = NOT_SETTLED
        if rnd.status == COMPLETE:
            problems.append("the round was ended, but its procedure did not complete")
        if rnd.settled:
            rnd.settlement = MISMATCH
            problems.append("settled although the procedure did not complete")
        return
    if wagers is None:
        rnd.settlement = NO_WAGERS if not rnd.settled else MISMATCH
        if rnd.settled:
            problems.append("settled although the round's wagers were not logged")
        return
    hands = cursor.hands
    assert hands is not None
    hands.banker_seat = rnd.banker if rules.game.banker else None
    hands.banker_stake = rnd.banker_stake
    no_wagers: dict[str, int] = {}
    for seat in hands.seats:
        seat.wagers = wagers.get(seat.seat, no_wagers)  # the logged mapping: settling only reads it
    try:
        results = settle(hands, rules.settlement).results
    except SettlementError as e:
        settlement_failed = any(rec.event == "violation" and rec.kind == SETTLEMENT_FAILED for rec in rnd.events)
        if settlement_failed and not rnd.settled:
            rnd.settlement = BOTH_FAILED
        else:
            rnd.settlement = MISMATCH
            problems.append(f"the rules engine refuses the round ({e}), but it was settled")
        return
    rnd.hands = hands
    again: list[tuple[Any, ...]] = results  # type: ignore[assignment]  # each BetResult is such a row
    rnd.recomputed_rows = again
    logged = rnd.settled
    if logged == again:
        rnd.settlement = MATCH
        return
    rnd.settlement = MISMATCH
    problems.append(_first_difference(logged, again))


def _wagers(logged: Mapping[str, Any]) -> dict[int, dict[str, int]]:
    """The round's logged wagers by seat number (raises ValueError for a seat that is not a number).
    Settlement only reads them: a seat's wagers are used as they were parsed, not copied."""
    number = _SEAT_NUMBERS.get
    return {number(seat) or int(seat): bets for seat, bets in logged.items()}


def _walk(cursor: RoundCursor, events: Iterable[Any], source: str | None) -> str | None:
    """Feed a round's records (``tablectl.eventlog.records``), in log order, to its procedure's cursor. Returns the first thing
    the procedure refuses (the line and why), or None when every line follows it.

    The cards of consecutive card lines are checked against the current phase's next steps as
    they come and handed to the cursor together (``place_run``) when the phase is complete or
    before any other line is taken; a card with no such step is placed alone (``place``). That is
    what placing each in turn does: until its phase is complete a card only takes its step."""
    misreads: list[bool] = []  # FIFO: True = a card of the procedure (identified into the cursor)
    last_placed = False
    logged_trades: list[tuple[int, int | None]] = []
    run: list[int | None] = []  # cards checked against the phase's next steps, not handed over yet
    steps: Phase | None = None  # the current phase, while the cursor has not changed since it was read
    at = 0  # the step of ``steps`` the next card takes
    size = 0  # len(steps)

    for rec in events:
        ev = rec.event
        if ev == "dealt":
            text = rec.card
            past_burns = True  # burns due now were not dealt: the card takes the step after them
            last_placed = True
            if text is None:
                misreads.append(True)
        elif ev == "burned":
            text = rec.card
            past_burns = False
            last_placed = rec.reason not in _NOT_SCRIPT_BURNS
            if text is None and (last_placed or rec.device == source):
                misreads.append(last_placed)
            if not last_placed:
                continue
        else:  # not a card of the procedure
            if run:  # the other lines see every card before them placed
                cursor.place_run(run)
                run = []
            steps = None
            if ev not in _WALKED:
                continue
            if ev == "decision":
                seat, choice = rec.seat, rec.decision
                last_placed = False
                try:
                    cursor.decide(seat, choice)  # type: ignore[arg-type]
                except CursorError as e:
                    return f"seq {rec.seq}: decision {choice!r} of seat {seat}: {e}"
            elif ev == "discarded":
                if cursor.discard:
                    try:
                        cursor.discarded(rec.count)
                    except CursorError as e:
                        return f"seq {rec.seq}: discard: {e}"
            elif ev == "drawn":
                last_placed = False
                if rec.card is None and rec.device == source:
                    misreads.append(False)
            elif ev == "identified":
                text = rec.card
                in_script = misreads.pop(0) if misreads else False
                if in_script and cursor.unidentified:
                    try:
                        cursor.identify(_card(text))  # type: ignore[arg-type]
                    except CursorError as e:
                        return f"seq {rec.seq}: identified {text}: {e}"
            elif ev == "corrected":
                text, frm = rec.card, rec.from_
                try:
                    step, card = cursor.retract()
                except CursorError as e:
                    return f"seq {rec.seq}: exposed card {text}: {e}"
                if step.to != frm or card != _card(text):
                    return f"seq {rec.seq}: the exposed card {text} from {frm} is not the last card the procedure placed"
            elif ev == "traded":
                logged_trades.append((rec.seat, _card(rec.card)))  # type: ignore[arg-type]
            elif ev == "violation" and rec.kind == BURN_MISSING and not last_placed:
                cursor.skip_burns()
            continue

        # a card of the procedure
        card = _CARD_OF(text)  # _card(text), without the call
        if steps is None:
            steps, at = cursor.phase, len(cursor.filled)
            size = len(steps)
        if at < size and not (past_burns and steps[at].burn):
            step = steps[at]
            at += 1
            run.append(card)
            if at == size:  # the phase's last card: the script goes on now, as placing it does
                cursor.place_run(run)
                run = []
                steps = None
        else:
            if run:
                cursor.place_run(run)
                run = []
            steps = None
            try:
                step = cursor.place(card, past_burns)
            except CursorError as e:
                return f"seq {rec.seq}: {ev} {text} to {rec.to}: {e}"
        if step.to != rec.to:
            return f"seq {rec.seq}: {text} was logged to {rec.to}; the procedure puts it to {step.to}"
    if run:
        cursor.place_run(run)

    # the script reports its trades as it goes; the cursor keeps them in order until taken
    expected_trades = [(t.seat, t.card) for t in cursor.take_effects() if isinstance(t, Trade)] if cursor.effects else []
    if expected_trades != logged_trades:
        return f"trades logged ({_trades(logged_trades)}) differ from the procedure's ({_trades(expected_trades)})"
    return None


def _trades(trades: list[tuple[int, int]] | list[tuple[int, int | None]]) -> str:
    return ", ".join(f"seat {seat} {card_text(c) if c is not None else '??'}" for seat, c in trades) or "none"


def _first_difference(logged: list[tuple[Any, ...]], again: list[tuple[Any, ...]]) -> str:
    def show(t: tuple[Any, ...]) -> str:
        seat, bet, stake, outcome, pays, net = t
        return f"seat {seat} {bet} {stake / 100:.2f}: {outcome}{' ' + pays if pays else ''} net {net / 100:+.2f}"

    for i, (a, b) in enumerate(zip(logged, again, strict=False)):
        if a != b:
            return f"settlement line {i + 1}: logged {show(a)}; recomputed {show(b)}"
    if len(logged) > len(again):
        return f"logged {len(logged)} settlement lines, the rules engine gives {len(again)}; first extra: {show(logged[len(again)])}"
    return f"logged {len(logged)} settlement lines, the rules engine gives {len(again)}; first missing: {show(again[len(logged)])}"
