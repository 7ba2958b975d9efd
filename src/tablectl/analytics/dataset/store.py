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

One writer at a time: an export holds an exclusive ``flock`` on ``_manifests/.lock``
(:func:`exclusive`). Readers take no lock: they read only the files the manifests list
(:func:`listed_parts`), after checking that every file of the dataset is listed and that each
holds the rows its export recorded (Parquet footers, not the data). Every file and folder written
is ``0644``/``0755`` whatever the umask (:data:`FILE_MODE`, :data:`DIR_MODE`), and never through
a link (``tablectl.files``): the dataset's folder is the user's path, followed as given; every
folder below it is opened without following a link, files are made under random hidden names
(``O_CREAT|O_EXCL``) and renamed into place, the lock files are never truncated. A planted link
is refused with ``LinkRefusedError`` (one line naming it), nothing written through it.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import stat
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from tablectl.analytics.dataset.schemas import SCHEMAS
from tablectl.analytics.dataset.verify import Refused, checked_footer, sha256_file, wrong_types
from tablectl.files import NewFile, link_refused, note_holder, open_dir, open_lock, read_holder, read_regular
from tablectl.files import atomic_write as _atomic_write
from tablectl.text import escaped

MANIFESTS = "_manifests"
RULES = "_rules.json"  # in MANIFESTS: the rules registry (no table name starts with "_")
PART = re.compile(r"part-(\d+)-(\d+)\.parquet")
OPEN = re.compile(r"open-(\d+)-(\d+)\.parquet")  # rows of what is still in play where the log ends
#: the layout of the dataset's files and manifests; a manifest without ``format`` is of format 1
#: (before ``rounds.theo_win`` and the manifests' ``format``). Readers refuse other formats' files
#: that lack a column of today's schemas (:func:`check_format`).
FORMAT = 2
MAX_OWN_BYTES = 256 << 20  # the most a bookkeeping file of the dataset may hold (``read_own``)
LOCK = ".lock"  # in MANIFESTS: held (flock, exclusive) by the export writing the dataset
RULES_LOCK = ".rules.lock"  # in MANIFESTS: held while the rules registry is added to (one table at a time)
LOCK_WAIT = 600.0  # seconds an export waits for another export of the dataset by default
FILE_MODE = 0o644  # every file the dataset's writers make, whatever the umask
DIR_MODE = 0o755  # every folder they make


@dataclass
class Export:
    """One export of a table: the log lines it covered and what it wrote."""

    from_seq: int
    to_seq: int
    chain_head: str  # BLAKE2b-256 of line ``to_seq``: the head of the chain this export verified
    signed_seq: int  # every line up to here is covered by a verified signature
    key_ids: list[str]
    key_fingerprints: list[str]  # SHA-256 of each raw public key given
    files: list[str]  # the log files read, as :func:`file_text` writes them
    rows: dict[str, int]  # rows written per dataset
    exported_at: str
    # the files written, relative to the dataset ("rounds/table=T/date=D/part-….parquet") -> rows;
    # None in a manifest written before files were listed: its files are found by name (part-<from>-<to>)
    parts: dict[str, int] | None = None
    # each file written (as in ``parts``) -> the SHA-256 of its bytes, checked by every reader;
    # None in a manifest written before digests were recorded: its files' bytes are not checked
    digests: dict[str, str] | None = None


