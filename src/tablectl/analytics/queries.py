"""DuckDB over a surveillance dataset: one view per dataset, the game math as a table, and the
named queries kept as ``.sql`` files beside this module (``tablectl query DATASET NAME``).

Named queries take ``$from`` and ``$to`` (dates, inclusive; default: everything).

Read-only: the views read only the files the manifests list, once their rows are checked against
the manifests; then DuckDB is closed to every other file and locked (:func:`connect`), and
:func:`run` runs one SELECT and nothing else (:func:`read_only`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import duckdb
import orjson
import pyarrow as pa

from tablectl.analytics.dataset import MANIFESTS, DatasetError, atomic_write, listed_parts, load_rules
from tablectl.analytics.schemas import SCHEMAS, with_partitions

EARLIEST, LATEST = "0001-01-01", "9999-12-31"
#: named queries that are building blocks of the floor report, not for ``tablectl query`` listings
INTERNAL = frozenset({"floor_cells"})
MATH_CACHE = "_math.json"  # in MANIFESTS
MATH_SCHEMA = pa.schema([("game", pa.string()), ("decks", pa.int32()), ("rules_id", pa.string()), ("wager", pa.string()),
                         ("edge", pa.float64()), ("variance", pa.float64()), ("strategy", pa.string()),
                         ("note", pa.string())])
COV_SCHEMA = pa.schema([("game", pa.string()), ("decks", pa.int32()), ("rules_id", pa.string()), ("wager_a", pa.string()),
                        ("wager_b", pa.string()), ("seats", pa.string()), ("covariance", pa.float64())])


def named_queries() -> dict[str, str]:
    """Name -> SQL text of every named query."""
    folder = resources.files("tablectl.analytics") / "queries"
    return {p.name[:-4]: p.read_text(encoding="utf-8") for p in folder.iterdir() if p.name.endswith(".sql")}


def describe(sql: str) -> str:
    """The leading comment of a named query, its lines joined: what it answers."""
    lines = []
    for line in sql.splitlines():
        if not line.startswith("--"):
            break
        lines.append(line[2:].strip())
    return " ".join(lines)


def display(value: Any) -> str:
    """A query value as shown in a terminal table: floats to at most 4 decimals (one too small for
    them, such as a p-value, to 3 significant digits), NULL empty."""
    if value is None:
        return ""
    if isinstance(value, float):
        if value != 0 and abs(value) < 5e-5:
            return f"{value:.3g}"
        text = f"{value:.4f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text
    return str(value)


@dataclass
class Result:
    """A query's columns and rows."""

    columns: list[str]
    rows: list[tuple[Any, ...]]

    def dicts(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


def connect(root: Path, warn: Callable[[str], None] | None = None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with a view per dataset of ``root`` over the files its manifests list
    (``dataset.listed_parts``: :class:`IntegrityError` for a file no manifest lists, a listed file
    missing or rows differing from the manifests; an empty table of the right columns for a
    dataset with no file yet) and ``wager_math`` (``tablectl.analytics.expected``), then closed to
    the world: no file but the listed ones can be read, none written, no database attached, no
    extension installed or loaded (``enable_external_access`` off, the listed files in
    ``allowed_paths``, no spilling to a temporary directory), and the configuration locked so SQL
    cannot undo it. ``warn``: told (one line) when the game math cannot be cached in the dataset."""
    if not root.is_dir() or not (root / MANIFESTS).is_dir():
        raise DatasetError(f"{root}: not a tablectl surveillance dataset (no {MANIFESTS}/; make one with tablectl export)")
    root = root.absolute()
    parts = listed_parts(root)
    con = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
    for name in SCHEMAS:
        files = parts[name]
        if files:
            listed = ", ".join("'" + str(f).replace("'", "''") + "'" for f in files)
            source = (f"read_parquet([{listed}], hive_partitioning = true, union_by_name = true, "
                      "hive_types = {'table': VARCHAR, 'date': DATE})")
            columns = {row[0] for row in con.execute(f"DESCRIBE SELECT * FROM {source}").fetchall()}
            # files written before the id was a column: the id of their folder (``table``, kept too)
            select = ('* REPLACE (coalesce(table_id, "table") AS table_id)' if "table_id" in columns
                      else '*, "table" AS table_id')
            con.execute(f"CREATE VIEW {name} AS SELECT {select} FROM {source}")
        else:
            con.register(f"{name}_empty", with_partitions(name).empty_table())
            con.execute(f"CREATE VIEW {name} AS SELECT * FROM {name}_empty")
    maths, covs = _wager_math(con, root, warn)
    con.register("wager_math_table", maths)
    con.execute("CREATE VIEW wager_math AS SELECT * FROM wager_math_table")
    con.register("wager_cov_table", covs)
    con.execute("CREATE VIEW wager_cov AS SELECT * FROM wager_cov_table")
    allowed = [str(f) for files in parts.values() for f in files]
    con.execute("SET allowed_paths = $paths", {"paths": allowed})
    con.execute("SET temp_directory = ''")
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
    return con


def _wager_math(con: duckdb.DuckDBPyConnection, root: Path,
                warn: Callable[[str], None] | None) -> tuple[pa.Table, pa.Table]:
    """The math of every (game, decks, rules) the rounds were played under (``wager_math``), and
    the covariances between its wagers (``wager_cov``, ``tablectl.analytics.variance``), cached in the dataset
    (``_manifests/_math.json``) for as long as the game math's code is the same. A cache that
    cannot be written (a full disk, a read-only dataset) is told to ``warn``; the math is used
    all the same."""
    from dataclasses import asdict

    from tablectl.analytics.expected import math_version, wager_math
    from tablectl.analytics.variance import covariances

    registry = load_rules(root)
    cache_path = root / MANIFESTS / MATH_CACHE
    version = math_version()
    cache: dict[str, Any] = {"version": version, "entries": {}, "covariances": {}}
    if cache_path.exists():
        try:
            found = orjson.loads(cache_path.read_bytes())
            if found.get("version") == version:
                cache = found
        except orjson.JSONDecodeError:
            pass  # rebuilt below
    cache.setdefault("covariances", {})
    rows: dict[str, list[Any]] = {name: [] for name in MATH_SCHEMA.names}
    cov_rows: dict[str, list[Any]] = {name: [] for name in COV_SCHEMA.names}
    changed = False
    seen = con.execute("SELECT DISTINCT game, decks, rules_id FROM rounds WHERE game IS NOT NULL").fetchall()
    for game, decks, rules_id in seen:
        key = f"{game}/{decks}/{rules_id}"
        if key not in cache["entries"]:
            maths = wager_math(game, decks, (registry.get(rules_id) or {}).get("rules"))
            cache["entries"][key] = [asdict(m) for m in maths]
            changed = True
        for m in cache["entries"][key]:
            for name, value in (("decks", decks), ("rules_id", rules_id), *m.items()):
                if name in rows:
                    rows[name].append(value)
        if key not in cache["covariances"]:
            rules = (registry.get(rules_id) or {}).get("rules")
            cache["covariances"][key] = [asdict(c) for c in covariances(game, decks, rules)]
            changed = True
        for c in cache["covariances"][key]:
            for name, value in (("game", game), ("decks", decks), ("rules_id", rules_id), *c.items()):
                cov_rows[name].append(value)
    if changed:
        try:
            atomic_write(cache_path, orjson.dumps(cache))
        except OSError as e:
            if warn is not None:
                warn(f"{e.filename or cache_path}: cannot cache the game math ({e.strerror or e}); computed again next time")
    return pa.Table.from_pydict(rows, schema=MATH_SCHEMA), pa.Table.from_pydict(cov_rows, schema=COV_SCHEMA)


def make_cells(con: duckdb.DuckDBPyConnection, date_from: str | None = None, date_to: str | None = None) -> None:
    """The temporary table ``cells`` (the named query ``floor_cells`` for days ``date_from``..
    ``date_to``) that ``floor_tables``, ``floor_dealers`` and ``floor_days`` roll up."""
    con.execute(f"CREATE TEMP TABLE cells AS {named_queries()['floor_cells']}",
                {"from": date_from or EARLIEST, "to": date_to or LATEST})


def uses_cells(sql: str) -> bool:
    """Whether ``sql`` (a named query) reads the ``cells`` of :func:`make_cells`."""
    return re.search(r"\bFROM\s+cells\b", sql, re.IGNORECASE) is not None


class ReadOnlyError(Exception):
    """SQL that is not one read-only statement (one line)."""


def read_only(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    """Raise :class:`ReadOnlyError` unless ``sql`` is exactly one ``SELECT`` (``WITH``, ``FROM``
    first, ``VALUES``, ``DESCRIBE``, ``SUMMARIZE`` and ``SHOW`` are SELECTs to DuckDB): no
    ``CREATE``, ``COPY``, ``ATTACH``, ``INSTALL``, ``LOAD``, ``SET``, ``PRAGMA``, ``CALL`` or
    ``EXPORT``. (What a SELECT may read is bounded by :func:`connect`.)"""
    statements = con.extract_statements(sql)
    if len(statements) != 1:
        raise ReadOnlyError(f"one SELECT statement at a time (got {len(statements)})")
    kind = statements[0].type
    if kind != duckdb.StatementType.SELECT:
        raise ReadOnlyError(f"the dataset is read-only: only SELECT runs here, not {kind.name}")


def run(con: duckdb.DuckDBPyConnection, sql: str, date_from: str | None = None, date_to: str | None = None) -> Result:
    """Run ``sql``, one SELECT (:func:`read_only`; a named query's parameters ``$from``/``$to``
    bound when it uses them)."""
    read_only(con, sql)
    params: dict[str, Any] = {}
    if "$from" in sql:
        params["from"] = date_from or EARLIEST
    if "$to" in sql:
        params["to"] = date_to or LATEST
    cursor = con.execute(sql, params) if params else con.execute(sql)
    columns = [d[0] for d in cursor.description or []]
    return Result(columns, cursor.fetchall())
