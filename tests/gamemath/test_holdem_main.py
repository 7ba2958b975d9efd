"""Texas Hold'em Bonus's main game: the fast path's counts against plain loops over every card,
with the rules engine's own evaluator and settlement. (The whole analysis, minutes long, is the
slow test at the end.)"""

from __future__ import annotations

import random
from itertools import combinations, pairwise

import numpy as np
import pytest

from tablectl.gamemath.holdem import main as hm
from tablectl.gamemath.holdem.tables import RANK_KEY, flush, ranks
from tablectl.rules import texas_holdem_bonus as thb
from tablectl.rules.hand7 import best_five
from tablectl.rules.houserules import TexasHoldemBonusRules

REPS, WEIGHTS, LABELS = hm.starting_hands()


def test_the_169_starting_hands_stand_for_the_1326_deals() -> None:
    assert len(LABELS) == 169 and int(WEIGHTS.sum()) == 1326
    assert {"AA", "AKs", "AKo", "72o", "32s"} <= set(LABELS)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_the_lookup_tables_value_hands_as_the_rules_engine_does(size: int) -> None:
    rng = random.Random(size)
    table = ranks(size)
    for i in range(3000):
        if i % 3 == 0:  # a flush at least: five or more of one suit
            suit = rng.randrange(4)
            cards = rng.sample([r * 4 + suit for r in range(13)], 5) + rng.sample(range(52), size - 5)
            cards = list(dict.fromkeys(cards))[:size]
            if len(cards) < size:
                continue
        else:
            cards = rng.sample(range(52), size)
        fast = hm._value(np.array(cards, dtype=np.int64), size, RANK_KEY, table, flush())
        assert fast == best_five(cards), cards


def plain_counts(hole: tuple[int, int], board: list[int]) -> tuple[int, int]:
    """Wins and ties against every dealer hand, one by one."""
    mine = best_five([*hole, *board])
    rest = [c for c in range(52) if c not in hole and c not in board]
    wins = ties = 0
    for dealer in combinations(rest, 2):
        theirs = best_five([*dealer, *board])
        wins += mine > theirs
        ties += mine == theirs
    return wins, ties


def test_wins_and_ties_of_a_board_agree_with_a_count_of_every_dealer_hand() -> None:
    rng = random.Random(7)
    values = np.zeros((52, 52), np.int32)
    wins, ties, player = (np.zeros(169, np.int64) for _ in range(3))
    for _ in range(3):
        board = sorted(rng.sample(range(52), 5))
        hm.board_counts(np.array(board, np.int64), REPS, RANK_KEY, ranks(7), flush(), values, wins, ties, player)
        for r in rng.sample(range(169), 6):
            hole = (int(REPS[r, 0]), int(REPS[r, 1]))
            if set(hole) & set(board):
                assert player[r] == -1
                continue
            assert (wins[r], ties[r]) == plain_counts(hole, board), LABELS[r]


@pytest.mark.parametrize("held", [0, 3])
def test_a_board_holding_no_suit_four_times_counts_the_same_by_rank(held: int) -> None:
    rng = random.Random(11 + held)
    values, pair_value, suited_value = np.zeros((52, 52), np.int32), np.zeros((13, 13), np.int64), np.zeros((13, 13), np.int64)
    expected, by_rank = [tuple(np.zeros(169, np.int64) for _ in range(3)) for _ in range(2)]
    checked = 0
    while checked < 200:
        board = np.array(sorted(rng.sample(range(52), 5)), np.int64)
        suit, times = hm._flush_suit(board)
        if times != held:
            continue
        hm.board_counts(board, REPS, RANK_KEY, ranks(7), flush(), values, *expected)
        hm._rank_counts(board, REPS, RANK_KEY, ranks(7), flush(), suit, np.zeros(52, np.bool_), pair_value, suited_value,
                        *by_rank)
        assert [a.tolist() for a in by_rank] == [a.tolist() for a in expected], board
        checked += 1


def mirrored(cards: list[int]) -> list[int]:
    return sorted(c ^ 1 if c & 2 else c for c in cards)


def test_the_walk_counts_a_turn_node_as_its_boards_counted_one_by_one() -> None:
    four = [1, 18, 34, 47]  # suits 1, 2, 2, 3: its boards' mirrors are other boards
    boards = [sorted([*four, river]) for river in range(52) if river not in four]
    prefixes = np.array(sorted({tuple(b[:3]) for b in boards} | {tuple(mirrored(b)[:3]) for b in boards}), np.int64)
    walked = [np.zeros((hm.NODES, 169), hm.COUNT_DTYPE) for _ in range(4)]
    hm.turn_nodes(prefixes, REPS, RANK_KEY, ranks(7), flush(), hm.BINOM, *walked)
    expected = np.zeros((4, 169), np.int64)
    values = np.zeros((52, 52), np.int32)
    wins, ties, player = (np.zeros(169, np.int64) for _ in range(3))
    for board in boards:
        hm.board_counts(np.array(board, np.int64), REPS, RANK_KEY, ranks(7), flush(), values, wins, ties, player)
        dealt = player >= 0
        category = player >> 20
        expected[0] += np.where(dealt, wins, 0)
        expected[1] += np.where(dealt, hm.DEALER_HANDS - wins - ties, 0)
        expected[2] += np.where(dealt & (category >= hm.STRAIGHT), wins, 0)
        expected[3] += np.where(dealt & (category >= hm.FLUSH), wins, 0)
    node = sum(int(hm.BINOM[c, i + 1]) for i, c in enumerate(four))
    assert [a[node].tolist() for a in walked] == expected.tolist()


