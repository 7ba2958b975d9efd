"""The vocabulary of a game's procedure: what a deal script yields, and what a game definition is.

A deal script is a generator function ``script(ctx: RoundContext)`` that reads like the game's
published dealing procedure. It yields, in order:

- a *phase*: a tuple of card steps (``Deal`` to a position, ``Burn``) dealt without a decision in
  between; the script receives the cards, in step order, as a tuple. A hand-forming shuffler
  delivers a phase as packets: each run of consecutive steps to the same position is one packet.
- ``Decide(seat, options)``: the script receives the option chosen (a dealer input).
- ``Discard()``: a batch shuffler drops the rest of its deck (the script receives the count).
- ``Reveal(position)`` and ``Trade(seat, card)``: things that happen on the layout, reported to
  the controller (which logs them) without waiting for anything.

and finally returns the round's ``RoundHands`` (cards and decisions; the controller adds wagers
and the banker). Scripts are pure: the same context and the same cards and decisions always give
the same steps, which is what lets the controller replay one after a correction.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, NamedTuple, Union

from tablectl.rounds import RoundHands
from tablectl.rules.configure import RulesConfigError, from_mapping

# positions a card can go to (the log's ``to``)
BURN = "burn"
DEALER = "dealer"
DP = "dp"
BOARD = "board"
DISCARD = "discard"

# why a burn is due (a violation's ``where``)
BURN_SHUFFLE = "shuffle"
BURN_DEALER_CHANGE = "dealer_change"
BURN_WAR = "war"
BURN_HOUSE_RULE = "house_rule"

# a burn that should have been dealt and was not (the value a script receives for it)
MISSING = -1


def seat_to(seat: int) -> str:
    """The position text of a player seat: ``seat:3``."""
    return f"seat:{seat}"


def seat_of(position: str) -> int | None:
    """The seat number of a ``seat:N`` position, else None."""
    if position.startswith("seat:"):
        return int(position[5:])
    return None


@dataclass(frozen=True, slots=True)
class Deal:
    """One card to a position, face up or face down."""

    to: str
    face_up: bool = True
    burn: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class Burn:
    """One card to the burn pile (never shown)."""

    reason: str
    to: str = BURN
    face_up: bool = False
    burn: ClassVar[bool] = True


CardStep = Union[Deal, Burn]
Phase = tuple[CardStep, ...]


@dataclass(frozen=True, slots=True)
class Decide:
    """A decision the procedure waits for: ``seat`` chooses one of ``options``.

    ``banker`` marks the banking player's decision (One Card Poker's Designated Player matching a
    war), as opposed to a player's decision on their own hand.
    """

    seat: int
    options: tuple[str, ...]
    banker: bool = False


@dataclass(frozen=True, slots=True)
class Discard:
    """A hand-forming shuffler discards the rest of its deck (count only)."""


@dataclass(frozen=True, slots=True)
class Reveal:
    """The face-down cards at ``to`` are turned face up."""

    to: str


@dataclass(frozen=True, slots=True)
class Trade:
    """``seat`` gives up ``card`` to the discards (One for the Money's trade)."""

    seat: int
    card: int


@lru_cache(maxsize=4096)
def deal_steps(positions: tuple[str, ...], face_up: bool = True, each: int = 1) -> Phase:
    """``each`` ``Deal`` steps to every position in turn (position by position). Steps are
    immutable values, so a phase is built once per distinct table layout and shared (a round
    start does not build a fresh dataclass per card)."""
    return tuple(Deal(p, face_up) for p in positions for _ in range(each))


@lru_cache(maxsize=4096)
def seat_positions(seats: tuple[int, ...]) -> tuple[str, ...]:
    """The ``seat:N`` positions of ``seats``, in order."""
    return tuple(seat_to(s) for s in seats)


@lru_cache(maxsize=256)
def burn_steps(reason: str, count: int) -> Phase:
    """``count`` burns for ``reason``."""
    return tuple(Burn(reason) for _ in range(count))


@lru_cache(maxsize=1024)
def decide(seat: int, options: tuple[str, ...], banker: bool = False) -> Decide:
    """``Decide(seat, options, banker)``, built once per distinct decision and shared: it is an
    immutable value, like a step, and a round asks for several (a frozen dataclass is slow to
    build)."""
    return Decide(seat, options, banker)


@lru_cache(maxsize=1024)
def reveal(to: str) -> Reveal:
    """``Reveal(to)``, built once per position and shared (as ``decide``)."""
    return Reveal(to)


Instruction = Union[Phase, Decide, Discard, Reveal, Trade]
Script = Generator[Instruction, Any, RoundHands]


class RoundContext(NamedTuple):
    """What a deal script knows about its round (an immutable value, built once per round).

    ``seats``: the player seats in play, clockwise (ascending). ``wagers``: each seat's wagers by
    bet name, or None when the wagers are not known (every seat is then taken to have made the
    game's main bet). ``banker``: the banking player's seat, if the game has one. ``packets``:
    the cards come as packets from a hand-forming shuffler. ``rules``: the game's procedure house
    rules.
    """

    seats: tuple[int, ...]
    wagers: Mapping[int, Mapping[str, int]] | None
    banker: int | None
    packets: bool
    rules: Any

    def has_bet(self, seat: int, bet: str, *, assumed: bool = True) -> bool:
        """Whether ``seat`` placed ``bet``; ``assumed`` is the answer when wagers are unknown."""
        if self.wagers is None:
            return assumed
        return self.wagers.get(seat, {}).get(bet, 0) > 0


@dataclass(frozen=True)
class GameDef:
    """One game as the controller needs it: data plus small pure functions.

    ``devices``: the card-source drivers the game can be dealt from, the preferred first.
    ``decks``: the deck counts it is dealt with. ``max_seats``: player positions at most.
    ``banker``: None, "dp" (a Designated Player) or "player-dealer"; ``bank_every``: hands a
    banker keeps the bank before it moves clockwise. ``wagers``: bets placed before the deal
    (the rules engine's names); ``required``: at least one of these must be placed;
    ``limited``: the bets the table minimum and maximum apply to. ``procedure``: the dataclass of
    the game's procedure house rules (defaults: the published rules, or the house's choice where
    they are silent; settlement rules live in ``tablectl.rules.houserules``). ``shuffle_burns`` /
    ``dealer_change_burns``: burns due after a shuffle and at a dealer change, given the procedure
    rules. ``round_budget``: the most cards a normal round of ``n`` seats takes (what the
    penetration cap keeps in reserve).
    """

    id: str
    title: str
    devices: tuple[str, ...]
    decks: tuple[int, ...]
    max_seats: int
    banker: str | None
    bank_every: int
    wagers: tuple[str, ...]
    required: tuple[str, ...]
    limited: tuple[str, ...]
    procedure: type
    script: Callable[[RoundContext], Script]
    shuffle_burns: Callable[[Any], int]
    dealer_change_burns: Callable[[Any], int]
    round_budget: Callable[[int, Any], int]

    def procedure_rules(self, data: Mapping[str, Any] | None = None) -> Any:
        """The procedure house rules from a config table (omitted keys keep their defaults).

        Raises ``RulesConfigError`` naming the key for an unknown key or a bad value.
        """
        return from_mapping(self.procedure, data or {})

    def procedure_keys(self) -> frozenset[str]:
        """The names of the procedure house rules (config keys, ``-`` or ``_``)."""
        return frozenset(self.procedure.__dataclass_fields__)  # type: ignore[attr-defined]


def no_burns(rules: Any) -> int:
    """For games without burns."""
    return 0


__all__ = [
    "BOARD",
    "BURN",
    "BURN_DEALER_CHANGE",
    "BURN_HOUSE_RULE",
    "BURN_SHUFFLE",
    "BURN_WAR",
    "DEALER",
    "DISCARD",
    "DP",
    "MISSING",
    "Burn",
    "CardStep",
    "Deal",
    "Decide",
    "Discard",
    "GameDef",
    "Instruction",
    "Phase",
    "Reveal",
    "RoundContext",
    "RulesConfigError",
    "Script",
    "Trade",
    "burn_steps",
    "deal_steps",
    "decide",
    "no_burns",
    "reveal",
    "seat_of",
    "seat_positions",
    "seat_to",
]
