"""The types of a card event log's records, as review and the controller's read-back use them.

One schema per event kind (:data:`SCHEMA`): the fields review, replay, the reports and the
read-back at a restart read from it, each with the type the controller writes, and whether every
line of that kind carries it. A record that does not match is not a record the controller wrote:
review reports it as an integrity failure at its file and line (``tablectl review`` exit 3) and
uses nothing of it; the read-back at a restart refuses the log. Fields no one reads are free (the
log takes any JSON values); every record has the envelope (``seq``, ``event``, ``ts``, ``table``).

Two forms of the same schema:

- :func:`problem` says what is wrong with one parsed record (a dict), or None, in one line;
- :data:`RECORDS` holds, per event kind, a ``msgspec`` Struct made from the schema (the fields
  as attributes; ``from`` is ``from_``; an absent optional field is None). :func:`decode_block`
  parses a block of lines into them and checks every field's type in one pass in C, with no
  dict built: what review reads the log with. A kind the schema does not name is read by
  :func:`read_line` alone, as an :class:`Other` (its envelope and name).
"""

from __future__ import annotations

import keyword
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import chain
from typing import Annotated, Any, Literal, Optional, Union

import msgspec
import orjson

from tablectl.cards import CARD_OF_TEXT


@dataclass(frozen=True)
class Type:
    """A field's type: what it is called in a message, a test of a parsed value, and the same
    type as an annotation for ``msgspec``."""

    label: str
    test: Callable[[Any], bool]
    annotation: Any


def _is_int(x: Any) -> bool:
    return type(x) is int


def _card_ok(x: Any) -> bool:
    return x is None or (type(x) is str and x in CARD_TEXTS)


# Each test of a container is a few C-level passes (``map``, ``set``), not a loop in Python: the
# read-back at a restart checks every line of the log with them.
_INT = frozenset({int})
_STR = frozenset({str})
_DICT = frozenset({dict})
_CARD_TYPES = frozenset({str, type(None)})


def _int_list(x: Any) -> bool:
    return type(x) is list and _INT.issuperset(map(type, x))


def _str_list(x: Any) -> bool:
    return type(x) is list and _STR.issuperset(map(type, x))


def _card_list(x: Any) -> bool:
    return type(x) is list and _CARD_TYPES.issuperset(map(type, x)) and _CARDS_OR_NONE.issuperset(x)


def _names(x: Any) -> bool:
    return type(x) is dict and _STR.issuperset(map(type, x.values()))


def _counts(x: Any) -> bool:
    return type(x) is dict and _INT.issuperset(map(type, x.values()))


def _wagers(x: Any) -> bool:
    """``{"<seat>": {"<bet>": cents}}``"""
    if x is None:
        return True
    if type(x) is not dict or not _DICT.issuperset(map(type, x.values())):
        return False
    return _INT.issuperset(map(type, chain.from_iterable(map(dict.values, x.values()))))


#: every card text the controller writes (``QH``, ``TD``; ``10D`` as the cards module reads it)
CARD_TEXTS = frozenset(CARD_OF_TEXT)
_CARDS_OR_NONE = CARD_TEXTS | {None}

_CARD = Literal[tuple(sorted(CARD_TEXTS))]  # type: ignore[valid-type]
#: the largest integer a log line holds (orjson writes 64-bit integers)
LOG_INT_MAX = (1 << 63) - 1
#: an integer as the controller writes them (64 bits; a JSON number may have any number of digits)
_I64 = Annotated[int, msgspec.Meta(ge=-LOG_INT_MAX - 1, le=LOG_INT_MAX)]

INT = Type("an integer", _is_int, _I64)
STR = Type("a string", lambda x: type(x) is str, str)
BOOL = Type("true or false", lambda x: type(x) is bool, bool)
NUM = Type("a number", lambda x: type(x) is int or type(x) is float, Union[_I64, float])
OPT_INT = Type("an integer or null", lambda x: x is None or type(x) is int, Optional[_I64])
OPT_STR = Type("a string or null", lambda x: x is None or type(x) is str, Optional[str])
OPT_NUM = Type("a number or null", lambda x: x is None or type(x) is int or type(x) is float, Union[_I64, float, None])
SHOE = Type("a shoe id (an integer, a string or null)", lambda x: x is None or type(x) is int or type(x) is str,
            Union[_I64, str, None])
