"""A simulated device unplugged mid-round and plugged back (the pty goes silent, as a cable pulled
from a USB-serial adapter does): the table holds in device_fault while it is gone, recovers when it
is back, and every card event the device issued is in the log exactly once."""

from __future__ import annotations

import threading
import time
from collections import Counter
from pathlib import Path

from tablectl.drivers import events as ev

from tablectl.cards import text
from tablectl.config import load_config
from tablectl.eventlog import iter_events, save_keypair
from tablectl.table import lifecycle as lc
from tablectl.table.runtime import TableRuntime
from tablectl.table.simulated.virtual_dealer import VirtualDealer

CONFIG = Path(__file__).resolve().parents[2] / "config" / "tables" / "one-for-the-money-shoe.toml"


def _play_with_an_unplug(tmp_path: Path, recording_sim: type) -> tuple[list[ev.DeviceEvent], list[dict], list[str], object]:
    config = load_config(CONFIG)
    keys = save_keypair(tmp_path / "keys")
    runtime = TableRuntime(config, simulate=True, log_dir=tmp_path / "log", seed=11, signing_key=keys.private)
    controller = runtime.start()
    sim = recording_sim(runtime.sims[config.card_device])
    states: list[str] = []
    controller.add_view_listener(lambda view: states.append(view.state))
    dealer = VirtualDealer(controller, sim, seed=11)
    result: dict[str, object] = {}
    player = threading.Thread(target=lambda: result.setdefault("report", dealer.play(12)), daemon=True)
    try:
        player.start()
        deadline = time.monotonic() + 20
        while (controller.view.round or 0) < 4 or controller.view.state != lc.IN_ROUND:
            assert time.monotonic() < deadline, "the table never reached round 4"
            time.sleep(0.005)
        server = runtime.servers[config.card_device]
        server.unplug(600)  # until the table has noticed (keepalive 1 s + answer timeout 2 s), however slow the machine
        while controller.view.state != lc.DEVICE_FAULT:
            assert time.monotonic() < deadline + 30, "the table never noticed the device was gone"
            time.sleep(0.01)
        server.plug_in()
        player.join(60)
        assert not player.is_alive(), "the virtual dealer did not finish after the device came back"
    finally:
        runtime.stop()
    return sim.events, list(iter_events([tmp_path / "log"])), states, result.get("report")


def test_an_unplugged_device_holds_the_table_and_loses_no_card(tmp_path: Path, recording_sim: type) -> None:
    issued_events, records, states, report = _play_with_an_unplug(tmp_path, recording_sim)

    faults = [(r["fault"], r["cleared"]) for r in records if r["event"] == "fault"]
    assert ("disconnected", False) in faults and ("disconnected", True) in faults
    assert lc.DEVICE_FAULT in states  # the table held while the device was gone
    assert report is not None and report.rounds == 12  # ... and dealt on once it was back

    issued = Counter(
        (e.event_no, text(e.card)) for e in issued_events if isinstance(e, ev.CardDrawn) and e.card is not None
    )
    logged = Counter(
        (r["event_no"], r["card"]) for r in records if r["event"] in ("dealt", "burned", "drawn") and r.get("card")
    )
    assert logged == issued  # every card the device issued, exactly once
    numbers = [r["event_no"] for r in records if r.get("device") == "shoe" and r.get("event_no")]
    assert len(numbers) == len(set(numbers))
