"""Detection power: rounds until a seat is flagged by the floor's own rule, per profile and game,
beside what each profile gains (``python bench/bench_detection.py [--pool N] [--honest N]
[--cheats N] [--rounds N] [--alpha A] [--floor-sessions N] [--alternative pure,mixture,both]
[--profiles LABELS] [--no-exact]``).

For each game whose decisions depend on hidden cards, ``--pool`` deals are dealt and valued under
every view (``analytics.simulated_seats.deal_pool``); sessions of ``--rounds`` rounds are drawn
from the pool, ``--honest`` of each honest profile (basic, recreational) and ``--cheats`` of each
advantage profile.

The floor's rule (``--floor-sessions N``, default 100): each cheat's session is put on a floor with
N honest sessions of the same length (drawn without replacement from all the honest sessions,
basic and recreational alike) and every test of every session (one per hypothesis of the game) is
corrected together by Holm at ``--alpha`` (default 0.05, the floor's), through the correction
``tablectl floor`` runs (``simulated_seats.floor_flagged``); the round a session is flagged is the
first after which that floor, every session having played as many rounds, flags it. Per honest
profile: ``--cheats`` floors of N sessions of that profile alone (drawn from its ``--honest``),
each at its last round: how many floors flag anyone, and the sessions flagged per floor.
``--floor-sessions 0``: the seat alone, Holm across the game's hypotheses at ``--alpha``.

Printed per game and profile: what the profile knows; sessions, how many were flagged within the
rounds, the median, 90th percentile and range of the rounds until flagged (over the flagged ones),
the median decisions per session that differ from the own-cards best, false alarms (honest
sessions flagged per floor), and the player's gain per round over basic in initial wagers: the
pool's estimate (+- 2 standard errors) and the exact figure of ``gamemath.advantage`` where it has
one (the part-time profiles: the share times the full-time figure), with the profile's exact edge.
Seeded; progress on stderr; run by hand, not a test.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from fractions import Fraction

import numpy as np

from tablectl.analytics.simulated_seats import (
    HYPOTHESES,
    changed,
    deal_pool,
    describe,
    floor_flagged,
    floor_rounds_to_flag,
    p_by_round,
    pool_gain,
    rounds_to_flag,
    session,
)
from tablectl.detection.screen import ALTERNATIVES
from tablectl.table.simulated.profiles import Profile

PROFILES = (Profile(1, "basic"), Profile(1, "recreational"), Profile(1, "hole-card"), Profile(1, "hole-card", share=0.5),
            Profile(1, "hole-card", card=1), Profile(1, "edge-sort"), Profile(1, "edge-sort", share=0.5), Profile(1, "team"))
HONEST = ("basic", "recreational")


def exact_edges(game: str) -> dict[str, Fraction]:
    """The exact player edges (per initial wager) ``gamemath.advantage`` counts for ``game``, by
    profile kind (``basic``: own cards only); kinds it does not count are absent."""
    if game in ("three-card-poker", "three-card-poker-florida"):
        from tablectl.gamemath.analyze import GAMES

        by_info = {f.information: f.player_edge for f in GAMES[game].advantage(1)}
        return {"basic": by_info["own cards only"], "hole-card": by_info["one dealer card seen"],
                "edge-sort": by_info["all three dealer cards read high (Q, K, A) or low"],
                "team": by_info["one other player's three cards seen"]}
    if game == "one-for-the-money":
        from tablectl.gamemath import one_for_the_money
        from tablectl.gamemath.advantage import one_for_the_money as advantage

        return {"basic": -one_for_the_money.main_game(6).house_edge, "hole-card": advantage.one_card_seen(decks=6).player_edge}
    from tablectl.gamemath.advantage import holdem_run

    seen = [f.player_edge for f in holdem_run.cached() if f.information.startswith("one of")]
    return {"hole-card": seen[0]} if seen else {}


def _pct(x: float) -> str:
    return f"{x:+.2%}"


def _exact_gain(edges: dict[str, Fraction], profile: Profile) -> tuple[str, str]:
    """The exact gain over basic and the profile's exact edge, as text ("-": not counted)."""
    if profile.kind in HONEST or profile.kind not in edges or "basic" not in edges:
        return ("-", _pct(float(edges["basic"])) if profile.kind == "basic" and "basic" in edges else "-")
    gain = profile.share * float(edges[profile.kind] - edges["basic"])  # hole-card#K: the dealer's cards are exchangeable
    return _pct(gain), _pct(float(edges["basic"]) + gain)


