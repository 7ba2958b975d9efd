"""A shoe unplugged and replaced by another one (same pty, another serial number): the table holds
in device_fault, and its alarm on the display and its log say why the device is refused, not only
"connection lost"."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from tablehelpers import SignedTable, until

from tablectl.display.render import alarms_panel
from tablectl.table import lifecycle as lc

REASON = "refused: a different device answered (serial 'ANOTHER-SHOE'"


def test_a_replaced_device_is_alarmed_and_logged_with_the_reason_it_is_refused(tmp_path: Path) -> None:
    table = SignedTable(tmp_path)
    runtime = table.runtime()
    try:
        runtime.start()
        server, sim = runtime.servers["shoe"], runtime.sims["shoe"]
        server.unplug(600)  # until the table has noticed, however slow the machine
        until(runtime.controller, lambda v: v.state == lc.DEVICE_FAULT, "the table never noticed the shoe was gone")
        sim.serial = "ANOTHER-SHOE"
        server.plug_in()
        view = until(runtime.controller, lambda v: any(REASON in a.detail for a in v.alarms), "the alarm never said why")
    finally:
        runtime.stop()

    assert view.state == lc.DEVICE_FAULT
    console = Console(width=300, record=True, color_system=None)
    console.print(alarms_panel(view.alarms))
    assert f"shoe: {REASON}" in console.export_text()  # what the floor sees
    faults = [r for r in table.records() if r["event"] == "fault"]
    assert [(f["fault"], f["cleared"]) for f in faults] == [("disconnected", False), ("disconnected", False)]
    assert faults[0]["detail"].startswith("device silent")
    assert faults[1]["detail"].startswith(REASON)  # what surveillance reads
