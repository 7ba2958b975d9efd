"""Second moments of two bets of one seat in one round, exact, by the enumerations of the game
math (the same deals, counts and rules functions as the per-bet analyses).

A round's house result is the sum of its bets' results, and its variance the sum of every bet's
variance and twice the covariance of every pair: the bets of a seat move together (One Card
Poker's Tie wager pays on the tie that sends the primary wager to war; a Pair Plus hand raises
the Ante's chance). :class:`JointTally` accumulates the joint outcome counts of two bets, per unit
of each initial wager, and gives their covariance.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import perm

from tablectl.gamemath import one_card_poker as ocp_math
from tablectl.gamemath import three_card_poker as tcp_math
from tablectl.gamemath.threecard import matchups
from tablectl.rules import one_card_poker as ocp
from tablectl.rules import three_card_poker as tcp
from tablectl.rules import three_card_poker_florida as florida
from tablectl.rules.hand3 import QUEEN_HIGH
from tablectl.rules.houserules import FloridaRules, OneCardPokerRules, ThreeCardPokerRules


@dataclass
class JointTally:
    """Counts of equally likely deals with the nets ``x`` and ``y`` of two bets (per unit of each
    bet's initial wager), reduced to the sums the first and second moments need."""

    n: int = 0
    sx: Fraction = Fraction(0)
    sy: Fraction = Fraction(0)
    sxy: Fraction = Fraction(0)
    syy: Fraction = Fraction(0)

    def add(self, x: Fraction, y: Fraction, count: int) -> None:
        self.n += count
        self.sx += x * count
        self.sy += y * count
        self.sxy += x * y * count
        self.syy += y * y * count

    def variance_y(self) -> Fraction:
        """Var(y) over the deals tallied."""
        return self.syy / self.n - (self.sy / self.n) ** 2

    def covariance(self) -> Fraction:
        """Cov(x, y) over the deals tallied (the house's results have the same: both negated)."""
        return self.sxy / self.n - (self.sx / self.n) * (self.sy / self.n)


def one_card_poker(decks: int, rules: OneCardPokerRules) -> dict[tuple[str, str], Fraction]:
    """(primary, tie) of one seat, the player extending every tie (as ``primary_extend`` and
    ``tie_wager(extended=True)``)."""
    tally = JointTally()
    for (player, dp), pairs, count in ocp_math.extended_deals(decks):
        tie = ocp.tie_payout(player, dp, pairs, True, rules).odds
        decisions = [ocp.EXTEND] if player >> 2 == dp >> 2 else []
        if pairs and pairs[-1][0] >> 2 == pairs[-1][1] >> 2:
            endings = [([*pairs, ocp_math._HIGHER], count // 2), ([*pairs, ocp_math._LOWER], count // 2)]
        else:
            endings = [(pairs, count)]
        for war, n in endings:
            primary = ocp_math._net(ocp.primary_payouts(player, dp, war, decisions, rules))
            tally.add(primary, tie, n)
    return {("primary", "tie"): tally.covariance()}


def _ante(player: int, dealer: int, rules: ThreeCardPokerRules | None) -> Fraction:
    """The Ante and Play (and, with ``rules``, the Ante bonus) per unit of Ante."""
    _, net = tcp_math._ante_play(player, dealer)
    if rules is not None and tcp_math.raises(player):
        bonus = tcp.ante_bonus_payout(player, rules.ante_bonus)
        if bonus is not None:
            net += bonus.odds
    return net


def three_card_poker(rules: ThreeCardPokerRules, deals: dict[tuple[int, int], int] | None = None
                     ) -> dict[tuple[str, str], Fraction]:
    """(ante, pairplus) of one seat, the player raising with Q-6-4 or better. ``deals``: the
    ``threecard.matchups`` to count (default: one full deck)."""
    return {("ante", "pairplus"): three_card_tally(rules, deals).covariance()}


def three_card_tally(rules: ThreeCardPokerRules, deals: dict[tuple[int, int], int] | None = None) -> JointTally:
    """The joint tally of one seat's (ante, pairplus) over ``deals`` (default: one full deck)."""
    tally = JointTally()
    for (player, dealer), n in (deals or matchups(tcp_math.DECK, [QUEEN_HIGH])).items():
        tally.add(_ante(player, dealer, rules), tcp.pairplus_payout(player, rules.pairplus).odds, n)
    return tally


def florida_variant(rules: FloridaRules, deals: dict[tuple[int, int], int] | None = None
                    ) -> dict[tuple[str, str], Fraction]:
    """(ante, pairplus) of one seat at Florida Three Card Poker."""
    tally = JointTally()
    for (player, dealer), n in (deals or matchups(tcp_math.DECK, [QUEEN_HIGH])).items():
        tally.add(_ante(player, dealer, None), florida.pairplus_payout(player, dealer, rules).odds, n)
    return {("ante", "pairplus"): tally.covariance()}


def one_card_poker_seats(decks: int, rules: OneCardPokerRules) -> dict[tuple[str, str], Fraction]:
    """Two seats of one round against the same Designated Player's card: the covariance of the
    first seat's bet and the second's, for (primary, primary), (primary, tie), (tie, primary) and
    (tie, tie). Every (seat card, seat card, DP card) is counted by rank and colour from the shoe.
    A tied primary wager's war is won or lost alike whatever the other seat holds (its two war
    cards are exchangeable), so it contributes nothing; a Tie wager's war ties are counted on the
    shoe left after the three cards (``wars``), each tied seat's war on that shoe — the one
    simplification: two seats both tied draw their wars from one shoe, one after the other, and
    the card removal between the two wars is left out."""
    shoe = [4 * decks] * 13
    colours = [(card, 2 * decks) for card in (0, 1)]  # suit 0 black, 1 red: two suits of each
    tie_cache: dict[tuple[int, int, tuple[int, ...]], Fraction] = {}

    def tie(a: int, d: int, rest: list[int]) -> Fraction:
        key = (a, d, tuple(rest))
        if key not in tie_cache:
            size = sum(rest)
            expected = Fraction(0)
            for (t, e), n in ocp_math.wars(rest).items():
                pairs = ocp_math._war_pairs(t, e)
                expected += Fraction(n, perm(size, 2 * len(pairs))) * ocp.tie_payout(a, d, pairs, True, rules).odds
            tie_cache[key] = expected
        return tie_cache[key]

    def draws(counts: list[int], used: list[int]) -> list[tuple[int, int, list[int], list[int]]]:
        """(card, ways, counts after, colours used after) of one card from ``counts`` by rank and colour."""
        out = []
        for r in range(13):
            for suit, per_colour in colours:
                left = per_colour - used[r * 2 + suit]
                if left > 0:
                    after, after_used = counts.copy(), used.copy()
                    after[r] -= 1
                    after_used[r * 2 + suit] += 1
                    out.append((r << 2 | (suit if suit == 1 else 0), left, after, after_used))
        return out

    lost = ocp.tie_payout(_card_of(12, 0), _card_of(0, 0), [], True, rules).odds
    n = Fraction(0)
    sums = dict.fromkeys(("pa", "ta", "pp", "pt", "tt"), Fraction(0))
    for d, wd, c1, u1 in draws(shoe, [0] * 26):
        for a, wa, c2, u2 in draws(c1, u1):
            for b, wb, rest, _ in draws(c2, u2):
                w = wd * wa * wb
                pa = Fraction((a >> 2 > d >> 2) - (a >> 2 < d >> 2))
                pb = Fraction((b >> 2 > d >> 2) - (b >> 2 < d >> 2))
                ta = tie(a, _dp_card(d, a), rest) if a >> 2 == d >> 2 else lost
                tb = tie(b, _dp_card(d, b), rest) if b >> 2 == d >> 2 else lost
                n += w
                sums["pa"] += w * pa
                sums["ta"] += w * ta
                sums["pp"] += w * pa * pb
                sums["pt"] += w * pa * tb
                sums["tt"] += w * ta * tb
    mean_p, mean_t = sums["pa"] / n, sums["ta"] / n
    pt = sums["pt"] / n - mean_p * mean_t
    return {("primary", "primary"): sums["pp"] / n - mean_p * mean_p, ("primary", "tie"): pt, ("tie", "primary"): pt,
            ("tie", "tie"): sums["tt"] / n - mean_t * mean_t}


def _card_of(rank: int, suit: int) -> int:
    return rank << 2 | suit


def _dp_card(dp: int, player: int) -> int:
    """The DP's card as ``tie_payout`` reads it beside ``player`` (distinct suits, same colours)."""
    black = (dp & 3) == 0
    return dp & ~3 | ((3 if (player & 3) == 0 else 0) if black else (2 if (player & 3) == 1 else 1))
