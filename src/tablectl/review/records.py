"""The types of a card event log's records, as review and the controller's read-back use them.

One schema per event kind (:data:`SCHEMA`): the fields review, replay, the reports and the
read-back at a restart read from it, each with the type the controller writes, and whether every
line of that kind carries it. A record that does not match is not a record the controller wrote:
review reports it as an integrity failure at its file and line (``tablectl review`` exit 3) and
uses nothing of it; the read-back at a restart refuses the log. Fields no one reads, and event
kinds the schema does not name, are free (the log takes any JSON values); every record has the
envelope (``seq``, ``event``, ``ts``, ``table``).

Two forms of the same schema:

- :func:`problem` says what is wrong with one record (or None), in one line;
- :data:`CHECKERS` holds, per event kind, a function ``record -> bool`` compiled from the schema
  to one expression (no loop over the fields, no message): the fast path, called for every
  line of a block with C-level ``map`` (``LogReader``), which falls back to :func:`problem`
  line by line only when a block holds a record that does not match.
"""

from __future__ import annotations

import operator
import re
from itertools import chain
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from tablectl.cards import DECK_SIZE, text


@dataclass(frozen=True)
class Type:
    """A field's type: what it is called in a message, a test, and the same test as an expression
    over ``x`` for the compiled checkers."""

    label: str
    test: Callable[[Any], bool]
    expr: str


def _is_int(x: Any) -> bool:
    return type(x) is int


def _card_ok(x: Any) -> bool:
    return x is None or (type(x) is str and x in CARD_TEXTS)


# Each test of a container is a few C-level passes (``map``, ``set``), not a loop in Python: a
# round_started line's wagers and seats are checked on every round.
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
CARD_TEXTS = frozenset({text(c) for c in range(DECK_SIZE)} | {"10" + t[1] for t in (text(c) for c in range(DECK_SIZE)) if t[0] == "T"})
_CARDS_OR_NONE = CARD_TEXTS | {None}

INT = Type("an integer", _is_int, "type(x) is int")
STR = Type("a string", lambda x: type(x) is str, "type(x) is str")
BOOL = Type("true or false", lambda x: type(x) is bool, "type(x) is bool")
NUM = Type("a number", lambda x: type(x) is int or type(x) is float, "(type(x) is float or type(x) is int)")
OPT_INT = Type("an integer or null", lambda x: x is None or type(x) is int, "(x is None or type(x) is int)")
OPT_STR = Type("a string or null", lambda x: x is None or type(x) is str, "(x is None or type(x) is str)")
OPT_NUM = Type("a number or null", lambda x: x is None or type(x) is int or type(x) is float,
               "(x is None or type(x) is float or type(x) is int)")
SHOE = Type("a shoe id (an integer, a string or null)", lambda x: x is None or type(x) is int or type(x) is str,
            "(type(x) is int or x is None or type(x) is str)")
CARD = Type("a card (a card text such as QH, or null)", _card_ok, "(x is None or (type(x) is str and x in CARD_TEXTS))")
INT_LIST = Type("a list of integers", _int_list, "_int_list(x)")
STR_LIST = Type("a list of strings", _str_list, "_str_list(x)")
CARD_LIST = Type("a list of cards", _card_list, "_card_list(x)")
COUNTS = Type("an object of integers", _counts, "_counts(x)")
OBJECT = Type("an object", lambda x: type(x) is dict, "type(x) is dict")
WAGERS = Type("wagers by seat ({seat: {bet: cents}}) or null", _wagers, "_wagers(x)")

REQUIRED, OPTIONAL = True, False
Fields = Mapping[str, tuple[Type, bool]]

ENVELOPE: Fields = {"seq": (INT, REQUIRED), "event": (STR, REQUIRED), "ts": (STR, REQUIRED), "table": (STR, REQUIRED)}

_DEVICE: Fields = {"device": (STR, REQUIRED), "event_no": (INT, REQUIRED)}
_CARD_LINE: Fields = {
    "card": (CARD, REQUIRED), "to": (STR, REQUIRED), "shoe": (SHOE, REQUIRED), "round": (OPT_INT, REQUIRED),
    **_DEVICE, "penetration": (OPT_NUM, OPTIONAL), "reason": (OPT_STR, OPTIONAL), "packet": (INT, OPTIONAL),
}
_SHOE_START: Fields = {
    "shoe": (SHOE, REQUIRED), "decks": (INT, REQUIRED), "cards": (INT, REQUIRED), "deck_ok": (BOOL, REQUIRED), **_DEVICE,
}
_SNAPSHOT: Fields = {"event_nos": (COUNTS, OPTIONAL)}

