"""``TableRuntime``: one table wired together — its event log, its devices (real, or simulators
served on pseudo-terminals so the real serial path runs), their drivers and the controller.

Start order: open the log; for each device, start its simulator (when simulating) and open its
driver with ``resume_after`` = the highest event number already logged for it (none: a device used
before is adopted where its events begin, logged as ``device_adopted``); then start the
controller, which takes over from the log what was in play: round numbers, the dealer and the
bank's rotation, the shoe (or continuous shuffler) and its round (``tablectl.table.restart.resume``).
Stop order is the reverse: the controller takes what is queued (for at most
``tablectl.table.stopping.ORDERLY_GRACE`` seconds; a signal's stop, asked for before, takes
nothing more), logs ``table_stopped`` and commits; once its owner thread has ended (the log's only
writer while it runs) the drivers and simulators stop and the log closes last with a signed
shutdown checkpoint. If the owner thread does not end within ``STOP_TIMEOUT`` the log is left as
it is, never closed under a writer: the next open finds an unclean shutdown and records a
recovery.

The log is opened before any device because it holds what a device is asked for (the last event
logged for it) and the lock that keeps a second run of the table away from its devices. So a
start that fails after it (a device that cannot be opened: exit 4, which the service retries) is
an orderly stop: ``table_stopped`` with reason ``start_failed`` and the error as ``detail``, then
the signed shutdown checkpoint.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tablectl.config import TableConfig
from tablectl.eventlog import EventLog, load_private_key
from tablectl.table.controller import TableController
from tablectl.table.restart.resume import read_back

_log = logging.getLogger(__name__)
STOP_TIMEOUT = 5.0  # seconds the controller has to end once asked (a stop's deadline is 10 s: tablectl.table.stopping)
START_FAILED = "start_failed"
"""``table_stopped``'s reason when the table could not start; its ``detail`` says why."""


@dataclass
class TableRuntime:
    """A running table. ``simulate``: serve a simulator per configured device on a pty (the
    configured addresses are not used). ``log_dir``/``fsync``/``signing_key``: override the
    config's log settings. ``seed``: the simulators' shuffles (None: random)."""

    config: TableConfig
    simulate: bool = False
    log_dir: Path | None = None
    seed: int | None = None
    fsync: bool | None = None
    signing_key: Path | None = None
    sim_options: dict[str, Any] = field(default_factory=dict)
    demo_supervisor: bool = False  # the config's supervisors are the simulated table's demo one (logged)
    log: EventLog | None = None
    controller: TableController | None = None
    sims: dict[str, Any] = field(default_factory=dict)
    servers: dict[str, Any] = field(default_factory=dict)
    drivers: dict[str, Any] = field(default_factory=dict)

    def start(self) -> TableController:
        """Open everything and start the controller. A start that fails (a device that cannot be
        opened, ...) is an orderly stop: what was opened is closed, and a log already open says
        why (``table_stopped``, reason ``start_failed``, ``detail``) and closes with its signed
        shutdown checkpoint."""
        try:
            return self._start()
        except BaseException as e:
            self._start_failed(e)
            raise

    def _start_failed(self, error: BaseException) -> None:
        """Say in the open log why the table did not start (unless it went online: then the
        controller says why it stopped), then stop."""
        log, controller = self.log, self.controller
        if log is not None and not log.closed and (controller is None or not controller.running):
            try:
                log.append("table_stopped", reason=START_FAILED, detail=str(error) or type(error).__name__)
            except Exception:  # noqa: BLE001 - a failed log still closes (without writing)
                _log.exception("table %s: logging why the start failed failed", self.config.table)
        self.stop(reason=START_FAILED)

    def _start(self) -> TableController:
        from tablectl.drivers.registry import open_device

        cfg = self.config
        key_path = self.signing_key or cfg.log.signing_key
        key = load_private_key(key_path) if key_path is not None else None
        previous = cfg.log.previous_signing_key
        self.log = EventLog(
            self.log_dir or cfg.log.dir,
            cfg.table,
            signing_key=key,
            previous_key=load_private_key(previous) if previous is not None and key is not None else None,
            checkpoint_every=cfg.log.checkpoint_every,
            rotate=cfg.log.rotate,
            fsync=cfg.log.fsync if self.fsync is None else self.fsync,
        )
        state = read_back(self.log_dir or cfg.log.dir, cfg.table, cfg.card_device)
        # a simulator made now holds no shoe, nor a backlog of old events: only a real device, or a
        # simulator kept across the restart, still has the shoe in play and the rest of its backlog
        keeps_shoe = not self.simulate or cfg.card_device in self.sims
        if not keeps_shoe and state.shoe is not None:
            shoe = state.shoe
            in_play = f"; round {shoe.round[0].get('round')} in play is for the supervisor" if shoe.round else ""
            state = replace(state, shoe=None, not_resumed=f"shoe {shoe.shoe}: a new simulator holds no shoe{in_play}")
        if self.simulate:
            state = replace(state, backlog={name: last for name, last in state.backlog.items() if name in self.sims})
        controller = TableController(cfg, self.log, first_round=state.last_round + 1, resumed=state, demo_supervisor=self.demo_supervisor)
        self.controller = controller
        for i, (name, device) in enumerate(cfg.devices.items()):
            address = device.address
            if self.simulate:
                address = self._serve_simulator(name, device.driver, i, controller.resume_after(name))
            logged = controller.resume_after(name)
            # nothing logged of the device: a used one is adopted where its events begin (logged)
            self.drivers[name] = driver = open_device(
                device.driver, address, name, controller.sink, resume_after=logged, adopt=logged == 0
            )
            controller.attach(name, driver)
        controller.start()
        return controller

    def _serve_simulator(self, name: str, driver: str, index: int, logged: int) -> str:
        from tablectl.simulators.factory import build_device
        from tablectl.simulators.serving.pty import PtyServer

        sim = self.sims.get(name)
        if sim is None:  # a simulator given to the runtime (kept across restarts) is served again
            seed = None if self.seed is None else self.seed * 1000 + index
            sim = build_device(
                driver, decks=self.config.decks, seed=seed, load=False, first_event_no=logged + 1, **self.sim_options
            )
        server = PtyServer(sim)
        address = server.start()
        self.sims[name] = sim
        self.servers[name] = server
        return address

    def stop(self, *, clean: bool = True, reason: str = "stop") -> None:
        """Stop the controller (``reason`` for ``table_stopped``, unless it was stopped already),
        the drivers and the simulators, then close the log (idempotent)."""
        writer_done = True
        if self.controller is not None:
            writer_done = self.controller.stop(reason, timeout=STOP_TIMEOUT)
            if not writer_done:
                _log.error("table %s: the table did not stop within %g s; the event log is left open "
                           "(the next start records a recovery)", self.config.table, STOP_TIMEOUT)
        for driver in self.drivers.values():
            driver.stop()
        self.drivers.clear()
        for server in self.servers.values():
            server.stop()
        self.servers.clear()
        if self.log is not None and not self.log.closed and writer_done:
            try:
                self.log.close(clean=clean and (self.controller is None or self.controller.error is None))
            except Exception:  # noqa: BLE001 - stopping must finish
                _log.exception("closing the event log failed")

    def __enter__(self) -> TableRuntime:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
