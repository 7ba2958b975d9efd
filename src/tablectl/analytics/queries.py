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

from tablectl.analytics.approved import Approved, default_path
from tablectl.analytics.approved import load as load_approved
from tablectl.analytics.dataset import MANIFESTS, DatasetError, atomic_write, listed_parts, load_rules
from tablectl.analytics.schemas import SCHEMAS, with_partitions

EARLIEST, LATEST = "0001-01-01", "9999-12-31"
#: named queries that are building blocks of the floor report, not for ``tablectl query`` listings
INTERNAL = frozenset({"floor_cells"})
MATH_CACHE = "_math.json"  # in MANIFESTS
MATH_FORMAT = 2  # of MATH_CACHE: entries keyed by the approved set and the logged rules
MATH_SCHEMA = pa.schema([("game", pa.string()), ("decks", pa.int32()), ("rules_id", pa.string()), ("wager", pa.string()),
                         ("edge", pa.float64()), ("variance", pa.float64()), ("strategy", pa.string()),
                         ("note", pa.string()), ("judged_by", pa.string())])


def named_queries() -> dict[str, str]:
    """Name -> SQL text of every named query."""
    folder = resources.files("tablectl.analytics") / "queries"
    return {p.name[:-4]: p.read_text(encoding="utf-8") for p in folder.iterdir() if p.name.endswith(".sql")}


def describe(sql: str) -> str:
    """The first comment line of a named query: what it answers."""
    for line in sql.splitlines():
        if line.startswith("--"):
            return line[2:].strip()
    return ""


@dataclass
class Result:
    """A query's columns and rows."""

    columns: list[str]
    rows: list[tuple[Any, ...]]

    def dicts(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


def connect(root: Path, warn: Callable[[str], None] | None = None, approved: Approved | None = None,
            progress: Callable[[str], None] | None = None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with a view per dataset of ``root`` over the files its manifests list
    (``dataset.listed_parts``: :class:`IntegrityError` for a file no manifest lists, a listed file
    missing or rows differing from the manifests; an empty table of the right columns for a
    dataset with no file yet) and ``wager_math`` (``tablectl.analytics.expected``), then closed to
    the world: no file but the listed ones can be read, none written, no database attached, no
    extension installed or loaded (``enable_external_access`` off, the listed files in
    ``allowed_paths``, no spilling to a temporary directory), and the configuration locked so SQL
    cannot undo it. ``warn``: told (one line) when the game math cannot be cached in the dataset.
    ``approved``: the approved math every round is judged by (None: the dataset's own, else the
    shipped, ``approved.default_path``); ``game_banks`` names who banks each game. ``progress``:
    told when game math that takes minutes is being computed."""
    if not root.is_dir() or not (root / MANIFESTS).is_dir():
        raise DatasetError(f"{root}: not a tablectl surveillance dataset (no {MANIFESTS}/; make one with tablectl export)")
    root = root.absolute()
    parts = listed_parts(root)
    con = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
    for name in SCHEMAS:
        files = parts[name]
        if files:
            listed = ", ".join("'" + str(f).replace("'", "''") + "'" for f in files)
            con.execute(
                f"CREATE VIEW {name} AS SELECT * FROM read_parquet([{listed}], hive_partitioning = true, "
                "union_by_name = true, hive_types = {'table': VARCHAR, 'date': DATE})"
            )
        else:
            con.register(f"{name}_empty", with_partitions(name).empty_table())
            con.execute(f"CREATE VIEW {name} AS SELECT * FROM {name}_empty")
    if approved is None:
        approved = load_approved(default_path(root))
    con.register("wager_math_table", _wager_math(con, root, approved, warn, progress))
    con.execute("CREATE VIEW wager_math AS SELECT * FROM wager_math_table")
    games = sorted({s.game for s in approved.sets})
    con.register("game_banks_table", pa.table({"game": games, "bank": [approved.bank(g) for g in games]}))
    con.execute("CREATE VIEW game_banks AS SELECT * FROM game_banks_table")
    allowed = [str(f) for files in parts.values() for f in files]
    con.execute("SET allowed_paths = $paths", {"paths": allowed})
    con.execute("SET temp_directory = ''")
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
    return con


def _wager_math(con: duckdb.DuckDBPyConnection, root: Path, approved: Approved, warn: Callable[[str], None] | None,
                progress: Callable[[str], None] | None) -> pa.Table:
    """The math every (game, decks, rules) the rounds were played under is judged by: that of the
    approved set its rules match, else the closest (``approved.verdict``); none for rules the math
    does not model. Cached in the dataset (``_manifests/_math.json``) keyed by the approved sets
    and the logged rules, for as long as the game math's code is the same; an entry made without
    a wager's math (a Texas Hold'em Bonus main game not yet analysed) is computed again. A cache
    that cannot be written (a full disk, a read-only dataset) is told to ``warn``; the math is used
    all the same."""
    from dataclasses import asdict

    from tablectl.analytics.approved import verdict
    from tablectl.analytics.expected import WagerMath, complete, math_version, prepare, wager_math

    registry = load_rules(root)
    cache_path = root / MANIFESTS / MATH_CACHE
    version = f"{MATH_FORMAT}/{math_version()}"
    cache: dict[str, Any] = {"version": version, "entries": {}}
    if cache_path.exists():
        try:
            found = orjson.loads(cache_path.read_bytes())
            if isinstance(found, dict) and found.get("version") == version and isinstance(found.get("entries"), dict):
                cache = found
        except orjson.JSONDecodeError:
            pass  # rebuilt below
    rows: dict[str, list[Any]] = {name: [] for name in MATH_SCHEMA.names}
    changed = False
    seen = con.execute("SELECT DISTINCT game, decks, rules_id FROM rounds WHERE game IS NOT NULL ORDER BY ALL").fetchall()
    digest = approved.digest()
    for game, decks, rules_id in seen:
        key = f"{digest}/{game}/{decks}/{rules_id}"
        entry = cache["entries"].get(key)
        if not (isinstance(entry, list) and complete(entry)):
            v = verdict(approved, game, decks, (registry.get(rules_id) or {}).get("rules"))
            if v.judged_by is None:
                maths = [WagerMath(game, "*", None, None, "", f"not judged: {v.not_judged}")]
            else:
                prepare(game, progress)
                maths = wager_math(game, decks, v.judged_by.rules)
            entry = cache["entries"][key] = [{**asdict(m), "judged_by": v.judged_by.name if v.judged_by else None}
                                             for m in maths]
            changed = True
        for m in entry:
            for name, value in (("decks", decks), ("rules_id", rules_id), *m.items()):
                if name in rows:
                    rows[name].append(value)
    if changed:
        try:
            atomic_write(cache_path, orjson.dumps(cache))
        except OSError as e:
            if warn is not None:
                warn(f"{e.filename or cache_path}: cannot cache the game math ({e.strerror or e}); computed again next time")
    return pa.Table.from_pydict(rows, schema=MATH_SCHEMA)


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
