"""Surveillance at floor scale: verified card logs as a Hive-partitioned Parquet dataset, asked
questions with embedded DuckDB.

- ``schemas``: the datasets and their pyarrow schemas (one place).
- ``rows``: a verified log (its review and its lines) -> the datasets' rows, each with the ``seq``
  from which it may be exported (a face-down card only once the log has revealed it).
- ``dataset``: the writer (one Parquet file per dataset, table and day for each export, renamed
  into place), the per-table manifest listing each export's files, the one-writer lock, and the
  readers' check of the files against the manifests.
- ``export``: ``export_logs``: review, refuse a tampered log, add only what is new.
- ``expected``: each wager's house edge and exact variance from ``tablectl.gamemath`` under the
  house rules and pay tables in force.
- ``queries`` (and the ``.sql`` files beside it): DuckDB over the dataset; named queries.
- ``floor``, ``floor_render``, ``stats``: the floor report (per table, dealer, day, seat, player
  and shuffler).

See ``docs/surveillance.md``.
"""
