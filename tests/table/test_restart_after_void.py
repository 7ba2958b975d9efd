"""A controller stopped right after a supervisor voided a round and started again on the same log
(and the same simulated device, served on a pty) still shows the void until the next round: the
round after it comes from a fresh shuffle at a hand-forming shuffler, and a voided round the
dealer had not collected yet is over, so a card-reading shoe is taken over between rounds."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablectl.config import TableConfig, load_config
from tablectl.eventlog.verify import iter_events
from tablectl.table import lifecycle as lc
from tablectl.table.controller import TableController
from tablectl.table.runtime import TableRuntime
from tablectl.table.simulated.virtual_dealer import VirtualDealer

TABLES = Path(__file__).resolve().parents[2] / "config" / "tables"


def runtime(config: TableConfig, log_dir: Path, sim: Any = None) -> TableRuntime:
    sims = {config.card_device: sim} if sim is not None else {}
    return TableRuntime(config, simulate=True, log_dir=log_dir, seed=5, fsync=False, sims=sims)


def at_device(controller: TableController, sim: Any, action: Callable[[], Any]) -> None:
    """Something done at the device, waited for until the table has taken its events."""
    action()
    assert controller.wait_processed(controller.core.source, sim.store.last_no)


def void_round(controller: TableController, wagers: dict[int, dict[str, int]], deal: Callable[[], None], *,
               collect: bool) -> int:
    """A round started, dealt into, ended short (held), voided by the supervisor and, if
    ``collect``, collected by the dealer (``E``). Returns its number."""
    controller.start_round(list(wagers), wagers).result(5)
    deal()
    controller.end_round().result(5)  # short: TOO FEW CARDS holds the table
    assert controller.snapshot().state == lc.HELD
    controller.resolve("sup-1", note="planted", void_round=True).result(5)
    if collect:
        controller.end_round().result(5)
    view = controller.snapshot()
    assert view.voided == view.round
    return view.round


def test_a_batch_shuffler_table_restarted_after_a_void_shows_it_and_shuffles_afresh(tmp_path: Path) -> None:
    config = load_config(TABLES / "texas-holdem-bonus.toml")
    first = runtime(config, tmp_path / "log")
    controller = first.start()
    sim = first.sims[config.card_device]
    try:
        VirtualDealer(controller, sim, seed=6).play(1)
        at_device(controller, sim, sim.start_shuffle)
        voided = void_round(controller, {1: {"ante": 500}}, lambda: at_device(controller, sim, lambda: sim.deliver_packet(2)),
                            collect=True)
    finally:
        first.stop()
    second = runtime(config, tmp_path / "log", sim)
    controller = second.start()
    try:
        view = controller.snapshot()
        assert (view.voided, view.round, view.prompt.action) == (voided, voided, "shuffle")
        VirtualDealer(controller, sim, seed=7).play(1)  # a fresh shuffle, then the next round
        assert controller.snapshot().voided is None
    finally:
        second.stop()
    records = list(iter_events([tmp_path / "log"]))
    after_void = records[[r["event"] for r in records].index("round_voided"):]
    starts = [r["event"] for r in after_void if r["event"] in ("shuffle_done", "round_started")]
    assert starts[:2] == ["shuffle_done", "round_started"]


def test_a_shoe_table_stopped_before_the_voided_round_is_collected_takes_the_shoe_over_between_rounds(tmp_path: Path) -> None:
    config = load_config(TABLES / "one-card-poker.toml")
    first = runtime(config, tmp_path / "log")
    controller = first.start()
    sim = first.sims[config.card_device]
    try:
        VirtualDealer(controller, sim, seed=6).play(2)
        voided = void_round(controller, {1: {"primary": 1000}, 2: {"primary": 1000}},
                            lambda: at_device(controller, sim, sim.draw), collect=False)
    finally:
        first.stop()
    second = runtime(config, tmp_path / "log", sim)
    controller = second.start()
    try:
        view = controller.snapshot()
        assert (view.state, view.voided, view.round) == (lc.READY, voided, voided)
        VirtualDealer(controller, sim, seed=7).play(1)
        assert controller.snapshot().voided is None and controller.core.alarms.violations == []
    finally:
        second.stop()
    records = list(iter_events([tmp_path / "log"]))
    assert [r["event"] for r in records if r["event"] in ("shoe_resumed", "shoe_not_resumed")] == ["shoe_resumed"]
    assert [r["round"] for r in records if r["event"] == "round_started"] == [1, 2, 3, 4]
