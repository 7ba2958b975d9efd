"""The fault campaign: a simulated shoe dealing through every line fault at once, and a controller
that logs, persists, and once crashes and comes back mid-stream.

``reference(seed, cards)`` is what a fault-free shoe with that seed issues (the model alone, no
I/O). ``run(...)`` deals the same through a real transport with the faults on, a dealer thread
keeping pace with the controller (at most ``lead`` events unpersisted, as at a real table), and
returns what the controller logged with the statistics. Exactly-once means: the log's numbered
events are 1..N with no gap and no repeat, and equal the reference event for event.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from tablectl.drivers import events as ev
from tablectl.drivers.registry import driver_class
from tablectl.drivers.transport import transport_for
from tablectl.simulators.factory import build_device

LINE_FAULTS = ("noise", "crc", "drop", "dup", "reorder", "disconnect")


def _deal(device: Any) -> list[ev.DeviceEvent]:
    """One dealer action: draw, or load a fresh shoe when this one is done."""
    return device.load() if device.model.done else device.draw()


def reference(seed: int, cards: int) -> list[ev.DeviceEvent]:
    """Every numbered event a fault-free shoe issues until ``cards`` cards are drawn."""
    model = build_device("shoe", seed=seed).model
    events = model.store.unpersisted  # the ShoeLoaded issued at build
    drawn = 0
    while drawn < cards:
        batch = model.load() if model.done else model.draw()
        events += batch
        drawn += sum(isinstance(e, ev.CardDrawn) for e in batch)
    return events


@dataclass
class Controller:
    """The table controller's side: log every event, persist it, remember the last persisted."""

    log: list[ev.DeviceEvent] = field(default_factory=list)
    driver_faults: list[ev.Fault] = field(default_factory=list)
    persisted: int = 0
    driver: Any = None

    def __call__(self, name: str, event: ev.DeviceEvent) -> None:
        if not event.event_no:
            assert isinstance(event, ev.Fault)
            self.driver_faults.append(event)
            return
        self.log.append(event)  # "fsync" here, then tell the device
        self.persisted = event.event_no
        self.driver.persisted(event.event_no)


@dataclass
class Result:
    log: list[ev.DeviceEvent]
    seconds: float
    faults_applied: dict[str, int]
    driver_stats: list[dict[str, int]]
    driver_faults: int
    restarts_of_receiver: int

    @property
    def card_events(self) -> int:
        return sum(isinstance(e, ev.CardDrawn) for e in self.log)

    def summary(self) -> str:
        s = {k: sum(d[k] for d in self.driver_stats) for k in self.driver_stats[0]}
        return (
            f"{self.card_events} card events ({len(self.log)} numbered) in {self.seconds:.1f} s; "
            f"line faults applied {dict(sorted(self.faults_applied.items()))}; "
            f"retransmits {s['retransmits']}, reconnects {s['reconnects']}, crc errors {s['crc_errors']}, "
            f"header errors {s['header_errors']}, duplicate frames {s['duplicate_frames']}, "
            f"duplicate events dropped {s['duplicate_events']}, replays asked {s['replays_requested']}, "
            f"resyncs {s['resyncs']}, disconnect faults {self.driver_faults}, "
            f"receiver restarts {self.restarts_of_receiver}"
        )


def run(
    seed: int,
    cards: int,
    *,
    rate: float = 0.05,
    transport: str = "tcp",
    restart_receiver_at: int | None = None,
    lead: int = 32,
    timeout: float = 600.0,
) -> Result:
    from tablectl.simulators.serving.pty import PtyServer
    from tablectl.simulators.serving.tcp import TcpServer

    faults = [f"{kind}={rate}" for kind in LINE_FAULTS] if rate else []
    sim = build_device("shoe", seed=seed, faults=faults, retransmit_after=0.01)
    server: Any = (TcpServer if transport == "tcp" else PtyServer)(sim, unplug_for=0.001)
    address = server.start()
    ctl = Controller()
    opts = dict(retransmit_after=0.01, reconnect_initial=0.001, reconnect_max=0.02, answer_timeout=2.0)
    stats: list[dict[str, int]] = []
    restarts = 0
    stop = threading.Event()
    drawn = 0

    def dealer() -> None:
        nonlocal drawn
        while drawn < cards and not stop.is_set():
            if len(sim.store) >= lead:
                time.sleep(0.0005)
                continue
            drawn += sum(isinstance(e, ev.CardDrawn) for e in _deal(sim))

    def connect(resume_after: int) -> Any:
        # built, handed to the controller, then started: the sink persists from the first event
        ctl.driver = driver_class("shoe")("shoe", transport_for(address), ctl, resume_after=resume_after, **opts)
        ctl.driver.start()
        return ctl.driver

    t0 = time.monotonic()
    driver = connect(0)
    deal = threading.Thread(target=dealer, name="campaign-dealer", daemon=True)
    deal.start()
    try:
        deadline = t0 + timeout
        while True:
            last_card_logged = sum(isinstance(e, ev.CardDrawn) for e in ctl.log)
            if restart_receiver_at is not None and restarts == 0 and last_card_logged >= restart_receiver_at:
                driver.stop()  # the controller dies: only what it persisted survives
                stats.append(driver.stats.as_dict())
                ctl.log = [e for e in ctl.log if e.event_no <= ctl.persisted]
                restarts += 1
                driver = connect(ctl.persisted)
            if drawn >= cards and ctl.log and ctl.log[-1].event_no >= sim.store.last_no:
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"campaign timed out: {last_card_logged} of {cards} cards logged")
            time.sleep(0.01)
    finally:
        stop.set()
        deal.join(5)
        driver.stop()
        stats.append(driver.stats.as_dict())
        server.stop()
    return Result(
        ctl.log, time.monotonic() - t0, sim.line.applied, stats, len(ctl.driver_faults), restarts
    )
