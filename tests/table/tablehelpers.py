"""Helpers for the table's tests (imported by name, ``from tablehelpers import ...``; the fixtures
in ``conftest.py`` hand them out): configs built from plain values, an in-memory event log double
(for unit tests of the controller only), a ``TableCore`` with a small driving helper, and the
whole stack on simulated devices served over ptys: a signed simulated table, a device line that
rewrites frames on their way to the host, a recording simulator, waiting on the table's view."""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from tablectl.drivers import events as ev
from tablectl.drivers.framer import Frame, Framer, encode

from tablectl.cards import card as parse_card
from tablectl.cards import text as card_text
from tablectl.config import TableConfig, load_config, parse_config
from tablectl.eventlog import save_keypair
from tablectl.table.core import TableCore
from tablectl.table.inputs import (
    DealerChange,
    Decision,
    EndRound,
    OfferBank,
    StartRound,
)
from tablectl.table.restart.resume import LogState, fold
from tablectl.table.runtime import TableRuntime
from tablectl.table.view import TableView


class MemoryLog:
    """The ``EventLog`` calls the controller makes, kept in memory (a unit-test double)."""

    def __init__(self) -> None:
        self.lines: list[dict[str, Any]] = []
        self.committed = 0
        self.commits = 0
        self.shoes_ended: list[Any] = []
        self._listeners: list[Callable[[dict[str, Any]], None]] = []
        self.event_nos: dict[str, int] = {}

    def append(self, event: str, /, **fields: Any) -> int:
        return self.append_dict(event, fields)

    def append_dict(self, event: str, fields: dict[str, Any]) -> int:
        self.lines.append({"seq": len(self.lines) + 1, "event": event, **fields})
        return len(self.lines)

    def commit(self) -> int:
        for record in self.lines[self.committed :]:
            if "event_no" in record and "device" in record:
                self.event_nos[record["device"]] = max(self.event_nos.get(record["device"], 0), record["event_no"])
            for listener in self._listeners:
                listener(record)
        self.committed = len(self.lines)
        self.commits += 1
        return self.committed

    def end_shoe(self, shoe: Any = None) -> int:
        self.shoes_ended.append(shoe)
        return self.commit()

    def add_listener(self, listener: Callable[[dict[str, Any]], None]) -> None:
        self._listeners.append(listener)

    def last_event_no(self, device: str) -> int:
        return self.event_nos.get(device, 0)

    def events(self, name: str) -> list[dict[str, Any]]:
        return [line for line in self.lines if line["event"] == name]

    def kinds(self) -> list[str]:
        return [line["kind"] for line in self.events("violation")]


DEFAULTS: dict[str, dict[str, Any]] = {
    "one-card-poker": {"decks": 6, "driver": "shoe"},
    "three-card-poker": {"decks": 1, "driver": "shuffler"},
    "one-for-the-money": {"decks": 6, "driver": "csm"},
    "three-card-poker-florida": {"decks": 1, "driver": "shuffler"},
    "texas-holdem-bonus": {"decks": 1, "driver": "shuffler"},
}


def make_config(game: str, *, tmp: Path | None = None, **overrides: Any) -> TableConfig:
    """A valid table config for ``game``; keyword overrides replace top-level keys (``driver``
    replaces the card device's driver)."""
    d = dict(DEFAULTS[game])
    driver = overrides.pop("driver", d.pop("driver"))
    data: dict[str, Any] = {
        "table": "t1",
        "game": game,
        "decks": d["decks"],
        "penetration_cap": 90,
        "seats": 7,
        "min_bet": 5,
        "max_bet": 500,
        "devices": {"dev": {"driver": driver, "address": "/dev/ttyUSB0"}},
        "log": {"dir": str(tmp or "/tmp/tablectl-test-logs")},
    }
    data.update(overrides)
    return parse_config(data, "test.toml")


