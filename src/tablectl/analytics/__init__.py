"""Surveillance at floor scale: verified card logs as a Hive-partitioned Parquet dataset, asked
questions with embedded DuckDB.

- ``dataset``: the datasets' schemas, the writer, manifests and lock, the readers' check, and
  DuckDB's named queries.
- ``export``: a verified log -> the datasets' rows (a face-down card only once the log has
  revealed it); review, refuse a tampered log, add only what is new.
- ``floor``: the floor report (per table, dealer, day, seat, player and shuffler), its alarms and
  its text and HTML.
- ``approved``: the game math the house approved; ``expected``, ``variance``, ``bank``: each
  wager's exact edge and variance and the bank's, from ``tablectl.gamemath``.
- ``simulated_seats``: seeded simulated seats, for the detection power of ``tablectl.detection``.

See ``docs/surveillance.md``.
"""
