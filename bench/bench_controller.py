"""Benchmarks of the table controller (not run as tests).

Issue 3's targets: full-stack throughput with simulated devices >= 20,000 cards/s; the
controller's CPU cost per card <= 50 us (fsync excluded).

Three games, each from the device its rules prefer:

- ``ocp``  One Card Poker from a card-reading shoe (6 decks, 6 players + the Designated Player,
  burns marked with the shoe's button, ties, wars, shoe changes at the penetration cap);
- ``oftm`` One for the Money from a continuous shuffler (6 decks, 7 players, trades; every card
  goes back into the shuffler after the round: ``CardReturned`` events);
- ``tcp``  player-banked Three Card Poker from a hand-forming shuffler (1 deck, 7 players + the
  player-dealer; a shuffle with deck check every round, one ``PacketDelivered`` event per
  3-card packet, the rest of the deck discarded).

The dealer is pipelined: it plays the game's own deal script (``RoundCursor``: the same script
the table checks against), draws each phase's cards as fast as the device gives them, and waits
only until the device events it caused have reached the controller's inbox before it gives the
table an input (so the inbox holds cards and inputs in the order a real table would). It never
waits for the log. Decisions are random legal options. For the full-stack modes the dealer's
session is recorded first against a simulator built exactly like the run's (same seed, same
actions, so the same cards) and then replayed: the dealer's own bookkeeping is not charged to
the process under test, while the table still gets a live dealer's stream (device actions on
the simulator, inputs through ``TableController.submit``).

Modes (``python bench/bench_controller.py MODE [--cards N] [--games ocp,oftm,tcp]``):

``cost``   the controller alone, fed plain values: ``TableCore`` with a real signed ``EventLog``
           (fsync off), device events made by the simulators' device models (no link, no
           threads), a commit every ``--batch`` events. The rounds are recorded first, then
           replayed into a fresh ``TableCore``: all in = one ``time.thread_time`` pair around
           the whole replay (every device event, input and commit; nothing else runs, no timer
           inside), per card and per device event; card path = ``time.perf_counter`` around
           each card event's ``handle_event`` (incl. its ``log.append_dict``; a card that completes
           a round also settles it). Also the log's append cost per line and settlement's
           cost per round. Per logged line, the all-in CPU against a bare chained writer's
           (``bare_chained_write``: stamp, orjson, checkpoints signed, BLAKE2b chain, buffered
           writes: the very bytes the run logged, in its files) and against the chain alone
           (``chain_only_write``: orjson, BLAKE2b chain, buffered writes, one file; ``ts`` and
           signatures copied from the log), over the same lines, ``--repeat`` runs side by
           side: each ratio's median and range (issue 35's goal: at most 3x).
``stack``  the full stack in ONE process: the simulator served on a pty by its thread, the real
           serial transport, framer, link and driver (its I/O thread), the controller's thread,
           a signed ``EventLog`` (fsync on, and off). Cards/s and device events/s, wall clock;
           the CPU seconds of every thread (``pthread_getcpuclockid``: the same clock as
           ``time.thread_time()`` inside each thread); the controller thread's CPU per card.
``proc``   the same, but the simulator is a separate process (``tablectl sim KIND --pty
           --control``): still simulated devices on a pty, not in-process; the dealer acts
           through the simulator's control channel (one command line per action, a run of
           draws one ``draw N``).
``device`` the device layer alone: simulated shoe -> pty -> link -> driver -> a counting sink.
``all``    everything above.

Every run deals at least ``--cards`` cards (default 60,000).
"""

from __future__ import annotations

import argparse
import calendar
import gc
import hashlib
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tablectl.cards import DECK_SIZE, text
from tablectl.config import TableConfig, parse_config
from tablectl.drivers import events as ev
from tablectl.eventlog import EventLog, generate_key
from tablectl.eventlog.logformat import insert_signature
from tablectl.games.procedure import RoundContext
from tablectl.simulators.nvstore import NvStore
from tablectl.table.core import TableCore
from tablectl.table.inputs import DealerChange, Decision, EndRound, OfferBank, ShoeChange, StartRound
from tablectl.table.procedure import penetration as pen
from tablectl.table.procedure.cursor import RoundCursor

# --- the three tables ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    key: str
    title: str
    game: str
    driver: str
    decks: int
    seats: int  # config seats (the banker's included)
    banker: int | None  # the one seat that wants the bank
    wagers: Callable[[int], dict[str, int]]
    banker_stake: int | None
    rotate: str


GAMES: dict[str, Game] = {
    g.key: g
    for g in (
        Game("ocp", "One Card Poker, shoe", "one-card-poker", "shoe", 6, 7, 7,
             lambda s: {"primary": 500, "tie": 100} if s % 2 else {"primary": 500}, 1_000_000, "shoe"),
        Game("oftm", "One for the Money, CSM", "one-for-the-money", "csm", 6, 7, None,
             lambda s: {"ante": 500, "bonus": 100} if s % 3 == 0 else {"ante": 500}, None, "day"),
        Game("tcp", "Three Card Poker, shuffler", "three-card-poker", "shuffler", 1, 8, 8,
             lambda s: {"ante": 500, "pairplus": 100} if s % 2 else {"ante": 500}, 1_000_000, "day"),
    )
}


