"""Writing the dataset: one Parquet file per dataset, table and day for each export, written a row
group at a time as the rows are made (:class:`PartWriter`) under a hidden temporary name and
renamed into place; the per-table manifest, rewritten the same way, is the commit.

Layout (``docs/surveillance.md``)::

    DATASET/<dataset>/table=<table>/date=<YYYY-MM-DD>/part-<from seq>-<to seq>.parquet
    DATASET/_manifests/<table>.json
    DATASET/_manifests/_rules.json    (rules id -> the house rules and pay tables it stands for)

A file's name carries the range of log lines it was exported from. An export that stopped before
it rewrote the manifest leaves files past the manifest's ``through_seq``: the next export of that
table deletes them first, so no row is ever written twice. Readers skip names starting with ``.``
or ``_`` (Spark, Trino and pyarrow by rule; a DuckDB glob ``*/*/*.parquet`` never matches them).
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from tablectl.analytics.schemas import SCHEMAS

MANIFESTS = "_manifests"
RULES = "_rules.json"  # in MANIFESTS: the rules registry (no table name starts with "_")
PART = re.compile(r"^part-(\d+)-(\d+)\.parquet$")


@dataclass
class Export:
    """One export of a table: the log lines it covered and what it wrote."""

    from_seq: int
    to_seq: int
    chain_head: str  # BLAKE2b-256 of line ``to_seq``: the head of the chain this export verified
    signed_seq: int  # every line up to here is covered by a verified signature
    key_ids: list[str]
    key_fingerprints: list[str]  # SHA-256 of each raw public key given
    files: list[str]  # the log files read
    rows: dict[str, int]  # rows written per dataset
    exported_at: str


@dataclass
class Manifest:
    """What has been verified and exported of one table's log."""

    table: str
    through_seq: int = 0
    chain_head: str | None = None
    exports: list[Export] = field(default_factory=list)

    @classmethod
    def load(cls, root: Path, table: str) -> Manifest:
        path = manifest_path(root, table)
        if not path.exists():
            return cls(table)
        try:
            data = orjson.loads(path.read_bytes())
            return cls(data["table"], data["through_seq"], data["chain_head"],
                       [Export(**e) for e in data["exports"]])
        except (orjson.JSONDecodeError, KeyError, TypeError) as e:
            raise DatasetError(f"{path}: not a tablectl export manifest ({e})") from None

    def save(self, root: Path) -> None:
        atomic_write(manifest_path(root, self.table), orjson.dumps(asdict(self), option=orjson.OPT_INDENT_2))


def anchors(root: Path) -> list[Any]:
    """The chain heads the dataset's exports verified, as anchors (``tablectl.eventlog.anchor``):
    for each table, the last export that ended at a signed checkpoint. ``tablectl review --anchor
    DATASET`` then refuses a log that no longer holds what was exported from it."""
    from tablectl.eventlog.anchor import Anchor

    out = []
    folder = root / MANIFESTS
    for path in sorted(p for p in folder.glob("*.json") if not p.name.startswith("_")) if folder.is_dir() else ():
        manifest = Manifest.load(root, path.stem)
        signed = [e for e in manifest.exports if e.to_seq == e.signed_seq]
        if signed:
            e = signed[-1]
            out.append(Anchor(manifest.table, e.to_seq, e.chain_head, e.key_ids[0] if e.key_ids else None, "export", None,
                              e.exported_at))
    return out


class DatasetError(Exception):
    """A dataset directory that cannot be used (one line, naming the file)."""


def load_rules(root: Path) -> dict[str, dict[str, Any]]:
    """The rules registry: rules id -> ``{game, decks, rules}`` (house rules and pay tables as
    logged; None: the game's defaults), for every rules id the rows name."""
    path = root / MANIFESTS / RULES
    if not path.exists():
        return {}
    try:
        data: dict[str, dict[str, Any]] = orjson.loads(path.read_bytes())
    except orjson.JSONDecodeError as e:
        raise DatasetError(f"{path}: not JSON ({e})") from None
    return data


def save_rules(root: Path, rules: dict[str, dict[str, Any]]) -> None:
    """Add ``rules`` to the registry (an id names the same rules wherever it appears)."""
    known = load_rules(root)
    if rules.keys() - known.keys():
        atomic_write(root / MANIFESTS / RULES, orjson.dumps({**known, **rules}, option=orjson.OPT_SORT_KEYS))


def manifest_path(root: Path, table: str) -> Path:
    return root / MANIFESTS / f"{table}.json"


def partition_dir(root: Path, dataset: str, table: str, date: str) -> Path:
    return root / dataset / f"table={table}" / f"date={date}"


def remove_uncommitted(root: Path, table: str, through: int) -> int:
    """Delete the files of ``table`` that an interrupted export wrote past ``through`` (and
    temporary files); how many."""
    removed = 0
    for dataset in SCHEMAS:
        base = root / dataset / f"table={table}"
        if not base.is_dir():
            continue
        for path in base.glob("date=*/*"):
            m = PART.match(path.name)
            if path.name.startswith(".") or (m is not None and int(m.group(1)) > through):
                path.unlink()
                removed += 1
    return removed


class PartWriter:
    """The rows of one export of one table, from line *from_seq* on, written as they come: per
    dataset and day, row groups of :attr:`CHUNK` rows into a hidden file, all renamed into place
    by :meth:`commit` once the export knows its last line (or removed by :meth:`abort`). Memory
    holds one chunk per dataset and day, not the export."""

    CHUNK = 16384

    def __init__(self, root: Path, table: str, from_seq: int) -> None:
        self.root, self.table, self.from_seq = root, table, from_seq
        self.written: dict[str, int] = dict.fromkeys(SCHEMAS, 0)  # rows per dataset
        self._chunks: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
        self._files: dict[tuple[str, str], tuple[pq.ParquetWriter, Path]] = {}

    def add(self, dataset: str, row: dict[str, Any]) -> None:
        """Write *row* (with ``date``) to *dataset*."""
        key = (dataset, row["date"])
        chunk = self._chunks[key]
        chunk.append(row)
        if len(chunk) >= self.CHUNK:
            self._flush(key)

    def _flush(self, key: tuple[str, str]) -> None:
        rows = self._chunks.pop(key, None)
        if not rows:
            return
        dataset, date = key
        schema = SCHEMAS[dataset]
        data = pa.Table.from_pylist(rows, schema=schema)  # a key the schema does not name is left out
        file = self._files.get(key)
        if file is None:
            tmp = partition_dir(self.root, dataset, self.table, date) / f".part-{self.from_seq:012d}.{os.getpid()}.tmp"
            tmp.parent.mkdir(parents=True, exist_ok=True)
            file = self._files[key] = (pq.ParquetWriter(tmp, schema, compression="zstd"), tmp)
        file[0].write_table(data)
        self.written[dataset] += len(rows)

    def commit(self, to_seq: int) -> dict[str, int]:
        """Write what is left, and put every file in place (fsynced) as the export of the lines up to
        *to_seq*; the rows written per dataset."""
        for key in list(self._chunks):
            self._flush(key)
        for writer, tmp in self._files.values():
            writer.close()
            _fsync(tmp)
            os.replace(tmp, tmp.with_name(f"part-{self.from_seq:012d}-{to_seq:012d}.parquet"))
        self._files = {}
        return self.written

    def abort(self) -> None:
        """Remove every file written: nothing of this export stays."""
        for writer, tmp in self._files.values():
            writer.close()
            tmp.unlink(missing_ok=True)
        self._files, self._chunks = {}, defaultdict(list)


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all: a temporary file, fsynced, renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
