"""Building the frozen rule and pay-table dataclasses from plain dicts (parsed TOML).

``from_mapping(cls, data)`` fills a dataclass from a mapping: unknown keys, wrong types and values
outside a ``Literal`` are errors naming the key; a nested dataclass field takes a mapping, or the
name of one of its class's ``PRESETS``; omitted keys keep their defaults.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

T = TypeVar("T")


class RulesConfigError(ValueError):
    """A house-rule or pay-table setting is unknown or has a value of the wrong kind."""


def from_mapping(cls: type[T], data: Mapping[str, Any], where: str = "") -> T:
    """An instance of dataclass ``cls`` from ``data`` (see the module docstring)."""
    if not isinstance(data, Mapping):
        raise RulesConfigError(f"{where or cls.__name__}: expected a table of settings, got {data!r}")
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    for key, raw in data.items():
        name = key.replace("-", "_")
        path = f"{where}.{key}" if where else key
        if name not in names:
            raise RulesConfigError(f"{path}: unknown setting (expected one of {', '.join(sorted(names))})")
        values[name] = _convert(hints[name], raw, path)
    return cls(**values)


def _convert(hint: Any, raw: Any, path: str) -> Any:
    if dataclasses.is_dataclass(hint):
        presets: Mapping[str, Any] = getattr(hint, "PRESETS", {})
        if isinstance(raw, (str, int)) and not isinstance(raw, bool) and str(raw) in presets:
            return presets[str(raw)]
        if isinstance(raw, Mapping):
            return from_mapping(hint, raw, path)
        named = f" or one of {', '.join(presets)}" if presets else ""
        raise RulesConfigError(f"{path}: expected a table{named}, got {raw!r}")
    if typing.get_origin(hint) is typing.Literal:
        choices = typing.get_args(hint)
        if raw not in choices:
            raise RulesConfigError(f"{path}: expected one of {', '.join(map(str, choices))}, got {raw!r}")
        return raw
    if hint is bool:
        if not isinstance(raw, bool):
            raise RulesConfigError(f"{path}: expected true or false, got {raw!r}")
        return raw
    if hint is int:
        if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
            raise RulesConfigError(f"{path}: expected a whole number 0 or more, got {raw!r}")
        return raw
    raise TypeError(f"{path}: no conversion for {hint!r}")  # a field type this module does not know