def make_config(g: Game, log_dir: Path) -> TableConfig:
    return parse_config(
        {
            "table": f"bench-{g.key}",
            "game": g.game,
            "decks": g.decks,
            "penetration_cap": 90,
            "seats": g.seats,
            "min_bet": 5,
            "max_bet": 500,
            "devices": {g.driver: {"driver": g.driver, "address": "/dev/null"}},
            "log": {"dir": str(log_dir), "rotate": g.rotate},
        },
        "bench",
    )


# --- what the dealer does to the device ---------------------------------------------------------


class DeviceOps:
    """The dealer's hands on the card device. Each call returns the cards it showed and the
    highest device event number it caused (0: none)."""

    def deal(self, burns: list[bool]) -> tuple[list[int | None], int]:
        """One card per entry; a True entry is a burn: the burn button, then the card."""
        raise NotImplementedError

    def packet(self, count: int) -> tuple[list[int | None], int]:
        raise NotImplementedError

    def simple(self, action: str) -> int:
        """``load``, ``shuffle``, ``discard`` (the last event number)."""
        raise NotImplementedError

    def return_cards(self, cards: list[int]) -> int:
        raise NotImplementedError

    def close(self) -> None:
        pass


class SimOps(DeviceOps):
    """A ``SimDevice`` in this process (its control API; the device sends on its own link)."""

    def __init__(self, sim: Any, feed: Callable[[ev.DeviceEvent], None] | None = None) -> None:
        self.sim = sim
        self.feed = feed  # cost mode: the events go straight to the table core

    def _take(self, events: list[ev.DeviceEvent]) -> int:
        if self.feed is not None:
            for e in events:
                self.feed(e)
        return max((e.event_no for e in events), default=0)

    def deal(self, burns: list[bool]) -> tuple[list[int | None], int]:
        cards: list[int | None] = []
        last = 0
        for burn in burns:
            if burn:
                last = max(last, self._take(self.sim.press_button(0)))
            events = self.sim.draw()
            cards += [e.card for e in events if isinstance(e, ev.CardDrawn)]
            last = max(last, self._take(events))
        return cards, last

    def packet(self, count: int) -> tuple[list[int | None], int]:
        events = self.sim.deliver_packet(count)
        cards = [c for e in events if isinstance(e, ev.PacketDelivered) for c in e.cards]
        return cards, self._take(events)

    def simple(self, action: str) -> int:
        fn = {"load": self.sim.load, "shuffle": self.sim.start_shuffle, "discard": self.sim.discard_rest}[action]
        return self._take(fn())

    def return_cards(self, cards: list[int]) -> int:
        return self._take(self.sim.return_cards(cards))


class RecordOps(SimOps):
    """Records every device action (name, arguments, the last event number it caused) while the
    dealer plays against a simulator built exactly like the one of the run: the run then replays
    the same actions and gets the same cards."""

    def __init__(self, sim: Any) -> None:
        super().__init__(sim)
        self.steps: list[tuple[str, Any, Any, int]] = []  # ("dev", action, args, last event_no)

    def _act(self, name: str, args: tuple[Any, ...]) -> list[ev.DeviceEvent]:
        events: list[ev.DeviceEvent] = getattr(self.sim, name)(*args)
        self.steps.append(("dev", name, args, max((e.event_no for e in events), default=0)))
        return events

    def deal(self, burns: list[bool]) -> tuple[list[int | None], int]:
        cards: list[int | None] = []
        last = 0
        for burn in burns:
            if burn:
                last = max(last, self._take(self._act("press_button", (0,))))
            events = self._act("draw", ())
            cards += [e.card for e in events if isinstance(e, ev.CardDrawn)]
            last = max(last, self._take(events))
        return cards, last

    def packet(self, count: int) -> tuple[list[int | None], int]:
        events = self._act("deliver_packet", (count,))
        return [c for e in events if isinstance(e, ev.PacketDelivered) for c in e.cards], self._take(events)

    def simple(self, action: str) -> int:
        name = {"load": "load", "shuffle": "start_shuffle", "discard": "discard_rest"}[action]
        return self._take(self._act(name, ()))

    def return_cards(self, cards: list[int]) -> int:
        return self._take(self._act("return_cards", (list(cards),)))


# --- what the dealer does at the table ------------------------------------------------------------


class Table:
    """The dealer's way to the table: inputs, and "wait until my device events are in"."""

    def submit(self, inp: Any) -> None:
        raise NotImplementedError

    def sync(self, event_no: int) -> None:
        """Return once the device's events up to ``event_no`` have reached the controller."""

    def finish(self, event_no: int) -> None:
        """Return once everything is applied and committed."""


