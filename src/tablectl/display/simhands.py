"""The dealer's hands on a simulated card device, for ``tablectl run CONFIG --simulate`` with a
person at the keys (no virtual dealer).

With real hardware the dealer pulls cards from the shoe, presses its burn button, loads a shoe,
starts a shuffle; with ``--simulate`` the display does it through the simulator's control
interface (the same calls the virtual dealer makes), so the cards still come over the real
serial path: simulator -> pty -> driver -> controller. ``Enter`` does the next thing the table
asks of the device (one card, one packet, a shuffle, ...); ``w`` draws one card whatever the
table expects (a way to make a mistake on purpose).

The cards this helper draws from a continuous shuffler are remembered (the dealer holds them) so
that they can be returned to it after the round; they are never shown.

Each action is chosen from the table's prompt, so the next one must wait for the table to have
taken what the last one made the device report: ``awaited`` is the highest event number it made
the device issue, and ``answered(view)`` says whether a view already shows the table past it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from tablectl.drivers.events import CardDrawn
from tablectl.table.view import TableView


class SimDeviceLike(Protocol):
    """The control interface of ``tablectl.simulators.device.SimDevice`` used here."""

    def draw(self) -> Sequence[Any]: ...

    def press_button(self, button: int = 0) -> Sequence[Any]: ...

    def load(self) -> Sequence[Any]: ...

    def start_shuffle(self) -> Sequence[Any]: ...

    def deliver_packet(self, count: int) -> Sequence[Any]: ...

    def discard_rest(self) -> Sequence[Any]: ...

    def return_cards(self, cards: Iterable[int]) -> Sequence[Any]: ...

    def clear_fault(self) -> Sequence[Any]: ...


class SimHands:
    """Device actions on a simulator, chosen from the table's prompt. Each returns a status line
    and whether it is an error (the device refused, or nothing is asked of it)."""

    def __init__(self, sim: SimDeviceLike, kind: str, device: str | None = None) -> None:
        self.sim = sim
        self.kind = kind  # "shoe", "csm" or "shuffler"
        self.device = device  # the table's name for the device (``TableView.processed``); None: not followed
        self.out: list[int] = []  # cards taken from a continuous shuffler, to go back into it
        self.awaited = 0  # the highest event number an action made the device issue

    def answered(self, view: TableView | None) -> bool:
        """Whether ``view`` shows the table past every event the actions so far made the device
        issue (always, for a device not followed)."""
        if self.device is None or not self.awaited:
            return True
        return view is not None and view.processed.get(self.device, 0) >= self.awaited

    def step(self, view: TableView | None) -> tuple[str, bool]:
        """Do the next thing the table asks of the device."""
        if view is None:
            return "the table is not up yet", True
        p = view.prompt
        try:
            if p.action == "load_shoe":
                self._did(self.sim.load())
                return "shoe loaded", False
            if p.action == "shuffle":
                self._did(self.sim.start_shuffle())
                return "shuffling", False
            if p.action == "change_shoe":
                return "take the shoe out first: C (shoe change), then Enter loads a new one", True
            if p.action == "deal":
                if p.to and p.to[0] == "burn":
                    self._did(self.sim.press_button(0))
                    self._did(self.sim.draw())
                    return "burn button, card drawn", False
                self._did(self.sim.draw())
                return f"card drawn (to {p.to[0]})" if p.to else "card drawn", False
            if p.action == "packet":
                self._did(self.sim.deliver_packet(p.count))
                return f"packet of {p.count} delivered", False
            if p.action == "discard":
                self._did(self.sim.discard_rest())
                return "rest of the deck discarded", False
            if p.action == "return_cards":
                return self.give_back()
            if p.action == "clear_fault":
                self._did(self.sim.clear_fault())
                return "device fault cleared", False
        except Exception as e:  # noqa: BLE001 - a refusal from the device is shown, not raised
            return f"device: {e}", True
        return f"nothing for the device to do (the table waits for: {p.action.replace('_', ' ')})", True

    def draw(self) -> tuple[str, bool]:
        """Draw one card, whatever the table expects."""
        try:
            self._did(self.sim.draw())
        except Exception as e:  # noqa: BLE001
            return f"device: {e}", True
        return "card drawn", False

    def give_back(self) -> tuple[str, bool]:
        """Every card taken from a continuous shuffler goes back into it."""
        if self.kind != "csm":
            return "only a continuous shuffler takes cards back", True
        cards, self.out = self.out, []
        if not cards:
            return "no card of ours is out", True
        try:
            self._did(self.sim.return_cards(cards))
        except Exception as e:  # noqa: BLE001
            self.out = cards + self.out
            return f"device: {e}", True
        return f"{len(cards)} card{'s' if len(cards) != 1 else ''} returned to the shuffler", False

    def _did(self, events: Sequence[Any]) -> None:
        """What an action made the device issue: the table must take it before the next action;
        a card drawn from a continuous shuffler is held for its return."""
        for e in events:
            self.awaited = max(self.awaited, getattr(e, "event_no", 0) or 0)
            if self.kind == "csm" and isinstance(e, CardDrawn) and e.card is not None:
                self.out.append(e.card)


__all__ = ["SimDeviceLike", "SimHands"]
