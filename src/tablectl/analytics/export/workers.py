"""The tables of one export, each in a forked worker process, several at once.

A floor's logs are independent tables: each has its own files, manifest, saved state and
partitions, and the only file they share (the rules registry) is written under its own lock
(``dataset.save_rules``). ``export_logs`` hands them here when it may use more than one core: up
to *workers* children run at a time, each forked from this process (it sees the keys as they
are here: nothing is sent to it) and exporting one table exactly as the sequential export does,
its ``TableExport`` sent back. When a child fails, the others finish, no new table is started,
and the first failure is raised here; the tables not started are not exported, as when the
sequential export stops at a failure. The tables with the longest logs start first, so that no
long one is left running alone at the end. Progress (lines and bytes read) comes back from each
child over its own pipe and is told to *progress* here: one progress line covers every table.

Forking is only safe in a process without other threads (``review.workers.can_fork``). A worker
is a daemonic process, which may not have children: its review verifies the log itself rather
than in a worker of its own (the cores are the table workers').
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from pathlib import Path

from tablectl.analytics.export.table import TableExport, export_table
from tablectl.eventlog.trust import Trust
from tablectl.review.workers import Forked

Job = tuple[str, list[Path], Trust]  # (table, its files, what to trust)
Progress = Callable[[int, int], None]


def export_in_workers(jobs: Sequence[Job], root: Path, workers: int, progress: Progress | None = None,
                      done: Callable[[TableExport], None] | None = None) -> list[TableExport]:
    """Each job's ``export_table`` in a forked child, up to *workers* at a time; the results in
    the order of *jobs*, each told to *done* as it comes (before a failure is raised)."""
    ctx = multiprocessing.get_context("fork")
    results: dict[int, TableExport] = {}
    running: dict[int, tuple[Forked[TableExport], Connection | None]] = {}
    failure: BaseException | None = None
    todo = sorted(enumerate(jobs), key=lambda job: -_size(job[1][1]))  # the longest logs first

    def start(index: int, table: str, files: list[Path], trust: Trust) -> None:
        told, sender = ctx.Pipe(duplex=False) if progress is not None else (None, None)
        tell = None if sender is None else _sender(sender)
        running[index] = (Forked(lambda: export_table(table, files, root, trust, tell)), told)
        if sender is not None:
            sender.close()  # the child has its own copy: the pipe ends with the child

    try:
        while todo or running:
            while todo and failure is None and len(running) < workers:
                index, job = todo.pop(0)
                start(index, *job)
            if not running:
                break
            waiting: list[Forked[TableExport] | Connection] = [w for w, _ in running.values()]
            waiting += [p for _, p in running.values() if p is not None]
            wait(waiting)
            for index, (worker, pipe) in list(running.items()):
                if pipe is not None:
                    _drain(pipe, progress)
                if not worker.ready():
                    continue
                del running[index]
                if pipe is not None:
                    pipe.close()
                try:
                    results[index] = worker.result()
                except BaseException as e:  # noqa: BLE001 - the first is raised once the others finish
                    failure = failure or e
                    continue
                if done is not None:
                    done(results[index])
    except BaseException:
        for worker, _ in running.values():
            worker.cancel()
        raise
    if failure is not None:
        raise failure
    return [results[i] for i in range(len(jobs))]


def _size(files: list[Path]) -> int:
    total = 0
    for f in files:
        try:
            total += f.stat().st_size
        except OSError:  # the export says what is wrong with it
            pass
    return total


def _sender(conn: Connection) -> Progress:
    def tell(lines: int, size: int) -> None:
        conn.send((lines, size))

    return tell


def _drain(pipe: Connection, progress: Progress | None) -> None:
    """Tell *progress* every count waiting in *pipe*."""
    try:
        while pipe.poll():
            lines, size = pipe.recv()
            if progress is not None:
                progress(lines, size)
    except (EOFError, OSError):  # the child is gone: what it sent has been read
        pass


__all__ = ["export_in_workers"]
