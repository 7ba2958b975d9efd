"""Benchmarks of the table controller (not run as tests).

1. ``cost``: the controller's CPU cost per card, fsync excluded — ``TableCore`` fed plain device
   events and dealer inputs for One for the Money from an 8-deck shoe, logging to a real
   ``EventLog`` with ``fsync=False`` and committing every ``--batch`` events. Reports
   microseconds per card for the card path alone (``handle_event`` of a ``CardDrawn``, incl. its
   ``log.append``) and for everything (inputs, shoe changes and commits included).

2. ``stack``: full-stack throughput with simulated devices in-process — a simulated shoe served
   on a pty, the real serial transport, link and driver, the controller's thread and a signed
   ``EventLog`` (fsync on, and off). A pipelined dealer draws a round's cards without waiting for
   the table; it waits only until the last card has reached the controller's inbox before it
   submits the decisions (so inputs stay in order with the cards). Reports cards per second.

    python bench/bench_controller.py [cost|stack|all] [--rounds N] [--batch N]

Targets: >= 20,000 cards/s full stack; <= 50 us of controller CPU per card.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tablectl.cards import DECK_SIZE
from tablectl.config import TableConfig, parse_config
from tablectl.drivers import events as ev
from tablectl.eventlog import EventLog, generate_key
from tablectl.table import penetration as pen
from tablectl.table.core import TableCore
from tablectl.table.inputs import Decision, EndRound, ShoeChange, StartRound

SEATS = 7
DECKS = 8


def config(log_dir: Path) -> TableConfig:
    return parse_config(
        {
            "table": "bench-1",
            "game": "one-for-the-money",
            "decks": DECKS,
            "penetration_cap": 90,
            "seats": SEATS,
            "min_bet": 5,
            "max_bet": 500,
            "devices": {"shoe": {"driver": "shoe", "address": "/dev/null"}},
            "log": {"dir": str(log_dir)},
        },
        "bench",
    )


def rounds_per_shoe(cfg: TableConfig) -> int:
    """Rounds of ``SEATS`` + 2 cards a shoe takes without reaching the last-round announcement."""
    cap = pen.cap_cards(cfg.decks * DECK_SIZE, cfg.penetration_cap)
    budget = cfg.game_def.round_budget(cfg.seats, cfg.procedure_rules)
    per_round = SEATS + 2
    return (cap - 2 * budget) // per_round


# --- 1. CPU cost per card -------------------------------------------------------------------------


def bench_cost(rounds: int, batch: int) -> dict[str, float]:
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = config(Path(tmp))
        log = EventLog(Path(tmp), cfg.table, signing_key=generate_key(), fsync=False, rotate="never")
        core = TableCore(cfg, log)
        core.go_online()
        per_shoe = rounds_per_shoe(cfg)
        number = 0
        shoe: list[int] = []
        card_time = 0.0
        cards = 0
        since_commit = 0
        seats = tuple(range(1, SEATS + 1))
        wagers = {s: {"ante": 500} for s in seats}
        start = time.perf_counter()
        for r in range(rounds):
            if r % per_shoe == 0:
                if r:
                    core.handle_input(ShoeChange())
                shoe = [c for c in range(DECK_SIZE) for _ in range(DECKS)]
                rng.shuffle(shoe)
                number += 1
                core.handle_event("shoe", ev.ShoeLoaded(number, r // per_shoe + 1, DECKS, len(shoe)))
            core.handle_input(StartRound(seats, wagers))
            for _ in range(SEATS + 2):
                number += 1
                event = ev.CardDrawn(number, shoe.pop())
                t0 = time.perf_counter()
                core.handle_event("shoe", event)
                card_time += time.perf_counter() - t0
                cards += 1
                since_commit += 1
                if since_commit >= batch:
                    log.commit()
                    since_commit = 0
            for seat in seats:
                core.handle_input(Decision(seat, rng.choice(("check", "raise"))))
            core.handle_input(EndRound())
        log.commit()
        total = time.perf_counter() - start
        violations = core.violations
        log.close()
    assert not violations, violations
    return {"cards": cards, "us_per_card_path": card_time / cards * 1e6, "us_per_card_all": total / cards * 1e6}


# --- 2. full stack --------------------------------------------------------------------------------


class Receipts:
    """Wraps the controller's sink: counts what reached the inbox, per device."""

    def __init__(self, sink: Any) -> None:
        self._sink = sink
        self._cond = threading.Condition()
        self.last: dict[str, int] = {}

    def __call__(self, device: str, event: ev.DeviceEvent) -> None:
        self._sink(device, event)
        with self._cond:
            self.last[device] = event.event_no
            self._cond.notify_all()

    def wait(self, device: str, number: int, timeout: float = 10.0) -> None:
        with self._cond:
            if not self._cond.wait_for(lambda: self.last.get(device, 0) >= number, timeout):
                raise TimeoutError(f"event {number} of {device} never reached the inbox")


