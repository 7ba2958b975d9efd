"""Detection power: rounds until a seat is flagged, per profile and game
(``python bench/bench_detection.py [--pool N] [--honest N] [--cheats N] [--rounds N] [--alpha A]
[--alternative pure,mixture,both]``).

For each game whose decisions depend on hidden cards, ``--pool`` deals are dealt and valued under
every view (``analytics.simulated_seats.deal_pool``); then ``--honest`` sessions of each honest
profile (basic, recreational) and ``--cheats`` sessions of each advantage profile, ``--rounds``
rounds each, drawn from the pool, are screened by ``detection.screen`` after every decision
(Holm across the game's hypotheses at ``--alpha``), once per statistic's alternative of
``--alternative`` (the same sessions for each). Printed per game, profile and alternative: sessions, how
many were flagged, the median and 90th percentile of the rounds until flagged (over the flagged
ones), and for the honest profiles the false-alarm rate. Seeded; run by hand, not a test.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from tablectl.analytics.simulated_seats import HYPOTHESES, deal_pool, rounds_to_flag, session
from tablectl.detection.screen import ALTERNATIVES
from tablectl.table.simulated.profiles import Profile

PROFILES = (Profile(1, "basic"), Profile(1, "recreational"), Profile(1, "hole-card"), Profile(1, "hole-card", share=0.5),
            Profile(1, "hole-card", card=1), Profile(1, "edge-sort"), Profile(1, "edge-sort", share=0.5), Profile(1, "team"))
HONEST = ("basic", "recreational")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(HYPOTHESES), help="comma-separated games")
    ap.add_argument("--pool", type=int, default=1000, help="deals valued per game (Texas Hold'em Bonus: a fifth)")
    ap.add_argument("--honest", type=int, default=1000, help="sessions per honest profile")
    ap.add_argument("--cheats", type=int, default=100, help="sessions per advantage profile")
    ap.add_argument("--rounds", type=int, default=2000, help="rounds per session")
    ap.add_argument("--alpha", type=float, default=0.01, help="family-wise false-alarm level")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--alternative", default="both",
                    help="comma-separated: pure (hidden information on every decision), mixture (on a share), both (default)")
    ap.add_argument("--profiles", default=None, help="comma-separated profile labels (default: all)")
    a = ap.parse_args()
    print(f"alpha {a.alpha}, {a.rounds} rounds per session, seed {a.seed}")
    alternatives = a.alternative.split(",")
    for alt in alternatives:
        if alt not in ALTERNATIVES:
            ap.error(f"--alternative {alt!r}: expected pure, mixture or both")
    profiles = [p for p in PROFILES if a.profiles is None or p.label() in a.profiles.split(",")]
    print(f"{'game':26} {'profile':16} {'test':8} {'sessions':>8} {'flagged':>8} {'median':>7} {'p90':>7}  false alarms")
    for game in a.games.split(","):
        start = time.perf_counter()
        size = max(10, a.pool // 5) if game == "texas-holdem-bonus" else a.pool
        pool = deal_pool(game, size, random.Random(a.seed))
        gen = np.random.default_rng(a.seed)
        for profile in profiles:
            n = a.honest if profile.kind in HONEST else a.cheats
            hits_by: dict[str, list[int | None]] = {alt: [] for alt in alternatives}
            for _ in range(n):  # each session screened by every alternative
                s = session(pool, profile, a.rounds, gen)
                for alt in alternatives:
                    hits_by[alt].append(rounds_to_flag(s, HYPOTHESES[game], a.alpha, alt))
            for alt, hits in hits_by.items():
                flagged = [h for h in hits if h is not None]
                med = f"{np.median(flagged):.0f}" if flagged else "-"
                p90 = f"{np.percentile(flagged, 90):.0f}" if flagged else "-"
                fa = f"{len(flagged) / n:.2%}" if profile.kind in HONEST else ""
                print(f"{game:26} {profile.label():16} {alt:8} {n:8} {len(flagged):8} {med:>7} {p90:>7}  {fa}", flush=True)
        print(f"{game}: {size} deals pooled, {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