class RecordTable(Table):
    """``cost`` mode: records the rounds as one stream of device events, inputs and commits (in
    the order a controller's inbox would hold them), to be replayed into a ``TableCore``. At each
    commit it tells the device's store that what was fed before it is persisted, as the table's
    driver would: a device whose host never acknowledges fills its store and refuses to deal."""

    def __init__(self, batch: int, store: NvStore) -> None:
        self.batch = batch
        self.store = store
        self.stream: list[tuple[int, Any]] = []  # (0, event) | (1, input) | (2, None): commit
        self.since_commit = 0
        self.fed = 0  # the highest device event number fed

    def feed(self, event: ev.DeviceEvent) -> None:
        self.stream.append((0, event))
        self.fed = max(self.fed, event.event_no)
        self._tick()

    def submit(self, inp: Any) -> None:
        self.stream.append((1, inp))
        self._tick()

    def _tick(self) -> None:
        self.since_commit += 1
        if self.since_commit >= self.batch:
            self.finish(0)

    def finish(self, event_no: int) -> None:
        self.stream.append((2, None))
        self.since_commit = 0
        self.store.persisted(self.fed)


class Receipts:
    """Wraps the controller's sink on the driver's thread: counts what reached the inbox. Wakes
    the dealer only when the event it waits for has arrived (one wake per wait, not per event)."""

    def __init__(self, sink: Callable[[str, ev.DeviceEvent], None]) -> None:
        self._sink = sink
        self.last = 0
        self.events = 0
        self._want = 1 << 62
        self._arrived = threading.Event()

    def __call__(self, device: str, event: ev.DeviceEvent) -> None:
        self._sink(device, event)
        n = event.event_no
        if n:
            self.last = n
            self.events += 1
            if n >= self._want:
                self._want = 1 << 62
                self._arrived.set()

    def wait(self, number: int, timeout: float = 20.0) -> None:
        if self.last >= number:
            return
        self._arrived.clear()
        self._want = number
        if self.last >= number:  # arrived meanwhile
            self._want = 1 << 62
            return
        if not self._arrived.wait(timeout):
            raise TimeoutError(f"device event {number} never reached the inbox (last {self.last})")


class RecordInputs(Table):
    """Records the inputs in the recorded session, each with the device event number that must
    have reached the inbox before it (what the dealer waits for). What has reached the inbox the
    run's table persists: the device's store is told so, or a long session fills it."""

    def __init__(self, steps: list[tuple[str, Any, Any, int]], store: NvStore) -> None:
        self.steps = steps
        self.store = store
        self.synced = 0

    def sync(self, event_no: int) -> None:
        self.synced = max(self.synced, event_no)
        self.store.persisted(self.synced)

    def submit(self, inp: Any) -> None:
        self.steps.append(("in", inp, None, self.synced))


# --- the dealer -----------------------------------------------------------------------------------


@dataclass
class Counts:
    rounds: int = 0
    cards: int = 0  # cards out of the device (dealt, burned)
    events: int = 0  # device events caused (cards, packets, returns, shuffles, buttons, ...)


class Dealer:
    """Plays rounds of ``g`` through ``ops`` (the device) and ``table`` (the inputs), pipelined."""

    def __init__(self, g: Game, cfg: TableConfig, ops: DeviceOps, table: Table, seed: int) -> None:
        self.g, self.cfg, self.ops, self.table = g, cfg, ops, table
        self.rng = random.Random(seed)
        self.game = cfg.game_def
        self.rules = cfg.procedure_rules
        self.players = tuple(s for s in range(1, g.seats + 1) if s != g.banker)
        self.wagers = {s: g.wagers(s) for s in self.players}
        self.last = 0  # highest device event number caused
        self.synced = 0
        self.counts = Counts()
        self.out: list[int] = []  # cards out of a continuous shuffler
        self.capped = g.driver == "shoe"
        size = g.decks * DECK_SIZE
        self.cap_cards = pen.cap_cards(size, cfg.penetration_cap)
        seats = g.seats - (1 if self.game.banker else 0)
        self.budget = self.game.round_budget(seats, self.rules) + self.game.dealer_change_burns(self.rules)
        self.drawn = 0
        self.loaded = False

    def _caused(self, n: int) -> None:
        if n > self.last:
            self.counts.events += n - self.last
            self.last = n

    def _input(self, inp: Any) -> None:
        if self.synced < self.last:
            self.table.sync(self.last)
            self.synced = self.last
        self.table.submit(inp)

    def _deal(self, burns: list[bool]) -> list[int | None]:
        cards, n = self.ops.deal(burns)
        self._caused(n)
        self.counts.cards += len(cards)
        self.drawn += len(cards)
        return cards

    def start(self, loaded: bool) -> None:
        self._input(DealerChange("D-01"))  # no round starts without a dealer signed in
        if self.game.banker:
            self._input(OfferBank(self.g.banker))
        self.loaded = loaded
        if loaded:  # a shoe loaded at the simulator's start: its ShoeLoaded is the first event
            self._caused(1)
            self._after_load()

    def _after_load(self) -> None:
        self.drawn = 0
        burns = self.game.shuffle_burns(self.rules)
        if burns:
            self._deal([True] * burns)

    def _before_round(self) -> None:
        g = self.g
        if g.driver == "shoe":
            if not self.loaded or self.cap_cards - self.drawn < 2 * self.budget:
                if self.loaded:
                    self._input(ShoeChange())
                self._caused(self.ops.simple("load"))
                self.loaded = True
                self._after_load()
        elif g.driver == "csm":
            if not self.loaded:
                self._caused(self.ops.simple("load"))
                self.loaded = True
            if self.out:
                self._caused(self.ops.return_cards(self.out))
                self.out = []
        else:  # a hand-forming shuffler shuffles a fresh deck every round
            self._caused(self.ops.simple("shuffle"))

    def play_round(self) -> None:
        self._before_round()
        g = self.g
        banker = g.banker if self.game.banker else None
        self._input(StartRound(self.players, self.wagers, g.banker_stake))
        cursor = RoundCursor(self.game.script, RoundContext(self.players, self.wagers, banker, g.driver == "shuffler", self.rules))
        while not cursor.done:
            if cursor.decision is not None:
                d = cursor.decision
                choice = self.rng.choice(d.options)
                self._input(Decision(d.seat, choice))
                cursor.decide(d.seat, choice)
            elif cursor.discard:
                self._caused(self.ops.simple("discard"))
                cursor.discarded(DECK_SIZE * g.decks - self.drawn)
            elif g.driver == "shuffler":
                group = cursor.packet()
                assert group is not None
                cards, n = self.ops.packet(group[1])
                self._caused(n)
                self.counts.cards += len(cards)
                self.drawn += len(cards)
                for c in cards:
                    cursor.place(c)
            else:
                steps = cursor.remaining()
                cards = self._deal([s.burn for s in steps])
                for c in cards:
                    cursor.place(c)
                if g.driver == "csm":
                    self.out += [c for c in cards if c is not None]
            cursor.take_effects()
        self._input(EndRound())
        if g.driver == "shuffler":
            self.drawn = 0
        self.counts.rounds += 1

    def play(self, cards: int) -> Counts:
        while self.counts.cards < cards:
            self.play_round()
        if self.out and self.g.driver == "csm":
            self._caused(self.ops.return_cards(self.out))
            self.out = []
        if self.synced < self.last:
            self.table.sync(self.last)
        self.table.finish(self.last)
        return self.counts


