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
from tablectl.analytics.dataset.limits import within
from tablectl.analytics.dataset.schemas import SCHEMAS, with_partitions
from tablectl.analytics.dataset.store import MANIFESTS, DatasetError, atomic_write, check_utf8_root, listed_parts, load_rules, read_own

EARLIEST, LATEST = "0001-01-01", "9999-12-31"
#: named queries that are building blocks of the floor report, not for ``tablectl query`` listings
INTERNAL = frozenset({"floor_cells", "floor_rollup", "floor_wagers"})
MATH_CACHE = "_math.json"  # in MANIFESTS
#: of MATH_CACHE; raised whenever a release changes a figure the game math gives for some rules
#: (the cache is keyed by the rules alone, never by this machine's code: every machine reads the same)
MATH_FORMAT = 4
MATH_SCHEMA = pa.schema([("game", pa.string()), ("decks", pa.int32()), ("rules_id", pa.string()), ("wager", pa.string()),
                         ("edge", pa.float64()), ("variance", pa.float64()), ("strategy", pa.string()),
                         ("note", pa.string()), ("judged_by", pa.string()),
                         ("stake_limited", pa.bool_())])
OUTCOME_SCHEMA = pa.schema([("game", pa.string()), ("decks", pa.int32()), ("rules_id", pa.string()), ("wager", pa.string()),
                            ("result", pa.float64()), ("probability", pa.float64())])
COV_SCHEMA = pa.schema([("game", pa.string()), ("decks", pa.int32()), ("rules_id", pa.string()), ("wager_a", pa.string()),
                        ("wager_b", pa.string()), ("seats", pa.string()), ("covariance", pa.float64())])


def named_queries() -> dict[str, str]:
    """Name -> SQL text of every named query; ``@floor_rollup`` in a query stands for the figures
    of ``floor_rollup.sql``, which every floor roll-up gives."""
    folder = resources.files("tablectl.analytics.dataset") / "queries"
    texts = {p.name[:-4]: p.read_text(encoding="utf-8") for p in folder.iterdir() if p.name.endswith(".sql")}
    rollup = "\n".join(line for line in texts["floor_rollup"].splitlines() if not line.startswith("--"))
    return {name: sql.replace("@floor_rollup", rollup) for name, sql in texts.items()}


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


class LimitError(Exception):
    """A memory limit DuckDB cannot take (one line)."""


def check_dataset(root: Path) -> None:
    """Raise :class:`DatasetError` unless ``root`` is a folder that ``tablectl export`` made (it
    holds ``_manifests/``)."""
    if not root.is_dir() or not (root / MANIFESTS).is_dir():
        raise DatasetError(f"{root}: not a tablectl surveillance dataset (no {MANIFESTS}/; make one with tablectl export)")


