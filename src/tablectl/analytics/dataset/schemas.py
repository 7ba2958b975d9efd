"""The datasets of a surveillance export and their Parquet schemas.

Every dataset is partitioned Hive-style by ``table`` and ``date`` (UTC day, ``YYYY-MM-DD``), in the
directory names (``<dataset>/table=T1/date=2026-11-20/``). The table id is also a text column of
every file, ``table_id`` (a reader that infers partition types would read a table ``0012`` as the
number 12; ``table`` is also an SQL keyword). Amounts are cents; timestamps are UTC microseconds.
"""

from __future__ import annotations

import pyarrow as pa

_TS = pa.timestamp("us", tz="UTC")

#: partition columns, in directory order
PARTITIONS = ("table", "date")

_SCHEMAS: dict[str, pa.Schema] = {
    "rounds": pa.schema([
        ("round_id", pa.string()), ("session", pa.int32()), ("round", pa.int64()), ("game", pa.string()),
        ("decks", pa.int32()), ("rules_id", pa.string()), ("dealer", pa.string()), ("shoe", pa.string()),
        ("start_seq", pa.int64()), ("end_seq", pa.int64()), ("start_ts", _TS), ("end_ts", _TS),
        ("status", pa.string()), ("settlement", pa.string()), ("seats", pa.int32()), ("banker", pa.int32()),
        ("handle", pa.int64()), ("win", pa.int64()), ("theo_win", pa.float64()), ("theo_var", pa.float64()),
        ("violations", pa.int32()), ("holds", pa.int32()),
        ("cards", pa.int32()), ("penetration", pa.float64()),
        ("banker_stake", pa.int64()), ("bank_max_pay", pa.int64()), ("cover_binds", pa.bool_()),
    ]),
    "cards": pa.schema([
        ("seq", pa.int64()), ("ts", _TS), ("event", pa.string()), ("session", pa.int32()), ("shoe", pa.string()),
        ("round", pa.int64()), ("card", pa.string()), ("position", pa.string()), ("face", pa.string()),
        ("hidden", pa.bool_()), ("revealed_seq", pa.int64()), ("device", pa.string()), ("event_no", pa.int64()),
        ("penetration", pa.float64()), ("packet", pa.int64()),
    ]),
    "bets": pa.schema([
        ("seq", pa.int64()), ("ts", _TS), ("round_id", pa.string()), ("round", pa.int64()), ("game", pa.string()),
        ("decks", pa.int32()), ("rules_id", pa.string()), ("dealer", pa.string()), ("seat", pa.int32()),
        ("player", pa.string()), ("bet", pa.string()), ("wager", pa.string()), ("stake", pa.int64()), ("outcome", pa.string()),
        ("pays", pa.string()), ("net", pa.int64()),
    ]),
    "decisions": pa.schema([
        ("seq", pa.int64()), ("ts", _TS), ("round_id", pa.string()), ("round", pa.int64()), ("dealer", pa.string()),
        ("seat", pa.int32()), ("player", pa.string()), ("decision", pa.string()), ("banker", pa.bool_()), ("ev_choice", pa.float64()),
        ("ev_best", pa.float64()), ("best", pa.string()), ("cost_units", pa.float64()), ("cost", pa.float64()),
        ("best_knowing_dealer", pa.string()),
    ]),
    # one row per judged player decision and hidden-information hypothesis its game allows
    # (``tablectl.analytics.export.sightings``): what ``detection.screen.screen`` takes
    "sightings": pa.schema([
        ("seq", pa.int64()), ("round_id", pa.string()), ("round", pa.int64()), ("dealer", pa.string()),
        ("seat", pa.int32()), ("decision", pa.int32()), ("hypothesis", pa.string()),
        ("options", pa.list_(pa.string())), ("choice", pa.string()), ("own", pa.list_(pa.float64())),
        ("hidden", pa.list_(pa.float64())),
    ]),
    "anomalies": pa.schema([
        ("seq", pa.int64()), ("ts", _TS), ("kind", pa.string()), ("round_id", pa.string()), ("device", pa.string()),
        ("detail", pa.string()), ("resolution", pa.string()), ("location", pa.string()),
    ]),
    "shoes": pa.schema([
        ("session", pa.int32()), ("shoe", pa.string()), ("device", pa.string()), ("kind", pa.string()),
        ("serial", pa.string()), ("model", pa.string()), ("start_seq", pa.int64()), ("end_seq", pa.int64()),
        ("start_ts", _TS), ("decks", pa.int32()), ("size", pa.int32()), ("deck_ok", pa.bool_()),
        ("cards_drawn", pa.int32()), ("max_penetration", pa.float64()), ("rounds", pa.int32()),
        ("ended_by", pa.string()), ("quality_test", pa.string()), ("quality_figure", pa.float64()),
        ("quality_expected", pa.float64()), ("quality_p", pa.float64()), ("quality_verdict", pa.string()),
        ("quality_samples", pa.int64()), ("quality_through_seq", pa.int64()), ("open", pa.bool_()),
    ]),
    "devices": pa.schema([
        ("seq", pa.int64()), ("ts", _TS), ("device", pa.string()), ("kind", pa.string()), ("model", pa.string()),
        ("serial", pa.string()), ("firmware", pa.string()), ("event_no_first", pa.int64()),
        ("event_no_last", pa.int64()), ("event_nos_missing", pa.int64()), ("event_nos_duplicated", pa.int64()),
    ]),
    "faults": pa.schema([
        ("seq", pa.int64()), ("ts", _TS), ("device", pa.string()), ("fault", pa.string()), ("cleared", pa.bool_()),
        ("detail", pa.string()), ("event_no", pa.int64()), ("round", pa.int64()),
    ]),
}

#: each dataset's file schema: ``table_id`` first
SCHEMAS: dict[str, pa.Schema] = {name: pa.schema([("table_id", pa.string()), *schema])
                                 for name, schema in _SCHEMAS.items()}

DATASETS: tuple[str, ...] = tuple(SCHEMAS)


def with_partitions(name: str) -> pa.Schema:
    """The schema of ``name`` as a reader sees it: the partition columns first."""
    return pa.schema([("table", pa.string()), ("date", pa.date32()), *SCHEMAS[name]])
