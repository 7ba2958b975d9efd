"""The whole suite's isolation: simulated tables keep their keys, and enrol them, in folders of
this test run, never in the user's own state folder or keyring."""

from __future__ import annotations

import os
import tempfile

_ROOT = tempfile.mkdtemp(prefix="tablectl-test-home-")
os.environ["XDG_STATE_HOME"] = os.path.join(_ROOT, "state")
os.environ["TABLECTL_KEYRING"] = os.path.join(_ROOT, "keyring")
