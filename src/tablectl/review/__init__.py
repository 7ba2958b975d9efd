"""Review of card logs: integrity, round replay, anomalies and shuffle quality.

- ``engine``: :func:`tablectl.review.engine.review` — verify, reconstruct, replay, anomalies,
  shuffle quality: everything ``tablectl review`` reports (``docs/review.md``).
- ``logread`` (the records, fast), ``reconstruct`` (one pass: sessions, rounds, shoes, device
  event numbers, violations, holds, faults), ``replay`` (each round through its game's deal script
  and the rules engine), ``anomalies``, ``quality`` (log -> shuffle-quality inputs), ``model``.
- ``report_text``, ``report_html`` and ``svg``: the terminal and the self-contained HTML reports.
- ``shuffle_quality`` and its modules (``position_test``, ``guessing_test``, ``reentry``,
  ``quality_common``, ``shuffle_models``): the shuffle-quality analyses (``docs/shuffle-quality.md``).
"""