CARD = Type("a card (a card text such as QH, or null)", _card_ok, Optional[_CARD])
INT_LIST = Type("a list of integers", _int_list, list[_I64])
STR_LIST = Type("a list of strings", _str_list, list[str])
CARD_LIST = Type("a list of cards", _card_list, list[Optional[_CARD]])
NAMES = Type("an object of strings", _names, dict[str, str])
COUNTS = Type("an object of integers", _counts, dict[str, _I64])
OBJECT = Type("an object", lambda x: type(x) is dict, dict[str, Any])
OPT_OBJECT = Type("an object or null", lambda x: x is None or type(x) is dict, Optional[dict[str, Any]])
WAGERS = Type("wagers by seat ({seat: {bet: cents}}) or null", _wagers, Optional[dict[str, dict[str, _I64]]])

REQUIRED, OPTIONAL = True, False
Fields = Mapping[str, tuple[Type, bool]]

ENVELOPE: Fields = {"seq": (INT, REQUIRED), "event": (STR, REQUIRED), "ts": (STR, REQUIRED), "table": (STR, REQUIRED)}

_DEVICE: Fields = {"device": (STR, REQUIRED), "event_no": (INT, REQUIRED)}
_CARD_LINE: Fields = {
    "card": (CARD, REQUIRED), "to": (STR, REQUIRED), "shoe": (SHOE, REQUIRED), "round": (OPT_INT, REQUIRED),
    **_DEVICE, "penetration": (OPT_NUM, OPTIONAL), "reason": (OPT_STR, OPTIONAL), "packet": (INT, OPTIONAL),
    "face": (OPT_STR, OPTIONAL),
}
_SHOE_START: Fields = {
    "shoe": (SHOE, REQUIRED), "decks": (INT, REQUIRED), "cards": (INT, REQUIRED), "deck_ok": (BOOL, REQUIRED), **_DEVICE,
}
_SNAPSHOT: Fields = {"event_nos": (COUNTS, OPTIONAL)}