@dataclass
class Manifest:
    """What has been verified and exported of one table's log."""

    table: str
    through_seq: int = 0
    chain_head: str | None = None
    exports: list[Export] = field(default_factory=list)
    # the files of rows still open at ``through_seq`` (a shoe or shuffler load still in play) ->
    # rows: the next export replaces them (the row again, open or completed) and deletes them
    open_parts: dict[str, int] = field(default_factory=dict)
    format: int = FORMAT  # the dataset layout its export wrote (FORMAT)
    # where the next export goes on from (``tablectl.analytics.export.resume``): the log files read whole
    # (name, bytes, BLAKE2b-256) and the digest of the state saved beside the manifests; None: from line 1
    resume: dict[str, Any] | None = None
    # the files of ``open_parts`` -> the SHA-256 of their bytes (None: written before digests were recorded)
    open_digests: dict[str, str] | None = None

    @classmethod
    def load(cls, root: Path, table: str) -> Manifest:
        path = manifest_path(root, table)
        raw = read_own(path, "export manifest")
        if raw is None:
            return cls(table)
        try:
            data = orjson.loads(raw)
            exports = [Export(**e) for e in data["exports"]]
            for e in exports:
                if not isinstance(e.rows, dict) or not (e.parts is None or (isinstance(e.parts, dict) and all(
                        isinstance(k, str) and isinstance(n, int) for k, n in e.parts.items()))):
                    raise TypeError(f"export of seq {e.from_seq}-{e.to_seq}: rows or parts not a table of counts")
                if not _digests(e.digests):
                    raise TypeError(f"export of seq {e.from_seq}-{e.to_seq}: digests not a table of SHA-256s")
            open_parts = data.get("open_parts") or {}
            if not isinstance(open_parts, dict) or not all(
                    isinstance(k, str) and isinstance(n, int) for k, n in open_parts.items()):
                raise TypeError("open_parts not a table of counts")
            form, resume = data.get("format", 1), data.get("resume")
            if not isinstance(form, int) or not (resume is None or isinstance(resume, dict)):
                raise TypeError("format not a number or resume not a table")
            open_digests = data.get("open_digests")
            if not _digests(open_digests):
                raise TypeError("open_digests not a table of SHA-256s")
            return cls(data["table"], data["through_seq"], data["chain_head"], exports, open_parts, form, resume,
                       open_digests)
        except (orjson.JSONDecodeError, KeyError, TypeError) as e:
            raise DatasetError(f"{path}: not a tablectl export manifest ({e})") from None

    def save(self, root: Path) -> None:
        atomic_write(manifest_path(root, self.table), orjson.dumps(asdict(self), option=orjson.OPT_INDENT_2))


def file_text(path: Path) -> str:
    """*path* as a manifest records it: each byte of a name that is not UTF-8 written as a
    backslash escape (``tcp\\xff``, :func:`tablectl.text.escaped`), which JSON can hold. The
    manifest's file names are for people to read: the next export finds the files it read by
    their own names (``resume``), which are UTF-8."""
    return escaped(str(path))


def check_utf8_root(root: Path) -> None:
    """:class:`DatasetError` for a dataset whose path is not UTF-8: DuckDB, which reads every
    dataset, cannot open it (so it is neither written nor read)."""
    try:
        str(root.absolute()).encode("utf-8")
    except UnicodeEncodeError:
        raise DatasetError(f"{root}: DuckDB reads only paths that are UTF-8, and this one is not: "
                           "use a folder whose name is UTF-8") from None


def _digests(value: Any) -> bool:
    """Whether *value* is None or a table of relative paths to SHA-256s (hex)."""
    return value is None or (isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(d, str) and len(d) == 64 for k, d in value.items()))


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
    raw = read_own(path, "rules registry")
    if raw is None:
        return {}
    try:
        data: dict[str, dict[str, Any]] = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        raise DatasetError(f"{path}: not JSON ({e})") from None
    return data


def save_rules(root: Path, rules: dict[str, dict[str, Any]]) -> None:
    """Add ``rules`` to the registry (an id names the same rules wherever it appears), under its
    own ``flock``: the tables of one export may add theirs at once (``export_workers``)."""
    if not rules.keys() - load_rules(root).keys():
        return
    make_dirs(root / MANIFESTS, root)
    fd = open_lock(root / MANIFESTS / RULES_LOCK, FILE_MODE, "dataset's rules lock")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        known = load_rules(root)
        if rules.keys() - known.keys():
            atomic_write(root / MANIFESTS / RULES, orjson.dumps({**known, **rules}, option=orjson.OPT_SORT_KEYS))
    finally:
        os.close(fd)


def manifest_path(root: Path, table: str) -> Path:
    return root / MANIFESTS / f"{table}.json"


def partition_dir(root: Path, dataset: str, table: str, date: str) -> Path:
    return root / dataset / f"table={table}" / f"date={date}"


