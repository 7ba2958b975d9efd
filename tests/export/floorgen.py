"""A simulated casino floor for the surveillance tests and benchmark: tables of all five games
played by the virtual dealer on simulated devices (the real controller, drivers and serial path
over ptys, the real signed log), several days of one shift per table per day.

Two plants (``make_floor``; ``plants=False``: an honest floor):

- a dealer (``CHEAT_DEALER``) who stacks the shoe (:func:`stacked`) at the One Card Poker table he
  deals each day: the seats tie or beat the Designated Player's card and win the wars, and the
  Tie wagers win far more often than chance allows;
- a continuous shuffler with a weak carousel (``WEAK_SERIAL``, returned cards parked near the
  exit) at one One for the Money table.

The floor's problems of rules and machines (:func:`planted_shifts`, tables of their own beside an
honest floor): a pay table raised above the approved one (``RAISED``), a pay table changed between
two shifts of one day (``CHANGED``), a house rule the game math does not model (``UNMODELLED``),
and a weak continuous shuffler (``WEAK_SERIAL``) replacing a good one (``GOOD_SERIAL``) after the
first day on one table (``REPLACED``).

Tables play in parallel processes (``workers``), each table's shifts in order in one process.

The log's clock is the floor's: each shift starts at 10:00 UTC on its day and every line the log
writes moves it on a quarter of a second, so the logs span the days without waiting for them.
"""

from __future__ import annotations

import datetime as dt
import functools
import multiprocessing
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from tablectl.simulators.shuffling import full_shoe

from tablectl.config import load_config
from tablectl.eventlog import EventLog
from tablectl.eventlog.keys import save_keypair
from tablectl.table.runtime import TableRuntime
from tablectl.table.simulated.virtual_dealer import VirtualDealer

CONFIGS = Path(__file__).resolve().parents[2] / "config" / "tables"
GAME_CONFIGS = {
    "ocp": "one-card-poker.toml",
    "tcp": "three-card-poker.toml",
    "tcpfl": "three-card-poker-florida.toml",
    "oftm-csm": "one-for-the-money-csm.toml",
    "oftm-shoe": "one-for-the-money-shoe.toml",
    "thb": "texas-holdem-bonus.toml",
}
CHEAT_DEALER = "D-13"
WEAK_SERIAL = "CSM-WEAK-0013"
GOOD_SERIAL = "CSM-GOOD-0024"
RAISED, CHANGED, UNMODELLED, REPLACED = "ocp-21", "tcpfl-22", "ocp-23", "oftm-csm-24"
PLANTS = (RAISED, CHANGED, UNMODELLED, REPLACED)
PLANT_DEALERS = {name: f"D-{t + 21}" for t, name in enumerate(PLANTS)}
TIE_40 = {"tie_wager": {"any_tie": 40, "black_tie": 10, "ace_tie": 25, "double_tie": 50, "triple_tie": 150, "quad_tie": 200}}
PAIR_1 = {"pairplus": {"mini_royal": 200, "straight_flush": 40, "three_of_a_kind": 30, "straight": 4, "flush": 3, "pair": 1}}
MISTAKES = 0.03  # procedure errors the virtual dealer commits (violations, holds, resolutions)
FIRST_DAY = dt.datetime(2026, 11, 2, 10, 0, tzinfo=dt.UTC)


@dataclass
class Floor:
    """What was made: the log directory of each table, the public key, the plan."""

    root: Path
    public_key: Path
    logs: dict[str, Path] = field(default_factory=dict)
    dealers: dict[tuple[str, int], str] = field(default_factory=dict)  # (table, day) -> dealer
    serials: dict[str, str] = field(default_factory=dict)  # table -> its card device's serial
    rounds: int = 0


