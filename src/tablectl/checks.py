"""Typed fields out of parsed TOML (pure; no I/O): the checks behind ``tablectl.config``.

Each ``as_*`` function takes a value as ``tomllib`` gives it and the location of its key, and
returns the value as its field's type, or raises ``Invalid`` (where, and why in one line). The
conversions are the lax ones a table config has always had: an int field takes ``6``, ``6.0``,
``"6"``, ``" 6 "``, ``"1_000"`` and ``true``; a bool field ``true``, ``1``, ``"yes"``, ``"on"``;
a str field takes only a string. ``table_fields`` reads a TOML table into a record's fields, in
the fields' order, and stops at the first problem, then at the first unknown key.

Nothing here imports a validation library: ``tablectl config check`` starts in a few tens of ms.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

Loc = tuple[str, ...]
#: a field's check: (value, where) -> the field's value, or ``Invalid``
Check = Callable[[Any, Loc], Any]

#: a field with no default: its key is required
REQUIRED: Any = object()

_INT_TEXT = re.compile(r"[+-]?[0-9]+(?:_[0-9]+)*(?:\.0+)?")
_TRUE = frozenset({"1", "on", "t", "true", "y", "yes"})
_FALSE = frozenset({"0", "off", "f", "false", "n", "no"})
_I64 = 2**63


class Invalid(Exception):
    """A value that cannot be its field: ``loc`` the key path, ``reason`` one line."""

    def __init__(self, loc: Loc, reason: str) -> None:
        super().__init__(reason)
        self.loc = loc
        self.reason = reason


def as_int(value: Any, loc: Loc) -> int:
    """A whole number: an int, a float without a fraction, or a string of one (underscores
    between digits allowed); ``true``/``false`` are 1 and 0."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise Invalid(loc, "Input should be a finite number")
        if not value.is_integer():
            raise Invalid(loc, "Input should be a valid integer, got a number with a fractional part")
        if not -_I64 <= value < _I64:
            raise Invalid(loc, "Unable to parse input string as an integer, exceeded maximum size")
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if not _INT_TEXT.fullmatch(text):
            raise Invalid(loc, "Input should be a valid integer, unable to parse string as an integer")
        try:
            return int(text.partition(".")[0])
        except ValueError:  # more digits than Python converts
            raise Invalid(loc, "Unable to parse input string as an integer, exceeded maximum size") from None
    raise Invalid(loc, "Input should be a valid integer")


def int_between(low: int, high: int) -> Check:
    """``as_int``, then ``low <= value <= high``."""

    def check(value: Any, loc: Loc) -> int:
        number = as_int(value, loc)
        if number < low:
            raise Invalid(loc, f"Input should be greater than or equal to {low}")
        if number > high:
            raise Invalid(loc, f"Input should be less than or equal to {high}")
        return number

    return check


def as_bool(value: Any, loc: Loc) -> bool:
    """``true``/``false``, 1/0, 1.0/0.0, or a string: yes/no, on/off, true/false, t/f, y/n, 1/0."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and -_I64 <= value < _I64 and float(value).is_integer():
        if value in (0, 1):
            return bool(value)
        raise Invalid(loc, "Input should be a valid boolean, unable to interpret input")
    if isinstance(value, str):
        word = value.lower()
        if word in _TRUE or word in _FALSE:
            return word in _TRUE
        raise Invalid(loc, "Input should be a valid boolean, unable to interpret input")
    raise Invalid(loc, "Input should be a valid boolean")


def as_str(value: Any, loc: Loc) -> str:
    """A string, and nothing else (a number is not taken for its text)."""
    if isinstance(value, str):
        return value
    raise Invalid(loc, "Input should be a valid string")


def as_path(value: Any, loc: Loc) -> Path:
    """A file system path, from a string (``""`` is the current directory, as ``Path("")``)."""
    if isinstance(value, (str, Path)):
        return Path(value)
    raise Invalid(loc, "Input is not a valid path for <class 'pathlib.Path'>")


def one_of(*choices: str) -> Check:
    """A string among ``choices``."""
    listed = ", ".join(repr(c) for c in choices[:-1]) + f" or {choices[-1]!r}" if len(choices) > 1 else repr(choices[0])

    def check(value: Any, loc: Loc) -> str:
        if isinstance(value, str) and value in choices:
            return value
        raise Invalid(loc, f"Input should be {listed}")

    return check


def as_table(value: Any, loc: Loc) -> dict[str, Any]:
    """A TOML table (any keys and values)."""
    if isinstance(value, dict):
        return value
    raise Invalid(loc, "Input should be a valid dictionary")


def table_of(check: Check) -> Check:
    """A TOML table whose every value passes ``check`` (in the table's order)."""

    def check_all(value: Any, loc: Loc) -> dict[str, Any]:
        table = as_table(value, loc)
        return {key: check(item, (*loc, key)) for key, item in table.items()}

    return check_all


def optional(check: Check) -> Check:
    """``check``, or None for a value that is None."""
    return lambda value, loc: None if value is None else check(value, loc)


def table_fields(value: Any, loc: Loc, record: str, fields: Sequence[tuple[str, Check, Any]]) -> dict[str, Any]:
    """The fields ``(name, check, default)`` of ``record`` read from the TOML table ``value``:
    each present key checked, each absent one its default (a callable default is called; one
    that is ``REQUIRED`` is "missing"), then any other key "unknown key"."""
    if not isinstance(value, Mapping):
        raise Invalid(loc, f"Input should be a valid dictionary or instance of {record}")
    out: dict[str, Any] = {}
    for name, check, default in fields:
        if name in value:
            out[name] = check(value[name], (*loc, name))
        elif default is REQUIRED:
            raise Invalid((*loc, name), "missing")
        else:
            out[name] = default() if callable(default) else default
    names = {name for name, _, _ in fields}
    for key in value:
        if key not in names:
            raise Invalid((*loc, str(key)), "unknown key")
    return out
