"""Texas Hold'em Bonus with the dealer's hole cards seen, against a brute force of live settlements.

The brute force deals every player hand, dealer hand and 5-card board of a small deck, settles
each through ``settle`` with every bet made (the net of each bet read apart), then takes each
deal in every dealing order (flop set, turn, river; and, with one card seen, either dealer card
as the one seen) and lets the player choose, at each point, what is best for what he sees:
river bets per (hand, seen cards, flop, turn), turn bets per (.., flop), fold or play per hand.
"""

from collections import defaultdict
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations


from tablectl.cards import RANKS, cards
from tablectl.gamemath.advantage import holdem as adv
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules import texas_holdem_bonus as thb
from tablectl.rules.houserules import TexasHoldemBonusRules
from tablectl.rules.settle import settle

# Straights (9-K, T-A), flushes (five spades or hearts), board-played ties: 11 cards.
DECK = cards("9S TS TH JS JH QS QH KS KH AS AH")
EVERY_BET = [thb.FLOP, thb.TURN, thb.RIVER]


@cache
def bet_nets(hole: tuple[int, int], dealer: tuple[int, int], board: tuple[int, ...], ante_pays_from: str) -> tuple[int, int, int]:
    """(Ante + Flop, Turn, River) nets on an Ante of 1 with every bet made."""
    seat = SeatHand(1, list(hole), {thb.ANTE: 1}, list(EVERY_BET))
    rules = TexasHoldemBonusRules(ante_pays_from=ante_pays_from)
    results = settle(RoundHands(thb.GAME, [seat], dealer=list(dealer), board=list(board)), rules).results
    net = {r.bet: r.net for r in results}
    return net[thb.ANTE] + net[thb.FLOP], net[thb.TURN], net[thb.RIVER]


def brute_force(deck: list[int], ante_pays_from: str = "straight") -> dict[str, tuple[Fraction, int]]:
    """Each kind of information: (the player's edge, cases)."""
    return {information: (edge, cases) for information, (edge, cases, _) in brute_force_play(deck, ante_pays_from).items()}


def brute_force_play(deck: list[int], ante_pays_from: str = "straight") -> dict[str, tuple[Fraction, int, dict[str, Fraction]]]:
    """Each kind of information: (the player's edge, cases, share of cases folded by the rank of
    the dealer card seen)."""
    # turn node -> [sum of Ante + Flop, sum of Turn nets, sum of River nets, cases]
    nodes: dict[str, defaultdict[tuple, list[int]]] = {adv.ONE_SEEN: defaultdict(lambda: [0, 0, 0, 0]),
                                                      adv.BOTH_SEEN: defaultdict(lambda: [0, 0, 0, 0])}
    for hole in combinations(deck, 2):
        rest = [c for c in deck if c not in hole]
        for dealer in combinations(rest, 2):
            left = [c for c in rest if c not in dealer]
            for board in combinations(left, 5):
                nets = bet_nets(hole, dealer, board, ante_pays_from)
                for flop in combinations(board, 3):
                    for turn in board:
                        if turn in flop:
                            continue
                        for known, information in (((dealer,), adv.BOTH_SEEN),
                                                   (((dealer[0],), (dealer[1],)), adv.ONE_SEEN)):
                            for seen in known:
                                node = nodes[information][(hole, seen, flop, turn)]
                                for i in range(3):
                                    node[i] += nets[i]
                                node[3] += 1
    out = {}
    for information, by_node in nodes.items():
        flops: defaultdict[tuple, list[int]] = defaultdict(lambda: [0, 0, 0])  # value without Turn bet, Turn sum, cases
        for (hole, seen, flop, _), (base, turn_net, river_net, n) in by_node.items():
            f = flops[(hole, seen, flop)]
            f[0] += base + max(river_net, 0)
            f[1] += turn_net
            f[2] += n
        hands: defaultdict[tuple, list[int]] = defaultdict(lambda: [0, 0])
        for (hole, seen, _), (value, turn_sum, n) in flops.items():
            h = hands[(hole, seen)]
            h[0] += value + max(turn_sum, 0)
            h[1] += n
        total = sum(max(value, -n) for value, n in hands.values())
        cases = sum(n for _, n in hands.values())
        by_rank: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0])  # folded cases, cases
        for (hole, seen), (value, n) in hands.items():
            if len(seen) == 1:
                row = by_rank[RANKS[seen[0] >> 2]]
                row[0] += n if value <= -n else 0
                row[1] += n
        out[information] = (Fraction(total, cases), cases, {r: Fraction(f, n) for r, (f, n) in by_rank.items()})
    return out


