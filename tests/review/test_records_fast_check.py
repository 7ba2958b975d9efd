"""The types of a record's fields: a container's (lists of integers, of strings, of cards; counts;
wagers) is tested with a few C-level passes, with the same verdict as its plain definition; and
every type's test (the one-line check, ``problem``) and its annotation (the Structs review parses
the log into) accept the same JSON values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablectl.eventlog import records
from tablectl.eventlog.records import CARD_LIST, CARD_TEXTS, COUNTS, INT_LIST, STR_LIST, WAGERS, Type
from tablectl.review.logread import LogReader

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False, allow_infinity=False),
                     st.sampled_from(["QH", "TD", "10S", "ZZ", ""]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(st.sampled_from(["1", "2", "tie"]), inner, max_size=3)),
                       max_leaves=8)


def _plain_wagers(x: Any) -> bool:
    return x is None or (type(x) is dict and all(type(w) is dict and all(type(c) is int for c in w.values()) for w in x.values()))


@settings(max_examples=500, deadline=None)
@given(x=_VALUES)
def test_a_container_s_type_is_judged_as_its_plain_definition_says(x: Any) -> None:
    assert INT_LIST.test(x) == (type(x) is list and all(type(i) is int for i in x))
    assert STR_LIST.test(x) == (type(x) is list and all(type(i) is str for i in x))
    assert CARD_LIST.test(x) == (type(x) is list and all(c is None or (type(c) is str and c in CARD_TEXTS) for c in x))
    assert COUNTS.test(x) == (type(x) is dict and all(type(v) is int for v in x.values()))
    assert WAGERS.test(x) == _plain_wagers(x)


def test_wagers_of_whole_cents_by_seat_and_bet_are_wagers() -> None:
    assert WAGERS.test({"1": {"primary": 500, "tie": 100}, "2": {}})
    assert not WAGERS.test({"1": {"primary": 5.0}}) and not WAGERS.test({"1": [500]}) and not WAGERS.test([])


_TYPES = {name: t for name, t in vars(records).items() if isinstance(t, Type)}


def _parses(t: Type, x: Any) -> bool:
    try:
        msgspec.json.decode(orjson.dumps(x), type=t.annotation)
    except msgspec.ValidationError:
        return False
    return True


@pytest.mark.parametrize("name", sorted(_TYPES))
@settings(max_examples=300, deadline=None)
@given(x=_VALUES)
def test_a_field_type_s_test_and_its_annotation_accept_the_same_values(name: str, x: Any) -> None:
    t = _TYPES[name]
    assert _parses(t, x) == t.test(x)


@pytest.mark.parametrize("digits", [19, 20, 400, 5000])
def test_an_integer_past_64_bits_makes_a_line_no_record(digits: int) -> None:
    line = b'{"seq":' + b"9" * digits + b',"event":"shoe_change","ts":"t","table":"T1","shoe":1}'
    assert isinstance(records.read_line(line), str)
    assert isinstance(records.read_line(line.replace(b"shoe_change", b"a_later_kind")), str)
    assert not isinstance(records.read_line(b'{"seq":' + str((1 << 63) - 1).encode() + line[line.index(b","):]), str)


@pytest.mark.parametrize("depth", [1000, 100_000])
def test_a_line_nested_deeper_than_the_parser_goes_is_unreadable_not_a_crash(tmp_path: Path, depth: int) -> None:
    good = b'{"seq":1,"event":"shoe_change","ts":"t","table":"T1","shoe":1}'
    deep = b'{"seq":2,"event":"shoe_change","ts":"t","table":"T1","shoe":1,"x":' + b"[" * depth + b"]" * depth + b"}"
    path = tmp_path / "tablectl-T1-000001.jsonl"
    path.write_bytes(good + b"\n" + deep + b"\n")
    fed: list[Any] = []
    reader = LogReader([path], fed.extend)
    reader.read()
    assert [r.seq for r in fed] == [1] and [u.line for u in reader.unreadable] == [2]


_LINES = [
    b'{"seq":12,"event":"dealt","ts":"2026-11-02T10:00:00.000000Z","table":"T1","card":"QH","to":"seat:2","shoe":3,'
    b'"round":4,"device":"shoe","event_no":77,"penetration":0.105,"face":"up","prev":"ab12"}',
    b'{"seq":13,"event":"round_started","ts":"t","table":"T1","round":5,"seats":[1,2],"wagers":{"1":{"primary":500}},'
    b'"banker":null,"banker_stake":null,"shoe":3,"dealer":"D-1","last_round":false}',
]
_BYTES = st.sampled_from(list(b'{}[]",:0123456789.eE-+\\u ') + [0xFF, 0xC3, 0x80, 0x00])
_PIECES = st.sampled_from([b"1e999", b"99999999999999999999999", b'"\\ud800"', b'"\xff"', b"NaN", b"[" * 600 + b"]" * 600])


@settings(max_examples=1000, deadline=None)
@given(line=st.sampled_from(_LINES), edits=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10**6), _BYTES, _PIECES),
                                                     min_size=1, max_size=4))
def test_any_damage_to_a_line_reads_as_a_record_or_a_reason(line: bytes, edits: list[tuple[int, int, int, bytes]]) -> None:
    damaged = bytearray(line)
    for op, at, byte, piece in edits:
        at %= len(damaged) + 1
        if op == 0 and at < len(damaged):
            damaged[at] = byte
        elif op == 1:
            damaged.insert(at, byte)
        elif op == 2 and at < len(damaged):
            del damaged[at]
        else:
            damaged[at:at] = piece
    assert isinstance(records.read_line(bytes(damaged)), (records.Envelope, str))
