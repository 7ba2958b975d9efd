"""Time the exact math (``python bench/bench_math.py [--quick]``; --quick: the quickest figure
only, a smoke run); prints each figure and its time.

Targets (2 cores, pure Python): the Florida variant's full tables (407,170,400 hand pairs each)
in <= 10 s; each side bet in <= 1 s. Not a test: run by hand.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tablectl.gamemath import one_card_poker, one_for_the_money, texas_holdem_bonus, three_card_poker
from tablectl.gamemath.table import BetAnalysis
from tablectl.rules.houserules import OneCardPokerRules, OneForTheMoneyRules


def timed(label: str, run: Callable[[], Any], target: float) -> Any:
    start = time.perf_counter()
    result = run()
    elapsed = time.perf_counter() - start
    verdict = "ok" if elapsed <= target else "OVER TARGET"
    print(f"{label:<58} {elapsed:7.3f} s  (target {target:g} s: {verdict})")
    bets = result if isinstance(result, list) else [result]
    for bet in bets:
        if isinstance(bet, BetAnalysis):
            rules = ", ".join(f"{k}={v}" for k, v in bet.rules.items())
            print(f"    {bet.bet:<15} {rules:<70} house edge {float(bet.house_edge):8.4%}")
    return result


def oftm_side_bets(decks: int) -> list[BetAnalysis]:
    rules = OneForTheMoneyRules()
    return one_for_the_money.analyses(decks, rules)[1:]


def main() -> None:
    import sys

    rules = OneCardPokerRules()
    if "--quick" in sys.argv[1:]:  # a smoke run: the quickest figures only
        timed("one-card-poker (6 decks): Tie, extended", lambda: one_card_poker.tie_wager(6, rules, True), 1)
        return
    print("Full tables (player hand x dealer hand)")
    timed("three-card-poker-florida: Ante + Pairplus (both tie rules)", three_card_poker.florida_variant, 10)
    timed("three-card-poker: Ante/Play with Ante bonus", three_card_poker.ante_play, 10)
    print("Side bets")
    timed("three-card-poker: Pair Plus", three_card_poker.pairplus, 1)
    timed("three-card-poker: 6 Card Bonus", three_card_poker.six_card_bonus, 1)
    timed("one-card-poker (6 decks): Tie, extended", lambda: one_card_poker.tie_wager(6, rules, True), 1)
    timed("one-card-poker (6 decks): Tie, surrendered", lambda: one_card_poker.tie_wager(6, rules, False), 1)
    for decks in (6, 8):
        timed(f"one-for-the-money ({decks} decks): all side bets, with strategy", lambda: oftm_side_bets(decks), 1)
    timed("texas-holdem-bonus: Bonus", texas_holdem_bonus.bonus, 1)


if __name__ == "__main__":
    main()
