"""``TableView``: the read-only snapshot of a table for the live display (and the virtual dealer).

Built by the controller's thread after each inbox batch and handed to view listeners. It holds
face-up cards only: a face-down card is ``None`` (a card back), a burn is never shown, and an
undealt card cannot be in it (the controller never knows one). ``recent`` holds the last log
lines with their cards removed unless the line says they are face up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tablectl.eventlog.records import CARD, CARD_LIST, SCHEMA

#: the fields of a log line that hold a card or a list of cards (``card``, ``cards``,
#: ``written_off``); of the same names, an integer is a count and a boolean a flag
_CARD_FIELDS = frozenset(name for fields in SCHEMA.values() for name, (kind, _) in fields.items() if kind in (CARD, CARD_LIST))


@dataclass(frozen=True, slots=True)
class SeatView:
    """One player seat: its wagers, its cards (None = face down), its decisions and the player the
    pit entered for it."""

    seat: int
    in_play: bool = False
    banker: bool = False
    wants_bank: bool = False
    wagers: Mapping[str, int] = field(default_factory=dict)
    cards: tuple[str | None, ...] = ()
    decisions: tuple[str, ...] = ()
    player: str | None = None  # the player id the pit entered for the seat (from the next round)


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the table waits for next.

    ``action``: ``load_shoe``, ``shuffle``, ``wait`` (a shuffle is running), ``start_round``,
    ``deal`` (cards to the positions in ``to``, in order; ``burn`` for a burn), ``packet``
    (a hand-forming shuffler's next packet: ``count`` cards to ``to[0]``), ``decide`` (``seat``
    chooses one of ``options``), ``discard`` (the shuffler discards the rest), ``end_round``
    (pay and collect), ``return_cards`` (``count`` cards still out of the continuous shuffler),
    ``return_wagers`` (a supervisor voided the round: return every wager, then collect the
    cards), ``change_shoe``, ``identify`` (a misread card), ``resolve`` (a supervisor), ``clear_fault``,
    ``none`` (offline).
    """

    action: str
    to: tuple[str, ...] = ()
    count: int = 0
    seat: int | None = None
    options: tuple[str, ...] = ()
    banker: bool = False


@dataclass(frozen=True, slots=True)
class AlarmView:
    """An open violation (``violation`` True: a supervisor must resolve it) or an active fault."""

    kind: str
    round: int | None
    detail: str
    what_to_do: str
    violation: bool = True


@dataclass(frozen=True, slots=True)
class TableView:
    """A snapshot of one table. Amounts are cents; penetration is a fraction (None for a
    continuous shuffler)."""

    table: str
    game: str
    state: str
    round: int | None
    shoe: int | None
    dealer_id: str | None
    seats: tuple[SeatView, ...]
    banker_seat: int | None
    dealer: tuple[str | None, ...]
    board: tuple[str, ...]
    penetration: float | None
    cap: float | None
    cards_drawn: int
    cap_cards: int | None
    last_round: bool
    cards_out: int
    prompt: Prompt
    alarms: tuple[AlarmView, ...]
    settlement: tuple[Mapping[str, Any], ...]
    recent: tuple[Mapping[str, Any], ...]
    processed: Mapping[str, int]
    next_banker: int | None = None  # who banks the next round (the round in play: who banks it)
    shoe_cards: int | None = None  # cards in a full shoe (the penetration's base); None: continuous shuffler
    voided: int | None = None  # the round a supervisor voided, until the next round starts
    banker_stake: int | None = None  # what the banking player put up for the round in play (cents)
    banker_limited: bool = False  # payouts stop once the banking player's stake is used up
    bank_could_pay: int | None = None  # the most the bank could pay on the round in play, when its stake is below it

    @property
    def held(self) -> bool:
        return any(a.violation for a in self.alarms)


def redact(record: Mapping[str, Any]) -> dict[str, Any]:
    """A log line for display: the chain hash and signature dropped, and its cards removed unless
    the line says they are face up (``"face": "up"``). So a face-down line's card (a burn, a hole
    card) is never shown, nor the cards of a line that does not say how they lie: ``shoe_resumed``
    (every card drawn since the shuffle, the hole cards and burns of the round in play among
    them), a ``violation``'s card, an ``input_rejected`` card. Counts (``"cards": 312``) stay."""
    line = {k: v for k, v in record.items() if k not in ("prev", "sig")}
    if line.get("face") != "up":
        for name in _CARD_FIELDS.intersection(line):
            if not isinstance(line[name], int):  # a count (shoe_loaded) or a flag (returned's written_off)
                del line[name]
    return line
