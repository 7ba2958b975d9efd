"""Every reader opens every dataset as it stands, with the documented recipes (docs/surveillance.md,
"Reading the dataset elsewhere"): DuckDB, pyarrow and polars count the same rows, and the table id
stays text (``table_id``) even for a table named like a number, on a full floor and an empty one."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from exporthelpers import Tablectl
from floorgen import Floor
from readers import duckdb_recipe, faults_only_dataset, polars_recipe, pyarrow_recipe, tablectl_counts

from tablectl.analytics.dataset.schemas import DATASETS


@pytest.fixture(scope="module")
def numeric_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A dataset of table ``0012`` whose log holds two faults and nothing else: every dataset but
    ``faults`` is empty."""
    return faults_only_dataset(tmp_path_factory.mktemp("numeric"))


def test_every_reader_opens_every_dataset_of_an_almost_empty_table_named_like_a_number(numeric_table: Path) -> None:
    counts = tablectl_counts(numeric_table)
    assert counts["faults"] == 2 and counts["rounds"] == counts["cards"] == counts["shoes"] == 0
    for name in DATASETS:
        for recipe in (duckdb_recipe, pyarrow_recipe, polars_recipe):
            n, ids, kind = recipe(numeric_table, name)
            assert n == counts[name], (recipe.__name__, name)
            assert ids <= {"0012"} and kind.lower() in ("string", "varchar", "large_string"), (recipe.__name__, name)


def test_every_reader_opens_every_dataset_of_the_small_floor_with_the_same_counts(small_floor: Floor,
                                                                                    exported: Path) -> None:
    counts = tablectl_counts(exported)
    for name in DATASETS:
        found = {recipe.__name__: recipe(exported, name)[:2] for recipe in (duckdb_recipe, pyarrow_recipe, polars_recipe)}
        assert {n for n, _ in found.values()} == {counts[name]}, (name, found)
        assert all(ids <= set(small_floor.logs) for _, ids in found.values()), name


def test_an_empty_dataset_is_an_empty_parquet_file_the_manifest_lists(numeric_table: Path) -> None:
    manifest = orjson.loads((numeric_table / "_manifests" / "0012.json").read_bytes())
    parts = manifest["exports"][0]["parts"]
    assert {rel.split("/")[0] for rel in parts} == set(DATASETS)
    assert all(n == 0 for rel, n in parts.items() if not rel.startswith(("faults/", "anomalies/")))


def test_the_table_id_column_is_not_an_sql_keyword(numeric_table: Path, tablectl: Tablectl) -> None:
    done = tablectl("query", numeric_table, "SELECT table_id, count(*) AS n FROM faults GROUP BY table_id", "--json")
    assert done.code == 0, done.err
    assert orjson.loads(done.out) == [{"table_id": "0012", "n": 2}]