# --- 1. cost: the controller alone ----------------------------------------------------------------


def bench_cost(g: Game, cards: int, batch: int, repeat: int = 3) -> dict[str, Any]:
    """The rounds are recorded first (the dealer and the device models, no table), then replayed
    into a fresh ``TableCore``: ``repeat`` times under one ``time.thread_time`` pair (all in:
    every event, input and commit; no timer inside), each run followed by the bare chained writer
    over the lines it logged (``bare_chained_write``; the pair side by side), and once with
    ``time.perf_counter`` around each card event only (the card path)."""
    from tablectl.simulators.factory import build_device

    with tempfile.TemporaryDirectory() as tmp:
        cfg = make_config(g, Path(tmp))
        sim = build_device(g.driver, decks=g.decks, seed=11, load=False)
        recorder = RecordTable(batch, sim.store)
        dealer = Dealer(g, cfg, SimOps(sim, recorder.feed), recorder, seed=12)
        dealer.start(loaded=False)
        counts = dealer.play(cards)
        stream = recorder.stream
        n_cards = sum(len(x.cards) if isinstance(x, ev.PacketDelivered) else 1
                      for k, x in stream if k == 0 and isinstance(x, (ev.CardDrawn, ev.PacketDelivered)))
        card_events = sum(1 for k, x in stream if k == 0 and isinstance(x, (ev.CardDrawn, ev.PacketDelivered)))
        device_events = sum(1 for k, _ in stream if k == 0)
        inputs = sum(1 for k, _ in stream if k == 1)
        all_in: list[float] = []
        per_line: list[float] = []
        bare_per_line: list[float] = []
        chain_per_line: list[float] = []
        card_time = 0.0
        lines = 0
        for run in range(repeat + 1):
            timed = run == repeat  # the last run: the card path
            directory = Path(tmp) / f"log-{run}"
            key = generate_key()
            log = EventLog(directory, cfg.table, signing_key=key, fsync=False, rotate=g.rotate)
            core = TableCore(cfg, log)
            core.go_online()
            lines0 = log.seq
            device = g.driver
            handle_event, handle_input, commit = core.handle_event, core.handle_input, log.commit
            gc.collect()
            if not timed:
                t0 = time.thread_time()
                for kind, x in stream:
                    if kind == 0:
                        handle_event(device, x)
                    elif kind == 1:
                        handle_input(x)
                    else:
                        commit()
                all_in.append(time.thread_time() - t0)
            else:
                clock = time.perf_counter
                card_types = (ev.CardDrawn, ev.PacketDelivered)
                for kind, x in stream:
                    if kind == 0:
                        if isinstance(x, card_types):
                            t0 = clock()
                            handle_event(device, x)
                            card_time += clock() - t0
                        else:
                            handle_event(device, x)
                    elif kind == 1:
                        handle_input(x)
                    else:
                        commit()
            lines = log.seq - lines0
            violations = list(core.alarms.violations)
            log.close()
            assert not violations, violations
            if not timed:
                per_line.append(all_in[-1] / lines)
                files = sorted(directory.glob("*.jsonl"))
                records = [[orjson.loads(line) for line in p.read_bytes().splitlines()] for p in files]
                gc.collect()
                n = sum(map(len, records))
                bare, written = bare_chained_write(records, key, directory / "bare", batch)
                bare_per_line.append(bare / n)
                gc.collect()
                chain, chained = chain_only_write([r for rs in records for r in rs], directory / "chain.out", batch)
                chain_per_line.append(chain / n)
                if run == 0:  # both write the very bytes the log holds
                    assert [p.read_bytes() for p in written] == [p.read_bytes() for p in files], "bare writer differs"
                    assert chained.read_bytes() == b"".join(p.read_bytes() for p in files), "chain-only writer differs"
    return {
        "cards": n_cards,
        "card_events": card_events,
        "rounds": counts.rounds,
        "us_card_path": card_time / n_cards * 1e6,
        "us_card_event": card_time / card_events * 1e6,
        "us_all_in": statistics.median(all_in) / n_cards * 1e6,
        "us_per_event": statistics.median(all_in) / (device_events + inputs) * 1e6,
        "device_events": device_events,
        "inputs": inputs,
        "us_round": statistics.median(all_in) / counts.rounds * 1e6,
        "lines_per_round": lines / counts.rounds,
        "us_line": [t * 1e6 for t in per_line],
        "us_bare_line": [t * 1e6 for t in bare_per_line],
        "line_ratio": [a / b for a, b in zip(per_line, bare_per_line, strict=True)],
        "us_chain_line": [t * 1e6 for t in chain_per_line],
        "chain_ratio": [a / b for a, b in zip(per_line, chain_per_line, strict=True)],
    }