class Table:
    """A ``TableCore`` on a ``MemoryLog`` with the card device ``dev``, driven from plain values.
    A new table (not resumed) has dealer ``D-01`` signed in before anything else happens."""

    def __init__(
        self, config: TableConfig, resumed: LogState | None = None, highest: int = 0, history: list[dict[str, Any]] | None = None,
        dealer: str | None = "D-01",
    ) -> None:
        self.config = config
        self.history = history or []  # the log lines of the runs before this one
        self.log = MemoryLog()
        first_round = resumed.last_round + 1 if resumed is not None else 1
        self.core = TableCore(config, self.log, first_round=first_round)
        self.core.go_online({"dev": highest}, resumed)
        self._numbers = itertools.count(highest + 1)
        if dealer is not None and resumed is None:
            self.input(DealerChange(dealer))

    def restarted(self) -> Table:
        """This table after its controller restarted: a new core on a new log, given what the log
        of every run so far says (``tablectl.table.restart.resume.fold``); the device's numbers go on."""
        history = [*self.history, *self.log.lines]
        return Table(self.config, fold(history, "dev"), self.core.highest.get("dev", 0), history)

    def event(self, make: Callable[[int], ev.DeviceEvent], device: str = "dev") -> None:
        self.core.handle_event(device, make(next(self._numbers)))

    def draw(self, *cards: str | None, burn: bool = False) -> None:
        """Cards drawn from the shoe/CSM; ``burn`` presses the burn button before each."""
        for text in cards:
            if burn:
                self.event(lambda n: ev.ButtonPressed(n, 0))
            value = None if text is None else parse_card(text)
            self.event(lambda n, v=value: ev.CardDrawn(n, v))

    def burn(self, *cards: str) -> None:
        self.draw(*cards, burn=True)

    def packet(self, index: int, cards: Iterable[str | None]) -> None:
        values = tuple(None if c is None else parse_card(c) for c in cards)
        self.event(lambda n: ev.PacketDelivered(n, index, values))

    def returned(self, *cards: str) -> None:
        for text in cards:
            self.event(lambda n, v=parse_card(text): ev.CardReturned(n, v))

    def load_shoe(self, decks: int = 6, cards: int | None = None) -> None:
        self.event(lambda n: ev.ShoeLoaded(n, 1, decks, decks * 52 if cards is None else cards))

    def shuffle(self, decks: int = 1, **check: Any) -> None:
        self.event(lambda n: ev.ShuffleStarted(n, 1))
        self.event(lambda n: ev.ShuffleDone(n, 1, decks, decks * 52, **check))

    def input(self, inp: Any) -> None:
        self.core.handle_input(inp)

    @property
    def state(self) -> str:
        return self.core.state

    def kinds(self) -> list[str]:
        return self.log.kinds()


# --- the whole stack on simulated devices -------------------------------------------------------

CONFIGS = Path(__file__).resolve().parents[2] / "config" / "tables"


class RecordingSim:
    """Stands in for a ``SimDevice`` in front of the virtual dealer: forwards every control call
    and keeps every numbered event the device issued (the device's own account of its cards)."""

    def __init__(self, sim: Any) -> None:
        self._sim = sim
        self.events: list[ev.DeviceEvent] = []

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._sim, name)
        if not callable(target):
            return target

        def call(*args: Any, **kwargs: Any) -> Any:
            result = target(*args, **kwargs)
            if isinstance(result, list):
                self.events.extend(e for e in result if isinstance(e, ev.DeviceEvent))
            return result

        return call


class Played:
    """A finished autoplay: the dealer's report, the device's events, the log's records."""

    def __init__(self, config: TableConfig, report: Any, device_events: list[ev.DeviceEvent], log_dir: Path, public_key: Path) -> None:
        from tablectl.eventlog import iter_events

        self.config = config
        self.report = report
        self.device_events = device_events
        self.log_dir = log_dir
        self.public_key = public_key
        self.records = list(iter_events([log_dir]))

    def events(self, *names: str) -> list[dict[str, Any]]:
        return [r for r in self.records if r["event"] in names]

    def violations(self) -> list[dict[str, Any]]:
        return self.events("violation", "internal_error")


def play(
    config_path: Path,
    tmp_path: Path,
    rounds: int,
    *,
    seed: int = 7,
    fsync: bool = True,
    mistakes: float = 0.0,
    mistakes_log: Any = None,
) -> Played:
    """Run the table of ``config_path`` on simulators served over ptys, with the virtual dealer
    playing ``rounds`` rounds; the log is signed, written (and fsynced) in ``tmp_path``."""
    from tablectl.table.simulated.virtual_dealer import VirtualDealer

    config = load_config(config_path)
    keys = save_keypair(tmp_path / "keys")
    runtime = TableRuntime(config, simulate=True, log_dir=tmp_path / "log", seed=seed, fsync=fsync, signing_key=keys.private)
    controller = runtime.start()
    sim = RecordingSim(runtime.sims[config.card_device])
    try:
        report = VirtualDealer(controller, sim, seed=seed, mistakes=mistakes, mistakes_log=mistakes_log).play(rounds)
    finally:
        runtime.stop()
    return Played(config, report, sim.events, tmp_path / "log", keys.public)




