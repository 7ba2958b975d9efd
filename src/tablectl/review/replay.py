"""Replay one round from its log lines: cards by position, the game's procedure, the settlement.

Two views of the same lines, checked against each other:

1. **As logged** — each card line says where the card went (``to``): ``seat:N``, ``dealer``,
   ``dp``, ``board``, ``burn``, ``discard``; corrections (an exposed card becomes a burn), trades
   (One for the Money) and identifications (a misread card named by the dealer) amend that. The
   reconstruction pass (:mod:`tablectl.review.reconstruct`) lays the round out this way as it
   reads the lines.
2. **As the procedure says** — the game's own deal script (``tablectl.games``) is walked with
   the controller's own cursor (``tablectl.table.cursor.RoundCursor``), fed the logged cards and
   decisions in log order. Every card must land where the log says it went; at the end the script
   returns the round's hands, which are settled with the rules engine
   (``tablectl.rules.settle.settle``) and compared, bet by bet, with the ``settled`` lines.

Nothing here knows a game: the script and the rules engine are the single source of each rule
(ARCHITECTURE.md: one settlement engine). The house rules in force come from the log when the
controller records them, else from a table config given to ``tablectl review --config``, else
the defaults (and the report says which).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from typing import Any

from tablectl.cards import RANKS, SUITS, CardError
from tablectl.cards import card as parse_card
from tablectl.cards import text as card_text
from tablectl.games import GAMES, GameDef
from tablectl.games.procedure import (
    BURN_DEALER_CHANGE,
    BURN_SHUFFLE,
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
    SETTLED_FIELDS,
    VOIDED,
    RoundRecord,
)
from tablectl.rules.configure import RulesConfigError
from tablectl.rules.errors import SettlementError
from tablectl.rules.houserules import rules_from_dict
from tablectl.rules.settle import settle
from tablectl.table.cursor import CursorError, RoundCursor

#: burns that are not the procedure's own steps: due after a shuffle / dealer change, or extra
_NOT_SCRIPT_BURNS = frozenset({BURN_SHUFFLE, BURN_DEALER_CHANGE, "extra"})
_LOGGED = itemgetter(*SETTLED_FIELDS)
_RESULT = attrgetter(*SETTLED_FIELDS)
_CARDS = {r + s: int(parse_card(r + s)) for r in RANKS for s in SUITS}
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


def _card(text: Any) -> int | None:
    if text is None:
        return None
    c = _CARDS.get(text)
    if c is not None:
        return c
    try:
        return int(parse_card(text))
    except (CardError, AttributeError):
        return None


def replay_round(rnd: RoundRecord, rules: GameRules | None, *, packets: bool, source: str | None) -> None:
    """Check *rnd* against its game's procedure and settle it again: ``rnd.settlement`` (the
    comparison with the logged settlement), ``rnd.recomputed_rows`` and any procedure problems.

    The round's layout (positions, burns, discards, decisions, corrections) is the
    reconstruction's; this walks the same lines through the deal script.
    *rules* None: the game is unknown (no ``table_started`` in the log): nothing to check.
    *packets*: the cards came in packets from a hand-forming shuffler; *source*: the card device.
    """
    problems = rnd.problems
    cursor: RoundCursor | None = None
    wagers: dict[int, dict[str, int]] | None = None
    if rnd.wagers is not None:
        try:
            wagers = {int(s): dict(w) for s, w in rnd.wagers.items()}
        except (TypeError, ValueError, AttributeError):
            problems.append("the round's wagers are not readable")
    replay_error: str | None = None
    if rules is not None:
        try:
            ctx = RoundContext(tuple(rnd.seats), wagers, rnd.banker, packets, rules.procedure)
            cursor = RoundCursor(rules.game.script, ctx)
        except Exception as e:  # noqa: BLE001 - a script that cannot start on these values
            replay_error = f"the deal script cannot start: {e}"
    misreads: list[bool] = []  # FIFO: True = a card of the procedure (identified into the cursor)
    last_placed = False
    expected_trades: list[tuple[int, int]] = []
    logged_trades: list[tuple[int, int | None]] = []
    settlement_failed = False

    for rec in rnd.events:
        ev = rec["event"]
        if ev == "dealt" or ev == "burned" or ev == "drawn":
            text = rec.get("card")
            if ev == "dealt":
                script_card = True
            elif ev == "burned":
                script_card = rec.get("reason") not in _NOT_SCRIPT_BURNS
            else:
                script_card = False
            last_placed = script_card
            if text is None and (script_card or rec.get("device") == source):
                misreads.append(script_card)
            if not script_card or cursor is None or replay_error:
                continue
            to = rec.get("to")
            card = _card(text)
            try:
                if ev == "dealt":
                    step = cursor.expected()
                    if step is not None and step.burn:
                        cursor.skip_burns()  # the controller's "burn missing": the card takes the next step
                step = cursor.place(card)
            except CursorError as e:
                replay_error = f"seq {rec['seq']}: {ev} {text} to {to}: {e}"
                continue
            if step.to != to:
                replay_error = f"seq {rec['seq']}: {text} was logged to {to}; the procedure puts it to {step.to}"
                continue
            if cursor.effects:
                expected_trades += [(t.seat, t.card) for t in cursor.take_effects() if isinstance(t, Trade)]
        elif ev == "decision":
            seat, choice = rec.get("seat"), rec.get("decision")
            last_placed = False
            if cursor is not None and not replay_error:
                try:
                    cursor.decide(seat, choice)  # type: ignore[arg-type]
                except CursorError as e:
                    replay_error = f"seq {rec['seq']}: decision {choice!r} of seat {seat}: {e}"
                    continue
                if cursor.effects:
                    expected_trades += [(t.seat, t.card) for t in cursor.take_effects() if isinstance(t, Trade)]
        elif ev == "identified":
            text = rec.get("card")
            in_script = misreads.pop(0) if misreads else False
            if in_script and cursor is not None and not replay_error and cursor.unidentified:
                try:
                    cursor.identify(_card(text))  # type: ignore[arg-type]
                except CursorError as e:
                    replay_error = f"seq {rec['seq']}: identified {text}: {e}"
                    continue
                if cursor.effects:
                    expected_trades += [(t.seat, t.card) for t in cursor.take_effects() if isinstance(t, Trade)]
        elif ev == "corrected":
            text, frm = rec.get("card"), str(rec.get("from"))
            if cursor is not None and not replay_error:
                try:
                    step, card = cursor.retract()
                except CursorError as e:
                    replay_error = f"seq {rec['seq']}: exposed card {text}: {e}"
                    continue
                if step.to != frm or card != _card(text):
                    replay_error = f"seq {rec['seq']}: the exposed card {text} from {frm} is not the last card the procedure placed"
        elif ev == "traded":
            logged_trades.append((rec.get("seat"), _card(rec.get("card"))))  # type: ignore[arg-type]
        elif ev == "discarded":
            if cursor is not None and not replay_error and cursor.discard:
                try:
                    cursor.discarded(int(rec.get("count") or 0))
                except CursorError as e:
                    replay_error = f"seq {rec['seq']}: discard: {e}"
        elif ev == "violation":
            kind = rec.get("kind")
            if kind == BURN_MISSING and not last_placed and cursor is not None and not replay_error:
                cursor.skip_burns()
            elif kind == SETTLEMENT_FAILED:
                settlement_failed = True

    if replay_error is None and expected_trades != logged_trades and cursor is not None:
        replay_error = (f"trades logged ({_trades(logged_trades)}) differ from the procedure's "
                        f"({_trades(expected_trades)})")
    if replay_error is not None:
        problems.append(replay_error)
        rnd.settlement = REPLAY_FAILED
        return
    if rules is None or cursor is None:
        rnd.settlement = NOT_RECOMPUTED
        problems.append("the game is not known (no table_started line; give --config): not recomputed")
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
    for seat in hands.seats:
        seat.wagers = dict(wagers.get(seat.seat, {}))
    try:
        results = settle(hands, rules.settlement).results
    except SettlementError as e:
        if settlement_failed and not rnd.settled:
            rnd.settlement = BOTH_FAILED
        else:
            rnd.settlement = MISMATCH
            problems.append(f"the rules engine refuses the round ({e}), but it was settled")
        return
    again = list(map(_RESULT, results))
    rnd.recomputed_rows = again
    try:
        logged = list(map(_LOGGED, rnd.settled))
    except KeyError:  # a settled line without every field
        logged = [tuple(s.get(f) for f in SETTLED_FIELDS) for s in rnd.settled]
    if logged == again:
        rnd.settlement = MATCH
        return
    rnd.settlement = MISMATCH
    problems.append(_first_difference(logged, again))


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