def bare_chained_write(files: list[list[dict[str, Any]]], key: Ed25519PrivateKey, directory: Path,
                       group: int) -> tuple[float, list[Path]]:
    """The floor of any writer of this log, in CPU seconds: the lines of *files* (a log's parsed
    lines, file by file) written again as a bare loop writes them: each stamped (``seq``; ``ts``
    from the time the line was logged at, formatted), rendered with orjson, a checkpoint signed
    with *key* (the log's own), chained (BLAKE2b-256 ``prev``), buffered and written every
    *group* lines (no fsync), a new file made where the log made one. No validation, no
    listeners: the same bytes in the same files as the log the records came from."""
    dumps, blake2b, sign, strftime, gmtime = orjson.dumps, hashlib.blake2b, key.sign, time.strftime, time.gmtime
    unstamped = [[_unstamped(r) for r in records] for records in files]
    directory.mkdir()
    paths = [directory / f"{n:06d}.jsonl" for n in range(1, len(files) + 1)]
    t0 = time.thread_time()
    head = "0" * 64
    ts_second, ts_prefix = -1, ""
    seq = 0
    for path, lines in zip(paths, unstamped, strict=True):
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o640)
        try:
            buffer: list[bytes] = []
            for fields, now, signed in lines:
                seq += 1
                line_dict = fields.copy()
                second = int(now)
                if second != ts_second:
                    ts_second, ts_prefix = second, strftime("%Y-%m-%dT%H:%M:%S.", gmtime(second))
                line_dict["seq"] = seq
                line_dict["ts"] = ts_prefix + "%06dZ" % ((now - second) * 1_000_000)
                line_dict["prev"] = head
                line = dumps(line_dict)
                if signed:
                    line = insert_signature(line, sign(line).hex())
                head = blake2b(line, digest_size=32).hexdigest()
                buffer.append(line)
                if len(buffer) >= group:
                    buffer.append(b"")
                    os.write(fd, b"\n".join(buffer))
                    buffer = []
            if buffer:
                buffer.append(b"")
                os.write(fd, b"\n".join(buffer))
        finally:
            os.close(fd)
    return time.thread_time() - t0, paths


def chain_only_write(records: list[dict[str, Any]], path: Path, group: int) -> tuple[float, Path]:
    """The chain alone, in CPU seconds: each of *records* (a log's parsed lines, its ``ts`` and
    ``sig`` copied, not made) rendered with orjson with ``seq`` and ``prev`` set, chained
    (BLAKE2b-256), buffered and written every *group* lines, all in one file (no fsync). The
    same bytes as the log's files end to end."""
    dumps, blake2b = orjson.dumps, hashlib.blake2b
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        t0 = time.thread_time()
        head = "0" * 64
        buffer: list[bytes] = []
        for seq, record in enumerate(records, 1):
            line_dict = record.copy()
            line_dict["seq"] = seq
            del line_dict["prev"]
            line_dict["prev"] = head
            line = dumps(line_dict)
            head = blake2b(line, digest_size=32).hexdigest()
            buffer.append(line)
            if len(buffer) >= group:
                buffer.append(b"")
                os.write(fd, b"\n".join(buffer))
                buffer = []
        if buffer:
            buffer.append(b"")
            os.write(fd, b"\n".join(buffer))
        return time.thread_time() - t0, path
    finally:
        os.close(fd)


def _unstamped(record: dict[str, Any]) -> tuple[dict[str, Any], float, bool]:
    """A logged line as its writer had it before stamping: its members without ``sig`` and
    ``prev``, the time it was logged at (the middle of its microsecond, so that formatting it
    again gives its ``ts``), and whether it was signed."""
    fields = {k: v for k, v in record.items() if k not in ("sig", "prev")}
    ts = record["ts"]
    second = calendar.timegm(time.strptime(ts[:19], "%Y-%m-%dT%H:%M:%S"))
    return fields, second + (int(ts[20:26]) + 0.5) / 1_000_000, "sig" in record


