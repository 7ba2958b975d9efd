"""A shoe that announces another serial number in the middle of a session (an unsolicited IDENTIFY)
is refused exactly as a shoe swapped on a reconnect is (tests/table/test_device_refused.py): the
table holds in device_fault, its alarm and its log name the new serial; the simulated shoe over a
real pty, the signed log read back."""

from __future__ import annotations

import time
from pathlib import Path

from tablehelpers import SignedTable, until

from tablectl.table import lifecycle as lc


def test_a_new_serial_announced_mid_session_is_refused_like_a_swapped_device(tmp_path: Path) -> None:
    table = SignedTable(tmp_path)
    runtime = table.runtime()
    try:
        runtime.start()
        sim = runtime.sims["shoe"]
        first = sim.serial
        reason = f"refused: a different device answered (serial 'ANOTHER-SHOE', expected {first!r})"
        sim.serial = "ANOTHER-SHOE"
        sim.announce()
        view = until(runtime.controller, lambda v: any(reason in a.detail for a in v.alarms), "the alarm never named the new serial")
        assert view.state == lc.DEVICE_FAULT
        sim.load()  # the other shoe's events are not taken while it is refused
        time.sleep(0.5)
    finally:
        runtime.stop()

    records = table.records()
    faults = [(r["fault"], r["cleared"], r["detail"]) for r in records if r["event"] == "fault"]
    assert faults == [("disconnected", False, reason)]  # the record a swap on a reconnect leaves
    assert [r["serial"] for r in records if r["event"] == "device_identified"] == [first]
    assert not [r for r in records if r["event"] == "shoe_loaded"]
