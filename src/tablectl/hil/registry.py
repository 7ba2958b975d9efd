"""Actuator names -> actuator classes: the built-ins and the ``tablectl.actuators`` plug-ins.

``load_actuator("NAME[:ARG]", kind)`` builds one. Built-ins: ``control:HOST:PORT`` (a
simulator's control channel) and ``prompt[:SECONDS]`` (a technician at the terminal). A rig
maker's package adds its own, loaded only when named::

    [project.entry-points."tablectl.actuators"]
    acme-relay = "acme_rig.relay:RelayActuator"     # an Actuator subclass, built as cls(arg, kind)
"""

from __future__ import annotations

import importlib
from importlib.metadata import EntryPoint, entry_points

from tablectl.hil.actuator import Actuator, ActuatorError

ENTRY_POINT_GROUP = "tablectl.actuators"

BUILTIN: dict[str, str] = {
    "control": "tablectl.hil.control:ControlActuator",
    "prompt": "tablectl.hil.prompt:PromptActuator",
}


class UnknownActuator(ActuatorError):
    """No actuator by that name, or the name does not lead to an ``Actuator``."""


def _plugins() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def actuator_names() -> list[str]:
    """Every actuator name: built-in and installed plug-ins."""
    return sorted(set(BUILTIN) | set(_plugins()))


def actuator_class(name: str) -> type[Actuator]:
    """The class for a name (imported on first use)."""
    if name in BUILTIN:
        module, _, attr = BUILTIN[name].partition(":")
        cls = getattr(importlib.import_module(module), attr)
    else:
        ep = _plugins().get(name)
        if ep is None:
            raise UnknownActuator(f"unknown actuator {name!r} (known: {', '.join(actuator_names())})")
        try:
            cls = ep.load()
        except Exception as e:  # noqa: BLE001 - a broken plug-in is reported in one line
            raise UnknownActuator(f"actuator {name!r} ({ep.value}) failed to load: {type(e).__name__}: {e}") from None
    if not (isinstance(cls, type) and issubclass(cls, Actuator)):
        raise UnknownActuator(f"actuator {name!r} is not an Actuator subclass ({cls!r})")
    return cls


def load_actuator(spec: str, kind: str) -> Actuator:
    """Build the actuator ``spec`` (``NAME`` or ``NAME:ARG``) for a device of family ``kind``."""
    name, sep, arg = spec.partition(":")
    return actuator_class(name.strip())(arg if sep else None, kind)
