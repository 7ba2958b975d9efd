"""Every player decision of a settled round, judged (pure): ``judge_round(hands, rules, decks)``.

From a round's ``RoundHands`` (what settlement takes, and what review rebuilds from the log) each
player decision is found with what the player could see when making it -- its own cards (One for
the Money: the first card, then after a trade the card traded and the new one), the board dealt
so far (Texas Hold'em Bonus: three cards at the Turn decision, four at the River's), the tied
cards at One Card Poker's tie -- plus, optionally, the other cards a review knows were exposed
(``others``) -- and judged with ``decision_value``: each option's exact value, the best option,
the cost of the choice made, and the best option had the player seen the dealer's cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tablectl.gamemath.decisions.sight import Sight
from tablectl.gamemath.decisions.value import JUDGED, best_knowing_dealer, decision_values
from tablectl.games import one_card_poker as ocp_game
from tablectl.games import one_for_the_money as oftm_game
from tablectl.games import three_card_poker as tcp_game
from tablectl.games import three_card_poker_florida as fl_game
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules import one_card_poker as ocp
from tablectl.rules import one_for_the_money as oftm
from tablectl.rules import texas_holdem_bonus as thb
from tablectl.rules import three_card_poker as tcp
from tablectl.rules import three_card_poker_florida as fl


def main_wager(game_wagers: Iterable[str]) -> str:
    """The initial wager that a decision is valued against and a bet it creates (war, play, raise,
    flop, ...) takes its stake from: the primary bet where the game has one, else the Ante."""
    return "primary" if "primary" in list(game_wagers) else "ante"


_THB_OPTIONS = ((thb.FLOP, thb.FOLD_DECISION), (thb.TURN, thb.CHECK), (thb.RIVER, thb.CHECK))


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """One player decision as the player met it: the seat, its place among the seat's decisions
    (0 first), the options, the choice made and what the player could see."""

    seat: int
    index: int
    options: tuple[str, ...]
    choice: str
    sight: Sight


@dataclass(frozen=True, slots=True)
class JudgedDecision:
    """A decision with each option's exact value (per initial main wager; None: not valued), the
    best option, what the choice cost against it, and the best option knowing the dealer's cards."""

    point: DecisionPoint
    values: dict[str, Fraction | None]
    best: str | None
    cost: Fraction | None
    best_knowing_dealer: str | None


def _seat_points(game: str, seat: SeatHand, hands: RoundHands, others: tuple[int, ...]) -> list[DecisionPoint]:
    made = list(seat.decisions)
    n = seat.seat
    if not made:
        return []
    if game in (tcp.GAME, fl.GAME):
        options = tcp_game.OPTIONS if game == tcp.GAME else fl_game.OPTIONS
        return [DecisionPoint(n, 0, options, made[0], Sight(tuple(seat.cards), others=others))]
    if game == oftm.GAME:
        first = seat.traded[0] if seat.traded else seat.cards[0]
        points = [DecisionPoint(n, 0, oftm_game.FIRST_OPTIONS, made[0], Sight((first,), others=others))]
        if made[0] == oftm.TRADE and len(made) > 1:
            after = Sight((first, seat.cards[0]), others=others, made=(oftm.TRADE,))
            points.append(DecisionPoint(n, 1, oftm_game.AFTER_TRADE, made[1], after))
        return points
    if game == ocp.GAME:
        sight = Sight(tuple(seat.cards), dealer=tuple(hands.dealer[:1]), others=others)
        return [DecisionPoint(n, 0, ocp_game.PLAYER_OPTIONS, made[0], sight)]
    if game == thb.GAME:
        points = []
        for i, choice in enumerate(made[:3]):
            sight = Sight(tuple(seat.cards), board=tuple(hands.board[: (0, 3, 4)[i]]), others=others, made=tuple(made[:i]))
            points.append(DecisionPoint(n, i, _THB_OPTIONS[i], choice, sight))
        return points
    return []


def decision_points(hands: RoundHands, others: Sequence[int] = ()) -> list[DecisionPoint]:
    """Every player decision of the round, in seat order (a banker's choices are not the player's)."""
    out: list[DecisionPoint] = []
    game = hands.game
    for seat in hands.seats:
        if not seat.decisions or (seat.seat == hands.banker_seat and game == ocp.GAME):
            continue
        out += _seat_points(game, seat, hands, tuple(c for c in others if c not in seat.cards) if others else ())
    return out


#: decisions judged before from the player's own sight, by everything that judgement depends on
#: (a floor's rounds meet the same few thousand sights again and again): each option's value,
#: the best option and the cost of the choice; emptied when it reaches :data:`MEMO_LIMIT`, and by
#: ``decision_value.clear_cache`` with the values it was judged from
_memo: dict[tuple[Any, ...], tuple[dict[str, Fraction | None], str | None, Fraction | None]] = JUDGED
MEMO_LIMIT = 200_000


def judge(point: DecisionPoint, game: str, dealer: Sequence[int], rules: Any = None, decks: int = 1) -> JudgedDecision:
    """One decision judged (``dealer``: the dealer's cards, for the best option knowing them)."""
    key = (point, game, rules, decks)
    try:
        own = _memo.get(key)
    except TypeError:  # rules that cannot be a key: judged afresh
        own = _own(point, game, rules, decks)
    else:
        if own is None:
            if len(_memo) >= MEMO_LIMIT:
                _memo.clear()
            own = _memo[key] = _own(point, game, rules, decks)
    values, best, cost = own
    # One Card Poker's sight holds what the player saw of the dealer: the best option knowing the
    # dealer's cards is the best option itself there
    knowing = best if game == ocp.GAME else None
    if dealer and game != ocp.GAME:
        knowing = best_knowing_dealer(game, point.options, point.sight, dealer, rules, decks)
    return JudgedDecision(point, dict(values), best, cost, knowing)


def _own(point: DecisionPoint, game: str, rules: Any,
         decks: int) -> tuple[dict[str, Fraction | None], str | None, Fraction | None]:
    values = decision_values(game, point.options, point.sight, rules, decks)
    best = values.best  # once: the cost is against it
    chosen = values.values.get(point.choice)
    cost = None if best is None or chosen is None else values.values[best] - chosen  # type: ignore[operator]
    return values.values, best, cost


def judge_round(hands: RoundHands, rules: Any = None, decks: int = 1, others: Sequence[int] = ()) -> list[JudgedDecision]:
    """Every player decision of ``hands`` judged (``others``: further cards the players saw)."""
    return [judge(p, hands.game, hands.dealer, rules, decks) for p in decision_points(hands, others)]


__all__ = ["DecisionPoint", "JudgedDecision", "decision_points", "judge", "judge_round"]