def remove_uncommitted(root: Path, table: str, through: int, open_parts: Iterable[str] = ()) -> int:
    """Delete the files of ``table`` that an interrupted export wrote past ``through`` (and
    temporary files, and open-row files the manifest no longer lists: ``open_parts``); how many.
    Nothing is deleted through a link: a folder of the table that is one is refused."""
    keep = {root / rel for rel in open_parts}
    removed = 0
    for dataset in SCHEMAS:
        base = root / dataset / f"table={table}"
        if not os.path.lexists(base):
            continue
        os.close(open_dir(base, within=root))  # a link on the way: LinkRefusedError
        for day in sorted(base.glob("date=*")):
            if day.is_symlink():
                raise link_refused(day, "dataset folder")
            for path in day.iterdir() if day.is_dir() else ():
                m = PART.fullmatch(path.name)
                stale = OPEN.fullmatch(path.name) is not None and path not in keep
                if path.name.startswith(".") or stale or (m is not None and int(m.group(1)) > through):
                    path.unlink()  # a link itself, never what it points at
                    removed += 1
    return removed


def remove_part(root: Path, rel: str) -> None:
    """Delete the dataset file *rel* (relative to *root*, as a manifest lists it) if it is there:
    only a part or open-rows file in a dataset's folders, never through a link, never elsewhere."""
    path = Path(rel)
    if (path.is_absolute() or ".." in path.parts or len(path.parts) != 4 or path.parts[0] not in SCHEMAS
            or not (PART.fullmatch(path.name) or OPEN.fullmatch(path.name))):
        return  # not a file an export writes: not one to delete
    try:
        dfd = open_dir(root / path.parent, within=root)
    except FileNotFoundError:
        return
    try:
        os.unlink(path.name, dir_fd=dfd)
    except FileNotFoundError:
        pass
    finally:
        os.close(dfd)