def test_the_walk_is_cut_into_runs_of_about_the_boards_asked() -> None:
    sizes = hm.boards_after(hm.board_prefixes())
    runs = hm.runs(sizes, 4000)
    assert runs[0][0] == 0 and runs[-1][1] == len(sizes)
    assert all(stop == first for (_, stop), (first, _) in pairwise(runs))
    assert max(int(sizes[a:b].sum()) for a, b in runs) <= 4000
    assert int(sizes.sum()) == 2_598_960


def net(hole: tuple[int, int], board: list[int], dealer: tuple[int, int], decisions: tuple[str, ...], rules: TexasHoldemBonusRules) -> int:
    """The player's net in Antes, settled by the rules engine."""
    mine, theirs = best_five([*hole, *board]), best_five([*dealer, *board])
    total = sum(thb.MULTIPLE[bet] * payout.odds for bet, payout in thb.main_payouts(mine, theirs, decisions, rules))
    assert total.denominator == 1
    return int(total)


def test_a_turn_node_counted_fast_is_what_the_rules_engine_settles_for_every_river_and_dealer_hand() -> None:
    hole, four = (int(REPS[LABELS.index("KQs"), 0]), int(REPS[LABELS.index("KQs"), 1])), [1, 18, 34, 47]
    r = LABELS.index("KQs")
    values = np.zeros((52, 52), np.int32)
    wins, ties, player = (np.zeros(169, np.int64) for _ in range(3))
    won = lost = straight = flushes = 0
    for river in (c for c in range(52) if c not in hole and c not in four):
        hm.board_counts(np.array(sorted([*four, river]), np.int64), REPS, RANK_KEY, ranks(7), flush(), values, wins, ties, player)
        w, lo = int(wins[r]), hm.DEALER_HANDS - int(wins[r]) - int(ties[r])
        won, lost = won + w, lost + lo
        category = int(player[r]) >> 20
        straight += w if category >= hm.STRAIGHT else 0
        flushes += w if category >= hm.FLUSH else 0
    y = won - lost
    for variant, qualified in (("straight", straight), ("flush", flushes)):
        rules = TexasHoldemBonusRules(ante_pays_from=variant)
        x = qualified + 2 * won - 3 * lost
        for turn in (thb.TURN, thb.CHECK):
            for river_bet in (thb.RIVER, thb.CHECK):
                decisions = (thb.FLOP, turn, river_bet)
                settled = sum(
                    net(hole, [*four, river], dealer, decisions, rules)
                    for river in range(52) if river not in hole and river not in four
                    for dealer in combinations([c for c in range(52) if c not in (*hole, *four, river)], 2)
                )  # fmt: skip
                bets = (turn == thb.TURN) + (river_bet == thb.RIVER)
                assert settled == x + bets * y, (variant, decisions)


def reference_decisions(won: np.ndarray, lost: np.ndarray, qualified: np.ndarray, hole: tuple[int, int]) -> tuple[int, dict[int, bool]]:
    """The decision rule in plain Python over every flop of one starting hand."""
    total, turn_bets = 0, {}
    for flop in combinations([c for c in range(52) if c not in hole], 3):
        sum_y = value = 0
        for t in (c for c in range(52) if c not in hole and c not in flop):
            node = sum(int(hm.BINOM[c, i + 1]) for i, c in enumerate(sorted([*flop, t])))
            y = int(won[node]) - int(lost[node])
            x = int(qualified[node]) + 2 * int(won[node]) - 3 * int(lost[node])
            sum_y += y
            value += x + max(y, 0)
        turn_bets[sum(int(hm.BINOM[c, i + 1]) for i, c in enumerate(flop))] = sum_y > 0
        total += value + max(sum_y, 0)
    return total, turn_bets


def test_the_turn_and_play_decisions_follow_the_rule_on_every_flop() -> None:
    rng = np.random.default_rng(3)
    reps = REPS[[LABELS.index("T9s")]]
    won = rng.integers(0, 30000, size=(1, hm.NODES)).astype(hm.COUNT_DTYPE)
    lost = rng.integers(0, 30000, size=(1, hm.NODES)).astype(hm.COUNT_DTYPE)
    qualified = (won * rng.random((1, hm.NODES)) * 0.2).astype(hm.COUNT_DTYPE)
    play_sum = np.zeros(1, np.int64)
    turn_bet = np.zeros((1, hm.FLOP_NODES), np.bool_)
    river_bet = np.zeros((1, hm.NODES), np.bool_)
    tally = np.zeros((1, 4, 3), np.int64)
    flop_y, flop_check = np.zeros((1, hm.FLOP_NODES), np.int64), np.zeros((1, hm.FLOP_NODES), np.int64)
    hm.decide(0, 1, reps, hm.BINOM, won, lost, qualified, play_sum, turn_bet, river_bet, tally, flop_y, flop_check)
    total, turn_bets = reference_decisions(won[0], lost[0], qualified[0], (int(reps[0, 0]), int(reps[0, 1])))
    assert play_sum[0] == total
    assert all(turn_bet[0, index] == bet for index, bet in turn_bets.items())
    assert int(tally.sum()) == hm.FLOPS * hm.TURNS * hm.RIVERS * hm.DEALER_HANDS


@pytest.mark.slow
def test_the_whole_analysis_folds_the_published_hands_at_the_published_edge(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tablectl.gamemath.holdem.strategy import analyse

    seed, atlantic_city = analyse(tmp_path)
    assert set(seed.folds) == {"72o", "62o", "52o", "42o", "32o"}  # unsuited 2-3 through 2-7
    assert 0.0200 < float(seed.house_edge) < 0.0210  # "a little over 2% of the Ante"
    assert seed.combinations == 1326 * hm.FLOPS * hm.TURNS * hm.RIVERS * hm.DEALER_HANDS
    assert float(atlantic_city.house_edge) > float(seed.house_edge)
