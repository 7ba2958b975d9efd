"""Each actuator action in words a technician at the rig can follow (pure)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tablectl.cards import text

_DEVICE = {"shoe": "the shoe", "csm": "the continuous shuffler", "shuffler": "the batch shuffler"}
_LOAD = {
    "shoe": "load a freshly shuffled shoe (all its decks) with the cut card in",
    "csm": "load fresh decks into the continuous shuffler",
    "shuffler": "load one complete deck into the batch shuffler",
}
_FAULT = {
    "jam": "jam {device}: leave a card stuck in its path (until told to clear it)",
    "door": "open the door of {device} (until told to clear it)",
    "misread": "make the next card unreadable: put a blank card or a card face down next in line",
    "missing": "take one card out of {device} and keep it aside (until told to load)",
}


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def _draw(kind: str, count: int = 1) -> str:
    if kind == "csm":
        return f"take {_cards(count)} from the exit of {_DEVICE[kind]}"
    return f"draw {_cards(count)} from {_DEVICE.get(kind, kind)}"


def _press(kind: str, count: int = 1) -> str:
    times = "once" if count == 1 else f"{count} times"
    return f"press the button of {_DEVICE.get(kind, kind)} {times}"


def _return(kind: str, cards: Sequence[int] = ()) -> str:
    return f"put {_cards(len(cards))} into the in-feed of {_DEVICE.get(kind, kind)}, in this order: " + " ".join(
        text(c) for c in cards
    )


_WORDS: dict[str, Callable[..., str]] = {
    "draw": _draw,
    "press_button": _press,
    "load": lambda kind: _LOAD.get(kind, f"load {kind}"),
    "return_cards": _return,
    "clear_faults": lambda kind: f"clear every fault of {_DEVICE.get(kind, kind)}: free any jammed card, shut the door",
    "cause": lambda kind, fault: _FAULT.get(fault, "cause a {fault} fault on {device}").format(
        device=_DEVICE.get(kind, kind), fault=fault
    ),
    "power_cycle": lambda kind: f"switch {_DEVICE.get(kind, kind)} off and on again",
    "unplug": lambda kind: f"unplug the cable of {_DEVICE.get(kind, kind)} (leave it out until told)",
    "replug": lambda kind: f"plug the cable of {_DEVICE.get(kind, kind)} back in",
}


def describe(kind: str, action: str, *args: object) -> str:
    """``describe("shoe", "draw", 5)`` -> ``"draw 5 cards from the shoe"``."""
    words = _WORDS.get(action)
    return words(kind, *args) if words is not None else f"{action.replace('_', ' ')} {_DEVICE.get(kind, kind)}"
