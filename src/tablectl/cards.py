"""Playing cards as small integers, their text forms, and multi-deck composition.

A card is an ``int`` in ``0..51``: ``rank * 4 + suit``, with rank ``0`` = deuce .. ``12`` = ace
and suit ``0..3`` = spades, hearts, diamonds, clubs. Integers keep hand evaluation, composition
counting and exact combinatorics fast; text appears only at the edges (logs, displays, files).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NewType

Card = NewType("Card", int)

RANKS = "23456789TJQKA"
SUITS = "SHDC"
DECK_SIZE = 52
BLACK_SUITS = frozenset((0, 3))

_RANK_OF_TEXT = {r: i for i, r in enumerate(RANKS)} | {"10": 8}
_TEXT = tuple(RANKS[c >> 2] + SUITS[c & 3] for c in range(DECK_SIZE))
CARD_TEXT = _TEXT
"""Every card's text by card number: ``CARD_TEXT[c] == text(c)`` (for hot loops)."""
CARD_OF_TEXT: dict[str, Card] = {t: Card(c) for c, t in enumerate(_TEXT)} | {
    "10" + SUITS[c & 3]: Card(c) for c in range(DECK_SIZE) if c >> 2 == 8
}
"""Every card text as written (``"QH"``, ``"TD"``, ``"10D"``) -> its card (for hot loops)."""


class CardError(ValueError):
    """A card's text form could not be read."""


def card(text: str) -> Card:
    """Parse ``"QH"``, ``"TD"``, ``"10D"`` (case-insensitive) into a card."""
    try:
        return CARD_OF_TEXT[text.strip().upper()]
    except (KeyError, AttributeError):
        raise CardError(f"not a card: {text!r} (expected rank 2-9/T/10/J/Q/K/A then suit S/H/D/C)") from None


def cards(text: str | Iterable[str]) -> list[Card]:
    """Parse ``"AS KS QS"`` (or an iterable of card texts) into a list of cards."""
    items = text.split() if isinstance(text, str) else text
    return [card(t) for t in items]


def text(c: int) -> str:
    """The two-character text of a card: ``"QH"``, ``"TD"``."""
    return _TEXT[c]


def rank(c: int) -> int:
    """Rank index: 0 = deuce .. 12 = ace."""
    return c >> 2


def suit(c: int) -> int:
    """Suit index: 0 = spades, 1 = hearts, 2 = diamonds, 3 = clubs."""
    return c & 3


def is_black(c: int) -> bool:
    return (c & 3) in BLACK_SUITS


def full_deck() -> list[Card]:
    """One 52-card deck in a fixed order (for building shoes; never a dealt order)."""
    return [Card(c) for c in range(DECK_SIZE)]


class Composition:
    """What an N-deck shoe holds and what has come out of it since the last shuffle.

    ``see`` counts a card out; it returns ``False`` (and does not count it) when the card is
    beyond the composition — a foreign or duplicate card, which must never be accepted silently.
    """

    __slots__ = ("decks", "_seen", "drawn")

    def __init__(self, decks: int) -> None:
        if decks < 1:
            raise ValueError(f"decks must be at least 1, got {decks}")
        self.decks = decks
        self._seen = [0] * DECK_SIZE
        self.drawn = 0

    @property
    def size(self) -> int:
        return self.decks * DECK_SIZE

    def see(self, c: int) -> bool:
        seen = self._seen
        if seen[c] >= self.decks:
            return False
        seen[c] += 1
        self.drawn += 1
        return True

    def give_back(self, c: int) -> None:
        """A card counted out goes back in (a continuous shuffler's in-feed)."""
        if self._seen[c] == 0:
            raise ValueError(f"{text(c)} was not out")
        self._seen[c] -= 1
        self.drawn -= 1

    def seen(self, c: int) -> int:
        return self._seen[c]

    def remaining(self, c: int) -> int:
        return self.decks - self._seen[c]

    def reset(self) -> None:
        self._seen = [0] * DECK_SIZE
        self.drawn = 0
