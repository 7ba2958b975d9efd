"""Ids that a person reads as the same: ``D-13``, ``D‑13`` (a non-ASCII hyphen) and ``d-13`` are
one dealer to the eye and three to SQL. :func:`lookalikes` finds them so a report can warn."""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable

#: dashes and minus signs that are not ``-`` (Unicode's dash punctuation is found by category too)
_DASHES = frozenset("\u2212\ufe63\uff0d\u00ad")


def fold(name: str) -> str:
    """*name* as the eye reads it: NFKC-normalised, case-folded, every dash a ``-``, spaces trimmed."""
    text = unicodedata.normalize("NFKC", name).casefold().strip()
    return "".join("-" if c in _DASHES or unicodedata.category(c) == "Pd" else c for c in text)


def lookalikes(names: Iterable[str | None]) -> list[list[str]]:
    """The groups of two or more distinct *names* that :func:`fold` to the same text, each sorted."""
    groups: dict[str, set[str]] = defaultdict(set)
    for name in names:
        if name is not None:
            groups[fold(name)].add(name)
    return sorted(sorted(g) for g in groups.values() if len(g) > 1)
