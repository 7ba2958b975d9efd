"""Review of card logs: integrity, round replay, anomalies and shuffle quality.

- ``engine``: :func:`tablectl.review.engine.review` — verify, reconstruct, replay, anomalies,
  shuffle quality: everything ``tablectl review`` reports (``docs/review.md``).
- ``logread`` (the records, fast), ``reconstruct`` (one pass: sessions, rounds, shoes, device
  event numbers, violations, holds, faults), ``replay`` (each round through its game's deal script
  and the rules engine), ``anomalies``, ``model``, ``seat_decisions``.
- ``report``: the terminal and the self-contained HTML reports.
- ``shuffle``: the shuffle-quality analyses and their inputs from the log (``docs/shuffle-quality.md``).
"""
