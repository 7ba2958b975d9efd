"""A shoe unplugged and replaced by another one (same pty, another serial number): the table holds
in device_fault, and its alarm on the display and its log say why the device is refused, not only
"connection lost"."""

from __future__ import annotations

import time
from pathlib import Path

from rich.console import Console

from tablectl.config import load_config
from tablectl.display.render import alarms_panel
from tablectl.eventlog import iter_events, save_keypair
from tablectl.table import lifecycle as lc
from tablectl.table.runtime import TableRuntime
from tablectl.table.view import TableView

CONFIG = Path(__file__).resolve().parents[2] / "config" / "tables" / "one-card-poker.toml"
REASON = "refused: a different device answered (serial 'ANOTHER-SHOE'"


def _until(runtime: TableRuntime, done, what: str, timeout: float = 30.0) -> TableView:
    assert runtime.controller is not None
    deadline = time.monotonic() + timeout
    while True:
        view = runtime.controller.snapshot(10)
        if done(view):
            return view
        assert time.monotonic() < deadline, f"{what}; the table shows {view.state}, {view.alarms}"
        time.sleep(0.05)


def test_a_replaced_device_is_alarmed_and_logged_with_the_reason_it_is_refused(tmp_path: Path) -> None:
    keys = save_keypair(tmp_path / "keys")
    runtime = TableRuntime(load_config(CONFIG), simulate=True, log_dir=tmp_path / "log", seed=3, signing_key=keys.private)
    try:
        runtime.start()
        server, sim = runtime.servers["shoe"], runtime.sims["shoe"]
        server.unplug(600)  # until the table has noticed, however slow the machine
        _until(runtime, lambda v: v.state == lc.DEVICE_FAULT, "the table never noticed the shoe was gone")
        sim.serial = "ANOTHER-SHOE"
        server.plug_in()
        view = _until(runtime, lambda v: any(REASON in a.detail for a in v.alarms), "the alarm never said why")
    finally:
        runtime.stop()

    assert view.state == lc.DEVICE_FAULT
    console = Console(width=300, record=True, color_system=None)
    console.print(alarms_panel(view.alarms))
    assert f"shoe: {REASON}" in console.export_text()  # what the floor sees
    faults = [r for r in iter_events([tmp_path / "log"]) if r["event"] == "fault"]
    assert [(f["fault"], f["cleared"]) for f in faults] == [("disconnected", False), ("disconnected", False)]
    assert faults[0]["detail"].startswith("device silent")
    assert faults[1]["detail"].startswith(REASON)  # what surveillance reads
