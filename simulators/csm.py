"""A continuous shuffling machine (CSM) with card recognition on the way out and on the way in.

The machine holds ``decks`` decks in a carousel. ``draw()`` dispenses the card at the exit
(``CardDrawn``); ``return_cards(cards)`` feeds cards into the in-feed (``CardReturned`` each),
which go into a random carousel slot: uniformly over the whole carousel for a good machine, within
the first ``quality.csm_lag`` slots for a "lagging carousel" (they come out again too soon).
A card returned that the machine never dispensed is still reported and taken in: the controller
flags it. ``start_shuffle()`` (the SHUFFLE command) reshuffles the whole content:
``ShuffleStarted`` then ``ShuffleDone`` with the content's composition against ``decks`` full
decks (cards out on the layout show as missing). ``load()`` replaces the content by fresh decks.

Card faults: ``misread`` reports ``None`` (out or in); ``foreign``/``extra`` dispense a card
beyond the composition (a copy of the card with the most copies out); ``missing`` makes one card
inside vanish unseen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from tablectl.cards import DECK_SIZE
from tablectl.drivers import messages as msg
from tablectl.drivers.events import (
    CardDrawn,
    CardReturned,
    DeviceEvent,
    DeviceKind,
    ShuffleDone,
    ShuffleStarted,
)
from tablectl.simulators.deckcheck import deck_check
from tablectl.simulators.model import DeviceModel, DeviceRefused
from tablectl.simulators.shuffling import full_shoe, shuffled


def _returned(card: int | None) -> Callable[[int], DeviceEvent]:
    return lambda n: CardReturned(n, card)


class CsmModel(DeviceModel):
    """A continuous shuffler holding ``decks`` decks (default 6)."""

    kind: ClassVar[DeviceKind] = DeviceKind.CSM
    capabilities: ClassVar[frozenset[str]] = frozenset({"draw", "return", "shuffle", "count", "replay"})
    default_decks: ClassVar[int] = 6

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._carousel: list[int] = []  # exit first
        self._out_counts = [0] * DECK_SIZE  # dispensed minus returned, per card
        self._fill()

    def _fill(self) -> None:
        base = self.order if self.order is not None else shuffled(full_shoe(self.decks), self.rng)
        self._carousel = list(base)
        self._out_counts = [0] * DECK_SIZE

    @property
    def cards_in_device(self) -> int:
        return len(self._carousel)

    def cards_out(self) -> list[int]:
        """The cards dispensed and not returned yet: on the table, or kept back."""
        return [card for card, n in enumerate(self._out_counts) for _ in range(n)]

    def load(self) -> list[DeviceEvent]:
        """Fresh decks in (the old content out): reported as a shuffle of the new content."""
        self._check_ready("load")
        def act() -> None:
            self._fill()
            self.shoe_id += 1
            self._issue(lambda n: ShuffleStarted(n, self.shoe_id))
            self._issue_done()
        return self._run(act)

    def draw(self) -> list[DeviceEvent]:
        """Dispense the card at the exit."""
        self._check_ready("draw")
        if not self._carousel:
            raise DeviceRefused(msg.ERR_NOT_NOW, "draw: the shuffler is empty")
        return self._run(self._draw)

    def _draw(self) -> None:
        fired = self._opportunity()
        if self.blocked:
            return
        if "missing" in fired and len(self._carousel) > 1:
            self._carousel.pop(1 + self.faults.uniform(len(self._carousel) - 1))
        if "foreign" in fired or "extra" in fired:
            card = self._most_out(self._out_counts)
        else:
            card = self._carousel.pop(0)
        self._out_counts[card] += 1
        seen: int | None = None if "misread" in fired else card
        drawn = self._issue(lambda n: CardDrawn(n, seen))
        if seen is None:
            self._unread(drawn, card)

    def return_cards(self, cards: Iterable[int]) -> list[DeviceEvent]:
        """Cards into the in-feed, in the order given. Stops at a jam or an open door."""
        self._check_ready("return cards")
        todo = list(cards)
        def act() -> None:
            for card in todo:
                fired = self._opportunity(("jam", "door", "misread", "restart"))
                if self.blocked:
                    return
                if self._out_counts[card] > 0:
                    self._out_counts[card] -= 1
                self._insert(card)
                seen: int | None = None if "misread" in fired else card
                back = self._issue(_returned(seen))
                if seen is None:
                    self._unread(back, card)
        return self._run(act)

    def _insert(self, card: int) -> None:
        n = len(self._carousel)
        lag = self.quality.csm_lag
        limit = n if lag is None else min(n, lag)
        self._carousel.insert(self.rng.randint(0, limit), card)

    def start_shuffle(self) -> list[DeviceEvent]:
        """Reshuffle the whole content."""
        self._check_ready("SHUFFLE")
        def act() -> None:
            self.shoe_id += 1
            self._issue(lambda n: ShuffleStarted(n, self.shoe_id))
            self._carousel = shuffled(self._carousel, self.rng)
            self._issue_done()
        return self._run(act)

    def _issue_done(self) -> None:
        missing, extra = deck_check(self._carousel, self.decks)
        self._issue(
            lambda n: ShuffleDone(n, self.shoe_id, self.decks, len(self._carousel), missing, extra, 0)
        )