def bench_append(lines: int = 200_000, *, as_dict: bool = False) -> float:
    """CPU us per ``EventLog.append`` of a typical card line (fsync off, commit every 64);
    ``as_dict``: per ``EventLog.append_dict`` of the same line (the table core's way)."""
    with tempfile.TemporaryDirectory() as tmp:
        log = EventLog(Path(tmp), "bench", signing_key=generate_key(), fsync=False, rotate="never")
        append, append_dict, commit = log.append, log.append_dict, log.commit
        t0 = time.thread_time()
        for i in range(lines):
            if as_dict:
                append_dict("dealt", {"card": "QH", "to": "seat:3", "face": "up", "shoe": 7, "round": i // 9, "device": "shoe",
                                      "event_no": i + 1, "penetration": 0.4215})
            else:
                append("dealt", card="QH", to="seat:3", face="up", shoe=7, round=i // 9, device="shoe", event_no=i + 1,
                       penetration=0.4215)
            if i % 64 == 63:
                commit()
        commit()
        dt = time.thread_time() - t0
        log.close()
    return dt / lines * 1e6


def bench_settle(rounds: int = 20_000) -> dict[str, float]:
    """CPU us per round of ``settle`` for 7 seats of each game's hands (random cards)."""
    from tablectl.rounds import RoundHands, SeatHand
    from tablectl.rules.houserules import RULES_BY_GAME
    from tablectl.rules.settle import settle

    rng = random.Random(5)
    out = {}
    for game in ("one-card-poker", "one-for-the-money", "three-card-poker"):
        rules = RULES_BY_GAME[game]()
        hands = []
        for _ in range(500):
            deck = [c for c in range(DECK_SIZE) for _ in range(6)]
            rng.shuffle(deck)
            if game == "one-card-poker":
                dp = deck.pop()
                seats = []
                for s in range(1, 7):
                    c = deck.pop()
                    while c >> 2 == dp >> 2:
                        c = deck.pop()
                    seats.append(SeatHand(s, [c], {"primary": 500, "tie": 100}))
                hands.append(RoundHands(game, seats, dealer=[dp], banker_seat=7, banker_stake=1_000_000))
            elif game == "one-for-the-money":
                seats = [SeatHand(s, [deck.pop()], {"ante": 500, "bonus": 100}, [rng.choice(("check", "raise"))]) for s in range(1, 8)]
                hands.append(RoundHands(game, seats, dealer=[deck.pop(), deck.pop()]))
            else:
                seats = [SeatHand(s, [deck.pop() for _ in range(3)], {"ante": 500, "pairplus": 100}, [rng.choice(("play", "fold"))]) for s in range(1, 8)]
                hands.append(RoundHands(game, seats, dealer=[deck.pop() for _ in range(3)], banker_seat=8, banker_stake=1_000_000))
        n = 0
        t0 = time.thread_time()
        while n < rounds:
            for h in hands:
                settle(h, rules)
            n += len(hands)
        out[game] = (time.thread_time() - t0) / n * 1e6
    return out


# --- 2. the full stack ----------------------------------------------------------------------------


def _cpu(thread: threading.Thread | None) -> float:
    if thread is None or thread.ident is None:
        return 0.0
    try:
        return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
    except OSError:
        return 0.0


_CONTROL = {"draw": "draw", "press_button": "button", "load": "load", "start_shuffle": "shuffle",
            "deliver_packet": "deliver", "discard_rest": "discard", "return_cards": "return"}


def record_session(g: Game, cfg: TableConfig, cards: int) -> tuple[list[tuple[str, Any, Any, int]], Counts]:
    """The dealer's whole session, played once against a simulator built as the run's will be
    (``tablectl sim``'s defaults, seed 3: a shoe is loaded at start): device actions, and inputs
    with the device event each must wait for. The run replays it: the table sees a live dealer's
    stream, and the dealer's own bookkeeping (its copy of the deal script, its choices) is not
    charged to the process under test."""
    from tablectl.simulators.factory import build_device

    sim = build_device(g.driver, decks=g.decks, seed=3)
    ops = RecordOps(sim)
    dealer = Dealer(g, cfg, ops, RecordInputs(ops.steps, sim.store), seed=4)
    dealer.start(loaded=g.driver == "shoe")
    counts = dealer.play(cards)
    return ops.steps, counts


def _control_lines(steps: list[tuple[str, Any, Any, int]]) -> list[tuple[str, Any, int]]:
    """The session for the control channel: each device action a command line (a run of draws
    one ``draw N``), each input as it is."""
    out: list[tuple[str, Any, int]] = []
    draws = 0
    for kind, a, b, n in steps:
        if kind == "dev" and a == "draw":
            draws += 1
            continue
        if draws:
            out.append(("dev", f"draw {draws}", 0))
            draws = 0
        if kind == "dev":
            args = " ".join(text(c) for c in b[0]) if a == "return_cards" else " ".join(str(x) for x in b)
            out.append(("dev", f"{_CONTROL[a]} {args}".strip(), 0))
        else:
            out.append(("in", a, n))
    if draws:
        out.append(("dev", f"draw {draws}", 0))
    return out