class PartWriter:
    """The rows of one export of one table, from line *from_seq* on, written as they come: per
    dataset and day, row groups of :attr:`CHUNK` rows into a hidden file, all renamed into place
    by :meth:`commit` once the export knows its last line (or removed by :meth:`abort`). Memory
    holds one chunk per dataset and day, not the export. Files are named ``<prefix>-<from>-<to>``
    (``part``: final rows; ``open``: rows of what is still in play, replaced by the next export).

    Rows come as values in the schema's column order; every :attr:`BATCH` of them are turned into
    Arrow columns at once, while they are still in the processor's cache (turned later, a chunk's
    rows are scattered over the heap and the copy waits on memory), and a chunk of batches is
    written as one row group. Timestamps come as the log's ISO 8601 text (``...Z``) and are
    parsed by Arrow."""

    CHUNK = 16384  # rows per row group
    BATCH = 1024  # rows per Arrow batch

    def __init__(self, root: Path, table: str, from_seq: int, prefix: str = "part") -> None:
        self.root, self.table, self.from_seq, self.prefix = root, table, from_seq, prefix
        self.written: dict[str, int] = dict.fromkeys(SCHEMAS, 0)  # rows per dataset
        self._chunks: dict[tuple[str, str], list[Sequence[Any]]] = defaultdict(list)  # rows not yet in a batch
        self._batches: dict[tuple[str, str], list[pa.RecordBatch]] = defaultdict(list)  # the chunk's batches
        self._batched: dict[tuple[str, str], int] = defaultdict(int)  # rows in those batches
        self._files: dict[tuple[str, str], tuple[pq.ParquetWriter, NewFile]] = {}
        self._rows: dict[tuple[str, str], int] = defaultdict(int)  # rows per file
        self.parts: dict[str, int] = {}  # after commit: each file put in place (relative path) -> rows
        self._placed: list[str] = []  # each file commit put in place, or was putting (relative path)
        self.digests: dict[str, str] = {}  # after commit: each of those files -> the SHA-256 of its bytes

    def add(self, dataset: str, row: dict[str, Any]) -> None:
        """Write *row* (with ``date``) to *dataset* (a key the schema does not name is left out)."""
        self.add_values(dataset, row["date"], [row.get(name) for name in SCHEMAS[dataset].names])

    def add_values(self, dataset: str, date: str, values: Sequence[Any]) -> None:
        """Write a row of *dataset* on *date*: its *values* in the schema's column order."""
        key = (dataset, date)
        chunk = self._chunks[key]
        chunk.append(values)
        if len(chunk) >= self.BATCH:
            self._batch(key)
            if self._batched[key] >= self.CHUNK:
                self._flush(key)

    def _batch(self, key: tuple[str, str]) -> None:
        """The rows of *key* not yet in a batch, made one."""
        rows = self._chunks.pop(key, None)
        if not rows:
            return
        self._batches[key].append(record_batch(key[0], rows))
        self._batched[key] += len(rows)

    def _flush(self, key: tuple[str, str]) -> None:
        """The chunk of *key* written as a row group."""
        self._batch(key)
        batches = self._batches.pop(key, None)
        rows = self._batched.pop(key, 0)
        if not batches:
            return
        dataset, date = key
        schema = SCHEMAS[dataset]
        data = pa.Table.from_batches(batches, schema=schema)
        file = self._files.get(key)
        if file is None:
            new = self._new_file(dataset, date)
            file = self._files[key] = (_parquet_writer(new.file, dataset), new)
        file[0].write_table(data)
        self.written[dataset] += rows
        self._rows[key] += rows

    def add_empty(self, dataset: str, date: str) -> None:
        """Write an empty file of *dataset* (its schema, no rows) on *date*, unless this export
        writes rows of it: every dataset then has a file a reader can open."""
        if self.written[dataset] or any(d == dataset for d, _ in (*self._chunks, *self._batches)):
            return
        key = (dataset, date)
        new = self._new_file(dataset, date)
        writer = _parquet_writer(new.file, dataset)
        writer.write_table(SCHEMAS[dataset].empty_table())
        self._files[key] = (writer, new)
        self._rows[key] = 0

    def _new_file(self, dataset: str, date: str) -> NewFile:
        """A hidden file of *dataset* on *date* (a random name, ``O_EXCL``; no folder on the way a
        link), put in place by :meth:`commit`."""
        return NewFile(partition_dir(self.root, dataset, self.table, date), FILE_MODE, within=self.root,
                       folder_mode=DIR_MODE, what="dataset file")

    def commit(self, to_seq: int) -> dict[str, int]:
        """Write what is left, and put every file in place (fsynced) as the export of the lines up to
        *to_seq*; the rows written per dataset."""
        for key in {*self._chunks, *self._batches}:
            self._flush(key)
        for key, (writer, new) in self._files.items():
            writer.close()
            name = f"{self.prefix}-{self.from_seq:012d}-{to_seq:012d}.parquet"
            rel = (new.folder / name).relative_to(self.root).as_posix()
            self._placed.append(rel)  # before the rename: an error right after it leaves the file to abort()
            final = new.commit(name)  # fsynced, renamed
            self.parts[rel] = self._rows[key]
            self.digests[rel] = sha256_file(final)
        self.parts = dict(sorted(self.parts.items()))
        self._files = {}
        return self.written

    def abort(self) -> None:
        """Remove every file written, also those :meth:`commit` put in place (the export stopped
        before its manifest listed them): nothing of this export stays."""
        for writer, new in self._files.values():
            with contextlib.suppress(OSError, pa.ArrowException):  # what it wrote is thrown away anyway
                writer.close()
            new.discard()
        for rel in self._placed:
            with contextlib.suppress(OSError):  # the error that stopped the export is the one to tell
                remove_part(self.root, rel)
        self._placed, self.parts, self.digests = [], {}, {}
        self._files, self._chunks, self._rows = {}, defaultdict(list), defaultdict(int)
        self._batches, self._batched = defaultdict(list), defaultdict(int)


def _as_given(schema: pa.Schema) -> pa.StructType:
    """*schema* as a struct of the values a row gives: a timestamp as the log's ISO 8601 text."""
    return pa.struct([pa.field(f.name, pa.string()) if pa.types.is_timestamp(f.type) else f for f in schema])


#: dataset -> (its rows' values as given, as stored): one conversion and one cast per batch
_ROW_TYPES = {name: (_as_given(schema), pa.struct(list(schema))) for name, schema in SCHEMAS.items()}
#: dataset -> its text columns, the only ones dictionary-encoded (a number or time column of
#: distinct values gains nothing by it: written plain, the files are smaller and quicker to make)
_DICTIONARY = {name: [f.name for f in schema if pa.types.is_string(f.type)] for name, schema in SCHEMAS.items()}


def record_batch(dataset: str, rows: Sequence[Sequence[Any]]) -> pa.RecordBatch:
    """*rows* of *dataset* (each its values in the schema's column order; a timestamp as the log's
    ISO 8601 text) as one Arrow batch, converted in one pass over the rows. Raises Arrow's error
    for a row that does not fit the schema."""
    given, stored = _ROW_TYPES[dataset]
    return pa.RecordBatch.from_struct_array(pa.array(list(map(tuple, rows)), given).cast(stored))


