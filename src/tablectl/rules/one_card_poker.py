"""One Card Poker, six decks, banked by a Designated Player (DP).

Round input (``RoundHands``): each seat's ``cards`` = [its card], ``dealer`` = [the DP's card],
the seat's ``war`` = its (player card, DP card) pairs in the order dealt (burns left out);
``wagers``: ``PRIMARY`` and, optionally, ``TIE``; ``decisions``: none without a rank tie, else
``[EXTEND]``, ``[EXTEND, DP_DECLINES]`` (the DP declined to match) or ``[SURRENDER]``. The
war's matching bet, ``WAR``, is not a wager placed before the deal: its stake is the primary's.

Settlement runs from the dealer's right to left (highest seat first); per seat: primary, war, tie.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from tablectl.cards import is_black, rank
from tablectl.rounds import BetResult, RoundHands, Settlement
from tablectl.rules import seats
from tablectl.rules.coverage import cover
from tablectl.rules.errors import SettlementError
from tablectl.rules.hand1 import compare1
from tablectl.rules.houserules import OneCardPokerRules
from tablectl.rules.payout import LOSE, WIN, Payout, by_sign, pays, top

GAME = "one-card-poker"

PRIMARY = "primary"
TIE = "tie"
WAR = "war"
WAGERS = (PRIMARY, TIE)
BETS = (PRIMARY, WAR, TIE)

EXTEND = "extend"
SURRENDER = "surrender"
DP_DECLINES = "dp-declines"
DECISIONS = (EXTEND, SURRENDER, DP_DECLINES)
ON_TIE = ((EXTEND,), (EXTEND, DP_DECLINES), (SURRENDER,))

SURRENDERED = pays("surrender", Fraction(-1, 2))
DP_DECLINED = pays("dp-declined", 0)
_ACE = 12
_PRIMARY_WINS = ((PRIMARY, WIN),)
_PRIMARY_LOSES = ((PRIMARY, LOSE),)
_WIN, _WIN_PAYS, _LOSE = WIN.outcome, WIN.pays, LOSE.outcome
assert WIN.net(100) == 100 and LOSE.net(100) == -100 and not LOSE.pays  # what the usual seat's results spell out
_new = tuple.__new__  # a BetResult from its six fields, as Payout.result makes it


def war_winner(wars: Sequence[tuple[int, int]]) -> int:
    """``1`` if the player won the war, ``-1`` if the DP did: the first war pair of unequal rank
    decides, and it must be the last pair dealt."""
    for i, (player, dp) in enumerate(wars):
        result = compare1(player, dp)
        if result:
            if i != len(wars) - 1:
                raise SettlementError(f"war cards dealt after the war was decided (pair {i + 1} of {len(wars)})")
            return result
    raise SettlementError("the war is still tied: deal another war pair before settling")


def primary_payouts(
    player: int, dp: int, wars: Sequence[tuple[int, int]], decisions: Sequence[str], rules: OneCardPokerRules
) -> tuple[tuple[str, Payout], ...]:
    """The primary wager (and the war's matching bet, when the hand extends)."""
    first = compare1(player, dp)
    if first:
        if decisions or wars:
            raise SettlementError("no rank tie, so no decision or war may follow")
        return _PRIMARY_WINS if first > 0 else _PRIMARY_LOSES
    made = tuple(decisions)
    if made == (SURRENDER,) or made == (EXTEND, DP_DECLINES):
        if wars:
            raise SettlementError("a hand that does not extend has no war cards")
        if made == (SURRENDER,):
            return ((PRIMARY, SURRENDERED),)
        return ((PRIMARY, DP_DECLINED if rules.dp_declines_war == "push" else WIN),)
    if made == (EXTEND,):
        war = by_sign(war_winner(wars))
        return ((PRIMARY, war), (WAR, war))
    raise SettlementError(f"a rank tie needs one of {[list(d) for d in ON_TIE]}, got {list(made)}")


def consecutive_ties(player: int, dp: int, wars: Sequence[tuple[int, int]]) -> int:
    """How many ties in a row from the initial deal: 0 (none), 1 (the initial tie), 2 (and the
    first war tied) ..."""
    if compare1(player, dp):
        return 0
    ties = 1
    for war_player, war_dp in wars:
        if compare1(war_player, war_dp):
            break
        ties += 1
    return ties


def tie_payout(
    player: int, dp: int, wars: Sequence[tuple[int, int]], extended: bool, rules: OneCardPokerRules
) -> Payout:
    """The Tie wager: one payout, the largest line that applies (a bet is paid once, at the
    largest odds that apply)."""
    ties = consecutive_ties(player, dp, wars if extended else ())
    if not ties or not (extended or rules.tie_pays_without_extension):
        return LOSE
    table = rules.tie_wager
    lines = ["any-tie"]
    if is_black(player) and is_black(dp):
        lines.append("black-tie")
    if rank(player) == _ACE and rank(dp) == _ACE:
        lines.append("ace-tie")
    lines += ["double-tie", "triple-tie", "quad-tie"][: min(ties, 4) - 1]
    best = max(lines, key=table.pays)
    return pays(best, table.pays(best))


def max_bank_pay(wagers: Iterable[Mapping[str, int]], rules: OneCardPokerRules) -> int:
    """The most the DP could pay on ``wagers`` (each seat's wagers placed before the deal, cents)
    whatever the cards and decisions: per seat the primary and the war's matching bet (stake =
    primary) won and the Tie wager's top line. A DP staking at least this settles exactly as
    with no limit."""
    tie = top(rules.tie_wager)
    primaries = ties = 0
    for stakes in wagers:
        primaries += stakes.get(PRIMARY, 0)
        if stakes.get(TIE):  # most seats: no Tie wager
            ties += tie.net(stakes[TIE])
    return 2 * WIN.net(primaries) + ties  # even money: the net of the stakes' sum is the sum of their nets


def settle_round(hands: RoundHands, rules: OneCardPokerRules) -> Settlement:
    """Settle a One Card Poker round (see the module docstring for the input)."""
    dealer = hands.dealer
    if not (len(dealer) == 1 and type(dp := dealer[0]) is int and 0 <= dp < 52):  # seats.exactly's check, inline
        (dp,) = seats.exactly(dealer, 1, "the DP")  # its error
    # cover(stake or None, ...), without the call when payouts are not limited
    limit = (cover(hands.banker_stake, rules.losses_extend_cover)
             if rules.limit_to_banker_stake and hands.banker_stake is not None else None)
    results: list[BetResult] = []
    append = results.append
    dp_rank = dp >> 2
    for seat in seats.players(hands, descending=True):
        stakes, cards = seat.wagers, seat.cards
        if (len(cards) == 1 and type(player := cards[0]) is int and 0 <= player < 52 and player >> 2 != dp_rank
                and not seat.decisions and not seat.war and type(stake := stakes.get(PRIMARY)) is int and stake > 0):
            tie = stakes.get(TIE)
            if len(stakes) == 1 or (len(stakes) == 2 and type(tie) is int and tie > 0):
                # the usual seat: no rank tie, so the primary wins or loses and a Tie wager loses
                # (what the general path below gives it)
                number = seat.seat
                if player >> 2 > dp_rank:
                    result = _new(BetResult, (number, PRIMARY, stake, _WIN, _WIN_PAYS, stake))  # WIN.result(...)
                else:
                    result = _new(BetResult, (number, PRIMARY, stake, _LOSE, "", -stake))  # LOSE.result(...)
                append(result if limit is None else limit.apply(result))
                if tie is not None:
                    result = _new(BetResult, (number, TIE, tie, _LOSE, "", -tie))
                    append(result if limit is None else limit.apply(result))
                continue
        stakes = seats.wagers(seat, WAGERS)
        if not stakes:
            continue
        player = seats.card(seat)
        if PRIMARY in stakes:
            stake = stakes[PRIMARY]
            for bet, payout in primary_payouts(player, dp, seat.war, seat.decisions, rules):
                result = payout.result(seat.seat, bet, stake)
                append(result if limit is None else limit.apply(result, forfeited=payout is SURRENDERED))
        elif seat.decisions or seat.war:
            raise SettlementError(f"seat {seat.seat}: decisions or war cards without a primary wager")
        if TIE in stakes:
            payout = tie_payout(player, dp, seat.war, tuple(seat.decisions) == (EXTEND,), rules)
            result = payout.result(seat.seat, TIE, stakes[TIE])
            append(result if limit is None else limit.apply(result))
    return Settlement(results)
