"""Ids that a person reads as the same: ``D-13``, ``D‑13`` (a non-ASCII hyphen), ``d-13`` and
``D-1З`` (a Cyrillic Ze for the 3) are one dealer to the eye and four to SQL. :func:`lookalikes`
finds them so a report can warn.

Two ids look alike when they fold to the same text (:func:`fold`: case, dashes, Unicode forms) or
have the same confusables skeleton (:func:`skeleton`: Unicode's UTS #39, ICU's implementation)
once folded, written in lower case or in upper case (the skeleton is case-sensitive: ``З`` is
confusable with ``3``, its lower case ``з`` is not). ICU is imported on first use only.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from functools import cache
from typing import Any

#: dashes and minus signs that are not ``-`` (Unicode's dash punctuation is found by category too)
_DASHES = frozenset("\u2212\ufe63\uff0d\u00ad")


def fold(name: str) -> str:
    """*name* as the eye reads it: NFKC-normalised, case-folded, every dash a ``-``, spaces trimmed."""
    text = unicodedata.normalize("NFKC", name).casefold().strip()
    return "".join("-" if c in _DASHES or unicodedata.category(c) == "Pd" else c for c in text)


def skeleton(text: str) -> str:
    """The UTS #39 confusables skeleton of *text* (ICU's ``SpoofChecker``): texts that look alike
    have the same skeleton (``D-1З`` and ``D-13``: ``D-l3``)."""
    return str(_checker().getSkeleton(0, text))


@cache
def _checker() -> Any:
    import icu  # PyICU: the Unicode consortium's own implementation, with its confusables data

    return icu.SpoofChecker()


def looks(name: str) -> tuple[str, ...]:
    """The texts *name* is read as: its :func:`fold` and the skeletons of that in lower and upper
    case; two names sharing one look alike."""
    folded = fold(name)
    return (f"fold:{folded}", f"lower:{skeleton(folded)}", f"upper:{skeleton(folded.upper())}")


def lookalikes(names: Iterable[str | None]) -> list[list[str]]:
    """The groups of two or more distinct *names* that look alike (:func:`looks`; a name like one
    of a group joins it), each sorted."""
    parent: dict[str, str] = {}

    def root(name: str) -> str:
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    seen: dict[str, str] = {}  # a look -> the first name read so
    for name in sorted({n for n in names if n is not None}):
        parent[name] = name
        for look in looks(name):
            other = seen.setdefault(look, name)
            parent[root(name)] = root(other)
    groups: dict[str, list[str]] = defaultdict(list)
    for name in parent:
        groups[root(name)].append(name)
    return sorted(sorted(g) for g in groups.values() if len(g) > 1)