def _parquet_writer(file: Any, dataset: str) -> pq.ParquetWriter:
    return pq.ParquetWriter(file, SCHEMAS[dataset], compression="zstd", use_dictionary=_DICTIONARY[dataset])


def read_own(path: Path, what: str) -> bytes | None:
    """The bytes of *path*, a bookkeeping file an export wrote in the dataset (a manifest, the
    rules registry, the math cache, a saved review state); None if there is none. Never a link, a
    FIFO or a device: :class:`DatasetError` (one line) without opening it, as for a file that
    cannot be read or is over :data:`MAX_OWN_BYTES`."""
    try:
        return read_regular(path, what, MAX_OWN_BYTES, follow_links=False)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise DatasetError(f"{path}: cannot read the {what}: {e.strerror or e}") from None


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``path``, a file under a dataset's ``_manifests`` folder, whole or not at all (mode
    :data:`FILE_MODE`): a random hidden temporary name (``O_EXCL``), fsynced, renamed over it, the
    folder fsynced; no folder below the dataset's own, and not ``path`` itself, may be a link. On
    an error (a full disk) the temporary file is removed and the error raised."""
    _atomic_write(path, data, FILE_MODE, within=_dataset_of(path), folder_mode=DIR_MODE, what="dataset file")


def _dataset_of(path: Path) -> Path:
    """The dataset folder that *path* (under its ``_manifests``) belongs to: the user's path."""
    return next((p.parent for p in path.parents if p.name == MANIFESTS), path.parent)


def make_dirs(path: Path, root: Path) -> None:
    """``mkdir -p path`` in the dataset at *root* (made as given if missing), each folder made
    with mode :data:`DIR_MODE` whatever the umask (folders that exist are left as they are), none
    below *root* followed if it is a link (``LinkRefusedError``)."""
    os.close(open_dir(path, within=root, mode=DIR_MODE))


class DatasetBusyError(Exception):
    """Another export held the dataset for longer than the export would wait (one line)."""


