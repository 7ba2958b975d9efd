"""Dealer inputs: what the live display and the virtual dealer tell the table controller.

Each input is a small frozen value put in the controller's inbox (``TableController.submit``);
the controller's thread applies it in arrival order with the device events and completes the
caller's future: with None when taken, with ``InputRejected`` (one line: why) when not. A dealer
input taken is logged as what it did (``round_started``, ``decision``, ``identified``,
``resolved``, ...), one refused as ``input_rejected`` (the input's name from ``INPUT_NAMES``, its
fields and why); there is no line for the input itself. ``Snapshot`` only reads the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


class InputRejected(Exception):
    """A dealer input the table cannot take now; the message says why."""


@dataclass(frozen=True, slots=True)
class StartRound:
    """Round start: the player seats in play and (when known) their wagers in cents by bet name.

    ``banker_stake``: what the banking player puts up (cents), where the game has one.
    """

    seats: tuple[int, ...]
    wagers: Mapping[int, Mapping[str, int]] | None = None
    banker_stake: int | None = None


@dataclass(frozen=True, slots=True)
class Decision:
    """A player's (or the banker's) decision, one of the options the procedure offers."""

    seat: int
    decision: str


@dataclass(frozen=True, slots=True)
class BurnNext:
    """The next card out of the shoe is a burn (the same as the device's burn button)."""


@dataclass(frozen=True, slots=True)
class ExposedCard:
    """Correction: the last card dealt was exposed and becomes a burn; its position is dealt again."""


@dataclass(frozen=True, slots=True)
class IdentifyCard:
    """Correction: the card the device misread is ``card`` (0..51)."""

    card: int


@dataclass(frozen=True, slots=True)
class EndRound:
    """The dealer has paid and collected the round's cards."""


@dataclass(frozen=True, slots=True)
class DealerChange:
    """A new dealer takes the table (burns may be due, per the game)."""

    dealer: str


@dataclass(frozen=True, slots=True)
class ShoeChange:
    """The shoe is taken out to be replaced (the next ShoeLoaded starts a new one)."""


@dataclass(frozen=True, slots=True)
class OfferBank:
    """Whether ``seat`` wants the bank (Designated Player button, player-dealer) when it comes."""

    seat: int
    wants: bool = True


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    """The pit enters who sits at ``seat`` (``player``: a player card number or id, checked by
    ``tablectl.table.player_id``), or None: the seat's player left. Taken at any time; it counts
    from the next round to start (the round in play keeps the player it started with)."""

    seat: int
    player: str | None


@dataclass(frozen=True, slots=True)
class Resolve:
    """A supervisor resolves every open violation and releases the hold.

    ``void_round``: the round in play is void (wagers returned; the dealer collects the cards).
    """

    supervisor: str
    note: str = ""
    void_round: bool = False


@dataclass(frozen=True, slots=True)
class SupervisorDenied:
    """A supervisor action the display refused (unknown supervisor, wrong credential): logged as
    ``supervisor_refused`` so that surveillance sees every failed attempt. Changes nothing else.

    ``action``: what was asked (``resolve`` or ``void``); ``reason``: why it was refused (never
    the credential typed).
    """

    supervisor: str
    action: str
    reason: str


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Ask for a fresh ``TableView`` (answered through the future)."""


@dataclass(frozen=True, slots=True)
class Stop:
    """Stop the controller's thread after what is queued before it (or at once: a signal's,
    ``TableController.request_stop``); ``reason`` and ``signal`` go on ``table_stopped``."""

    reason: str = "stop"
    signal: str | None = None


DealerInput = (
    StartRound | Decision | BurnNext | ExposedCard | IdentifyCard | EndRound | DealerChange | ShoeChange | OfferBank | SeatPlayer
    | Resolve
)

INPUT_NAMES: dict[type, str] = {
    StartRound: "start_round",
    Decision: "decision",
    BurnNext: "burn_next",
    ExposedCard: "exposed_card",
    IdentifyCard: "identify_card",
    EndRound: "end_round",
    DealerChange: "dealer_change",
    ShoeChange: "shoe_change",
    OfferBank: "offer_bank",
    SeatPlayer: "seat_player",
    Resolve: "resolve",
    SupervisorDenied: "supervisor_refused",
}
"""The ``input`` field of each input's log line."""
