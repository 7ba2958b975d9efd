"""The actuator interface: the physical actions a device contract test needs done.

A contract test talks to the device through its driver, as the controller does; whatever a
dealer, an attendant or a technician would do *to* the device goes through an ``Actuator``. A rig
maker subclasses it and overrides what the rig can do (a relay board may only power-cycle and
unplug; a robot arm may draw and return cards); every other action raises ``CannotAct`` and the
test that needs it is skipped, naming the action. Actions return once the device has been acted
on; they raise ``ActuatorError`` (one line: what and why) when the rig failed.

Cards are the ints of ``tablectl.cards`` (``cards.text(c)`` gives ``"QH"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from tablectl.hil.actions import describe

#: Faults a test may ask the rig to cause: ``jam`` and ``door`` at once (until ``clear_faults``),
#: ``misread`` on the next card, ``missing`` (a card taken out of a shuffler's deck until ``load``).
FAULTS: tuple[str, ...] = ("jam", "door", "misread", "missing")


class ActuatorError(Exception):
    """The rig did not do what it was asked (the test fails with this message)."""


class CannotAct(ActuatorError):
    """This actuator has no way to do that action (the test is skipped)."""


class Actuator:
    """Acts on one device of family ``kind`` (``shoe``, ``csm``, ``shuffler``).

    Built by the registry as ``cls(arg, kind)``: ``arg`` is what follows the name in
    ``--device-actuator NAME:ARG`` (None without a colon). Override the actions the rig can do.
    """

    name: ClassVar[str] = "actuator"

    def __init__(self, arg: str | None, kind: str) -> None:
        self.arg = arg
        self.kind = kind

    def draw(self, count: int = 1) -> list[int | None] | None:
        """Draw ``count`` cards (a shoe), or take ``count`` dispensed cards (a CSM). Returns the
        cards as the rig saw them (``None`` for a card it could not read), or None when the rig
        does not see cards."""
        raise self.cannot("draw", count)

    def press_button(self, count: int = 1) -> None:
        """Press the device's button ``count`` times."""
        raise self.cannot("press_button", count)

    def load(self) -> None:
        """Load a shuffled shoe (with the cut card), fresh decks into a CSM, or a complete deck
        into a batch shuffler."""
        raise self.cannot("load")

    def return_cards(self, cards: Sequence[int]) -> None:
        """Put these cards, in this order, into a CSM's in-feed."""
        raise self.cannot("return_cards", cards)

    def clear_faults(self) -> None:
        """Clear every fault: free a jammed card, shut the door."""
        raise self.cannot("clear_faults")

    def cause(self, fault: str) -> None:
        """Cause one of ``FAULTS``."""
        raise self.cannot("cause", fault)

    def power_cycle(self) -> None:
        """Switch the device off and on again."""
        raise self.cannot("power_cycle")

    def unplug(self) -> None:
        """Pull the device's cable (serial or USB) and leave it out until ``replug``."""
        raise self.cannot("unplug")

    def replug(self) -> None:
        """Plug the cable back in."""
        raise self.cannot("replug")

    def close(self) -> None:
        """Release what the actuator holds (called once, after the last test)."""

    def cannot(self, action: str, *args: object) -> CannotAct:
        """The ``CannotAct`` for an action this actuator lacks."""
        return CannotAct(f"the {self.name!r} actuator cannot {describe(self.kind, action, *args)}")