@contextmanager
def exclusive(root: Path, wait: float = LOCK_WAIT, busy: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the dataset at ``root`` (made if missing) for one writer: an exclusive ``flock`` on
    ``_manifests/.lock``, released when the block ends or the process dies. If another export
    holds it, ``busy`` is told once (one line) and the lock is waited for up to ``wait`` seconds;
    then :class:`DatasetBusyError`. The lock file is never deleted (that would let two writers
    hold two different files). A ``root`` whose path is not UTF-8 is a :class:`DatasetError`."""
    check_utf8_root(root)
    make_dirs(root / MANIFESTS, root)
    fd = open_lock(root / MANIFESTS / LOCK, FILE_MODE, "dataset's lock file")  # never through a link, never truncated
    try:
        if not _try_lock(fd):
            holder = _holder(fd)
            if busy is not None:
                busy(f"{root}: another export{holder} is writing the dataset ({MANIFESTS}/{LOCK}): "
                     f"waiting up to {wait:g} s for it")
            deadline = time.monotonic() + wait
            while not _try_lock(fd):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise DatasetBusyError(f"{root}: another export{_holder(fd) or holder} held the dataset for "
                                           f"{wait:g} s ({MANIFESTS}/{LOCK}): nothing exported, try again later")
                time.sleep(min(0.1, left))
        note_holder(fd)  # who holds it, for the next one's message (only into a file that is nothing else)
        yield
    finally:
        os.close(fd)  # releases the lock


def _try_lock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return False
        raise
    return True


def _holder(fd: int) -> str:
    """`` (pid N)`` of the export holding the lock, as it wrote it, or ``""``."""
    pid = read_holder(fd)
    return f" (pid {pid})" if pid is not None else ""


class DatasetFormatError(DatasetError):
    """A dataset written in another format than the readers' (one line: which, and to re-export)."""


def check_format(root: Path, path: Path, dataset: str, form: int, meta: pq.FileMetaData) -> None:
    """Raises :class:`DatasetFormatError` if *path*, a file of *dataset* its manifest says was
    written in format *form* (older than :data:`FORMAT`), lacks a column of today's schema, and
    :class:`IntegrityError` if a file of today's format does, or if a column of *path* is of
    another type than the schema gives. *meta*: its footer."""
    have = meta.schema.to_arrow_schema()
    missing = [n for n in SCHEMAS[dataset].names if n not in have.names]
    wrong = wrong_types(SCHEMAS[dataset], have)
    if wrong:
        raise IntegrityError(f"{path}: {wrong[0]} (the {dataset} schema; a file rewritten?): nothing read")
    if not missing:
        return
    if form < FORMAT:
        raise DatasetFormatError(
            f"{root}: written by an older tablectl (dataset format {form}; {dataset} lacks {', '.join(missing)}): "
            f"re-export its logs into a new dataset (tablectl export LOG... --to NEW_DATASET): nothing read")
    raise IntegrityError(f"{path}: lacks the column(s) {', '.join(missing)} its export (dataset format {form}) "
                         "writes: nothing read")


class IntegrityError(DatasetError):
    """The dataset's files are not what its manifests list (a file no manifest lists, a listed file
    missing, changed or not a regular file, rows or column types that differ from the export's
    record, a table's files without its manifest): one line naming the file, or one line per table."""


def listed_parts(root: Path, warn: Callable[[str], None] | None = None) -> dict[str, list[Path]]:
    """Per dataset, the files the manifests list: the only files readers read. Raises
    :class:`IntegrityError` for a manifest or listed file that is not a regular file (a link, a
    FIFO, a folder: never opened), a listed file that is missing, whose bytes are not those its
    export wrote (SHA-256), whose rows or column types (its Parquet footer) differ from what its
    export recorded or its schema gives, a file in the dataset's folders that no manifest lists —
    except hidden names (``.``, ``_``) and the files an interrupted export wrote past its table's
    ``through_seq`` (never read; the next export deletes them) — and the files of a table that has
    no manifest (one line per table). A manifest that predates listed files has its exports' files
    found by name (``part-<from>-<to>.parquet``) and their rows checked per dataset; those that
    predate digests are read without checking the files' bytes, ``warn`` told once (one line
    naming them) when the check has passed. Each file is opened once and hashed once."""
    paths = sorted(p for p in (root / MANIFESTS).glob("*.json") if not p.name.startswith("_"))
    for path in paths:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            raise IntegrityError(f"{path}: not a regular file (a link, a FIFO, a folder?): not opened, nothing read")
    manifests = {p.stem: Manifest.load(root, p.stem) for p in paths}
    out: dict[str, list[Path]] = {name: [] for name in SCHEMAS}
    listed: set[Path] = set()
    unchecked: list[str] = []  # the manifests that record no digest of some file
    for table, manifest in manifests.items():
        where = f"{MANIFESTS}/{table}.json"
        if manifest.format > FORMAT:
            raise DatasetFormatError(f"{root}: {where} is of dataset format {manifest.format}, written by a newer "
                                     f"tablectl (this one reads format {FORMAT} and older): nothing read")
        if (manifest.open_parts and manifest.open_digests is None) or any(e.digests is None for e in manifest.exports):
            unchecked.append(where)
        if manifest.open_parts:
            _check_listed(root, manifest.open_parts, manifest.open_digests, where, "open rows", out, listed,
                          manifest.format)
        for export in manifest.exports:
            span = f"seq {export.from_seq}-{export.to_seq}"
            parts: dict[tuple[str, Path], int | None]  # (dataset, file) -> rows recorded
            if export.parts is not None:
                parts = {(rel.split("/", 1)[0], root / rel): n for rel, n in export.parts.items()}
            else:
                named = f"date=*/part-{export.from_seq:012d}-{export.to_seq:012d}.parquet"
                parts = {(name, path): None for name in SCHEMAS
                         for path in sorted((root / name / f"table={table}").glob(named))}
            found: dict[str, int] = defaultdict(int)
            first: dict[str, Path] = {}
            for (name, path), recorded in parts.items():
                if name not in out or not path.is_relative_to(root) or ".." in path.relative_to(root).parts:
                    raise IntegrityError(f"{path}: listed by {where} ({span}) outside the datasets")
                digest = _digest_of(root, path, export.digests, where, span)
                rows = _footer_checked(root, path, name, where, span, recorded, manifest.format, digest)
                found[name] += rows
                first.setdefault(name, path)
                out[name].append(path)
                listed.add(path)
            for name in SCHEMAS:
                expected = export.rows.get(name, 0)
                if found[name] != expected:
                    at = first.get(name, root / name / f"table={table}")
                    raise IntegrityError(f"{at}: the {name} files of {where} ({span}) hold {found[name]} rows, "
                                         f"the export wrote {expected}")
    orphans: dict[str, Path] = {}  # a table with files and no manifest -> its first folder
    for name in SCHEMAS:
        for top, dirs, files in os.walk(root / name):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))  # hidden: not data
            rel = Path(top).relative_to(root / name).parts
            for file in sorted(f for f in files if not f.startswith((".", "_"))):
                path = Path(top, file)
                if path in listed:
                    continue
                m = PART.fullmatch(file)
                table = rel[0].removeprefix("table=") if len(rel) == 2 and rel[0].startswith("table=") else None
                if table is not None and table not in manifests:
                    orphans.setdefault(table, root / name / rel[0])
                    continue
                through = manifests[table].through_seq if table in manifests else 0
                if m is not None and table is not None and int(m.group(1)) > through:
                    continue  # written by an interrupted export: never committed, never read
                if OPEN.fullmatch(file) is not None and table is not None:
                    continue  # open rows an export replaced (or never committed): deleted by the next
                raise IntegrityError(f"{path}: in the dataset but listed by no manifest (a copy? move it out of "
                                     f"{root}): nothing read")
    if orphans:
        raise IntegrityError("\n".join(
            f"{folder}: table {table} has files in the dataset but no manifest ({MANIFESTS}/{table}.json deleted? "
            "or its first export stopped before writing it): nothing read; export its logs again to rewrite them"
            for table, folder in sorted(orphans.items())))
    if unchecked and warn is not None:
        warn(f"{root}: {', '.join(unchecked)}: no SHA-256 of the files recorded (written by an older tablectl): "
             "their bytes are not checked; re-export the logs into a new dataset to have them checked")
    for files in out.values():
        files.sort()
    return out


