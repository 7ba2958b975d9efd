"""What a review finds in a card event log, as plain dataclasses (``to_dict`` gives JSON values).

- :class:`Session`: one start of the controller (``log_opened`` or ``recovery``, then
  ``table_started``) up to its stop or crash.
- :class:`RoundRecord`: one round rebuilt from the log — cards by position, burns, decisions,
  corrections, the settlement as logged and as recomputed with the rules engine.
- :class:`ShoeRecord`: one shoe / shuffle / continuous-shuffler load: cards drawn, penetration.
- :class:`DeviceNumbers`: one device's event numbers — range, count, gaps, duplicates.
- :class:`Anomaly`: one thing a reviewer must look at (violation, hold, fault, crash, gap, ...).
"""

from __future__ import annotations

import operator
from array import array
from collections.abc import Iterator, MutableSequence
from dataclasses import dataclass, field
from typing import Any

from tablectl.cards import CARD_OF_TEXT, CARD_TEXT

# --- round status ---------------------------------------------------------------------------------
COMPLETE = "complete"  # the procedure completed and the dealer ended the round
VOIDED = "voided"  # a supervisor voided it
INTERRUPTED = "interrupted"  # the controller stopped or crashed during the round
OPEN = "open"  # the log ends during the round

#: the fields of a ``settled`` line that settlement decides, in order
SETTLED_FIELDS = ("seat", "bet", "stake", "outcome", "pays", "net")
_NET = operator.itemgetter(-1)  # a settled row's net

# --- cards, one byte each ---------------------------------------------------------------------------
#: a shoe's or a continuous shuffler's cards are kept one byte each (the card's number, or this for
#: a card not read or not a card): a long log's hundreds of thousands of cards in a few hundred KB
UNKNOWN_CARD = 255


def card_code(text: str | None) -> int:
    """The byte that stands for the card *text* (:data:`UNKNOWN_CARD` for None: a card not read)."""
    return CARD_OF_TEXT.get(text, UNKNOWN_CARD)  # type: ignore[arg-type]


class CsmEvents:
    """A continuous shuffler's stream, in log order: each card dispensed or returned, as three
    packed arrays (kind, card byte, seq): a day's stream in a few MB, not a tuple per card."""

    DISPENSE, RETURN = 0, 1
    KINDS = ("dispense", "return")

    __slots__ = ("cards", "kinds", "seqs")

    def __init__(self) -> None:
        self.kinds = bytearray()
        self.cards = bytearray()
        self.seqs = array("q")

    def append(self, kind: int, code: int, seq: int) -> None:
        self.kinds.append(kind)
        self.cards.append(code)
        self.seqs.append(seq)

    def __len__(self) -> int:
        return len(self.kinds)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CsmEvents) and (self.kinds, self.cards, self.seqs) == (other.kinds, other.cards, other.seqs)

    def __repr__(self) -> str:
        return f"CsmEvents({list(self)!r})"

    def __iter__(self) -> Iterator[tuple[str, int, int]]:
        """(``"dispense"`` or ``"return"``, card byte, seq) per event."""
        kinds = self.KINDS
        return ((kinds[k], c, s) for k, c, s in zip(self.kinds, self.cards, self.seqs, strict=True))


# --- settlement check -------------------------------------------------------------------------------
MATCH = "match"  # recomputed with the rules engine: identical to what was logged
MISMATCH = "mismatch"  # recomputed and different from what was logged
NO_WAGERS = "no_wagers"  # the round's wagers were not logged: nothing to settle or compare
NOT_SETTLED = "not_settled"  # the procedure did not complete (voided, interrupted, open)
BOTH_FAILED = "both_failed"  # the rules engine refuses the round, and the controller logged that
REPLAY_FAILED = "replay_failed"  # the logged cards and decisions do not follow the game's procedure
NOT_RECOMPUTED = "not_recomputed"  # the game is not known (a log slice without table_started, no --config)


@dataclass(frozen=True)
class TableSetup:
    """What a table config tells review that the log may not: the game, the card device, the house
    rules and pay tables in force (as a config writes them). ``origin`` names where it came from."""

    game: str
    source: str
    source_kind: str
    decks: int
    cap: float
    seats: int
    house_rules: dict[str, Any]
    pay_tables: dict[str, Any]
    origin: str

    @classmethod
    def from_config(cls, config: Any, origin: str) -> TableSetup:
        """From a ``tablectl.config.TableConfig``."""
        return cls(config.game, config.card_device, config.card_driver, config.decks, config.penetration_cap,
                   config.seats, dict(config.house_rules), dict(config.pay_tables), origin)

    @property
    def rules(self) -> dict[str, Any]:
        return {"house_rules": self.house_rules, "pay_tables": self.pay_tables}


