"""The whole suite's isolation: simulated tables keep their keys, and enrol them, in folders of
this test run, never in the user's own state folder or keyring; the slow tests' time limit; and,
in a pytest-xdist worker, a hang's thread dump where the run shows it."""

from __future__ import annotations

import faulthandler
import os
import sys
import tempfile
import threading
from typing import Any

_ROOT = tempfile.mkdtemp(prefix="tablectl-test-home-")
os.environ["XDG_STATE_HOME"] = os.path.join(_ROOT, "state")
os.environ["TABLECTL_KEYRING"] = os.path.join(_ROOT, "keyring")
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")


def pytest_collection_modifyitems(items: list) -> None:  # type: ignore[type-arg]
    """A slow test (a soak, a campaign, run by hand) gets two hours before pytest-timeout's dump,
    unless it names its own limit; the default suite's tests keep the 300 s of pyproject.toml."""
    import pytest

    for item in items:
        if item.get_closest_marker("slow") is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(7200))


def pytest_timeout_set_timer(item: Any, settings: Any) -> bool | None:
    """In an xdist worker, pytest-timeout's own dump goes to the worker's terminal, which the run
    never shows: this timer writes the test's name and every thread's stack to the worker's
    stderr (the run's) and ends the worker, which xdist reports as crashed in that test."""
    if _WORKER is None or not settings.timeout:
        return None

    def expired() -> None:
        capture = item.config.pluginmanager.getplugin("capturemanager")
        if capture is not None:  # the worker's own stderr back from pytest's capture
            capture.suspend_global_capture(in_=True)
        sys.__stderr__.write(f"\n+++ Timeout: {item.nodeid} ran over {settings.timeout:g} s [{_WORKER}] +++\n")
        sys.__stderr__.flush()
        faulthandler.dump_traceback(file=sys.__stderr__, all_threads=True)
        os._exit(1)

    timer = threading.Timer(settings.timeout, expired)
    timer.daemon = True
    timer.start()
    item.stash_timeout = timer
    return True


def pytest_timeout_cancel_timer(item: Any) -> bool | None:
    timer = getattr(item, "stash_timeout", None)
    if timer is None:
        return None
    timer.cancel()
    del item.stash_timeout
    return True