def bench_stack(g: Game, cards: int, fsync: bool, separate: bool) -> dict[str, Any]:
    """Full stack: simulator on a pty (this process, or a separate one), driver, controller, log."""
    from tablectl.drivers.registry import open_device
    from tablectl.table.controller import TableController

    proc: subprocess.Popen[str] | None = None
    server = None
    sock = None
    with tempfile.TemporaryDirectory() as tmp:
        cfg = make_config(g, Path(tmp))
        steps, counts = record_session(g, cfg, cards)
        last = max(n for kind, _, _, n in steps if kind == "dev")
        log = EventLog(Path(tmp), cfg.table, signing_key=generate_key(), fsync=fsync, rotate=g.rotate)
        controller = TableController(cfg, log)
        receipts = Receipts(controller.sink)
        if separate:
            proc = subprocess.Popen(
                [sys.executable, "-m", "tablectl", "sim", g.driver, "--pty", "--control", "127.0.0.1:0",
                 "--decks", str(g.decks), "--seed", "3"],
                stdout=subprocess.PIPE, text=True,
            )
            assert proc.stdout is not None
            address = proc.stdout.readline().strip()
            host, _, port = proc.stdout.readline().strip().rpartition(":")
            sock = socket.create_connection((host, int(port)))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            rfile = sock.makefile("rb")
            lines = _control_lines(steps)
        else:
            from tablectl.simulators.factory import build_device
            from tablectl.simulators.serving.pty import PtyServer

            sim = build_device(g.driver, decks=g.decks, seed=3)
            server = PtyServer(sim)
            address = server.start()
        driver = open_device(g.driver, address, g.driver, receipts, resume_after=0)
        controller.attach(g.driver, driver)
        controller.start()
        threads = {
            "controller": controller._thread,
            "driver": driver._thread,
            "sim server": server._thread if server is not None else None,
            "dealer (main)": threading.current_thread(),
        }
        futures: list[Any] = []
        submit = controller.submit
        wait = receipts.wait
        synced = 0
        try:
            cpu0 = {k: _cpu(t) for k, t in threads.items()}
            proc_cpu0 = time.process_time()
            batches0, lines0 = controller.batches, log.seq
            start = time.perf_counter()
            if separate:
                assert sock is not None
                for kind, x, n in lines:
                    if kind == "dev":
                        sock.sendall(x.encode() + b"\n")
                        answer = rfile.readline()
                        if not answer.startswith(b"ok"):
                            raise RuntimeError(f"simulator: {x!r} -> {answer!r}")
                    else:
                        if n > synced:
                            wait(n)
                            synced = n
                        futures.append(submit(x))
            else:
                for kind, x, args, n in steps:
                    if kind == "dev":
                        getattr(sim, x)(*args)
                    else:
                        if n > synced:
                            wait(n)
                            synced = n
                        futures.append(submit(x))
                        if len(futures) >= 4096:
                            for f in futures[:2048]:
                                f.result(30)
                            del futures[:2048]
            wait(last, 60)
            if not controller.wait_processed(g.driver, last, 60):
                raise TimeoutError("the controller did not catch up")
            for f in futures:
                f.result(30)
            elapsed = time.perf_counter() - start
            proc_cpu = time.process_time() - proc_cpu0
            cpu = {k: _cpu(t) - cpu0[k] for k, t in threads.items()}
            batches = controller.batches - batches0
            log_lines = log.seq - lines0
            violations = list(controller.core.alarms.violations)
        finally:
            controller.stop()
            driver.stop()
            if sock is not None:
                sock.close()
            if server is not None:
                server.stop()
            if proc is not None:
                proc.terminate()
                proc.wait(10)
            log.close()
    assert not violations, violations
    return {
        "cards": counts.cards,
        "rounds": counts.rounds,
        "events": counts.events,
        "seconds": elapsed,
        "cards_per_s": counts.cards / elapsed,
        "events_per_s": counts.events / elapsed,
        "cards_per_commit": counts.cards / max(batches, 1),
        "lines_per_s": log_lines / elapsed,
        "controller_us_per_card": cpu["controller"] / counts.cards * 1e6,
        "cpu": cpu,
        "process_cpu": proc_cpu,
    }


def bench_device_path(cards: int) -> tuple[float, float]:
    """Cards per second from a simulated shoe through the pty, link and driver to a sink that only
    counts (no controller, no log): what the device layer alone carries in one process; and the
    process's CPU us per card (every thread: simulator, server, link and driver). Whatever the
    controller costs comes on top of that CPU, so 1e6 / it bounds the full stack's cards/s in
    one process."""
    from tablectl.drivers.registry import open_device
    from tablectl.simulators.factory import build_device
    from tablectl.simulators.serving.pty import PtyServer

    sim = build_device("shoe", decks=8, seed=3, load=False)
    server = PtyServer(sim)
    receipts = Receipts(lambda device, event: None)
    driver = open_device("shoe", server.start(), "shoe", receipts, resume_after=0)
    try:
        start, cpu0 = time.perf_counter(), time.process_time()
        last = 0
        drawn = 0
        while drawn < cards:
            last = max(e.event_no for e in sim.load())
            for _ in range(8 * DECK_SIZE - 16):
                last = max(last, max(e.event_no for e in sim.draw()))
                drawn += 1
            driver.persisted(last)
        receipts.wait(last, 60)
        return drawn / (time.perf_counter() - start), (time.process_time() - cpu0) / drawn * 1e6
    finally:
        driver.stop()
        server.stop()