@dataclass(slots=True)
class Session:
    """One run of the controller in the log."""

    index: int
    start_seq: int
    start_ts: str
    opened_by: str  # "new" (first line of a new log), "clean" (after a clean shutdown), "recovery" (after a crash)
    game: str | None = None
    decks: int | None = None
    cap: float | None = None
    seats: int | None = None
    source: str | None = None  # the card device's name
    source_kind: str | None = None  # shoe, csm, shuffler
    devices: dict[str, str] = field(default_factory=dict)
    rules: dict[str, Any] | None = None  # house rules and pay tables, when the controller logged them
    end_seq: int | None = None
    end_ts: str | None = None
    ended_by: str = "log end"  # "stopped: <reason>", "crash", "log end"
    rounds: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index, "start_seq": self.start_seq, "start_ts": self.start_ts, "opened_by": self.opened_by,
            "game": self.game, "decks": self.decks, "cap": self.cap, "seats": self.seats, "source": self.source,
            "source_kind": self.source_kind, "devices": self.devices, "rules_logged": self.rules is not None,
            "end_seq": self.end_seq, "end_ts": self.end_ts, "ended_by": self.ended_by, "rounds": self.rounds,
        }


@dataclass(slots=True)
class RoundRecord:
    """One round as the log tells it, and what review made of it."""

    session: int
    number: int
    start_seq: int
    start_ts: str
    seats: list[int]
    wagers: dict[str, dict[str, int]] | None
    banker: int | None
    banker_stake: int | None
    shoe: Any
    dealer: str | None
    last_round: bool = False
    id: str = ""
    end_seq: int | None = None
    end_ts: str | None = None
    status: str = OPEN
    # the round's lines in order, for the replay (a review without replay keeps none: empty)
    events: MutableSequence[Any] = field(default_factory=list)  # its records (tablectl.eventlog.records)
    voided_by: Any = None  # the (first) round_voided record
    # filled by the replay (tablectl.review.replay_round)
    positions: dict[str, list[str | None]] = field(default_factory=dict)
    burns: list[str | None] = field(default_factory=list)
    discards: list[str | None] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    corrections: list[dict[str, Any]] = field(default_factory=list)
    # the logged settlement: per ``settled`` line, its SETTLED_FIELDS (a row, as the rules engine's)
    settled: list[tuple[Any, ...]] = field(default_factory=list)
    recomputed_rows: list[tuple[Any, ...]] | None = None  # (seat, bet, stake, outcome, pays, net) per bet
    settlement: str = NOT_SETTLED
    problems: list[str] = field(default_factory=list)
    violations: list[int] = field(default_factory=list)
    resumed_in: list[int] = field(default_factory=list)  # sessions whose controller went on with it at their start
    holds: int = 0  # stops (held, device fault) that began during it
    hands: Any = None  # the replay's settled ``RoundHands`` (None: not replayed or not settled)
    players: dict[str, str] | None = None  # seat (text) -> the player the pit entered, as the round started
    judge_with: tuple[Any, int | None] | None = None  # (settlement rules, decks) the hands were settled with

    @property
    def recomputed(self) -> list[dict[str, Any]] | None:
        """The settlement the rules engine gives, as ``settled`` lines (None: not recomputed)."""
        if self.recomputed_rows is None:
            if self.settlement == MATCH:  # recomputed elsewhere and found identical to the log
                return self.logged
            return None
        return [dict(zip(SETTLED_FIELDS, row, strict=True)) for row in self.recomputed_rows]

    @property
    def logged(self) -> list[dict[str, Any]]:
        """The logged settlement as ``settled`` lines (their :data:`SETTLED_FIELDS`)."""
        return [dict(zip(SETTLED_FIELDS, row, strict=True)) for row in self.settled]

    @property
    def net(self) -> int:
        """The players' net over the logged settlement (cents; + = the players won); a voided
        round's is 0: its wagers were returned, whatever was settled before the void."""
        if self.status == VOIDED:
            return 0
        try:
            total = sum(map(_NET, self.settled))  # a settled line's net is an integer
        except TypeError:
            total = None
        if type(total) is not int:  # a row not read from a settled line
            total = sum(int(row[-1] or 0) for row in self.settled)
        return total

    def to_dict(self, *, detail: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id, "session": self.session, "round": self.number, "status": self.status,
            "settlement": self.settlement, "start_seq": self.start_seq, "end_seq": self.end_seq,
            "start_ts": self.start_ts, "end_ts": self.end_ts, "shoe": self.shoe, "dealer": self.dealer,
            "seats": self.seats, "banker": self.banker, "banker_stake": self.banker_stake,
            "wagers": self.wagers, "players": self.players or {}, "problems": self.problems,
            "violations": self.violations,
        }
        if self.status == VOIDED:  # a voided round's wagers went back to the players: nothing won or lost
            void = self.voided_by
            returned = getattr(void, "returned", None)
            out["returned"] = returned if returned is not None else (self.wagers or {})
            out["returned_stake"] = getattr(void, "banker_stake", None)
        if detail:
            settled = self.logged
            # a matching settlement is the logged one: the same rows (JSON writes them out twice)
            same = self.recomputed_rows is None and self.settlement == MATCH
            out.update(
                positions=self.positions, burns=self.burns, discards=self.discards, decisions=self.decisions,
                corrections=self.corrections, settled=settled, recomputed=settled if same else self.recomputed,
            )
        return out


