"""A card-reading dealing shoe.

``load()`` puts a fresh shoe in (``decks`` full decks in an order from the seed, or the explicit
order; ``ShoeLoaded``) with a cut card after ``penetration`` of it. ``draw()`` slides one card
out (``CardDrawn``; ``CutCardReached`` right after the card that uncovers the cut card;
``ShoeEmpty`` after the last card, and again for every draw from an empty shoe).
``press_button()`` is the dealer's button. A shoe does not shuffle: SHUFFLE is refused.

Card faults: ``misread`` reports ``None`` for the card drawn; ``foreign`` slides out an extra
card that is not in the composition (a copy of the card drawn most often since the load, so once
any card is fully drawn it is at once beyond the composition); ``missing`` takes one undealt card
away unseen (the shoe ends a card short); ``extra`` is the same as ``foreign`` for a shoe.
"""

from __future__ import annotations

from typing import Any, ClassVar

from tablectl.cards import DECK_SIZE
from tablectl.drivers.events import CardDrawn, CutCardReached, DeviceEvent, DeviceKind, ShoeEmpty, ShoeLoaded
from tablectl.simulators.model import DeviceModel
from tablectl.simulators.shuffling import full_shoe, shuffled

DEFAULT_PENETRATION = 0.85


class ShoeModel(DeviceModel):
    """A card-reading shoe holding ``decks`` decks (default 6)."""

    kind: ClassVar[DeviceKind] = DeviceKind.SHOE
    capabilities: ClassVar[frozenset[str]] = frozenset({"draw", "cut-card", "button", "replay"})
    default_decks: ClassVar[int] = 6

    def __init__(self, *, penetration: float = DEFAULT_PENETRATION, **kw: Any) -> None:
        super().__init__(**kw)
        if not 0.0 < penetration <= 1.0:
            raise ValueError(f"penetration must be in (0, 1], got {penetration}")
        self.penetration = penetration
        self._stack: list[int] = []  # undealt, next card last (pop from the end)
        self._drawn_counts = [0] * DECK_SIZE
        self.drawn = 0
        self.cut_at = 0
        self._cut_reported = True
        self.loaded = False

    @property
    def cards_in_device(self) -> int:
        return len(self._stack)

    def load(self) -> list[DeviceEvent]:
        """A fresh shoe: shuffled from the seed (or the explicit order), with a new shoe id."""
        def act() -> None:
            base = self.order if self.order is not None else shuffled(full_shoe(self.decks), self.rng)
            self._stack = list(reversed(base))
            self._drawn_counts = [0] * DECK_SIZE
            self.drawn = 0
            self.cut_at = max(1, round(len(base) * self.penetration))
            self._cut_reported = False
            self.loaded = True
            self.shoe_id += 1
            self._issue(lambda n: ShoeLoaded(n, self.shoe_id, self.decks, len(base)))
        return self._run(act)

    def draw(self) -> list[DeviceEvent]:
        """One card out of the shoe."""
        self._check_ready("draw")
        return self._run(self._draw)

    def _draw(self) -> None:
        if not self._stack:
            self._issue(lambda n: ShoeEmpty(n))
            return
        fired = self._opportunity()
        if self.blocked:
            return
        if "missing" in fired and len(self._stack) > 1:
            self._stack.pop(self.faults.uniform(len(self._stack) - 1))  # never the card in the slot
        if "foreign" in fired or "extra" in fired:
            card = self._most_out(self._drawn_counts)
        else:
            card = self._stack.pop()
        self._drawn_counts[card] += 1
        self.drawn += 1
        seen: int | None = None if "misread" in fired else card
        drawn = self._issue(lambda n: CardDrawn(n, seen))
        if seen is None:
            self._unread(drawn, card)
        if not self._cut_reported and self.drawn >= self.cut_at:
            self._cut_reported = True
            self._issue(lambda n: CutCardReached(n))
        if not self._stack:
            self._issue(lambda n: ShoeEmpty(n))