def _stats(hits: list[int | None]) -> tuple[int, str, str, str]:
    flagged = [h for h in hits if h is not None]
    if not flagged:
        return 0, "-", "-", "-"
    return (len(flagged), f"{np.median(flagged):.0f}", f"{np.percentile(flagged, 90):.0f}",
            f"{min(flagged)}-{max(flagged)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(HYPOTHESES), help="comma-separated games")
    ap.add_argument("--pool", type=int, default=1000, help="deals valued per game (Texas Hold'em Bonus: a fifth)")
    ap.add_argument("--honest", type=int, default=200, help="sessions per honest profile")
    ap.add_argument("--cheats", type=int, default=100, help="sessions per advantage profile (and floors per honest profile)")
    ap.add_argument("--rounds", type=int, default=2000, help="rounds per session")
    ap.add_argument("--alpha", type=float, default=0.05, help="family-wise false-alarm level (the floor's: 0.05)")
    ap.add_argument("--floor-sessions", type=int, default=100,
                    help="honest sessions on the floor beside each one tested (0: the seat alone)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--alternative", default="both",
                    help="comma-separated: pure (hidden information on every decision), mixture (on a share), both (default)")
    ap.add_argument("--profiles", default=None, help="comma-separated profile labels (default: all)")
    ap.add_argument("--no-exact", action="store_true", help="leave out the exact edges (Three Card Poker's first count: a minute)")
    a = ap.parse_args()
    alternatives = a.alternative.split(",")
    for alt in alternatives:
        if alt not in ALTERNATIVES:
            ap.error(f"--alternative {alt!r}: expected pure, mixture or both")
    if a.floor_sessions < 0:
        ap.error("--floor-sessions: expected 0 or more")
    floor = min(a.floor_sessions, 2 * a.honest)  # drawn from the honest sessions of both profiles
    if floor < a.floor_sessions:
        print(f"--floor-sessions {a.floor_sessions}: only {floor} honest sessions (--honest {a.honest} of basic and of "
              f"recreational): floors of {floor}", file=sys.stderr)
    profiles = [p for p in PROFILES if a.profiles is None or p.label() in a.profiles.split(",")]
    rule = (f"the floor's rule: each session among {floor} honest ones of its length, Holm at {a.alpha} across every test"
            if floor else f"the seat alone: Holm across the game's hypotheses at {a.alpha}")
    print(f"{rule}; {a.rounds} rounds per session, seed {a.seed}")
    print("gain: the player's expected gain per round over basic, initial wagers (pool: estimate +- 2 SE; exact: "
          "gamemath.advantage); edge: the profile's exact expected net per initial wager")
    head = (f"{'game':26} {'profile':14} {'test':8} {'sessions':>8} {'flagged':>7} {'median':>6} {'p90':>6} {'range':>10} "
            f"{'changed':>7} {'false/floor':>11} {'gain (pool)':>17} {'gain':>8} {'edge':>8}")
    for game in a.games.split(","):
        start = time.perf_counter()
        size = max(10, a.pool // 5) if game == "texas-holdem-bonus" else a.pool
        print(f"{game}: valuing {size} deals", file=sys.stderr, flush=True)
        pool = deal_pool(game, size, random.Random(a.seed))
        edges: dict[str, Fraction] = {}
        if not a.no_exact:
            print(f"{game}: exact edges", file=sys.stderr, flush=True)
            edges = exact_edges(game)
        gen = np.random.default_rng(a.seed)
        hypotheses = HYPOTHESES[game]
        print(f"{game}: {size} deals pooled; {len(hypotheses)} tests a session ({', '.join(hypotheses)})"
              + (f", {(floor + 1) * len(hypotheses)} on a floor" if floor else ""))
        for p in profiles:
            print(f"  {p.label():14} {describe(game, p)}")
        print(head, flush=True)
        # the honest sessions: one array of p-values by round per session and alternative
        honest: dict[str, dict[str, list[np.ndarray]]] = {alt: {} for alt in alternatives}
        honest_hits: dict[str, dict[str, list[int | None]]] = {alt: {} for alt in alternatives}
        for kind in HONEST:
            if not any(p.kind == kind for p in profiles) and not floor:
                continue
            for i in range(a.honest):
                s = session(pool, Profile(1, kind), a.rounds, gen)
                for alt in alternatives:
                    if floor:
                        honest[alt].setdefault(kind, []).append(p_by_round(s, hypotheses, a.rounds, alt))
                    else:
                        honest_hits[alt].setdefault(kind, []).append(rounds_to_flag(s, hypotheses, a.alpha, alt))
                if (i + 1) % 50 == 0:
                    print(f"{game}: {kind} {i + 1}/{a.honest} sessions", file=sys.stderr, flush=True)
        for p in profiles:
            gain, se = pool_gain(pool, p)
            pool_text = f"{_pct(gain)} +- {2 * se:.2%}" if p.kind not in HONEST else "-"
            exact_gain, exact_edge = _exact_gain(edges, p)
            if p.kind in HONEST:
                for alt in alternatives:
                    if floor:
                        sessions = honest[alt][p.kind]
                        size = min(floor, len(sessions))
                        pick = np.random.default_rng(a.seed)
                        counts = [int(floor_flagged([sessions[j][:, -1] for j in pick.choice(len(sessions), size, replace=False)],
                                                    a.alpha).sum()) for _ in range(a.cheats)]
                        anyone = sum(c > 0 for c in counts)
                        ever = int(floor_flagged([x[:, -1] for x in sessions], a.alpha).sum())
                        print(f"{game:26} {p.label():14} {alt:8} {size:>8} {'-':>7} {'-':>6} {'-':>6} {'-':>10} {'-':>7} "
                              f"{np.mean(counts):>11.3f} {pool_text:>17} {exact_gain:>8} {exact_edge:>8}"
                              f"  ({a.cheats} floors of {size} drawn from {len(sessions)}: {anyone} flag anyone; "
                              f"all {len(sessions)} as one floor: {ever} flagged)", flush=True)
                    else:
                        n, med, p90, span = _stats(honest_hits[alt][p.kind])
                        print(f"{game:26} {p.label():14} {alt:8} {a.honest:>8} {n:>7} {med:>6} {p90:>6} {span:>10} {'-':>7} "
                              f"{n / a.honest:>11.2%} {pool_text:>17} {exact_gain:>8} {exact_edge:>8}", flush=True)
                continue
            hits: dict[str, list[int | None]] = {alt: [] for alt in alternatives}
            false: dict[str, list[int]] = {alt: [] for alt in alternatives}
            moved: list[int] = []
            bank = {alt: [x for kind in HONEST for x in honest[alt].get(kind, [])] for alt in alternatives}
            for i in range(a.cheats):
                s = session(pool, p, a.rounds, gen)
                moved.append(changed(s))
                others = gen.choice(len(bank[alternatives[0]]), floor, replace=False) if floor else []
                for alt in alternatives:
                    if floor:
                        hit, fa = floor_rounds_to_flag(p_by_round(s, hypotheses, a.rounds, alt), [bank[alt][j] for j in others], a.alpha)
                        hits[alt].append(hit)
                        false[alt].append(fa)
                    else:
                        hits[alt].append(rounds_to_flag(s, hypotheses, a.alpha, alt))
                if (i + 1) % 25 == 0:
                    print(f"{game}: {p.label()} {i + 1}/{a.cheats} sessions", file=sys.stderr, flush=True)
            for alt in alternatives:
                n, med, p90, span = _stats(hits[alt])
                fa = f"{np.mean(false[alt]):.3f}" if floor else "-"
                print(f"{game:26} {p.label():14} {alt:8} {a.cheats:>8} {n:>7} {med:>6} {p90:>6} {span:>10} "
                      f"{np.median(moved):>7.0f} {fa:>11} {pool_text:>17} {exact_gain:>8} {exact_edge:>8}", flush=True)
        print(f"{game}: {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