#: event kind -> {field: (type, required)}: what is read of each kind (docs/table.md, docs/events.md)
SCHEMA: dict[str, Fields] = {
    "dealt": _CARD_LINE, "burned": _CARD_LINE, "drawn": _CARD_LINE,
    "returned": {"card": (CARD, REQUIRED), "shoe": (SHOE, OPTIONAL), **_DEVICE, "to": (OPT_STR, OPTIONAL),
                 "face": (OPT_STR, OPTIONAL), "written_off": (BOOL, OPTIONAL)},
    "identified": {"card": (CARD, REQUIRED), "to": (STR, REQUIRED), "shoe": (SHOE, OPTIONAL), "round": (OPT_INT, REQUIRED), **_DEVICE,
                   "face": (OPT_STR, OPTIONAL), "written_off": (BOOL, OPTIONAL)},
    "discarded": {"count": (INT, REQUIRED), "shoe": (SHOE, OPTIONAL), "round": (OPT_INT, REQUIRED), **_DEVICE},
    "decision": {"round": (INT, REQUIRED), "seat": (INT, REQUIRED), "decision": (STR, REQUIRED), "banker": (BOOL, OPTIONAL)},
    "corrected": {"round": (INT, REQUIRED), "card": (CARD, REQUIRED), "from": (STR, REQUIRED), "to": (STR, REQUIRED),
                  "reason": (OPT_STR, OPTIONAL)},
    "traded": {"round": (INT, REQUIRED), "seat": (INT, REQUIRED), "card": (CARD, REQUIRED), "from": (STR, REQUIRED)},
    "revealed": {"round": (OPT_INT, OPTIONAL), "to": (OPT_STR, OPTIONAL), "cards": (CARD_LIST, OPTIONAL)},
    "settled": {"round": (INT, REQUIRED), "seat": (INT, REQUIRED), "bet": (STR, REQUIRED), "stake": (INT, REQUIRED),
                "outcome": (STR, REQUIRED), "pays": (STR, REQUIRED), "net": (INT, REQUIRED)},
    "round_started": {
        "round": (INT, REQUIRED), "seats": (INT_LIST, REQUIRED), "wagers": (WAGERS, REQUIRED), "banker": (OPT_INT, REQUIRED),
        "banker_stake": (OPT_INT, REQUIRED), "shoe": (SHOE, REQUIRED), "dealer": (OPT_STR, REQUIRED),
        "last_round": (BOOL, REQUIRED), "banker_hands": (INT, OPTIONAL), "bank_wanted": (INT_LIST, OPTIONAL),
        "players": (NAMES, OPTIONAL),
    },
    "round_ended": {"round": (INT, REQUIRED), "complete": (BOOL, REQUIRED)},
    "round_voided": {"round": (INT, REQUIRED), "reason": (OPT_STR, OPTIONAL), "returned": (WAGERS, OPTIONAL),
                     "banker_stake": (OPT_INT, OPTIONAL)},
    "round_resumed": {"round": (INT, REQUIRED)},
    "state": {"from": (STR, REQUIRED), "to": (STR, REQUIRED), "round": (OPT_INT, OPTIONAL)},
    "violation": {"kind": (STR, REQUIRED), "round": (OPT_INT, REQUIRED), "detail": (STR, REQUIRED),
                  "device": (OPT_STR, OPTIONAL), "event_no": (OPT_INT, OPTIONAL)},
    "resolved": {"supervisor": (STR, REQUIRED), "violations": (INT_LIST, REQUIRED), "kinds": (STR_LIST, OPTIONAL),
                 "round": (OPT_INT, OPTIONAL), "void_round": (BOOL, OPTIONAL), "note": (OPT_STR, OPTIONAL),
                 "unlisted": (COUNTS, OPTIONAL)},
    "fault": {"fault": (STR, REQUIRED), "cleared": (BOOL, REQUIRED), "detail": (OPT_STR, OPTIONAL), **_DEVICE,
              "round": (OPT_INT, OPTIONAL)},
    "shoe_loaded": _SHOE_START,
    "shuffle_done": {**_SHOE_START, "missing": (COUNTS, OPTIONAL), "extra": (COUNTS, OPTIONAL)},
    "shoe_change": {"shoe": (SHOE, REQUIRED)},
    "shoe_resumed": {
        "shoe": (SHOE, REQUIRED), "cards": (CARD_LIST, REQUIRED), "drawn": (INT, OPTIONAL), "penetration": (OPT_NUM, OPTIONAL),
        "device": (STR, REQUIRED), "written_off": (CARD_LIST, OPTIONAL), "burns_due": (STR_LIST, OPTIONAL),
        "burn_marks": (INT, OPTIONAL), "last_round_announced": (BOOL, OPTIONAL), "exhausted": (BOOL, OPTIONAL),
    },
    "cut_card": {"shoe": (SHOE, REQUIRED), "penetration": (OPT_NUM, REQUIRED), **_DEVICE},
    "last_round": {"round": (INT, REQUIRED), "shoe": (SHOE, REQUIRED), "penetration": (OPT_NUM, OPTIONAL)},
    "shuffle_started": {"shoe": (SHOE, OPTIONAL), **_DEVICE},
    "shoe_empty": {"shoe": (SHOE, OPTIONAL), **_DEVICE},
    "button": {"burn_mark": (BOOL, OPTIONAL), **_DEVICE},
    "device_event": _DEVICE,
    "burn_next": {"round": (OPT_INT, OPTIONAL), "marks": (INT, REQUIRED)},
    "device_identified": {"name": (STR, REQUIRED), "kind": (OPT_STR, OPTIONAL), "model": (OPT_STR, OPTIONAL),
                          "serial": (OPT_STR, OPTIONAL), "firmware": (OPT_STR, OPTIONAL)},
    "device_adopted": {**_DEVICE, "detail": (OPT_STR, OPTIONAL)},
    "device_backlog": {"device": (STR, REQUIRED), "first": (INT, REQUIRED), "last": (INT, REQUIRED),
                       "events": (INT, REQUIRED), "detail": (OPT_STR, OPTIONAL)},
    "duty_resumed": {"dealer": (OPT_STR, OPTIONAL)},
    "dealer_change": {"dealer": (STR, REQUIRED), "previous": (OPT_STR, OPTIONAL), "burns_due": (INT, REQUIRED),
                      "shoe": (SHOE, OPTIONAL)},
    "offer_bank": {"seat": (INT, REQUIRED), "wants": (BOOL, REQUIRED)},
    "player_seated": {"seat": (INT, REQUIRED), "player": (STR, REQUIRED), "previous": (OPT_STR, OPTIONAL),
                      "round": (INT, REQUIRED)},
    "player_left": {"seat": (INT, REQUIRED), "player": (STR, REQUIRED), "round": (INT, REQUIRED)},
    "bank": {"seat": (OPT_INT, REQUIRED), "previous": (OPT_INT, OPTIONAL), "round": (INT, OPTIONAL)},
    "table_started": {
        "game": (STR, REQUIRED), "decks": (INT, REQUIRED), "cap": (NUM, REQUIRED), "seats": (INT, REQUIRED),
        "source": (STR, REQUIRED), "source_kind": (STR, REQUIRED), "devices": (OBJECT, OPTIONAL),
        "house_rules": (OBJECT, OPTIONAL), "pay_tables": (OBJECT, OPTIONAL),
        "supervisors": (STR_LIST, OPTIONAL), "demo_supervisor": (BOOL, OPTIONAL),
    },
    "table_stopped": {"reason": (STR, REQUIRED), "round": (OPT_INT, OPTIONAL), "signal": (OPT_STR, OPTIONAL),
                      "detail": (OPT_STR, OPTIONAL)},
    "alarm": {"kind": (STR, REQUIRED), "round": (OPT_INT, OPTIONAL), "penetration": (OPT_NUM, OPTIONAL)},
    "internal_error": {"error": (STR, OPTIONAL), "what": (STR, OPTIONAL)},
    "supervisor_refused": {
        "supervisor": (STR, OPTIONAL), "action": (STR, OPTIONAL), "reason": (STR, OPTIONAL),
        "state": (STR, OPTIONAL), "round": (OPT_INT, OPTIONAL),
    },
    "log_opened": {**_SNAPSHOT, "previous": (OPT_STR, OPTIONAL)},
    "rotated": {**_SNAPSHOT, "previous": (OPT_STR, OPTIONAL)},
    "checkpoint": {**_SNAPSHOT, "reason": (STR, REQUIRED)},
    "recovery": {
        **_SNAPSHOT, "last_seq": (INT, REQUIRED), "last_event": (OPT_STR, OPTIONAL), "unsigned": (INT, OPTIONAL),
        "last_checkpoint_seq": (INT, OPTIONAL), "torn": (OPT_OBJECT, OPTIONAL),
    },
}