@dataclass(slots=True)
class ShoeRecord:
    """One shoe (card-reading shoe), shuffle (batch shuffler) or load (continuous shuffler)."""

    shoe: Any  # the device's shoe / shuffle id
    session: int
    device: str | None
    kind: str | None  # shoe, csm, shuffler
    start_seq: int
    start_ts: str
    decks: int | None = None
    size: int | None = None  # cards in it
    deck_ok: bool | None = None
    cap: float | None = None
    cards_drawn: int = 0
    max_penetration: float | None = None
    cut_card: float | None = None
    last_round_at: int | None = None
    rounds: int = 0
    end_seq: int | None = None
    ended_by: str = "log end"
    cards: bytearray = field(default_factory=bytearray)  # drawn, in order, as card bytes (card_code); undealt order is never logged
    unseen: int = 0  # drawn before a log slice begins, and not named in it (a continuous shuffler's returned cards)
    resumed_in: list[int] = field(default_factory=list)  # sessions whose controller took it over at their start

    @property
    def texts(self) -> list[str | None]:
        """The cards drawn, as texts (None: not read)."""
        return [CARD_TEXT[c] if c < UNKNOWN_CARD else None for c in self.cards]

    def to_dict(self) -> dict[str, Any]:
        return {
            "shoe": self.shoe, "session": self.session, "device": self.device, "kind": self.kind,
            "start_seq": self.start_seq, "start_ts": self.start_ts, "decks": self.decks, "size": self.size,
            "deck_ok": self.deck_ok, "cap": self.cap, "cards_drawn": self.cards_drawn,
            "max_penetration": self.max_penetration, "cut_card": self.cut_card, "last_round_at": self.last_round_at,
            "rounds": self.rounds, "end_seq": self.end_seq, "ended_by": self.ended_by, "resumed_in": self.resumed_in,
        }


@dataclass(slots=True)
class DeviceNumbers:
    """A device's event numbers as logged: each must appear exactly once, without gaps."""

    device: str
    first: int = 0
    last: int = 0
    distinct: int = 0
    gaps: list[list[int]] = field(default_factory=list)  # [from, to] inclusive, still missing at the end
    duplicates: list[dict[str, Any]] = field(default_factory=list)  # {"event_no", "seq", "ts"}
    out_of_order: list[dict[str, Any]] = field(default_factory=list)  # a gap filled later: {"event_no", "seq", "ts"}

    @property
    def missing(self) -> int:
        return sum(b - a + 1 for a, b in self.gaps)

    @property
    def exactly_once(self) -> bool:
        """Every number from ``first`` to ``last`` appears exactly once."""
        return not self.gaps and not self.duplicates and self.distinct == (self.last - self.first + 1 if self.last else 0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "device": self.device, "first": self.first, "last": self.last, "distinct": self.distinct,
            "missing": self.missing, "gaps": self.gaps, "duplicates": self.duplicates,
            "out_of_order": self.out_of_order, "exactly_once": self.exactly_once,
        }


@dataclass(slots=True)
class Anomaly:
    """One finding of the review (not of verification): something a reviewer must look at."""

    kind: str
    seq: int | None
    ts: str | None
    detail: str
    round: str | None = None  # the round id, when it happened in a round
    device: str | None = None
    resolution: str | None = None  # how it was resolved, or "unresolved"
    where: str | None = None  # file:line
    until_seq: int | None = None
    until_ts: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "seq": self.seq, "ts": self.ts, "where": self.where, "round": self.round,
            "device": self.device, "detail": self.detail, "resolution": self.resolution,
            "until_seq": self.until_seq, "until_ts": self.until_ts,
        }