def table_names(per_game: int) -> list[str]:
    """``per_game`` tables of each game (One for the Money split between shoe and shuffler)."""
    names = []
    for kind in ("ocp", "tcp", "tcpfl", "thb"):
        names += [f"{kind}-{i + 1}" for i in range(per_game)]
    names += [f"oftm-csm-{i + 1}" for i in range((per_game + 1) // 2)]
    names += [f"oftm-shoe-{i + 1}" for i in range(per_game // 2)]
    return names


def stacked(decks: int, run: int = 3, *, rising: bool = False) -> list[int]:
    """The cheat's shoe: runs of ``run`` cards of one rank, ranks falling from run to run: a seat
    dealt before the Designated Player ties or beats the DP's card, and wins the war (war cards
    come four apart: never in one run). ``rising``: ranks rising, for the DP."""
    by_rank: dict[int, list[int]] = {}
    for card in full_shoe(decks):
        by_rank.setdefault(card >> 2, []).append(card)
    order: list[int] = []
    while any(by_rank.values()):
        for rank in sorted(by_rank, reverse=not rising):
            order += by_rank[rank][:run]
            del by_rank[rank][:run]
    return order


def _kind(table: str) -> str:
    return table.rsplit("-", 1)[0]


class _Clock:
    def __init__(self, start: dt.datetime, step: float = 0.25) -> None:
        self.now = start.timestamp()
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@contextmanager
def _log_clock(clock: _Clock) -> Iterator[None]:
    with mock.patch("tablectl.table.runtime.EventLog", functools.partial(EventLog, clock=clock)):
        yield


@dataclass(frozen=True)
class Shift:
    """One shift of ``dealer`` at ``table`` (see :func:`play_shift`)."""

    table: str
    day: int
    dealer: str
    rounds: int
    seed: int
    hour: float = 0.0
    serial: str | None = None  # the card device's serial (None: the table's)
    house_rules: dict[str, Any] | None = None
    pay_tables: dict[str, Any] | None = None


def make_floor(root: Path, *, per_game: int = 4, days: int = 3, rounds: int = 60, seed: int = 7,
               plants: bool = True, workers: int = 1) -> Floor:
    """Play the floor into ``root/logs/<table>``; every table shares one signing key. ``plants``:
    the stacking dealer and the weak shuffler (False: an honest floor). ``workers``: tables
    played at once, in processes of their own."""
    floor = new_floor(root)
    play_shifts(floor, floor_shifts(floor, per_game=per_game, days=days, rounds=rounds, seed=seed, plants=plants),
                workers=workers)
    return floor


def new_floor(root: Path) -> Floor:
    """An empty floor at ``root`` with its signing key."""
    root.mkdir(parents=True, exist_ok=True)
    keys = root / "keys"
    save_keypair(keys)
    return Floor(root, keys / "table.pub")


def floor_shifts(floor: Floor, *, per_game: int, days: int, rounds: int, seed: int, plants: bool) -> list[Shift]:
    """The shifts of ``per_game`` tables of each game over ``days`` days, one shift a table a day
    (the tables' serials go into ``floor``)."""
    names = table_names(per_game)
    # (the cheat is a dealer: an honest floor has one more regular dealer instead)
    regular = [f"D-{i:02d}" for i in range(1, len(names) + 1 + (not plants)) if f"D-{i:02d}" != CHEAT_DEALER]
    weak_table = next(n for n in names if n.startswith("oftm-csm")) if plants else None
    ocp_tables = [n for n in names if n.startswith("ocp")]
    shifts = []
    for t, name in enumerate(names):
        floor.serials[name] = WEAK_SERIAL if name == weak_table else f"SN-{_kind(name).upper()}-{t + 1:04d}"
        for day in range(days):
            cheat = plants and name == ocp_tables[day % len(ocp_tables)]
            dealer = CHEAT_DEALER if cheat else regular[(t + day * 5) % len(regular)]
            shifts.append(Shift(name, day, dealer, rounds, seed * 1000 + t * 10 + day))
    return shifts


def planted_shifts(floor: Floor, *, days: int, rounds: int, seed: int) -> list[Shift]:
    """The shifts of the four planted tables (:data:`PLANTS`), each dealt by a dealer of its own
    (:data:`PLANT_DEALERS`), ``rounds`` a day over ``days`` days (at least 2); ``CHANGED`` plays
    the day after the first in two shifts, the second under the lowered pay table, which stays."""
    shifts = []
    for t, name in enumerate(PLANTS):
        floor.serials[name] = GOOD_SERIAL if name == REPLACED else f"SN-{_kind(name).upper()}-{t + 21:04d}"
        dealer = PLANT_DEALERS[name]
        for day in range(days):
            s = seed * 1000 + (t + 21) * 10 + day
            if name == RAISED:
                shifts.append(Shift(name, day, dealer, rounds, s, pay_tables=TIE_40))
            elif name == UNMODELLED:
                shifts.append(Shift(name, day, dealer, rounds, s, house_rules={"dp_declines_war": "player-wins"}))
            elif name == REPLACED:
                shifts.append(Shift(name, day, dealer, rounds, s, serial=GOOD_SERIAL if day == 0 else WEAK_SERIAL))
            elif day < 1:
                shifts.append(Shift(name, day, dealer, rounds, s))
            elif day == 1:
                first = rounds // 2
                shifts.append(Shift(name, day, dealer, first, s))
                shifts.append(Shift(name, day, dealer, rounds - first, s + 5, hour=4.0, pay_tables=PAIR_1))
            else:
                shifts.append(Shift(name, day, dealer, rounds, s, pay_tables=PAIR_1))
    return shifts


def play_shifts(floor: Floor, shifts: list[Shift], *, workers: int = 1) -> None:
    """Play ``shifts`` (each table's in the order given), ``workers`` tables at once."""
    by_table: dict[str, list[Shift]] = {}
    for shift in shifts:
        by_table.setdefault(shift.table, []).append(shift)
    jobs = [(floor.root, floor.public_key, {name: floor.serials[name]} if name in floor.serials else {}, mine)
            for name, mine in by_table.items()]
    if workers <= 1:
        for job in jobs:
            _play_table(*job)
    else:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            for done in pool.map(_play_table, *zip(*jobs, strict=True)):
                assert done >= 0
    for shift in shifts:
        floor.logs.setdefault(shift.table, floor.root / "logs" / shift.table)
        floor.dealers[shift.table, shift.day] = shift.dealer
        floor.rounds += shift.rounds


def _play_table(root: Path, public_key: Path, serials: dict[str, str], shifts: list[Shift]) -> int:
    """One table's shifts in order (in a worker process: the floor's record is the caller's)."""
    floor = Floor(root, public_key, serials=dict(serials))
    for s in shifts:
        play_shift(floor, s.table, s.day, s.dealer, s.rounds, s.seed, house_rules=s.house_rules,
                   pay_tables=s.pay_tables, hour=s.hour, serial=s.serial)
    return floor.rounds


def play_shift(floor: Floor, name: str, day: int, dealer: str, rounds: int, seed: int, *,
               house_rules: dict[str, Any] | None = None, pay_tables: dict[str, Any] | None = None,
               hour: float = 0.0, order: list[int] | None = None, serial: str | None = None) -> None:
    """One shift of ``dealer`` at table ``name`` on the floor's ``day`` (0: the first), appended
    to the table's log (the weak shuffler's table and the cheat's shoe as planted), starting
    ``hour`` hours after 10:00. ``house_rules`` and ``pay_tables`` replace entries of the game's
    config (a table playing other rules than the shipped ones); ``order``: the shoe's cards in this
    order (a stacked shoe); ``serial``: the card device's serial this shift (another machine)."""
    config = load_config(CONFIGS / GAME_CONFIGS[_kind(name)])
    update: dict[str, Any] = {"table": name}
    if house_rules:
        update["house_rules"] = {**config.house_rules, **house_rules}
    if pay_tables:
        update["pay_tables"] = {**config.pay_tables, **pay_tables}
    config = config.model_copy(update=update)
    floor.logs.setdefault(name, floor.root / "logs" / name)
    floor.dealers[name, day] = dealer
    options: dict[str, object] = {"serial": serial or floor.serials.get(name, f"SN-{name.upper()}")}
    if options["serial"] == WEAK_SERIAL:
        options.update(quality="poor", csm_lag=8)
    if dealer == CHEAT_DEALER:
        options["order"] = stacked(config.decks)
    if order is not None:
        options["order"] = order
    with _log_clock(_Clock(FIRST_DAY + dt.timedelta(days=day, hours=hour))):
        runtime = TableRuntime(config, simulate=True, log_dir=floor.logs[name], seed=seed, fsync=False,
                               signing_key=floor.public_key.with_suffix(".key"), sim_options=options)
        controller = runtime.start()
        try:
            controller.dealer_change(dealer).result(timeout=30)
            mistakes = 0.0 if dealer == CHEAT_DEALER else MISTAKES  # (careful: no hold brings a supervisor)
            VirtualDealer(controller, runtime.sims[config.card_device], seed=seed, mistakes=mistakes,
                          dealer_change_rate=0.0).play(rounds)
        finally:
            runtime.stop()
    floor.rounds += rounds


def planted_tables(floor: Floor) -> set[str]:
    """The tables the cheating dealer dealt."""
    return {table for (table, _), dealer in floor.dealers.items() if dealer == CHEAT_DEALER}


