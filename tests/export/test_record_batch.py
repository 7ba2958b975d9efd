"""Rows of a dataset as Arrow and Parquet: what ``PartWriter`` makes of the values it is given."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tablectl.analytics.dataset.schemas import SCHEMAS
from tablectl.analytics.dataset.store import PartWriter, record_batch


def _card(seq: int, ts: str = "2026-11-27T22:49:56.231940Z") -> tuple[object, ...]:
    return ("T1", seq, ts, "dealt", 1, "3", 7, "AS", "seat_2", "up", False, None, "cards", seq + 2, 0.25, None)


def test_a_row_given_as_a_list_makes_the_same_batch_as_one_given_as_a_tuple() -> None:
    rows = [_card(1), _card(2)]

    assert record_batch("cards", [list(r) for r in rows]).equals(record_batch("cards", rows))


def test_a_timestamp_is_read_from_the_logs_text_as_utc_microseconds() -> None:
    batch = record_batch("cards", [_card(1, "2026-11-27T22:49:56.231940Z"), _card(2, None)])  # type: ignore[arg-type]

    assert batch.schema == SCHEMAS["cards"]
    assert batch.column("ts").to_pylist() == [datetime(2026, 11, 27, 22, 49, 56, 231940, tzinfo=timezone.utc), None]


def test_a_value_that_does_not_fit_its_column_is_refused() -> None:
    wrong = list(_card(1))
    wrong[1] = "one"  # seq is a number

    with pytest.raises(pa.ArrowException):
        record_batch("cards", [wrong])


def test_only_the_text_columns_of_a_file_are_dictionary_encoded(tmp_path: Path) -> None:
    out = PartWriter(tmp_path, "T1", 1)
    for seq in range(1, 101):
        out.add_values("cards", "2026-11-27", _card(seq))
    out.commit(100)

    (part,) = out.parts
    columns = pq.ParquetFile(tmp_path / part).metadata.row_group(0)
    encoded = {columns.column(i).path_in_schema for i in range(columns.num_columns)
               if columns.column(i).has_dictionary_page}
    assert encoded == {f.name for f in SCHEMAS["cards"] if pa.types.is_string(f.type)}
