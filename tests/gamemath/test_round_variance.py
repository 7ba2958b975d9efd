"""A round's exact variance (the wagers' variances and covariances from the game math) against an
independent brute-force enumeration of every deal, settled by the rules engine."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations, permutations

import pytest

from tablectl.analytics.expected import moments
from tablectl.analytics.variance import round_variance
from tablectl.gamemath import one_card_poker as ocp_math
from tablectl.gamemath import three_card_poker as tcp_math
from tablectl.gamemath.threecard import matchups
from tablectl.gamemath.variance import joint
from tablectl.rules import one_card_poker as ocp
from tablectl.rules import three_card_poker as tcp
from tablectl.rules.hand3 import QUEEN_HIGH, QUEEN_SIX_FOUR, value3
from tablectl.rules.houserules import OneCardPokerRules, ThreeCardPokerRules


def _variance(results: list[tuple[Fraction, Fraction]] | list[tuple[Fraction, int]]) -> Fraction:
    n = sum(w for _, w in results)
    mean = sum(x * w for x, w in results) / n
    return sum((x - mean) ** 2 * w for x, w in results) / n


def test_a_three_card_poker_round_has_the_variance_of_every_deal_brute_forced() -> None:
    rules = ThreeCardPokerRules()
    # a small deck (every rank that decides: Q-6-4, the dealer's queen, pairs, trips, flushes)
    deck = [r << 2 | s for r in (2, 4, 10, 11, 12) for s in (0, 1, 2)]
    ante, pairplus = 7, 3
    results = []
    for player in combinations(deck, 3):
        rest = [c for c in deck if c not in player]
        p = value3(player)
        pp = tcp.pairplus_payout(p, rules.pairplus).odds * pairplus
        for dealer in combinations(rest, 3):
            if p >= QUEEN_SIX_FOUR:
                a, play = tcp.ante_play_payouts(tcp.showdown(p, value3(dealer)))
                bonus = tcp.ante_bonus_payout(p, rules.ante_bonus)
                net = a.odds + (play.odds if play else 0) + (bonus.odds if bonus else 0)
            else:
                net = tcp.ante_play_payouts(None)[0].odds
            results.append((-(net * ante + pp), 1))
    brute = _variance(results)

    deals = matchups(deck, [QUEEN_HIGH])
    tally = joint.three_card_tally(rules, deals)
    variance = {"ante": moments(tcp_math.ante_play(rules, deals))[1], "pairplus": float(tally.variance_y())}
    covariance = {("ante", "pairplus", "same"): float(tally.covariance()),
                  ("pairplus", "ante", "same"): float(tally.covariance())}
    exact = round_variance({(1, "ante"): ante, (1, "pairplus"): pairplus}, variance, covariance)
    assert exact == pytest.approx(float(brute), rel=1e-12)
    assert exact > ante**2 * variance["ante"] + pairplus**2 * variance["pairplus"]  # the covariance counts


@cache
def _war_results(counts: tuple[int, ...], ties: int) -> dict[tuple[int, int], Fraction]:
    """Every war of a tied hand from a shoe of ``counts`` per rank, pair by pair until a pair is
    decided: (war won +1 or lost -1, war pairs tied) -> probability. After three tied war pairs
    the Tie wager pays the Quad Tie whatever follows and the war is as likely won as lost."""
    total = sum(counts) * (sum(counts) - 1)
    out: dict[tuple[int, int], Fraction] = {}
    for x in range(13):
        for y in range(13):
            ways = counts[x] * (counts[y] - (x == y))
            if not ways:
                continue
            p = Fraction(ways, total)
            if x != y:
                key = ((x > y) - (x < y), ties)
                out[key] = out.get(key, Fraction(0)) + p
            elif ties == 2:
                for sign in (1, -1):
                    out[sign, 3] = out.get((sign, 3), Fraction(0)) + p / 2
            else:
                rest = list(counts)
                rest[x] -= 2
                for key, q in _war_results(tuple(rest), ties + 1).items():
                    out[key] = out.get(key, Fraction(0)) + p * q
    return out


def test_a_one_card_poker_round_has_the_variance_of_every_deal_brute_forced() -> None:
    rules = OneCardPokerRules()
    primary, tie = 5, 2
    results: list[tuple[Fraction, Fraction]] = []
    for a, d in permutations(range(52), 2):  # one deck: the player's card, the DP's
        if a >> 2 != d >> 2:
            net = sum((q.odds for _, q in ocp.primary_payouts(a, d, [], [], rules)), Fraction(0))
            results.append((-(net * primary + ocp.tie_payout(a, d, [], True, rules).odds * tie), Fraction(1)))
            continue
        counts = [4] * 13
        counts[a >> 2] -= 2
        for (sign, ties), p in _war_results(tuple(counts), 0).items():
            war = [(5 << 2, 5 << 2 | 1)] * ties + ([(12 << 2, 1)] if sign > 0 else [(1, 12 << 2)])
            pr = sum((q.odds for _, q in ocp.primary_payouts(a, d, war, [ocp.EXTEND], rules)), Fraction(0))
            results.append((-(pr * primary + ocp.tie_payout(a, d, war, True, rules).odds * tie), p))
    brute = _variance(results)

    variance = {"primary": moments(ocp_math.primary_extend(1, rules))[1],
                "tie": moments(ocp_math.tie_wager(1, rules, extended=True))[1]}
    covariance = {(a, b, "same"): float(v) for (a, b), v in joint.one_card_poker(1, rules).items()}
    covariance |= {(b, a, "same"): v for (a, b, _), v in list(covariance.items())}
    exact = round_variance({(1, "primary"): primary, (1, "tie"): tie}, variance, covariance)
    assert exact == pytest.approx(float(brute), rel=1e-12)
