"""A player id as the pit enters it for a seat (pure): a player card number, or any id the pit
rates the player by (``P-1077``, ``4417 0032``).

An id is at most :data:`MAX_LENGTH` characters of ASCII letters, digits, spaces and ``- _ . / #``,
with no space at either end. Anything else is refused in one line that names the character and
where it is: a control character (it would drive a terminal or a log reader), and any non-ASCII
character, most of all one that reads as an ASCII one (a Unicode hyphen, a full-width digit, a
Cyrillic ``Р``): to the eye ``P‑1077`` and ``P-1077`` are one player, to SQL two
(``tablectl.lookalike``). The same check runs at the keys and in the table core.
"""

from __future__ import annotations

import string
import unicodedata

from tablectl.lookalike import fold

MAX_LENGTH = 32
ALLOWED = frozenset(string.ascii_letters + string.digits + " -_./#")


def problem(player: str) -> str | None:
    """Why ``player`` cannot be a player id (one line), or None."""
    if not player or not player.strip():
        return "player id: empty (type the player's card number or id)"
    if len(player) > MAX_LENGTH:
        return f"player id: {len(player)} characters, at most {MAX_LENGTH}"
    if player != player.strip(" "):
        return "player id: a space at its start or end"
    for i, c in enumerate(player, 1):
        if c in ALLOWED:
            continue
        if not c.isprintable():
            return f"player id: control character U+{ord(c):04X} at character {i}"
        looks = "-" if fold(c) == "-" else unicodedata.normalize("NFKC", c)
        if looks != c and looks.isascii() and looks.isprintable() and len(looks) == 1:
            return f"player id: {c!r} (U+{ord(c):04X}, character {i}) looks like {looks!r}: type {looks!r}"
        if not c.isascii():
            return f"player id: {c!r} (U+{ord(c):04X}, character {i}) is not ASCII"
        return f"player id: {c!r} at character {i}: use letters, digits, space, - _ . / #"
    return None


__all__ = ["ALLOWED", "MAX_LENGTH", "problem"]