def _digest_of(root: Path, path: Path, digests: dict[str, str] | None, where: str, span: str) -> str | None:
    """The SHA-256 that *digests* (of the export *where* lists, None: none recorded) records for
    *path*; :class:`IntegrityError` if they are recorded but not this file's."""
    if digests is None:
        return None
    digest = digests.get(path.relative_to(root).as_posix())
    if digest is None:
        raise IntegrityError(f"{path}: listed by {where} ({span}) with no SHA-256 of its bytes: nothing read")
    return digest


def _footer_checked(root: Path, path: Path, name: str, where: str, span: str, recorded: int | None, form: int,
                    digest: str | None = None) -> int:
    """The rows of *path*, a file of dataset *name* that *where* lists, after checking it: a
    regular file, its bytes those of SHA-256 *digest* (None: not checked), its footer readable,
    the rows its export recorded (if it did), every column of the format of its schema's type."""
    try:
        meta = checked_footer(path, digest)
    except Refused as e:
        raise IntegrityError(f"{path}: {e}; listed by {where} ({span}): nothing read") from None
    except FileNotFoundError:
        raise IntegrityError(f"{path}: listed by {where} ({span}) but missing") from None
    except (OSError, pa.ArrowException) as e:
        raise IntegrityError(f"{path}: listed by {where} ({span}) but not readable Parquet "
                             f"({str(e).splitlines()[0] if str(e) else type(e).__name__})") from None
    if recorded is not None and meta.num_rows != recorded:
        raise IntegrityError(f"{path}: holds {meta.num_rows} rows, its export ({where}, {span}) wrote {recorded}")
    check_format(root, path, name, form, meta)
    return meta.num_rows


def _check_listed(root: Path, parts: dict[str, int], digests: dict[str, str] | None, where: str, span: str,
                  out: dict[str, list[Path]], listed: set[Path], form: int = FORMAT) -> None:
    """Check the files *parts* (relative path -> rows; *digests*: their SHA-256s, None: not
    recorded) that *where* lists and add them to *out*."""
    for rel, recorded in parts.items():
        name, path = rel.split("/", 1)[0], root / rel
        if name not in out or ".." in Path(rel).parts:
            raise IntegrityError(f"{path}: listed by {where} ({span}) outside the datasets")
        _footer_checked(root, path, name, where, span, recorded, form, _digest_of(root, path, digests, where, span))
        out[name].append(path)
        listed.add(path)