def connect(root: Path, warn: Callable[[str], None] | None = None, approved: Approved | None = None,
            progress: Callable[[str], None] | None = None, memory_limit: str | None = None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with a view per dataset of ``root`` over the files its manifests list
    (``dataset.listed_parts``: :class:`IntegrityError` for a file no manifest lists, a listed file
    missing, changed or not a regular file, rows or column types differing from the manifests and
    schemas, a table's files with no manifest; an empty table of the right columns for a
    dataset with no file yet) and ``wager_math`` (``tablectl.analytics.expected``), then closed to
    the world: no file but the listed ones can be read, none written, no database attached, no
    extension installed or loaded (``enable_external_access`` off, the listed files in
    ``allowed_paths``, no spilling to a temporary directory), and the configuration locked so SQL
    cannot undo it. ``warn``: told (one line) when the game math cannot be cached in the dataset,
    and of each manifest that records no SHA-256 of its files (their bytes are then not checked).
    ``approved``: the approved math every round is judged by (None: the dataset's own, else the
    shipped, ``approved.default_path``); ``game_banks`` names who banks each game. ``progress``:
    told when game math that takes minutes is being computed. ``memory_limit``: DuckDB's
    (``SET memory_limit``, e.g. ``4GB``; None: DuckDB's default), :class:`LimitError` if DuckDB
    cannot take it. A ``root`` whose path is not UTF-8 (which DuckDB cannot read) is a
    :class:`DatasetError`."""
    check_dataset(root)
    check_utf8_root(root)
    root = root.absolute()
    parts = listed_parts(root, warn)
    con = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
    if memory_limit is not None:
        try:
            con.execute("SET memory_limit = $limit", {"limit": memory_limit})
        except duckdb.Error as e:
            raise LimitError(str(e).splitlines()[0]) from None
    seen = within(con, lambda: _views(con, parts), None)
    if approved is None:
        approved = load_approved(default_path(root))
    maths, covs, outcomes = _wager_math(seen, root, approved, warn, progress)
    con.register("wager_math_table", maths)
    con.execute("CREATE VIEW wager_math AS SELECT * FROM wager_math_table")
    # rounds a limit to the bank's stake could change (cover_binds true, or unknown):
    # under rules limiting payouts to the stake (wager_math.stake_limited) their wagers are not judged
    con.execute("CREATE VIEW stake_binds AS SELECT DISTINCT table_id, round_id FROM rounds WHERE cover_binds IS NOT FALSE")
    con.register("wager_cov_table", covs)
    con.execute("CREATE VIEW wager_cov AS SELECT * FROM wager_cov_table")
    con.register("wager_outcomes_table", outcomes)
    con.execute("CREATE VIEW wager_outcomes AS SELECT * FROM wager_outcomes_table")
    games = sorted({s.game for s in approved.sets})
    con.register("game_banks_table", pa.table({"game": games, "bank": [approved.bank(g) for g in games]}))
    con.execute("CREATE VIEW game_banks AS SELECT * FROM game_banks_table")
    allowed = [str(f) for files in parts.values() for f in files]
    con.execute("SET allowed_paths = $paths", {"paths": allowed})
    con.execute("SET temp_directory = ''")
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
    return con


def _views(con: duckdb.DuckDBPyConnection, parts: dict[str, list[Path]]) -> list[tuple[Any, ...]]:
    """A view per dataset over its listed files (``parts``); the (game, decks, rules id) the
    rounds were played under."""
    for name in SCHEMAS:
        files = parts[name]
        if files:
            listed = ", ".join("'" + str(f).replace("'", "''") + "'" for f in files)
            source = (f"read_parquet([{listed}], hive_partitioning = true, union_by_name = true, "
                      "hive_types = {'table': VARCHAR, 'date': DATE})")
            con.execute(f"CREATE VIEW {name} AS SELECT * FROM {source}")
        else:
            con.register(f"{name}_empty", with_partitions(name).empty_table())
            con.execute(f"CREATE VIEW {name} AS SELECT * FROM {name}_empty")
    return con.execute("SELECT DISTINCT game, decks, rules_id FROM rounds WHERE game IS NOT NULL ORDER BY ALL").fetchall()


def _wager_math(seen: list[tuple[Any, ...]], root: Path, approved: Approved, warn: Callable[[str], None] | None,
                progress: Callable[[str], None] | None) -> tuple[pa.Table, pa.Table, pa.Table]:
    """The math every (game, decks, rules id) in ``seen`` (the rounds were played under) is judged by
    (``wager_math``): that of the approved set its rules match, else the closest
    (``approved.verdict``); none for rules the math does not model. With the covariances between
    its wagers (``wager_cov``, ``tablectl.analytics.variance``) and each wager's distribution
    (``wager_outcomes``: the bank's result per unit and its probability). Stored with the dataset
    (``_manifests/_math.json``, :func:`math_entry`) keyed by the game, the decks and the judging
    rules themselves, so every machine judges a dataset by the same figures; an entry of another
    format, made for other rules (copied from elsewhere) or without a wager's math (a Texas
    Hold'em Bonus main game not analysed) is computed again, telling ``progress`` when that takes
    minutes. A store that cannot be written (a full disk, a read-only dataset) is told to
    ``warn``; the math is used all the same."""
    from tablectl.analytics.approved import verdict

    registry = load_rules(root)
    cache_path = root / MANIFESTS / MATH_CACHE
    cache: dict[str, Any] = {"format": MATH_FORMAT, "entries": {}}
    raw = read_own(cache_path, "math cache")
    if raw is not None:
        try:
            found = orjson.loads(raw)
            if isinstance(found, dict) and found.get("format") == MATH_FORMAT and isinstance(found.get("entries"), dict):
                cache = found
        except orjson.JSONDecodeError:
            pass  # rebuilt below
    rows: dict[str, list[Any]] = {name: [] for name in MATH_SCHEMA.names}
    cov_rows: dict[str, list[Any]] = {name: [] for name in COV_SCHEMA.names}
    out_rows: dict[str, list[Any]] = {name: [] for name in OUTCOME_SCHEMA.names}
    changed = False
    for game, decks, rules_id in seen:
        v = verdict(approved, game, decks, (registry.get(rules_id) or {}).get("rules"))
        if v.judged_by is None:
            entry: dict[str, Any] = {"wagers": [{"game": game, "wager": "*", "edge": None, "variance": None, "strategy": "",
                                                 "note": f"not judged: {v.not_judged}"}], "covariances": []}
            judged_by = None
        else:
            judged_by = v.judged_by.name
            key, rules = math_key(game, decks, v.judged_by.rules)
            entry = cache["entries"].get(key)
            if not valid_entry(entry, game, decks, rules):
                if progress is not None:
                    progress(f"computing the game math of {game} at {decks} decks under the rules of {judged_by}")
                entry = cache["entries"][key] = math_entry(game, decks, v.judged_by.rules, progress)
                changed = True
        for m in entry["wagers"]:
            for name, value in (("decks", decks), ("rules_id", rules_id), ("judged_by", judged_by),
                                ("stake_limited", v.stake_limited), *m.items()):
                if name in rows:
                    rows[name].append(value)
            for result, probability in m.get("outcomes") or ():
                for name, value in (("game", game), ("decks", decks), ("rules_id", rules_id), ("wager", m["wager"]),
                                    ("result", result), ("probability", probability)):
                    out_rows[name].append(value)
        for c in entry["covariances"]:
            for name, value in (("game", game), ("decks", decks), ("rules_id", rules_id), *c.items()):
                cov_rows[name].append(value)
    if changed:
        try:
            atomic_write(cache_path, orjson.dumps(cache, option=orjson.OPT_SORT_KEYS))
        except OSError as e:
            if warn is not None:
                warn(f"{e.filename or cache_path}: cannot cache the game math ({e.strerror or e}); computed again next time")
    return (pa.Table.from_pydict(rows, schema=MATH_SCHEMA), pa.Table.from_pydict(cov_rows, schema=COV_SCHEMA),
            pa.Table.from_pydict(out_rows, schema=OUTCOME_SCHEMA))


def math_key(game: str, decks: int | None, rules: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The key of ``game`` at ``decks`` under ``rules`` in the stored math, and the rules as
    stored (every settlement rule, defaults filled in, ``approved.settlement``): a digest of
    those, so rules written differently but settling alike share one entry."""
    import hashlib

    from tablectl.analytics.approved import settlement

    flat = orjson.loads(orjson.dumps(settlement(game, rules), default=str, option=orjson.OPT_SORT_KEYS))
    text = orjson.dumps({"game": game, "decks": decks, "rules": flat}, option=orjson.OPT_SORT_KEYS)
    return f"{game}/{decks}/{hashlib.blake2b(text, digest_size=8).hexdigest()}", flat


def valid_entry(entry: Any, game: str, decks: int | None, rules: dict[str, Any]) -> bool:
    """Whether a stored entry is the math of ``game`` at ``decks`` under ``rules`` (as
    :func:`math_key` gives them), with every wager's figures."""
    from tablectl.analytics.expected import complete

    return (isinstance(entry, dict) and entry.get("game") == game and entry.get("decks") == decks
            and entry.get("rules") == rules and isinstance(entry.get("wagers"), list) and complete(entry["wagers"])
            and isinstance(entry.get("covariances"), list))


def math_entry(game: str, decks: int | None, rules: dict[str, Any],
               progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The stored entry of ``game`` at ``decks`` under ``rules`` (``{"house_rules", "pay_tables"}``):
    every wager's math and the covariances, computed now (``progress`` told of what takes minutes)."""
    from dataclasses import asdict

    from tablectl.analytics.expected import prepare, wager_math
    from tablectl.analytics.variance import covariances

    prepare(game, progress)
    _, flat = math_key(game, decks, rules)
    return {"game": game, "decks": decks, "rules": flat, "wagers": [asdict(m) for m in wager_math(game, decks, rules)],
            "covariances": [asdict(c) for c in covariances(game, decks, rules)]}


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