def bench_stack(rounds: int, fsync: bool) -> dict[str, float]:
    from tablectl.drivers.registry import open_device
    from tablectl.simulators.factory import build_device
    from tablectl.simulators.pty_server import PtyServer
    from tablectl.table.controller import TableController

    rng = random.Random(2)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = config(Path(tmp))
        log = EventLog(Path(tmp), cfg.table, signing_key=generate_key(), fsync=fsync, rotate="shoe")
        controller = TableController(cfg, log)
        receipts = Receipts(controller.sink)
        sim = build_device("shoe", decks=DECKS, seed=3, load=False)
        server = PtyServer(sim)
        driver = open_device("shoe", server.start(), "shoe", receipts, resume_after=0)
        controller.attach("shoe", driver)
        controller.start()
        per_shoe = rounds_per_shoe(cfg)
        seats = tuple(range(1, SEATS + 1))
        wagers = {s: {"ante": 500} for s in seats}
        futures = []
        cards = 0
        last = 0
        try:
            start = time.perf_counter()
            for r in range(rounds):
                if r % per_shoe == 0:
                    if r:
                        futures.append(controller.shoe_change())
                    last = max(e.event_no for e in sim.load())
                    receipts.wait("shoe", last)
                futures.append(controller.start_round(seats, wagers))
                for _ in range(SEATS + 2):
                    for e in sim.draw():
                        last = max(last, e.event_no)
                        cards += isinstance(e, ev.CardDrawn)
                receipts.wait("shoe", last)
                for seat in seats:
                    futures.append(controller.decide(seat, rng.choice(("check", "raise"))))
                futures.append(controller.end_round())
            if not controller.wait_processed("shoe", last, 60):
                raise TimeoutError("the controller did not catch up")
            for f in futures:
                f.result(10)
            elapsed = time.perf_counter() - start
            batches = controller.batches
            violations = list(controller.core.violations)
        finally:
            controller.stop()
            driver.stop()
            server.stop()
            log.close()
    assert not violations, violations
    return {"cards": cards, "seconds": elapsed, "cards_per_s": cards / elapsed, "cards_per_batch": cards / max(batches, 1)}


