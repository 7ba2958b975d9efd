"""``export_logs``: verified card logs into the surveillance dataset, adding only what is new.

For each table among the log files: review the whole log (``tablectl.review.engine.review``:
hash chain, signatures, clean end, then the rounds, anomalies and shuffles), the rows made from
the records as the review reads them and written to hidden files. A log that fails verification
is refused with the file and line of its first failure and nothing of it stays (the hidden files
are removed). A log that no longer continues the chain its last export recorded (shorter, or
different up to there) is refused the same way. Otherwise the rows anchored past the manifest's
``through_seq`` are put in place and the manifest moves on (``tablectl.analytics.dataset``).
"""

from __future__ import annotations

import hashlib
import re
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import orjson
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from tablectl.analytics import dataset as ds
from tablectl.analytics.rows import Extractor
from tablectl.eventlog.errors import LogInputError
from tablectl.eventlog.keys import public_bytes
from tablectl.eventlog.verify import VerifyReport, resolve_paths
from tablectl.review.engine import review

LOG_NAME = re.compile(r"^tablectl-(?P<table>[A-Za-z0-9][A-Za-z0-9_.-]*)-\d{6,}\.jsonl$")


@dataclass
class TableExport:
    """What an export did with one table's log."""

    table: str
    files: list[str]
    from_seq: int = 0
    to_seq: int = 0
    rows: dict[str, int] = field(default_factory=dict)
    refused: str | None = None  # why nothing was exported (an integrity failure, with file and line)
    removed: int = 0  # files of an interrupted earlier export deleted
    seconds: float = 0.0


def logs_by_table(paths: Iterable[Path | str]) -> dict[str, list[Path]]:
    """The log files under ``paths`` grouped by table, each group in log order. Raises
    ``LogInputError`` for a path that does not exist or holds no logs."""
    groups: dict[str, list[Path]] = defaultdict(list)
    for path in resolve_paths(paths):
        m = LOG_NAME.match(path.name)
        if m is None:
            raise LogInputError(f"{path}: not a tablectl log file name (tablectl-<table>-NNNNNN.jsonl)")
        groups[m.group("table")].append(path)
    return {table: sorted(set(files)) for table, files in groups.items()}


def export_logs(paths: Iterable[Path | str], root: Path, keys: Sequence[Ed25519PublicKey]) -> list[TableExport]:
    """Export the logs in ``paths`` (files or directories, any number of tables) into the dataset
    at ``root``, checking signatures with ``keys`` (at least one)."""
    if not keys:
        raise ValueError("export needs the tables' public key(s): only signed, verified logs are exported")
    root.mkdir(parents=True, exist_ok=True)
    return [export_table(table, files, root, keys) for table, files in sorted(logs_by_table(paths).items())]


def export_table(table: str, files: list[Path], root: Path, keys: Sequence[Ed25519PublicKey]) -> TableExport:
    """Verify one table's log and add what is new to the dataset: the rows are made and written
    (hidden) as the review reads the log, and put in place only once it has verified."""
    t0 = time.perf_counter()
    result = TableExport(table, [str(f) for f in files])
    manifest = ds.Manifest.load(root, table)
    through = manifest.through_seq
    result.removed = ds.remove_uncommitted(root, table, through)
    out = ds.PartWriter(root, table, through + 1)
    rows = Extractor(table, out, through)
    try:
        report = review(files, keys, rounds=rows.round, lines=rows.lines)
        verification = report.verification
        last = verification.last_seq or 0
        result.refused = _refusal(verification, files, through, manifest.chain_head)
        if result.refused is None:
            result.from_seq, result.to_seq = through + 1, last
        if result.refused is not None or last == through:
            out.abort()
            result.seconds = time.perf_counter() - t0
            return result
        rows.finish(report)
        ds.save_rules(root, rows.rules)
        result.rows = out.commit(last)
    except BaseException:
        out.abort()
        raise
    head = _digest_of_last_line(files[-1])
    manifest.exports.append(ds.Export(
        from_seq=through + 1, to_seq=last, chain_head=head, signed_seq=verification.signed_seq,
        key_ids=list(verification.key_ids),
        key_fingerprints=sorted(hashlib.sha256(public_bytes(k)).hexdigest() for k in keys),
        files=[str(f) for f in files], rows=result.rows,
        exported_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
    ))
    manifest.through_seq, manifest.chain_head = last, head
    manifest.save(root)
    result.seconds = time.perf_counter() - t0
    return result


def _refusal(verification: VerifyReport, files: list[Path], through: int, chain_head: str | None) -> str | None:
    """Why the log in *files* cannot be exported after the *through* lines of it exported before,
    ending at *chain_head* (None: it can)."""
    if not verification.ok:
        return f"integrity failure: {verification.integrity_failures[0]}"
    last = verification.last_seq or 0
    if last < through:
        return f"integrity failure: {files[-1]}: the log ends at seq {last}, but seq 1-{through} of it were exported before"
    if through:
        seen = _digest_of_last_line(files[-1]) if last == through else _prev_of(files, through + 1)
        if seen != chain_head:
            return (f"integrity failure: {files[-1]}: the log differs from the one exported through seq {through} "
                    f"(chain head {chain_head}, now {seen})")
    return None


def _prev_of(files: list[Path], seq: int) -> str | None:
    """The ``prev`` of line *seq* (the digest of the line before it), found by its first bytes in
    4 MiB reads (a line of a verified log starts ``{"seq":N,``; a JSON string holds no newline)."""
    head = b'\n{"seq":%d,' % seq
    for path in files:
        with open(path, "rb") as f:
            data = b"\n"  # the file's first line follows no newline
            while chunk := f.read(1 << 22):
                data += chunk
                at = data.find(head)
                if at >= 0:
                    while (end := data.find(b"\n", at + 1)) < 0 and (more := f.read(1 << 22)):
                        data += more
                    line = data[at + 1 :] if end < 0 else data[at + 1 : end]
                    prev = orjson.loads(line).get("prev")
                    return prev if isinstance(prev, str) else None
                data = data[-len(head) :]
    return None


def _digest_of_last_line(path: Path) -> str:
    """BLAKE2b-256 of the last line of ``path`` (without its newline): the chain's head."""
    with open(path, "rb") as f:
        f.seek(0, 2)
        size = f.tell()
        back = min(size, 1 << 16)
        while True:
            f.seek(size - back)
            tail = f.read(back).rstrip(b"\n")
            cut = tail.rfind(b"\n")
            if cut >= 0 or back == size:
                return hashlib.blake2b(tail[cut + 1:], digest_size=32).hexdigest()
            back = min(size, back * 2)