OCP = CONFIGS / "one-card-poker.toml"


class SignedTable:
    """A simulated table (``config``, One Card Poker by default) whose runs all sign one log in
    ``tmp_path/log`` with the key saved in ``tmp_path/keys``; ``sims`` (device -> simulator) are
    served again by every run, so a restart finds the device as it was."""

    def __init__(self, tmp_path: Path, *, config: Path = OCP, sims: dict[str, Any] | None = None, seed: int | None = 3) -> None:
        self.config = load_config(config)
        self.keys = save_keypair(tmp_path / "keys")
        self.log_dir = tmp_path / "log"
        self.sims = dict(sims or {})
        self.seed = seed

    def runtime(self) -> TableRuntime:
        """A new run of the table (not started)."""
        return TableRuntime(self.config, simulate=True, log_dir=self.log_dir, seed=self.seed,
                            signing_key=self.keys.private, sims=dict(self.sims))

    def records(self) -> list[dict[str, Any]]:
        """Every record of the log so far."""
        from tablectl.eventlog import iter_events

        return list(iter_events([self.log_dir]))


def until(controller: Any, done: Callable[[TableView], bool], what: str, timeout: float = 30.0) -> TableView:
    """The table's first view for which ``done`` holds, polled; ``what`` failed after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        view = controller.snapshot(10)
        if done(view):
            return view
        assert time.monotonic() < deadline, f"{what}; the table shows {view.state}, {view.alarms}"
        time.sleep(0.05)


class RewrittenLine:
    """A simulated device behind a line that rewrites some of its frames on their way to the host
    (a corruption its CRC misses, a glitching counter): ``rewrite`` gives a frame's payload as it
    arrives (None: as sent), while ``active`` (otherwise the bytes pass untouched). Every other
    call goes to the device."""

    def __init__(self, sim: Any) -> None:
        self._sim = sim

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sim, name)

    def active(self) -> bool:
        return True

    def rewrite(self, frame: Frame) -> bytes | None:
        return None

    def outgoing(self, now: float | None = None) -> bytes:
        data = self._sim.outgoing(now)
        if not data or not self.active():
            return data
        out = bytearray()
        for frame in Framer().feed(data):  # the device's link writes whole frames
            payload = self.rewrite(frame)
            out += encode(frame.seq, frame.type, frame.payload if payload is None else payload)
        return bytes(out)


def cards_drawn(events: Iterable[ev.DeviceEvent]) -> Counter[tuple[int, str]]:
    """The device's own account of its cards: (event number, card) of every card it read."""
    return Counter((e.event_no, card_text(e.card)) for e in events if isinstance(e, ev.CardDrawn) and e.card is not None)


def cards_logged(records: Iterable[dict[str, Any]]) -> Counter[tuple[int, str]]:
    """(event number, card) of every card line the log holds."""
    return Counter((r["event_no"], r["card"]) for r in records if r["event"] in ("dealt", "burned", "drawn") and r.get("card"))


# --- rounds set up the same way by several files ----------------------------------------------------

#: two seats of One Card Poker, seat 1 with a Tie bet beside its primary
OCP_WAGERS: dict[int, dict[str, int]] = {1: {"primary": 1000, "tie": 500}, 2: {"primary": 1000}}


def ocp_ready(table: Callable[..., Table], **overrides: Any) -> Table:
    """One Card Poker (config *overrides*) with a loaded shoe, the shuffle's burn done, seat 7 the DP."""
    t = table("one-card-poker", **overrides)
    t.load_shoe()
    t.burn("2C")
    t.input(OfferBank(7))
    return t


def ocp_round(table: Callable[..., Table], wagers: dict[int, dict[str, int]] = OCP_WAGERS, **overrides: Any) -> Table:
    """:func:`ocp_ready`, then a round of *wagers* at seats 1 and 2 started."""
    t = ocp_ready(table, **overrides)
    t.input(StartRound((1, 2), wagers))
    return t


def oftm_decided(table: Callable[..., Table], decision: str = "check") -> Table:
    """One for the Money from a 6-deck shuffler: seat 1's ante of $5, its three cards and *decision*."""
    t = table("one-for-the-money")
    t.shuffle(decks=6)
    t.input(StartRound((1,), {1: {"ante": 500}}))
    t.draw("AS", "KS", "QS")
    t.input(Decision(1, decision))
    return t


def oftm_round(table: Callable[..., Table]) -> Table:
    """:func:`oftm_decided` (checked), the round ended: its cards not yet back in the shuffler."""
    t = oftm_decided(table)
    t.input(EndRound())
    return t
