"""Work of a large review done in a forked child process, the result sent back pickled.

``tablectl review`` of a large log uses both cores of the machine (``engine.review``): a child
verifies the hash chain and the signatures while this process reads, parses, reconstructs and
checks the rounds of the same files. A forked child sees this process's memory as it was at the
fork (the files, the keys): nothing is sent to it, only its result comes back.

Forking is only safe in a process without other threads, where the "fork" start method exists.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, Generic, TypeVar

T = TypeVar("T")


def can_fork() -> bool:
    """More than one core, the "fork" start method, no other thread in this process, and this
    process not itself a daemonic worker (``multiprocessing`` gives those no children)."""
    return (
        (os.cpu_count() or 1) > 1
        and "fork" in multiprocessing.get_all_start_methods()
        and threading.active_count() == 1
        and not multiprocessing.current_process().daemon
    )


class WorkerFailed(RuntimeError):
    """The child process died without a result, or its result could not be sent back."""


class Forked(Generic[T]):
    """``fn()`` run in a forked child process. :meth:`result` returns its value, or raises the
    exception it raised (a pickled copy); :attr:`cpu` is then the child's CPU seconds."""

    def __init__(self, fn: Callable[[], T]) -> None:
        _flush_std_streams()
        ctx = multiprocessing.get_context("fork")
        self._recv, send = ctx.Pipe(duplex=False)
        self._proc = ctx.Process(target=_child, args=(fn, send), daemon=True)
        self._proc.start()
        send.close()
        self.cpu = 0.0

    def fileno(self) -> int:
        """The result pipe's descriptor: ``multiprocessing.connection.wait`` takes the worker."""
        return self._recv.fileno()

    def ready(self) -> bool:
        """The result has arrived (or the child is gone): :meth:`result` will not wait."""
        return self._recv.poll()

    def result(self) -> T:
        try:
            ok, value, self.cpu = self._recv.recv()
        except (EOFError, OSError):
            raise WorkerFailed(f"the worker process ended without a result (exit code {self._end()})") from None
        finally:
            self._end()
        if not ok:
            raise value
        return value  # type: ignore[no-any-return]

    def cancel(self) -> None:
        """Stop the child (its result is not wanted)."""
        if self._proc.is_alive():
            self._proc.terminate()
        self._end()

    def _end(self) -> int | None:
        self._recv.close()
        self._proc.join()
        return self._proc.exitcode


def _flush_std_streams() -> None:
    """Else a child would write a copy of what this process has buffered when it exits."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # a closed pipe or file: nothing the child could write either
            pass


def _child(fn: Callable[[], Any], send: Connection) -> None:
    t0 = time.process_time()
    try:
        out: tuple[bool, Any, float] = (True, fn(), 0.0)
    except BaseException as e:  # noqa: BLE001 - handed to the parent, which raises it
        e.add_note(f"in a worker process:\n{traceback.format_exc()}")
        out = (False, e, 0.0)
    out = (out[0], out[1], time.process_time() - t0)
    try:
        send.send(out)
    except Exception:  # noqa: BLE001 - an unpicklable result or exception
        send.send((False, WorkerFailed(traceback.format_exc()), out[2]))
    finally:
        send.close()
