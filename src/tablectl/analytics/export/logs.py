"""``export_logs``: verified card logs into the surveillance dataset, adding only what is new.

For each table among the log files: review the whole log (``tablectl.review.engine.review``:
hash chain, signatures, clean end, then the rounds, anomalies and shuffles), the rows made from
the records as the review reads them and written to hidden files. A log that fails verification
is refused with the file and line of its first failure and nothing of it stays (the hidden files
are removed). A log that no longer continues the chain its last export recorded (shorter, or
different up to there) is refused the same way. Otherwise the rows anchored past the manifest's
``through_seq`` are put in place and the manifest moves on (``tablectl.analytics.dataset.store``).

What is still in play where the log ends (a shoe, a continuous shuffler's load) is written as an
*open* row to the export's open files, listed apart in the manifest (``open_parts``): each export
replaces them, so the row comes again, open or completed, and is never counted twice. A dataset
the table has no rows of yet gets an empty file with its schema (listed like any other), so every
dataset opens in every reader.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from tablectl.analytics.dataset import store as ds
from tablectl.analytics.export.table import TableExport, export_table
from tablectl.analytics.export.workers import export_in_workers
from tablectl.eventlog import logformat as fmt
from tablectl.eventlog.errors import LogInputError
from tablectl.eventlog.trust import Trust
from tablectl.eventlog.verify import log_table, resolve_paths
from tablectl.review.workers import can_fork


def logs_by_table(paths: Iterable[Path | str]) -> dict[str, list[Path]]:
    """The log files under ``paths`` grouped by table, each group in log order. Raises
    ``LogInputError`` for a path that does not exist or holds no logs."""
    groups: dict[str, list[Path]] = defaultdict(list)
    for path in resolve_paths(paths):
        parsed = fmt.parse_file_name(path.name)
        if parsed is None:
            raise LogInputError(f"{path}: not a tablectl log file name (tablectl-<table>-NNNNNN.jsonl)")
        groups[parsed[0]].append(path)
    return {table: sorted(set(files)) for table, files in groups.items()}


def export_logs(paths: Iterable[Path | str], root: Path,
                keys: Sequence[Ed25519PublicKey] | Callable[[list[Path]], Trust | None], *,
                wait: float = ds.LOCK_WAIT, busy: Callable[[str], None] | None = None,
                progress: Callable[[int, int], None] | None = None, workers: int = 1,
                done: Callable[[TableExport], None] | None = None) -> list[TableExport]:
    """Export the logs in ``paths`` (files or directories, any number of tables) into the dataset
    at ``root``. ``keys``: what to trust for each table's log (files -> :class:`Trust`: the
    keyring's keys of the table the lines name, or keys given by hand), or the keys to trust for
    every table. Raises :class:`UntrustedLogError`, before anything is exported, for a log with
    no trusted key or only a key lying beside it. One export writes a dataset at a time
    (``dataset.exclusive``: ``busy`` told, up to ``wait`` seconds waited, then ``DatasetBusyError``).
    ``progress`` is told the lines and bytes read as the logs are (``review``'s). ``workers``: how
    many tables are exported at once, each in its own process (``export_workers``; where this
    process may fork), the results the same as one at a time. ``done`` is told each table's result
    as its export ends: also those of the tables exported before one failed, whose failure is then
    raised."""
    trust_of = keys if callable(keys) else (lambda files: Trust.of(keys))
    groups = sorted(logs_by_table(paths).items())
    trusts = {table: _trusted(files, trust_of(files)) for table, files in groups}
    with ds.exclusive(root, wait, busy):
        if workers > 1 and len(groups) > 1 and can_fork():
            return export_in_workers([(table, files, trusts[table]) for table, files in groups], root, workers,
                                     progress, done)
        results: list[TableExport] = []
        for table, files in groups:
            results.append(export_table(table, files, root, trusts[table], progress))
            if done is not None:
                done(results[-1])
        return results


class UntrustedLogError(LogInputError):
    """A log export will not take: no trusted key for its table, or only a key beside it."""


def _trusted(files: list[Path], trust: Trust | None) -> Trust:
    if trust is None:
        raise UntrustedLogError(f"{files[0]}: no trusted key of table {log_table(files)} (none in the keyring, no "
                                "--key): only signed, verified logs are exported")
    if trust.beside:
        raise UntrustedLogError(f"{trust.beside[0]}: the key lies in the folder of the log it would vouch for "
                                "(enrol the table's key in the keyring: tablectl keyring add): nothing exported")
    return trust
