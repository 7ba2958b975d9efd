"""A settled round's judged decisions as the detection test's rows (pure): each decision valued
again under every hidden-information hypothesis the game allows.

``detection_rows(round_id, hands, judged, rules, decks)`` takes what ``gamemath.decisions.judge.judge_round``
returned for ``hands`` and gives one ``detection.screen.DecisionRow`` per valued decision:
the own-information values, and the values had the seat seen the dealer's K-th dealt card
(``hole:K``), read every dealer card high or low (``edge``), or seen seat J's cards
(``team:J``, for every other player seat of the round). One Card Poker's decision is taken with
the tied cards face up, so only ``team:J`` applies there. The hypotheses of one decision are valued
together (``decision_value.decision_values_many``: a Texas Hold'em Bonus decision's from one walk
over the dealer's hands). Review or export calls this per round and hands the rows of a table (or
a player) to ``detection.screen``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tablectl.detection.screen import DecisionRow
from tablectl.gamemath.decisions.judge import JudgedDecision
from tablectl.gamemath.decisions.sight import HIGH, LOW, Sight, is_high
from tablectl.gamemath.decisions.value import decision_values_many
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules import one_card_poker as ocp
from tablectl.rules import one_for_the_money as oftm


def _held(game: str, seat: SeatHand) -> tuple[int, ...]:
    """The cards a partner could show at the decision (One for the Money: the first card held)."""
    if game == oftm.GAME:
        return tuple(seat.traded[:1] or seat.cards[:1])
    return tuple(seat.cards)


def hypotheses(hands: RoundHands, sight: Sight, seat: int) -> dict[str, Sight]:
    """Each hypothesis's sight for a decision of ``seat`` that saw ``sight`` in ``hands``."""
    out: dict[str, Sight] = {}
    own, board, others, made = sight.own, sight.board, sight.others, sight.made
    dealer = tuple(hands.dealer)
    if hands.game != ocp.GAME and dealer:
        for k in range(len(dealer)):
            out[f"hole:{k + 1}"] = Sight(own, board, tuple(c if i == k else None for i, c in enumerate(dealer)), others, made)
        out["edge"] = Sight(own, board, tuple(HIGH if is_high(c) else LOW for c in dealer), others, made)
    banker = hands.banker_seat
    for other in hands.seats:
        if other.seat == seat or other.seat == banker or not other.cards:
            continue
        extra = tuple(c for c in _held(hands.game, other) if c not in others)
        out[f"team:{other.seat}"] = Sight(own, board, sight.dealer, others + extra, made)
    return out


def detection_rows(round_id: int, hands: RoundHands, judged: Sequence[JudgedDecision], rules: Any = None,
                   decks: int = 1) -> list[DecisionRow]:
    """The rows of ``judged`` (decisions the math values; see the module doc)."""
    rows = []
    for j in judged:
        p = j.point
        if j.best is None or any(v is None for v in j.values.values()):
            continue
        options = p.options
        hidden = {}
        sights = hypotheses(hands, p.sight, p.seat)
        valued = decision_values_many(hands.game, options, list(sights.values()), rules, decks)
        for name, dv in zip(sights, valued, strict=True):
            values = tuple(map(dv.values.get, options))
            if any(v is None for v in values):  # not valued with this seen (Texas Hold'em Bonus's Flop bet)
                continue
            hidden[name] = tuple(map(float, values))  # type: ignore[arg-type]
        rows.append(DecisionRow(round_id, p.seat, options, p.choice, tuple(float(j.values[o]) for o in options),  # type: ignore[arg-type]
                                hidden))
    return rows


__all__ = ["detection_rows", "hypotheses"]