def _kind(x: Any) -> str:
    if x is None:
        return "null"
    return {bool: "true/false", int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "an object"}.get(type(x), type(x).__name__)


def problem(record: Any) -> str | None:
    """What makes *record* (a parsed line) not a record of its kind, in one line; None if nothing."""
    if type(record) is not dict:
        return f"not a JSON object but {_kind(record)}"
    event = record.get("event")
    fields = {**ENVELOPE, **SCHEMA.get(event, {})} if type(event) is str else ENVELOPE
    what = event if type(event) is str else "record"
    for name, (kind, required) in fields.items():
        if name not in record:
            if required:
                return f"{what}: field '{name}' is missing"
            continue
        value = record[name]
        if not kind.test(value):
            shown = orjson.dumps(value)[:40].decode("utf-8", "replace")
            return f"{what}: field '{name}' is {_kind(value)} ({shown}), not {kind.label}"
    return None


#: kinds the controller writes whose fields no one reads (their envelope is checked)
ENVELOPE_ONLY = ("input_rejected", "shoe_not_resumed")


class Envelope(msgspec.Struct, kw_only=True, gc=False):
    """What every record carries (its ``event`` is the kind's, a class attribute). Not tracked by
    the garbage collector: a record holds only values parsed from its line, never itself."""

    seq: _I64
    ts: str
    table: str


