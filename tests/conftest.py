"""The whole suite's isolation: simulated tables keep their keys, and enrol them, in folders of
this test run, never in the user's own state folder or keyring; and the slow tests' time limit."""

from __future__ import annotations

import os
import tempfile

_ROOT = tempfile.mkdtemp(prefix="tablectl-test-home-")
os.environ["XDG_STATE_HOME"] = os.path.join(_ROOT, "state")
os.environ["TABLECTL_KEYRING"] = os.path.join(_ROOT, "keyring")


def pytest_collection_modifyitems(items: list) -> None:  # type: ignore[type-arg]
    """A slow test (a soak, a campaign, run by hand) gets two hours before pytest-timeout's dump,
    unless it names its own limit; the default suite's tests keep the 300 s of pyproject.toml."""
    import pytest

    for item in items:
        if item.get_closest_marker("slow") is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(7200))
