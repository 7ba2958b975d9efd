"""The documented reader recipes (docs/surveillance.md, "Other tools") as the surveillance tests
run them (``from readers import ...``): each opens one dataset of an exported floor and gives its
row count, the table ids it holds and the type it reads ``table_id`` as; and ``tablectl query``'s
counts to hold them to."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import duckdb
import orjson
import polars as pl
import pyarrow.dataset as pads
import pytest
from exporthelpers import run_tablectl

from tablectl.analytics.dataset.schemas import DATASETS

TEXT_TYPES = ("string", "varchar", "large_string", "stringtype()")


def duckdb_recipe(dataset: Path, name: str) -> tuple[int, set[str], str]:
    """DuckDB's ``read_parquet`` with the folders' types given."""
    con = duckdb.connect()
    source = (f"read_parquet('{dataset / name}/*/*/*.parquet', hive_partitioning = true, "
              "hive_types = {'table': VARCHAR, 'date': DATE})")
    n, ids = con.execute(f"SELECT count(*), list(DISTINCT table_id) FROM {source}").fetchone()  # type: ignore[misc]
    kind = con.execute(f"SELECT typeof(table_id) FROM {source} LIMIT 0").description[0][1]
    return n, set(ids or []), str(kind)


def pyarrow_recipe(dataset: Path, name: str) -> tuple[int, set[str], str]:
    """pyarrow's dataset with Hive partitioning."""
    data = pads.dataset(dataset / name, format="parquet", partitioning="hive").to_table()
    return data.num_rows, set(data.column("table_id").to_pylist()), str(data.schema.field("table_id").type)


def polars_recipe(dataset: Path, name: str) -> tuple[int, set[str], str]:
    """polars' ``read_parquet`` of the glob with Hive partitioning."""
    frame = pl.read_parquet(dataset / name / "**/*.parquet", hive_partitioning=True)
    return frame.height, set(frame["table_id"].to_list()), str(frame.schema["table_id"])


RECIPES = (duckdb_recipe, pyarrow_recipe, polars_recipe)


def spark_session() -> Any:
    """A local Spark session in UTC (the test is skipped, with the reason, without Java or pyspark)."""
    if shutil.which("java") is None:
        pytest.skip("no Java runtime (java) on PATH: Spark needs one")
    pyspark = pytest.importorskip("pyspark", reason="pyspark is not installed (pip install -e '.[spark]')")
    return (pyspark.sql.SparkSession.builder.master("local[1]").appName("tablectl-floor")
            .config("spark.sql.session.timeZone", "UTC").config("spark.ui.enabled", "false")
            .config("spark.sql.sources.partitionColumnTypeInference.enabled", "true").getOrCreate())


def spark_recipe(spark: Any, dataset: Path, name: str) -> tuple[int, set[str], str]:
    """Spark's ``read.parquet`` of the dataset's folder (table and date discovered from the folders)."""
    frame = spark.read.parquet(str(dataset / name))
    ids = {r["table_id"] for r in frame.select("table_id").distinct().collect()}
    return frame.count(), ids, str(frame.schema["table_id"].dataType).lower()


def tablectl_counts(dataset: Path) -> dict[str, int]:
    """Rows of each dataset as ``tablectl query`` counts them (the manifests' files only)."""
    sql = " UNION ALL ".join(f"SELECT '{n}' AS name, count(*) AS n FROM {n}" for n in DATASETS)
    done = run_tablectl("query", dataset, sql, "--json")
    assert done.code == 0, done.err
    return {r["name"]: r["n"] for r in orjson.loads(done.out)}


def faults_only_dataset(root: Path, table: str = "0012") -> Path:
    """A dataset of ``table`` whose log holds two device faults and nothing else: every dataset
    but ``faults`` is empty."""
    from tablectl.eventlog import EventLog, save_keypair
    from tablectl.eventlog.keys import load_private_key

    keys = save_keypair(root / "keys")
    log = EventLog(root / "log", table, signing_key=load_private_key(keys.private), fsync=False)
    log.append("fault", fault="jam", cleared=False, detail="card stuck", device="shoe", event_no=7)
    log.append("fault", fault="jam", cleared=True, detail=None, device="shoe", event_no=8)
    log.commit()
    log.close()
    done = run_tablectl("export", root / "log", "--to", root / "ds", "--key", keys.public)
    assert done.code == 0, done.err
    return root / "ds"