# --- output ---------------------------------------------------------------------------------------


def _print_stack(g: Game, r: dict[str, Any], fsync: bool, separate: bool) -> None:
    where = "simulator in a separate process (pty)" if separate else "simulator in-process (pty)"
    print(
        f"  {g.title:28s} fsync {'on ' if fsync else 'off'}: {r['cards_per_s']:7,.0f} cards/s, {r['events_per_s']:7,.0f} device events/s"
        f" | controller thread {r['controller_us_per_card']:5.1f} us CPU/card"
        f" | {r['cards']:,} cards, {r['rounds']:,} rounds in {r['seconds']:.2f} s, {r['cards_per_commit']:.1f} cards/commit"
    )
    per = ", ".join(f"{k} {v / r['cards'] * 1e6:.1f}" for k, v in r["cpu"].items() if v)
    print(f"      CPU us/card by thread: {per}; whole process {r['process_cpu'] / r['cards'] * 1e6:.1f} ({where})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", nargs="?", default="all", choices=("cost", "stack", "proc", "device", "all"))
    parser.add_argument("--cards", type=int, default=60_000, help="cards per run (at least)")
    parser.add_argument("--games", default="ocp,oftm,tcp")
    parser.add_argument("--batch", type=int, default=64, help="events per commit in the cost mode")
    parser.add_argument("--repeat", type=int, default=3, help="all-in runs of the cost mode, each beside a bare chained writer")
    parser.add_argument("--fsync", choices=("on", "off", "both"), default="both")
    parser.add_argument("--append-lines", type=int, default=200_000, help="log lines of the EventLog.append timing (cost mode)")
    parser.add_argument("--settle-rounds", type=int, default=20_000, help="rounds per game of the settle timing (cost mode)")
    parser.add_argument("--device-cards", type=int, default=40_000, help="cards of the device-layer run (device mode)")
    args = parser.parse_args()
    games = [GAMES[k] for k in args.games.split(",")]
    fsyncs = {"on": (True,), "off": (False,), "both": (True, False)}[args.fsync]
    print(f"CPython {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    if args.mode in ("cost", "all"):
        print("controller alone, fed plain values (TableCore + signed EventLog, fsync off; CPU time):")
        for g in games:
            r = bench_cost(g, args.cards, args.batch, args.repeat)
            per_event = f" ({r['us_card_event']:.1f} us per packet event)" if g.driver == "shuffler" else ""
            print(
                f"  {g.title:28s} card path {r['us_card_path']:5.1f} us/card{per_event}; all in {r['us_all_in']:5.1f} us/card"
                f" = {r['us_round']:6.0f} us/round = {r['us_per_event']:4.1f} us per device event or input"
                f" ({r['lines_per_round']:.1f} log lines/round; {r['cards']:,} cards, {r['device_events']:,} device events,"
                f" {r['inputs']:,} inputs)"
            )
            ratio, chain = r["line_ratio"], r["chain_ratio"]
            print(f"  {'':28s} per logged line, {len(ratio)} runs side by side: controller"
                  f" {statistics.median(r['us_line']):.2f} us; bare chained writer {statistics.median(r['us_bare_line']):.2f} us:"
                  f" {statistics.median(ratio):.2f}x ({min(ratio):.2f}-{max(ratio):.2f}); the chain alone"
                  f" {statistics.median(r['us_chain_line']):.2f} us: {statistics.median(chain):.2f}x"
                  f" ({min(chain):.2f}-{max(chain):.2f})")
        print(f"  EventLog.append: {bench_append(args.append_lines):.2f} us/line (CPU);"
              f" append_dict: {bench_append(args.append_lines, as_dict=True):.2f} us/line")
        s = bench_settle(args.settle_rounds)
        print("  settle, 7 seats: " + ", ".join(f"{k} {v:.1f} us/round" for k, v in s.items()))
    if args.mode in ("stack", "proc", "all"):
        print("(controller thread CPU/card: that thread's CPU time over the run / cards; with fsync off it excludes fsync)")
    if args.mode in ("stack", "all"):
        print("full stack, simulator in this process on a pty (transport, framer, link, driver thread, controller thread, signed log):")
        for g in games:
            for fsync in fsyncs:
                _print_stack(g, bench_stack(g, args.cards, fsync, separate=False), fsync, False)
    if args.mode in ("proc", "all"):
        print("full stack, simulator in a separate process on a pty (tablectl sim --pty --control), the rest as above:")
        for g in games:
            for fsync in fsyncs:
                _print_stack(g, bench_stack(g, args.cards, fsync, separate=True), fsync, True)
    if args.mode in ("device", "all"):
        rate, cpu = bench_device_path(args.device_cards)
        print(f"device layer alone (simulated shoe -> pty -> driver, no controller, one process): {rate:,.0f} cards/s;"
              f" {cpu:.1f} us of process CPU per card (all threads): the full stack in one process can reach at most"
              f" {1e6 / cpu:,.0f} cards/s on this machine, before the controller, log and dealer")


if __name__ == "__main__":
    main()
