"""Hardware in the loop: who or what acts on the device under test while a contract test runs.

``Actuator`` (``actuator.py``) is what a test needs done to a device — draw cards, press its
button, load a shoe, return cards, jam it, power-cycle it, unplug it. ``load_actuator("NAME[:ARG]",
kind)`` (``registry.py``) finds one: the built-ins ``control`` (a simulator's control channel,
``control.py``) and ``prompt`` (a technician at the terminal, ``prompt.py``), or a rig maker's
plug-in in the ``tablectl.actuators`` entry-point group. ``actions.py`` words each action for a
person; ``strategy.py`` says what brings a device to a state a test can start from.
"""

from tablectl.hil.actuator import FAULTS, Actuator, ActuatorError, CannotAct
from tablectl.hil.registry import ENTRY_POINT_GROUP, actuator_names, load_actuator

__all__ = [
    "ENTRY_POINT_GROUP",
    "FAULTS",
    "Actuator",
    "ActuatorError",
    "CannotAct",
    "actuator_names",
    "load_actuator",
]
