"""A simulated table started again (``tablectl run --simulate``) makes a new simulator, which holds
no shoe: the shoe and the round that were in play are not taken over, and the log says why
(``shoe_not_resumed``), as after any restart that cannot take them over."""

from __future__ import annotations

from pathlib import Path

from tablectl.config import load_config
from tablectl.eventlog.verify import iter_events
from tablectl.table import lifecycle as lc
from tablectl.table.runtime import TableRuntime
from tablectl.table.simulated.virtual_dealer import VirtualDealer

OCP = Path(__file__).resolve().parents[2] / "config" / "tables" / "one-card-poker.toml"


def test_a_simulated_restart_in_round_logs_that_the_new_simulator_holds_no_shoe(tmp_path: Path) -> None:
    config = load_config(OCP)
    first = TableRuntime(config, simulate=True, log_dir=tmp_path, seed=5, fsync=False)
    controller = first.start()
    sim = first.sims[config.card_device]
    try:
        VirtualDealer(controller, sim, seed=6).play(1)
        banker = controller.snapshot().next_banker
        wagers = {seat: {"primary": 1000} for seat in (1, 2, 3) if seat != banker}
        controller.start_round(list(wagers), wagers).result(5)
        sim.draw()  # the first player's card: round 2 is being dealt when the table stops
        assert controller.wait_processed(config.card_device, sim.store.last_no)
        shoe = controller.snapshot().shoe
    finally:
        first.stop()

    second = TableRuntime(config, simulate=True, log_dir=tmp_path, seed=5, fsync=False)  # a new simulator
    try:
        assert second.start().snapshot().state == lc.IDLE
    finally:
        second.stop()

    reasons = [r["reason"] for r in iter_events([tmp_path]) if r["event"] == "shoe_not_resumed"]
    assert reasons == [f"shoe {shoe}: a new simulator holds no shoe; round 2 in play is for the supervisor"]