#: event kind -> {field: (type, required)}: what is read of each kind (docs/table.md, docs/events.md)
SCHEMA: dict[str, Fields] = {
    "dealt": _CARD_LINE, "burned": _CARD_LINE, "drawn": _CARD_LINE,
    "returned": {"card": (CARD, REQUIRED), "shoe": (SHOE, OPTIONAL), **_DEVICE},
    "identified": {"card": (CARD, REQUIRED), "to": (STR, REQUIRED), "shoe": (SHOE, OPTIONAL), "round": (OPT_INT, REQUIRED), **_DEVICE},
    "discarded": {"count": (INT, REQUIRED), "shoe": (SHOE, OPTIONAL), "round": (OPT_INT, REQUIRED), **_DEVICE},
    "decision": {"round": (INT, REQUIRED), "seat": (INT, REQUIRED), "decision": (STR, REQUIRED), "banker": (BOOL, OPTIONAL)},
    "corrected": {"round": (INT, REQUIRED), "card": (CARD, REQUIRED), "from": (STR, REQUIRED), "to": (STR, REQUIRED),
                  "reason": (OPT_STR, OPTIONAL)},
    "traded": {"round": (INT, REQUIRED), "seat": (INT, REQUIRED), "card": (CARD, REQUIRED), "from": (STR, REQUIRED)},
    "revealed": {"round": (OPT_INT, OPTIONAL)},
    "settled": {"round": (INT, REQUIRED), "seat": (INT, REQUIRED), "bet": (STR, REQUIRED), "stake": (INT, REQUIRED),
                "outcome": (STR, REQUIRED), "pays": (STR, REQUIRED), "net": (INT, REQUIRED)},
    "round_started": {
        "round": (INT, REQUIRED), "seats": (INT_LIST, REQUIRED), "wagers": (WAGERS, REQUIRED), "banker": (OPT_INT, REQUIRED),
        "banker_stake": (OPT_INT, REQUIRED), "shoe": (SHOE, REQUIRED), "dealer": (OPT_STR, REQUIRED),
        "last_round": (BOOL, REQUIRED), "banker_hands": (INT, OPTIONAL), "bank_wanted": (INT_LIST, OPTIONAL),
    },
    "round_ended": {"round": (INT, REQUIRED), "complete": (BOOL, REQUIRED)},
    "round_voided": {"round": (INT, REQUIRED), "reason": (OPT_STR, OPTIONAL)},
    "round_resumed": {"round": (INT, REQUIRED)},
    "state": {"from": (STR, REQUIRED), "to": (STR, REQUIRED), "round": (OPT_INT, OPTIONAL)},
    "violation": {"kind": (STR, REQUIRED), "round": (OPT_INT, REQUIRED), "detail": (STR, REQUIRED),
                  "device": (OPT_STR, OPTIONAL), "event_no": (OPT_INT, OPTIONAL)},
    "resolved": {"supervisor": (STR, REQUIRED), "violations": (INT_LIST, REQUIRED), "kinds": (STR_LIST, OPTIONAL),
                 "round": (OPT_INT, OPTIONAL), "void_round": (BOOL, OPTIONAL), "note": (OPT_STR, OPTIONAL)},
    "fault": {"fault": (STR, REQUIRED), "cleared": (BOOL, REQUIRED), "detail": (OPT_STR, OPTIONAL), **_DEVICE},
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
    "dealer_change": {"dealer": (STR, REQUIRED), "previous": (OPT_STR, OPTIONAL), "burns_due": (INT, REQUIRED),
                      "shoe": (SHOE, OPTIONAL)},
    "offer_bank": {"seat": (INT, REQUIRED), "wants": (BOOL, REQUIRED)},
    "bank": {"seat": (OPT_INT, REQUIRED), "previous": (OPT_INT, OPTIONAL), "round": (INT, OPTIONAL)},
    "table_started": {
        "game": (STR, REQUIRED), "decks": (INT, REQUIRED), "cap": (NUM, REQUIRED), "seats": (INT, REQUIRED),
        "source": (STR, REQUIRED), "source_kind": (STR, REQUIRED), "devices": (OBJECT, OPTIONAL),
        "house_rules": (OBJECT, OPTIONAL), "pay_tables": (OBJECT, OPTIONAL),
        "supervisors": (STR_LIST, OPTIONAL), "demo_supervisor": (BOOL, OPTIONAL),
    },
    "table_stopped": {"reason": (STR, REQUIRED), "round": (OPT_INT, OPTIONAL)},
    "alarm": {"kind": (STR, REQUIRED), "round": (OPT_INT, OPTIONAL), "penetration": (OPT_NUM, OPTIONAL)},
    "internal_error": {"error": (STR, OPTIONAL), "what": (STR, OPTIONAL)},
    "log_opened": {**_SNAPSHOT, "previous": (OPT_STR, OPTIONAL)},
    "rotated": {**_SNAPSHOT, "previous": (OPT_STR, OPTIONAL)},
    "checkpoint": {**_SNAPSHOT, "reason": (STR, REQUIRED)},
    "recovery": {
        **_SNAPSHOT, "last_seq": (INT, REQUIRED), "last_event": (OPT_STR, OPTIONAL), "unsigned": (INT, OPTIONAL),
        "last_checkpoint_seq": (INT, OPTIONAL), "torn": (Type("an object or null", lambda x: x is None or type(x) is dict,
                                                               "(x is None or type(x) is dict)"), OPTIONAL),
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


_NAMESPACE = {"CARD_TEXTS": CARD_TEXTS, "_int_list": _int_list, "_str_list": _str_list, "_card_list": _card_list,
              "_counts": _counts, "_wagers": _wagers}
_ABSENT = object()


def _compile(fields: Fields) -> Callable[[dict[str, Any]], bool]:
    """One function testing every field of *fields* in one expression: the required ones taken
    together with an ``itemgetter`` of orjson's own key objects (a missing one: KeyError), the
    optional ones with ``get``."""
    required = [n for n, (_, r) in fields.items() if r]
    optional = [n for n, (_, r) in fields.items() if not r]
    keys = list(orjson.loads(orjson.dumps(dict.fromkeys(required + optional))))  # orjson's key objects
    tests = [re.sub(r"\bx\b", f"v[{i}]", fields[n][0].expr) for i, n in enumerate(required)]
    tests += [f"((x := get(r, K{i}, ABSENT)) is ABSENT or {fields[n][0].expr})" for i, n in enumerate(optional)]
    ns = dict(_NAMESPACE, g=_getter(keys[: len(required)]), get=dict.get, ABSENT=_ABSENT)
    ns.update({f"K{i}": k for i, k in enumerate(keys[len(required) :])})
    source = (
        "def check(r):\n"
        "    try:\n"
        "        v = g(r)\n"
        "    except KeyError:\n"
        "        return False\n"
        f"    return {' and '.join(tests) or 'True'}\n"
    )
    exec(source, ns)  # noqa: S102 - code generated from the schema above, nothing from outside
    return ns["check"]  # type: ignore[no-any-return]


def _getter(keys: list[str]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    if not keys:
        return lambda r: ()
    if len(keys) == 1:  # an itemgetter of one key returns the value, not a 1-tuple
        one = operator.itemgetter(keys[0])
        return lambda r: (one(r),)
    return operator.itemgetter(*keys)


#: kinds that review itself does not read (the read-back at a restart does: it uses :func:`problem`)
NOT_READ_BY_REVIEW = frozenset({"bank", "offer_bank", "dealer_change", "burn_next", "checkpoint"})


class _Checkers(dict[Any, Callable[[dict[str, Any]], bool]]):
    """event kind -> compiled check of the fields review reads (not the envelope: see
    :func:`envelope_ok`); a kind that review does not read gets ``bool`` (true for any record)."""

    def __missing__(self, event: Any) -> Callable[[dict[str, Any]], bool]:
        return bool


#: the compiled check of each kind review reads: ``CHECKERS[event](record)``
CHECKERS = _Checkers({kind: _compile(fields) for kind, fields in SCHEMA.items() if kind not in NOT_READ_BY_REVIEW})
_TS, _TABLE = (operator.itemgetter(k) for k in orjson.loads(orjson.dumps(dict.fromkeys(("ts", "table")))))


def envelope_ok(records: list[dict[str, Any]]) -> bool:
    """Every record's ``ts`` and ``table`` are strings (``seq`` and ``event`` the reader checks),
    in two C-level passes."""
    try:
        return set(map(type, map(_TS, records))) == {str} and set(map(type, map(_TABLE, records))) == {str}
    except KeyError:
        return False


def block_ok(records: list[dict[str, Any]], events: list[Any]) -> bool:
    """Every record of a block (*events*: their ``event``, every one a string) matches its kind."""
    return envelope_ok(records) and False not in list(map(operator.call, map(CHECKERS.__getitem__, events), records))


__all__ = ["CARD_TEXTS", "CHECKERS", "SCHEMA", "block_ok", "problem"]
