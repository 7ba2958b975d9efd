"""What a restarted controller takes over from its own log: the last round number, the dealer on
duty and the bank's rotation, and the shoe in play and its round when the table stopped.

A card-reading shoe keeps its cards when the controller restarts (a crash, an update, a power cut
of the table computer alone), and so does a continuous shuffler: without this, the table would
come back wanting a new shoe (or the whole shuffler reloaded) and the rest of the cards would be
wasted. The log has everything needed to go on: which shoe, every card drawn from it and not
returned (so composition, penetration, the cap and the cards a shuffler must get back continue
exactly), the cards a supervisor wrote off, whether the last round was announced, whether the
shoe ran out, the burns still due and the dealer's burn marks not used yet, and the round a
supervisor voided when no round has started since (the layout shows VOID until the next round).
:func:`read_back` reads the table's log files from the newest back to that shoe's start;
:func:`fold` is the pure part, over plain records.

The shoe is taken over only when nothing is pending: no violation open (one a supervisor resolved
is over), no misread card waiting to be identified, the round in play (if any) fits its
procedure, the shoe still in the device. Otherwise the reason is given and the table
starts as before, wanting a shoe. A hand-forming shuffler shuffles for every round: there is no
shoe to go on with, and its round in play (``LogState.round_in_play``) is voided at the start
(``tablectl.table.restart.takeover``). A voided round the dealer had not collected yet is over: the table comes back
between rounds, as if the dealer had collected it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from tablectl.cards import card as parse_card
from tablectl.eventlog import verify as ver
from tablectl.eventlog.errors import LogCorruptError, LogInputError
from tablectl.eventlog.logformat import log_files
from tablectl.eventlog.records import problem
from tablectl.games.procedure import (
    BURN_DEALER_CHANGE,
    BURN_SHUFFLE,
    Reveal,
    RoundContext,
    Script,
    Trade,
)
from tablectl.table import lifecycle as lc
from tablectl.table.procedure.cursor import CursorError, RoundCursor
from tablectl.table.procedure.layout import Layout, lay, reveal, take_back, trade_out
from tablectl.table.procedure.validation import CARD_NOT_RETURNED

#: lines read back (every other line is skipped before it is parsed)
_WANTED = (
    b'"event":"round_started"', b'"event":"dealt"', b'"event":"burned"', b'"event":"drawn"',
    b'"event":"identified"', b'"event":"shoe_loaded"', b'"event":"shuffle_done"', b'"event":"state"',
    b'"event":"last_round"', b'"event":"shoe_empty"', b'"event":"shoe_change"', b'"event":"violation"',
    b'"event":"resolved"', b'"event":"shoe_resumed"', b'"event":"table_started"', b'"event":"dealer_change"',
    b'"event":"offer_bank"', b'"event":"bank"', b'"event":"round_ended"', b'"event":"round_voided"',
    b'"event":"decision"', b'"event":"corrected"', b'"event":"settled"', b'"event":"button"',
    b'"event":"burn_next"', b'"event":"returned"', b'"event":"player_seated"', b'"event":"player_left"',
    b'"event":"duty_resumed"', b'"event":"device_backlog"',
)
_SHOE_STARTS = ("shoe_loaded", "shuffle_done", "shoe_resumed")
_CARD_LINES = ("dealt", "burned", "drawn")
_RESUMABLE = (lc.READY, lc.RESHUFFLE_DUE)
#: burns that are not steps of the deal script (due after a shuffle or a dealer change, or extra)
_NOT_SCRIPT_BURNS = frozenset({BURN_SHUFFLE, BURN_DEALER_CHANGE, "extra"})
#: the members of a ``settled`` line after the envelope (what the controller keeps of each)
_SETTLED = ("round", "seat", "bet", "stake", "outcome", "pays", "net")


@dataclass(frozen=True, slots=True)
class ShoeInPlay:
    """The shoe (or continuous shuffler) a stopped table was dealing from: every card drawn from
    it and not returned to it, in order (None: a misread never identified), and what the table had
    said about it."""

    shoe: Any
    device: str
    cards: tuple[int | None, ...]
    last_round_announced: bool
    exhausted: bool
    state: str  # ready or reshuffle_due
    dealer_change_burns: int = 0  # burns due at the last dealer change, not dealt yet
    burn_marks: int = 0  # cards the dealer had marked as burns (button, burn_next), not drawn yet
    round: tuple[dict[str, Any], ...] = ()  # the round in play: its round_started line, then its lines
    written_off: tuple[int, ...] = ()  # cards out that a supervisor excused from coming back
    drawn: int = 0  # cards drawn from it since its start, returned or not


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
    voided: int | None = None  # the round a supervisor voided, when no round has started since
    players: Mapping[int, str] = field(default_factory=dict)  # seat -> the player id the pit entered
    backlog: Mapping[str, int] = field(default_factory=dict)  # device -> the last event of its backlog (not judged)
    #: the round in play when the table stopped (its round_started line, then its lines; () between
    #: rounds or once voided), whether or not the shoe is taken over
    round_in_play: tuple[dict[str, Any], ...] = ()
    #: the last round_started line read back (the seats, wagers and bank it dealt), None: none
    last_start: dict[str, Any] | None = None


def read_back(directory: Path, table: str, source: str | None) -> LogState:
    """The table's state at the end of its log in *directory* (a fresh state if there is none).

    Files are read from the newest back until they hold the start of *source*'s shoe in play and
    a round (the shoe in play may have none yet: the round numbers go on from an earlier one).
    Only what verifies is read back: the files read are checked as ``tablectl review`` checks a
    log (layout, ``seq``, hash links; not the signatures: the controller holds the private key),
    and every line read must have its kind's types (``tablectl.eventlog.records``). Raises
    :class:`LogCorruptError` (``file:line: what``) when they do not.
    """
    directory = Path(directory)
    if not directory.is_dir():
        return LogState()
    chunks: list[list[dict[str, Any]]] = []
    shoe_start = round_seen = False
    files = log_files(directory, table).get(table, [])
    read = 0
    for path in reversed(files):
        read += 1
        records = list(_wanted(path))
        chunks.append(records)
        shoe_start = shoe_start or any(r["event"] in _SHOE_STARTS and r.get("device") == source for r in records)
        round_seen = round_seen or any(r["event"] == "round_started" for r in records)
        if shoe_start and round_seen:
            break
    if read:
        _verify(files[len(files) - read :], from_start=read == len(files))
    return fold((r for chunk in reversed(chunks) for r in chunk), source)


#: what makes the files read back unusable (the end of a log still being written is not)
_CORRUPT = frozenset({ver.MALFORMED, ver.ALTERED, ver.SEQUENCE, ver.BAD_START, ver.BAD_RECOVERY, ver.BAD_OPEN})


def _verify(paths: list[Path], *, from_start: bool) -> None:
    """The chain of the files read back holds (from the log's first line, or as a slice)."""
    try:
        report = ver.verify(paths, None, allow_partial=not from_start)
    except LogInputError:  # nothing but empty files: nothing read back either
        return
    for finding in report.findings:
        if finding.kind in _CORRUPT:
            raise LogCorruptError(f"log corrupt: {finding}")


def _wanted(path: Path) -> Iterator[dict[str, Any]]:
    with open(path, "rb") as f:
        for lineno, line in enumerate(f, start=1):
            if not line.endswith(b"\n"):
                break  # a torn last line: the log's recovery set it aside (or will)
            if any(w in line for w in _WANTED):
                try:
                    record = orjson.loads(line)
                except orjson.JSONDecodeError:
                    raise LogCorruptError(f"log corrupt: {path}:{lineno}: not a JSON line") from None
                why = problem(record)
                if why is not None:
                    raise LogCorruptError(f"log corrupt: {path}:{lineno}: {why}")
                yield record


def fold(records: Iterable[dict[str, Any]], source: str | None) -> LogState:
    """The state at the end of *records* (log order, from before the shoe in play started)."""
    last_round = 0
    shoe: Any = None
    cards: list[list[int | None]] = []  # each card out of the device, as a one-item cell
    misreads: dict[Any, list[int | None]] = {}  # event_no -> the misread card's cell
    returns: set[Any] = set()  # event_nos of returned cards the device could not read
    written_off: Counter[int] = Counter()
    drawn = 0
    announced = exhausted = removed = False
    deck_ok = True
    state = lc.IDLE
    open_violations = 0
    dealer_change_burns = 0
    marks = 0  # burn marks pending: each card drawn from the shoe takes one
    dealer: str | None = None
    banker: int | None = None
    banked = 0
    wanting: set[int] | None = None  # None: no line about the bank read
    between = lc.READY  # the state the round in play started from
    in_play: list[dict[str, Any]] | None = None  # the round in play: round_started, then its lines
    last_start: dict[str, Any] | None = None  # the last round_started line
    voided: int | None = None  # the round voided, until the next one starts
    players: dict[int, str] = {}  # seat -> player id
    backlog: dict[str, int] = {}  # device -> the last event of its backlog (tablectl.table.backlog)
    for r in records:
        event = r["event"]
        if in_play is not None and r.get("round") == in_play[0].get("round"):
            in_play.append(r)
        if event == "round_started":
            last_round = max(last_round, _int(r.get("round")))
            in_play, last_start = [r], r

            voided = None
            dealer = r.get("dealer")
            players = {int(s): p for s, p in (r.get("players") or {}).items()}
            if "bank_wanted" in r:
                banker, banked, wanting = r.get("banker"), _int(r.get("banker_hands")), set(r["bank_wanted"] or ())
        elif event == "device_backlog":
            backlog[str(r.get("device"))] = _int(r.get("last"))
        elif event == "duty_resumed":  # what a restart took over: the next restart goes on from it
            dealer = r.get("dealer")
            if "bank_wanted" in r:
                banker, banked, wanting = r.get("banker"), _int(r.get("banker_hands")), set(r["bank_wanted"] or ())
        elif event == "dealer_change":
            dealer = r.get("dealer")
            if shoe is not None and r.get("shoe") == shoe:
                dealer_change_burns = _int(r.get("burns_due"))
        elif event == "player_seated":
            players[_int(r.get("seat"))] = str(r.get("player"))
        elif event == "player_left":
            players.pop(_int(r.get("seat")), None)
        elif event == "offer_bank":
            wanting = set() if wanting is None else wanting
            (wanting.add if r.get("wants") else wanting.discard)(_int(r.get("seat")))
        elif event == "bank":
            banker, banked = r.get("seat"), 0
            wanting = set() if wanting is None else wanting
        elif event == "round_ended":
            in_play = None
            marks = 0
            if r.get("complete") and banker is not None:
                banked += 1
        elif event == "round_voided":
            voided = _int(r.get("round")) or None
        elif event == "state":
            to = r.get("to")
            if to in lc.BASE_STATES:
                state = to
                if to in _RESUMABLE:
                    between = to
        elif event == "table_started":  # a new session: what was held before did not carry over
            open_violations = 0
        elif event == "violation":
            open_violations += 1
        elif event == "resolved":
            open_violations = 0
            if CARD_NOT_RETURNED in (r.get("kinds") or ()):
                written_off = Counter(c for c, in cards if c is not None)
        elif event == "last_round":
            announced = announced or (shoe is not None and r.get("shoe") == shoe)
        elif event == "shoe_change":
            removed = True
        elif event == "burn_next":
            marks = _int(r.get("marks"))
        elif r.get("device") != source:
            continue
        elif event == "button":
            marks += 1 if r.get("burn_mark") else 0
        elif event in _SHOE_STARTS:
            shoe, deck_ok = r.get("shoe"), r.get("deck_ok", True) is not False
            cards, misreads, returns, written_off, drawn = [], {}, set(), Counter(), 0
            announced = exhausted = removed = False
            dealer_change_burns = marks = 0
            if event == "shoe_resumed":
                cards = [[None if c is None else int(parse_card(c))] for c in r.get("cards", ())]
                written_off = Counter(int(parse_card(c)) for c in r.get("written_off") or ())
                drawn = _int(r.get("drawn")) or len(cards)
                announced, exhausted = bool(r.get("last_round_announced")), bool(r.get("exhausted"))
                dealer_change_burns = list(r.get("burns_due") or ()).count(BURN_DEALER_CHANGE)
                marks = _int(r.get("burn_marks"))
        elif event in _CARD_LINES and shoe is not None and r.get("shoe") == shoe:
            marks = max(0, marks - 1)
            if dealer_change_burns:  # a due burn dealt, or skipped (the violation clears the rest)
                dealer_change_burns = dealer_change_burns - 1 if r.get("reason") == BURN_DEALER_CHANGE else 0
            drawn += 1
            cell = [None if r.get("card") is None else int(parse_card(r["card"]))]
            if cell[0] is None:
                misreads[r.get("event_no")] = cell
            cards.append(cell)
        elif event == "returned" and shoe is not None and r.get("shoe") == shoe:
            if r.get("card") is None:
                returns.add(r.get("event_no"))
            else:
                _take_back(cards, written_off, int(parse_card(r["card"])))
        elif event == "identified" and r.get("event_no") in misreads:
            misreads.pop(r.get("event_no"))[0] = int(parse_card(r["card"]))
        elif event == "identified" and r.get("event_no") in returns:
            returns.discard(r.get("event_no"))
            _take_back(cards, written_off, int(parse_card(r["card"])))
        elif event == "shoe_empty":
            exhausted = True
    if voided is not None and voided == last_round and state in (lc.IN_ROUND, lc.SETTLING):
        # voided, not collected yet: over, as if the dealer had collected it (round_ended, complete)
        in_play, marks, state = None, 0, between
        banked += 1 if banker is not None else 0
    bank = None if wanting is None else Bank(banker, banked, frozenset(wanting))
    left = tuple(in_play) if in_play and state in (lc.IN_ROUND, lc.SETTLING) and voided != in_play[0].get("round") else ()
    if shoe is None or removed or not deck_ok:
        return LogState(last_round, dealer=dealer, bank=bank, voided=voided, players=players, backlog=backlog, round_in_play=left,
                        last_start=last_start)
    if open_violations:
        return LogState(last_round, None, f"shoe {shoe}: a violation was open when the table stopped", dealer, bank, voided, players,
                        backlog, left, last_start)
    round_in_play: tuple[dict[str, Any], ...] = ()
    if state not in _RESUMABLE:
        why = _round_not_resumed(in_play, shoe) if state in (lc.IN_ROUND, lc.SETTLING) else "not between rounds"
        if why is not None:
            return LogState(last_round, None, f"shoe {shoe}: the table stopped {state.replace('_', ' ')}, {why}", dealer, bank, voided,
                            players, backlog, left, last_start)
        round_in_play, state = tuple(in_play or ()), between
    taken = ShoeInPlay(
        shoe, str(source), tuple(c for c, in cards), announced, exhausted, state, dealer_change_burns, marks,
        round_in_play, tuple(sorted(written_off.elements())), drawn,
    )
    return LogState(last_round, taken, None, dealer, bank, voided, players, backlog, left, last_start)


def _take_back(cards: list[list[int | None]], written_off: Counter[int], card: int) -> None:
    """``card`` went back into the continuous shuffler: the first copy of it out is back in."""
    for i, (c,) in enumerate(cards):
        if c == card:
            del cards[i]
            break
    if written_off[card]:
        written_off[card] -= 1


def _round_not_resumed(records: list[dict[str, Any]] | None, shoe: Any) -> str | None:
    """Why the round in play cannot be taken over (None: it can). A round with a violation still
    open (a ``resolved`` line closes every one before it) or a misread card no ``identified``
    line named is left to the supervisor, as is one whose lines the read-back lacks."""
    if not records or records[0]["event"] != "round_started" or records[0].get("shoe") != shoe:
        return "and its round's start is not in the log read back"
    number = records[0].get("round")
    open_kind: str | None = None
    misread: set[tuple[Any, Any]] = set()  # (device, event_no) of each card not identified yet
    for r in records:
        event = r["event"]
        if event == "violation":
            open_kind = open_kind or str(r.get("kind"))
        elif event == "resolved":
            open_kind = None
        elif event in _CARD_LINES and r.get("card") is None:
            misread.add((r.get("device"), r.get("event_no")))
        elif event == "identified":
            misread.discard((r.get("device"), r.get("event_no")))
    if open_kind is not None:
        return f"round {number} has a violation open ({open_kind}): the supervisor deals with it"
    if misread:
        return f"round {number} has a misread card: the supervisor deals with it"
    return None


@dataclass(slots=True)
class RoundRebuilt:
    """The round in play as its logged lines leave it: the procedure's cursor (the next card goes
    where it would have gone), the cards by position, each seat's decisions and the settlement
    already logged."""

    cursor: RoundCursor
    layout: Layout
    decisions: dict[int, list[str]]
    settlement: list[dict[str, Any]]


def rebuild_round(
    records: Sequence[dict[str, Any]], script: Callable[[RoundContext], Script], ctx: RoundContext
) -> RoundRebuilt:
    """Walk the round's logged lines (``ShoeInPlay.round``) through its game's deal script, in log
    order, as the controller placed them (a misread card, logged null, is the card its
    ``identified`` line names from there on). Raises ``CursorError`` if they do not fit the script."""
    cursor = RoundCursor(script, ctx)
    layout: Layout = {}
    decisions: dict[int, list[str]] = {s: [] for s in ctx.seats}
    settlement: list[dict[str, Any]] = []
    misread: set[tuple[Any, Any]] = set()  # (device, event_no) of each misread card the procedure took
    for r in records[1:]:
        event = r["event"]
        if event == "dealt" or (event == "burned" and r.get("reason") not in _NOT_SCRIPT_BURNS):
            card = None if r["card"] is None else int(parse_card(r["card"]))
            step = cursor.place(card)
            if step.to != r.get("to"):
                where = f"seq {r.get('seq')}: {r['card']} was logged to {r.get('to')}"
                raise CursorError(f"{where}; the procedure puts it to {step.to}")
            if not step.burn:
                lay(layout, step.to, card, step.face_up)
            if card is None:
                misread.add((r.get("device"), r.get("event_no")))
        elif event == "identified" and (r.get("device"), r.get("event_no")) in misread:
            misread.discard((r.get("device"), r.get("event_no")))
            card = int(parse_card(r["card"]))
            step = cursor.identify(card)
            held = next((entry for entry in layout.get(step.to, ()) if entry[0] is None), None)
            if held is not None:
                held[0] = card
        elif event == "decision":
            asked = cursor.decide(r["seat"], r["decision"])
            if not asked.banker:
                decisions.setdefault(r["seat"], []).append(r["decision"])
        elif event == "corrected":
            step, taken = cursor.retract()
            if taken is not None:
                take_back(layout, step.to, taken)
        elif event == "settled":
            settlement.append({k: r.get(k) for k in _SETTLED})
        for effect in cursor.take_effects() if cursor.effects else ():
            if isinstance(effect, Reveal):
                reveal(layout, effect.to)
            elif isinstance(effect, Trade):
                trade_out(layout, effect.seat, effect.card)
    return RoundRebuilt(cursor, layout, decisions, settlement)


def _int(value: Any) -> int:
    return value if isinstance(value, int) else 0


__all__ = ["Bank", "LogState", "RoundRebuilt", "ShoeInPlay", "fold", "read_back", "rebuild_round"]