def test_edges_with_dealer_hole_cards_seen_equal_a_brute_force_of_live_settlements() -> None:
    expected = brute_force(DECK)
    got = {f.information: (f.player_edge, f.cases) for f in adv.figures(DECK)}
    assert got == expected


def test_fold_shares_by_the_rank_seen_equal_a_brute_force() -> None:
    [one, _] = adv.figures(DECK)
    folded = brute_force_play(DECK)[adv.ONE_SEEN][2]
    expected = "the dealer shows " + ", ".join(f"{r}: fold {float(folded[r]):.2%}" for r in RANKS if r in folded)
    assert one.strategy[-1] == expected


def test_counting_up_to_a_renaming_of_suits_equals_counting_every_hand() -> None:
    deck = cards("9S 9H TS TH JS JH QS QH KS KH AS AH")
    triples = adv.canonical_triples(deck)
    pairs = adv.canonical_pairs(deck)
    every_triple = [(adv.ONE, (a, b, d), 1) for a, b in combinations(deck, 2) for d in deck if d not in (a, b)]
    every_pair = [(adv.BOTH, (a, b, *dealer), 1) for a, b in combinations(deck, 2)
                  for dealer in combinations([c for c in deck if c not in (a, b)], 2)]
    assert len(triples) < len(every_triple) and len(pairs) < len(every_pair)
    canonical = [(adv.ONE, t, w) for t, w in triples] + [(adv.BOTH, p, w) for p, w in pairs]
    counted = [adv.totals((kind, rep, w, adv.count_unit(deck, kind, rep)) for kind, rep, w in units)
               for units in (canonical, every_triple + every_pair)]
    assert counted[0] == counted[1]


def test_the_full_deck_has_as_many_canonical_triples_as_orbits_by_burnside() -> None:
    reps = adv.canonical_triples(range(52))
    deck = range(52)
    fixed = 0  # Burnside: triples left unchanged, summed over the 24 renamings of suits
    for p in permutations(range(4)):
        image = {c: (c & ~3) | p[c & 3] for c in deck}
        fixed += sum(1 for a, b in combinations(deck, 2) for d in deck
                     if d not in (a, b) and image[d] == d and {image[a], image[b]} == {a, b})
    assert sum(w for _, w in reps) == 1326 * 50
    assert len(reps) == fixed // 24


def test_the_full_deck_has_as_many_canonical_pairs_of_hands_as_orbits_by_burnside() -> None:
    reps = adv.canonical_pairs(range(52))
    fixed = 0  # Burnside, per renaming: hole pairs it fixes times dealer pairs it fixes among the rest
    for p in permutations(range(4)):
        image = [(c & ~3) | p[c & 3] for c in range(52)]
        fixed_pairs = [(a, b) for a, b in combinations(range(52), 2) if {image[a], image[b]} == {a, b}]
        fixed += sum(1 for h in fixed_pairs for d in fixed_pairs if not set(h) & set(d))
    assert sum(w for _, w in reps) == 1326 * 1225
    assert len(reps) == fixed // 24


def test_edges_on_a_deck_of_all_four_suits_equal_a_brute_force() -> None:
    deck = cards("9S TS JS QS KS AS TH AH TD AC")  # flushes in one suit, the other suits pair and tie it
    got = {f.information: (f.player_edge, f.cases) for f in adv.figures(deck)}
    assert got == brute_force(deck)


def test_edges_with_the_ante_paid_from_a_flush_equal_a_brute_force() -> None:
    got = {f.information: (f.player_edge, f.cases) for f in adv.figures(DECK, ante_pays_from="flush")}
    assert got == brute_force(DECK, ante_pays_from="flush")
