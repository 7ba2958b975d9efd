"""Decisions valued per second (``python bench/bench_decisions.py [--decisions N] [--seed S]``).

For each game, N decisions drawn as a table deals them (random deals, seat's own cards, half of
them with the dealer's first card seen, as a hole-carder's), valued by
``gamemath.decisions.value.decision_values``: once from a cold cache (every deal new to it), then
the same stream again (warm: what a long log's repeats cost). Beside it, in the same run, the
baseline: Three Card Poker valued by settling every dealer deal with the rules engine's ``settle``
(a few decisions); the figure to read is the ratio. Not a test: run by hand.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations

from tablectl.gamemath.decisions.judge import judge_round
from tablectl.gamemath.decisions.value import Sight, clear_cache, decision_values
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules.settle import settle

Draw = Callable[[random.Random], tuple[str, tuple[str, ...], Sight, int]]


def _hole(rng: random.Random, dealer: list[int], size: int) -> tuple[int | None, ...]:
    return (dealer[0],) + (None,) * (size - 1) if rng.random() < 0.5 else ()


def three_card(rng: random.Random) -> tuple[str, tuple[str, ...], Sight, int]:
    deck = rng.sample(range(52), 6)
    return "three-card-poker", ("play", "fold"), Sight(tuple(deck[:3]), dealer=_hole(rng, deck[3:], 3)), 1


def one_for_the_money(rng: random.Random) -> tuple[str, tuple[str, ...], Sight, int]:
    deck = rng.sample(range(52), 3)
    return "one-for-the-money", ("check", "raise", "trade"), Sight((deck[0],), dealer=_hole(rng, deck[1:], 2)), 6


def holdem_river(rng: random.Random) -> tuple[str, tuple[str, ...], Sight, int]:
    deck = rng.sample(range(52), 8)
    sight = Sight(tuple(deck[:2]), board=tuple(deck[4:8]), dealer=_hole(rng, deck[2:4], 2), made=("flop", "check"))
    return "texas-holdem-bonus", ("river", "check"), sight, 1


def holdem_turn(rng: random.Random) -> tuple[str, tuple[str, ...], Sight, int]:
    deck = rng.sample(range(52), 7)
    sight = Sight(tuple(deck[:2]), board=tuple(deck[4:7]), dealer=_hole(rng, deck[2:4], 2), made=("flop",))
    return "texas-holdem-bonus", ("turn", "check"), sight, 1


def baseline_three_card(sight: Sight) -> dict[str, Fraction]:
    """Three Card Poker by settling every dealer hand (no hole card: 18,424 hands, two options)."""
    unseen = [c for c in range(52) if c not in sight.seen()]
    out = {}
    for option in ("play", "fold"):
        total = Fraction(0)
        hands = list(combinations(unseen, 3))
        for dealer in hands:
            seat = SeatHand(1, list(sight.own), {"ante": 100}, [option])
            total += sum(r.net for r in settle(RoundHands("three-card-poker", [seat], dealer=list(dealer))).results)
        out[option] = total / 100 / len(hands)
    return out


def _tcp_round(rng: random.Random) -> RoundHands:
    deck = rng.sample(range(52), 21)
    seats = [SeatHand(s, deck[3 * s : 3 * s + 3], {"ante": 500}, [rng.choice(("play", "fold"))]) for s in range(1, 7)]
    return RoundHands("three-card-poker", seats, dealer=deck[:3])


def rate(stream: list[tuple[str, tuple[str, ...], Sight, int]]) -> float:
    start = time.perf_counter()
    for game, options, sight, decks in stream:
        decision_values(game, options, sight, decks=decks)
    return len(stream) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    draws: dict[str, tuple[Draw, int]] = {
        "three-card-poker play/fold": (three_card, args.decisions),
        "one-for-the-money check/raise/trade": (one_for_the_money, args.decisions),
        "texas-holdem-bonus river bet/check": (holdem_river, max(1, args.decisions // 10)),
        "texas-holdem-bonus turn bet/check": (holdem_turn, max(1, args.decisions // 100)),
    }
    decision_values(*holdem_river(rng)[:3])  # compile the numba loop outside the timing
    print(f"{'decision':<40} {'n':>6} {'cold/s':>10} {'warm/s':>12}")
    for label, (draw, n) in draws.items():
        stream = [draw(rng) for _ in range(n)]
        clear_cache()
        cold = rate(stream)
        warm = rate(stream)
        print(f"{label:<40} {n:>6} {cold:>10.0f} {warm:>12.0f}")
    rounds = [_tcp_round(rng) for _ in range(max(1, args.decisions // 6))]
    clear_cache()
    start = time.perf_counter()
    judged = sum(len(judge_round(hands)) for hands in rounds)
    elapsed = time.perf_counter() - start
    print(f"three-card-poker rounds of 6 seats judged (values, cost, best knowing the dealer): "
          f"{judged} decisions, {judged / elapsed:.0f}/s from a cold cache")
    sights = [three_card(rng)[2] for _ in range(3)]
    sights = [Sight(s.own) for s in sights]
    start = time.perf_counter()
    for s in sights:
        baseline_three_card(s)
    base = len(sights) / (time.perf_counter() - start)
    many = [Sight(three_card(rng)[2].own) for _ in range(max(3, args.decisions // 10))]
    clear_cache()
    start = time.perf_counter()
    for s in many:
        decision_values("three-card-poker", ("play", "fold"), s)
    ours = len(many) / (time.perf_counter() - start)
    print(f"three-card-poker, no hole card, cold: {ours:.0f}/s against settling every dealer hand {base:.2f}/s: "
          f"{ours / base:.0f}x")


if __name__ == "__main__":
    main()
