"""What a restarted controller takes over from its own log: the last round number, the dealer on
duty and the bank's rotation, and the shoe in play when the table stopped between rounds.

A card-reading shoe keeps its cards when the controller restarts (a crash, an update, a power cut
of the table computer alone): without this, the table would come back wanting a new shoe and the
rest of the cards would be wasted. The log has everything needed to go on: which shoe, every card
drawn from it (so composition, penetration and the cap continue exactly), whether the last round
was announced, whether the shoe ran out. :func:`read_back` reads the table's log files from the
newest back to that shoe's start; :func:`fold` is the pure part, over plain records.

The shoe is taken over only when nothing is pending: the table stopped between rounds (ready, or
reshuffle due), with no violation open and the shoe still in the device. Otherwise the reason is
given and the table starts as before, wanting a shoe. Continuous and batch shufflers start every
shoe themselves, so only card-reading shoes are taken over.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from tablectl.cards import card as parse_card
from tablectl.eventlog.logformat import log_files
from tablectl.games.procedure import BURN_DEALER_CHANGE
from tablectl.table import lifecycle as lc

#: lines read back (every other line is skipped before it is parsed)
_WANTED = (
    b'"event":"round_started"', b'"event":"dealt"', b'"event":"burned"', b'"event":"drawn"',
    b'"event":"identified"', b'"event":"shoe_loaded"', b'"event":"shuffle_done"', b'"event":"state"',
    b'"event":"last_round"', b'"event":"shoe_empty"', b'"event":"shoe_change"', b'"event":"violation"',
    b'"event":"resolved"', b'"event":"shoe_resumed"', b'"event":"table_started"', b'"event":"dealer_change"',
    b'"event":"offer_bank"', b'"event":"bank"', b'"event":"round_ended"',
)
_SHOE_STARTS = ("shoe_loaded", "shuffle_done", "shoe_resumed")
_CARD_LINES = ("dealt", "burned", "drawn")
_RESUMABLE = (lc.READY, lc.RESHUFFLE_DUE)


@dataclass(frozen=True, slots=True)
class ShoeInPlay:
    """The shoe a stopped table was dealing from: every card drawn from it, in order (None: a
    misread never identified), and what the table had said about it."""

    shoe: Any
    device: str
    cards: tuple[int | None, ...]
    last_round_announced: bool
    exhausted: bool
    state: str  # ready or reshuffle_due
    dealer_change_burns: int = 0  # burns due at the last dealer change, not dealt yet


@dataclass(frozen=True, slots=True)
class Bank:
    """The bank's rotation when the table stopped: the banking seat, the hands it has banked since
    the bank came to it, and the seats that want the bank."""

    banker: int | None
    hands: int
    wanting: frozenset[int]


@dataclass(frozen=True, slots=True)
class LogState:
    """What the log says about the table when it stopped."""

    last_round: int = 0
    shoe: ShoeInPlay | None = None
    not_resumed: str | None = None  # why a shoe that was in play is not taken over
    dealer: str | None = None  # the dealer on duty
    bank: Bank | None = None  # None: the log read back says nothing of a bank


def read_back(directory: Path, table: str, source: str | None) -> LogState:
    """The table's state at the end of its log in *directory* (a fresh state if there is none).

    Files are read from the newest back until they hold the start of *source*'s shoe in play and
    a round (the shoe in play may have none yet: the round numbers go on from an earlier one).
    """
    directory = Path(directory)
    if not directory.is_dir():
        return LogState()
    chunks: list[list[dict[str, Any]]] = []
    shoe_start = round_seen = False
    for path in reversed(log_files(directory, table).get(table, [])):
        records = list(_wanted(path))
        chunks.append(records)
        shoe_start = shoe_start or any(r["event"] in _SHOE_STARTS and r.get("device") == source for r in records)
        round_seen = round_seen or any(r["event"] == "round_started" for r in records)
        if shoe_start and round_seen:
            break
    return fold((r for chunk in reversed(chunks) for r in chunk), source)


def _wanted(path: Path) -> Iterator[dict[str, Any]]:
    with open(path, "rb") as f:
        for line in f:
            if any(w in line for w in _WANTED):
                try:
                    record = orjson.loads(line)
                except orjson.JSONDecodeError:
                    continue  # a torn last line: the log's recovery deals with it
                if isinstance(record, dict) and isinstance(record.get("event"), str):
                    yield record


def fold(records: Iterable[dict[str, Any]], source: str | None) -> LogState:
    """The state at the end of *records* (log order, from before the shoe in play started)."""
    last_round = 0
    shoe: Any = None
    cards: list[int | None] = []
    misreads: dict[Any, int] = {}  # event_no -> index in cards
    announced = exhausted = removed = False
    deck_ok = True
    state = lc.IDLE
    open_violations = 0
    dealer_change_burns = 0
    dealer: str | None = None
    banker: int | None = None
    banked = 0
    wanting: set[int] | None = None  # None: no line about the bank read
    for r in records:
        event = r["event"]
        if event == "round_started":
            last_round = max(last_round, _int(r.get("round")))
            dealer = r.get("dealer")
            if "bank_wanted" in r:
                banker, banked, wanting = r.get("banker"), _int(r.get("banker_hands")), set(r["bank_wanted"] or ())
        elif event == "dealer_change":
            dealer = r.get("dealer")
            if shoe is not None and r.get("shoe") == shoe:
                dealer_change_burns = _int(r.get("burns_due"))
        elif event == "offer_bank":
            wanting = set() if wanting is None else wanting
            (wanting.add if r.get("wants") else wanting.discard)(r.get("seat"))
        elif event == "bank":
            banker, banked = r.get("seat"), 0
            wanting = set() if wanting is None else wanting
        elif event == "round_ended":
            if r.get("complete") and banker is not None:
                banked += 1
        elif event == "state":
            to = r.get("to")
            if to in lc.BASE_STATES:
                state = to
        elif event == "table_started":  # a new session: what was held before did not carry over
            open_violations = 0
        elif event == "violation":
            open_violations += 1
        elif event == "resolved":
            open_violations = 0
        elif event == "last_round":
            announced = announced or (shoe is not None and r.get("shoe") == shoe)
        elif event == "shoe_change":
            removed = True
        elif r.get("device") != source:
            continue
        elif event in _SHOE_STARTS:
            shoe, deck_ok = r.get("shoe"), r.get("deck_ok", True) is not False
            cards, misreads = [], {}
            announced = exhausted = removed = False
            dealer_change_burns = 0
            if event == "shoe_resumed":
                cards = [None if c is None else int(parse_card(c)) for c in r.get("cards", ())]
                announced, exhausted = bool(r.get("last_round_announced")), bool(r.get("exhausted"))
        elif event in _CARD_LINES and shoe is not None and r.get("shoe") == shoe:
            if dealer_change_burns:  # a due burn dealt, or skipped (the violation clears the rest)
                dealer_change_burns = dealer_change_burns - 1 if r.get("reason") == BURN_DEALER_CHANGE else 0
            if r.get("card") is None:
                misreads[r.get("event_no")] = len(cards)
            cards.append(None if r.get("card") is None else int(parse_card(r["card"])))
        elif event == "identified" and r.get("event_no") in misreads:
            cards[misreads.pop(r.get("event_no"))] = int(parse_card(r["card"]))
        elif event == "shoe_empty":
            exhausted = True
    bank = None if wanting is None else Bank(banker, banked, frozenset(wanting))
    if shoe is None or removed or not deck_ok:
        return LogState(last_round, dealer=dealer, bank=bank)
    if open_violations:
        why = f"shoe {shoe}: a violation was open when the table stopped"
        return LogState(last_round, None, why, dealer, bank)
    if state not in _RESUMABLE:
        why = f"shoe {shoe}: the table stopped {state.replace('_', ' ')}, not between rounds"
        return LogState(last_round, None, why, dealer, bank)
    in_play = ShoeInPlay(shoe, str(source), tuple(cards), announced, exhausted, state, dealer_change_burns)
    return LogState(last_round, in_play, None, dealer, bank)


def _int(value: Any) -> int:
    return value if isinstance(value, int) else 0


__all__ = ["Bank", "LogState", "ShoeInPlay", "fold", "read_back"]
