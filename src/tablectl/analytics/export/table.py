"""``export_table``: one table's verified log into the surveillance dataset, adding only what is
new since its last export (``tablectl.analytics.export.resume``) and refusing a log that fails
verification or no longer continues the chain its last export recorded."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import orjson
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from tablectl.analytics.dataset import store as ds
from tablectl.analytics.export import resume
from tablectl.analytics.export.rows import Extractor
from tablectl.eventlog.keys import public_bytes
from tablectl.eventlog.trust import Trust
from tablectl.eventlog.verify import VerifyReport
from tablectl.review.engine import review


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
    note: str | None = None  # why the export read the whole log again instead of going on from its last


def export_table(table: str, files: list[Path], root: Path, keys: Trust | Sequence[Ed25519PublicKey],
                 progress: Callable[[int, int], None] | None = None) -> TableExport:
    """Verify one table's log and add what is new to the dataset: the rows are made and written
    (hidden) as the review reads the log, and put in place only once it has verified. The log's
    lines name its table: files named for *table* that hold another table's log are refused.

    When the manifest records where its last export ended (``tablectl.analytics.export.resume``), the
    files read then are re-hashed and only the files after them are reviewed, going on from the
    saved state; if anything is in doubt the whole log is reviewed again, ``TableExport.note``
    saying why."""
    t0 = time.perf_counter()
    trust = Trust.of(keys)
    if trust is None:
        raise ValueError("export needs the tables' public key(s): only signed, verified logs are exported")
    result = TableExport(table, [str(f) for f in files])
    manifest = ds.Manifest.load(root, table)
    fingerprints = sorted(hashlib.sha256(public_bytes(k)).hexdigest() for k in trust.keys().values())
    result.removed = ds.remove_uncommitted(root, table, manifest.through_seq, manifest.open_parts)
    plan = resume.plan(root, manifest, files, fingerprints)
    if isinstance(plan, str):
        result.note = f"{plan}: reviewing the whole log again"
        plan = None
    if plan is not None and not any(f.stat().st_size for f in files[plan.skip :]):
        # nothing added since, or only an empty file (a crash right after a rotation leaves one)
        result.from_seq = result.to_seq = manifest.through_seq
        result.from_seq += 1
        result.seconds = time.perf_counter() - t0
        return result
    if plan is not None:
        try:
            return _export(table, files, root, trust, manifest, fingerprints, result, progress, plan, t0)
        except resume.Fallback as e:
            result.note = f"{e}: reviewing the whole log again"
    return _export(table, files, root, trust, manifest, fingerprints, result, progress, None, t0)


def _export(table: str, files: list[Path], root: Path, trust: Trust, manifest: ds.Manifest, fingerprints: list[str],
            result: TableExport, progress: Callable[[int, int], None] | None, plan: resume.Plan | None,
            t0: float) -> TableExport:
    """The export of *files* (from the plan's first new file, or all of them) after *manifest*."""
    through = manifest.through_seq
    out = ds.PartWriter(root, table, through + 1)
    open_out = ds.PartWriter(root, table, through + 1, prefix="open")
    rows = Extractor(table, out, through, open_out)
    nxt = resume.NextStart(rows, (out, open_out))
    read = files if plan is None else files[plan.skip :]
    with resume.Marking(read) as marking:  # the files' marks for the next export, taken meanwhile
        lines = rows.lines
        if plan is not None:
            resume.apply(rows, plan.carry)
            lines = resume.guard(lines)
        try:
            report = review(read, trust, rounds=rows.round, lines=lines, progress=progress, replay_after=through,
                            start=None if plan is None else plan.carry.review, before_finish=nxt)
            verification = report.verification
            last = verification.last_seq or 0
            result.refused = _refusal(verification, read, through, manifest.chain_head, table)
            if result.refused is not None and plan is not None:  # said with its place by a review of the whole log
                raise resume.Fallback("the new files do not verify going on from the saved state")
            if result.refused is None:
                result.from_seq, result.to_seq = through + 1, last
            if result.refused is not None or last == through:
                out.abort()
                open_out.abort()
                result.seconds = time.perf_counter() - t0
                return result
            rows.finish(report)
            if plan is not None:
                resume.write_carried(out, plan.carry)
            ds.save_rules(root, rows.rules)
            had = _datasets_with_files(manifest)
            for name in ds.SCHEMAS:
                if name not in had:
                    out.add_empty(name, (report.recon.last_ts or "")[:10] or "1970-01-01")
            result.rows = out.commit(last)
            open_out.commit(last)
            head = verification.last_digest
            manifest.exports.append(ds.Export(
                from_seq=through + 1, to_seq=last, chain_head=head, signed_seq=verification.signed_seq,
                key_ids=list(verification.key_ids), key_fingerprints=fingerprints,
                files=[ds.file_text(f) for f in files], rows=result.rows, parts=out.parts, digests=out.digests,
                exported_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            ))
            manifest.through_seq, manifest.chain_head = last, head
            replaced, manifest.open_parts = manifest.open_parts, open_out.parts
            manifest.open_digests = open_out.digests
            carried = resume.capture(report, rows, nxt, plan.marks if plan is not None else [], marking)
            manifest.resume = None
            if not isinstance(carried, str):
                data, record = carried
                ds.atomic_write(resume.state_path(root, table), data)  # bound to the manifest by its digest
                manifest.resume = msgspec.to_builtins(record)
            manifest.save(root)
        except BaseException:  # the files put in place go too, unless a manifest in place lists them
            if not _listed(root, table, out, open_out):
                out.abort()
                open_out.abort()
            raise
        for rel in replaced.keys() - open_out.parts.keys():
            ds.remove_part(root, rel)  # only a dataset file, never through a link
        result.seconds = time.perf_counter() - t0
        return result


def _listed(root: Path, table: str, out: ds.PartWriter, open_out: ds.PartWriter) -> bool:
    """Whether the manifest in place lists the files *out* and *open_out* put in place: its save
    went through before the error (the folder's fsync), so they stay."""
    if not (out.parts or open_out.parts):
        return False
    try:
        manifest = ds.Manifest.load(root, table)
    except (ds.DatasetError, OSError):
        return False
    last = manifest.exports[-1] if manifest.exports else None
    return last is not None and last.parts == out.parts and manifest.open_parts == open_out.parts


def _datasets_with_files(manifest: ds.Manifest) -> set[str]:
    """The datasets that earlier exports of the table wrote a file of (rows or empty)."""
    if any(e.parts is None for e in manifest.exports):
        return set(ds.SCHEMAS)  # a manifest from before files were listed: leave it as it is
    return {rel.split("/", 1)[0] for e in manifest.exports for rel in (e.parts or {})}


def _refusal(verification: VerifyReport, files: list[Path], through: int, chain_head: str | None,
             table: str) -> str | None:
    """Why the log in *files*, named for *table*, cannot be exported after the *through* lines of
    it exported before, ending at *chain_head* (None: it can)."""
    if not verification.ok:
        return f"integrity failure: {verification.integrity_failures[0]}"
    if verification.table != table:
        return f"integrity failure: {files[0]}: named for table {table}, holds the log of table {verification.table}"
    last = verification.last_seq or 0
    if last < through:
        return f"integrity failure: {files[-1]}: the log ends at seq {last}, but seq 1-{through} of it were exported before"
    if through:
        seen = verification.last_digest if last == through else _prev_of(files, through + 1)
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