def bench_stack_packets(rounds: int, fsync: bool) -> dict[str, float]:
    """The same with player-banked Three Card Poker from a hand-forming shuffler: a 3-card packet
    per seat and the dealer's (one device event per packet), a shuffle with deck check a round."""
    from tablectl.drivers.registry import open_device
    from tablectl.simulators.factory import build_device
    from tablectl.simulators.pty_server import PtyServer
    from tablectl.table.controller import TableController

    rng = random.Random(4)
    seats = 7
    with tempfile.TemporaryDirectory() as tmp:
        cfg = parse_config(
            {
                "table": "bench-2",
                "game": "three-card-poker",
                "decks": 1,
                "seats": 8,
                "min_bet": 5,
                "max_bet": 500,
                "devices": {"shuffler": {"driver": "shuffler", "address": "/dev/null"}},
                "log": {"dir": tmp, "rotate": "day"},
            },
            "bench",
        )
        log = EventLog(Path(tmp), cfg.table, signing_key=generate_key(), fsync=fsync, rotate="day")
        controller = TableController(cfg, log)
        receipts = Receipts(controller.sink)
        sim = build_device("shuffler", decks=1, seed=5)
        server = PtyServer(sim)
        driver = open_device("shuffler", server.start(), "shuffler", receipts, resume_after=0)
        controller.attach("shuffler", driver)
        controller.start()
        players = tuple(range(1, seats + 1))
        wagers = {s: {"ante": 500} for s in players}
        futures = [controller.offer_bank(8)]
        cards = 0
        last = 0
        try:
            start = time.perf_counter()
            for _ in range(rounds):
                last = max(e.event_no for e in sim.start_shuffle())
                receipts.wait("shuffler", last)
                futures.append(controller.start_round(players, wagers, banker_stake=100_000))
                for _ in range(seats + 1):
                    for e in sim.deliver_packet(3):
                        last = max(last, e.event_no)
                        cards += len(e.cards) if isinstance(e, ev.PacketDelivered) else 0
                last = max(last, max(e.event_no for e in sim.discard_rest()))
                receipts.wait("shuffler", last)
                for seat in players:
                    futures.append(controller.decide(seat, rng.choice(("play", "fold"))))
                futures.append(controller.end_round())
            if not controller.wait_processed("shuffler", last, 60):
                raise TimeoutError("the controller did not catch up")
            for f in futures:
                f.result(10)
            elapsed = time.perf_counter() - start
            violations = list(controller.core.violations)
        finally:
            controller.stop()
            driver.stop()
            server.stop()
            log.close()
    assert not violations, violations
    return {"cards": cards, "seconds": elapsed, "cards_per_s": cards / elapsed}


def bench_device_path(cards: int) -> float:
    """Cards per second from a simulated shoe through the pty, link and driver to a sink that only
    counts (no controller, no log): what the device layer alone carries."""
    from tablectl.drivers.registry import open_device
    from tablectl.simulators.factory import build_device
    from tablectl.simulators.pty_server import PtyServer

    sim = build_device("shoe", decks=DECKS, seed=3, load=False)
    server = PtyServer(sim)
    receipts = Receipts(lambda device, event: None)
    driver = open_device("shoe", server.start(), "shoe", receipts, resume_after=0)
    try:
        start = time.perf_counter()
        last = 0
        drawn = 0
        while drawn < cards:
            last = max(e.event_no for e in sim.load())
            for _ in range(DECKS * DECK_SIZE - 16):
                last = max(last, max(e.event_no for e in sim.draw()))
                drawn += 1
            driver.persisted(last)
        receipts.wait("shoe", last, 60)
        return drawn / (time.perf_counter() - start)
    finally:
        driver.stop()
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("which", nargs="?", default="all", choices=("cost", "stack", "all"))
    parser.add_argument("--rounds", type=int, default=4000)
    parser.add_argument("--batch", type=int, default=256, help="events per commit in the cost bench")
    args = parser.parse_args()
    if args.which in ("cost", "all"):
        r = bench_cost(args.rounds, args.batch)
        print(
            f"controller CPU per card (fsync excluded): {r['us_per_card_path']:.1f} us on the card path "
            f"(composition, cap, procedure, log.append); {r['us_per_card_all']:.1f} us all in "
            f"(inputs, shoe changes, commits); {r['cards']:.0f} cards"
        )
    if args.which in ("stack", "all"):
        for fsync in (True, False):
            r = bench_stack(args.rounds, fsync)
            print(
                f"full stack, One for the Money, simulated shoe on a pty, fsync {'on ' if fsync else 'off'}: "
                f"{r['cards_per_s']:,.0f} cards/s ({r['cards']:.0f} cards in {r['seconds']:.2f} s, "
                f"{r['cards_per_batch']:.1f} cards per commit)"
            )
        for fsync in (True, False):
            r = bench_stack_packets(args.rounds // 4, fsync)
            print(
                f"full stack, Three Card Poker, simulated shuffler on a pty, fsync {'on ' if fsync else 'off'}: "
                f"{r['cards_per_s']:,.0f} cards/s ({r['cards']:.0f} cards in {r['seconds']:.2f} s)"
            )
        print(f"device layer alone (simulated shoe -> pty -> driver, no controller): {bench_device_path(40_000):,.0f} cards/s")


if __name__ == "__main__":
    main()
