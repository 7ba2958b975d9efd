"""One Card Poker with the DP's war card seen, against a brute force of live settlements.

The brute force deals every ordered sequence of physical cards of a small shoe (player, DP, the
DP's war card, the player's war card), settles extend and surrender as live rounds through
``settle`` (a war pair that ties again: half won, half lost, the average of both settlements) and
lets the player take the better choice for what he sees.
"""

from collections import defaultdict
from fractions import Fraction
from itertools import permutations

from tablectl.cards import cards
from tablectl.gamemath.advantage import one_card_poker as adv
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules import one_card_poker as ocp
from tablectl.rules.settle import settle

SHOE = cards("2S 2H 2D 7S 7H 9C KS KD AS AH")
LOW, HIGH = cards("3C AC")  # a decisive war pair after a tied one, either way


def net(player: int, dp: int, decisions: list[str], war: list[tuple[int, int]]) -> int:
    seat = SeatHand(1, [player], {ocp.PRIMARY: 2}, decisions)
    seat.war = war
    return settle(RoundHands(ocp.GAME, [seat], dealer=[dp])).net_for(1)


def brute_force(shoe: list[int]) -> tuple[Fraction, int]:
    extend: defaultdict[tuple[int, int], Fraction] = defaultdict(Fraction)  # (tie rank, war card rank)
    surrender: defaultdict[tuple[int, int], Fraction] = defaultdict(Fraction)
    total, cases = Fraction(0), 0
    for player, dp, dp_war, player_war in permutations(shoe, 4):
        cases += 1
        if player >> 2 != dp >> 2:
            total += net(player, dp, [], [])
            continue
        key = (player >> 2, dp_war >> 2)
        if player_war >> 2 == dp_war >> 2:
            wars = [[(player_war, dp_war), (HIGH, LOW)], [(player_war, dp_war), (LOW, HIGH)]]
            extend[key] += Fraction(sum(net(player, dp, [ocp.EXTEND], w) for w in wars), 2)
        else:
            extend[key] += net(player, dp, [ocp.EXTEND], [(player_war, dp_war)])
        surrender[key] += net(player, dp, [ocp.SURRENDER], [])
    total += sum(max(extend[k], surrender[k]) for k in extend)
    return total / 2 / cases, cases  # per unit of the primary (a stake of 2)


def counts(shoe: list[int]) -> list[int]:
    out = [0] * 13
    for c in shoe:
        out[c >> 2] += 1
    return out


def test_edge_with_the_dps_war_card_seen_equals_a_brute_force_of_live_settlements() -> None:
    figure = adv.war_card_seen(counts(SHOE))
    assert (figure.player_edge, figure.cases) == brute_force(SHOE)


def test_seeing_the_war_card_surrenders_ties_against_a_high_war_card_only() -> None:
    figure = adv.war_card_seen(decks=6)
    assert figure.strategy == ("the DP's war card is T-A: surrender any tie", "otherwise extend every tie")
    assert figure.player_edge > 0