class Other(Envelope, kw_only=True, gc=False):
    """A record of a kind the schema does not name (a later controller's): its envelope."""

    event: str


def _struct(kind: str, fields: Fields) -> type[Envelope]:
    required = [(_attr(n), t.annotation) for n, (t, r) in fields.items() if r]
    optional = [(_attr(n), t.annotation, None) for n, (t, r) in fields.items() if not r]
    return msgspec.defstruct(  # type: ignore[no-any-return]
        kind, required + optional, bases=(Envelope,), tag_field="event", tag=kind, kw_only=True, gc=False,
        rename={_attr(n): n for n in fields if _attr(n) != n} or None, namespace={"event": kind}, module=__name__,
    )


def _attr(name: str) -> str:
    return name + "_" if keyword.iskeyword(name) else name


#: event kind -> its Struct: ``RECORDS["dealt"]``'s instances have ``.card``, ``.to``, ``.round``...
RECORDS: dict[str, type[Envelope]] = {kind: _struct(kind, fields) for kind, fields in SCHEMA.items()}
RECORDS.update({kind: _struct(kind, {}) for kind in ENVELOPE_ONLY})
Record = Union[tuple(RECORDS.values())]  # type: ignore[valid-type]
_BLOCK = msgspec.json.Decoder(list[Record])  # type: ignore[valid-type]
_LINE = msgspec.json.Decoder(Record)


#: what :func:`decode_block` raises for a text that is not an array of records: not JSON, not a
#: record of a kind in :data:`RECORDS`, a field of the wrong type (``msgspec.DecodeError``); a
#: string that is not UTF-8; an array or object nested deeper than the parser goes
NOT_RECORDS = (msgspec.DecodeError, UnicodeDecodeError, RecursionError)


def decode_block(text: bytes) -> list[Envelope]:
    """The records of a JSON array of lines (raises one of :data:`NOT_RECORDS` if it is not one)."""
    return _BLOCK.decode(text)  # type: ignore[no-any-return]


def read_line(line: bytes) -> Envelope | str:
    """One line's record, or what makes it not one (in one line)."""
    try:
        return _LINE.decode(line)  # type: ignore[no-any-return]
    except NOT_RECORDS as e:
        error = e
    try:
        record = orjson.loads(line)
    except orjson.JSONDecodeError:
        return f"not JSON: {line[:60].decode('utf-8', 'replace')!r}"
    why = problem(record)
    if why is not None:
        return why
    event = record["event"]
    if event in RECORDS:  # what problem() lets through and msgspec does not (an integer past 64 bits)
        return f"{event}: {error}"
    try:
        return msgspec.convert({name: record[name] for name in ENVELOPE}, Other)
    except msgspec.ValidationError as e:
        return f"{event}: {e}"


def from_dict(record: dict[str, Any]) -> Envelope:
    """*record* (a line as a dict) as :func:`read_line` reads it (raises ValueError if it is not one)."""
    out = read_line(orjson.dumps(record))
    if isinstance(out, str):
        raise ValueError(out)
    return out


__all__ = ["CARD_TEXTS", "LOG_INT_MAX", "NOT_RECORDS", "RECORDS", "SCHEMA", "Envelope", "Other", "decode_block", "from_dict", "problem",
           "read_line"]
