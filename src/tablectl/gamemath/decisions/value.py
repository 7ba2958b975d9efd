"""The exact value of every option of every player decision of the five games, from what the
player could see (``Sight``): ``decision_values(game, options, sight)``, the best option, the cost
of a choice (``DecisionValues.cost``), and ``best_knowing_dealer``: the best option had the player
seen the dealer's cards.

Each game's enumeration is its own module (``decision_threecard``, ``decision_ranks``,
``decision_holdem``; ``holdem_hidden`` for the sights of one Texas Hold'em Bonus decision
under several hypotheses at once, ``decision_values_many``); this one dispatches and caches.
Results are cached by (game, options, house rules, decks) and the cards as seen, then by
canonical cards: suits are forgotten (each suit's ranks kept, the suits put in order) where suits
matter (Three Card Poker, Texas Hold'em Bonus), only ranks are kept where they do not (One Card
Poker, One for the Money), and cards whose order does not matter are sorted. Values are exact Fractions,
per unit of the seat's initial main wager.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tablectl.gamemath.decisions import holdem as decision_holdem
from tablectl.gamemath.decisions import holdem_hidden
from tablectl.gamemath.decisions import ranks as decision_ranks
from tablectl.gamemath.decisions import threecard as decision_threecard
from tablectl.gamemath.decisions.sight import DecisionValues, Sight
from tablectl.rules import one_card_poker as ocp
from tablectl.rules import one_for_the_money as oftm
from tablectl.rules import texas_holdem_bonus as thb
from tablectl.rules import three_card_poker as tcp
from tablectl.rules import three_card_poker_florida as fl
from tablectl.rules.houserules import RULES_BY_GAME

GAMES = (tcp.GAME, fl.GAME, ocp.GAME, oftm.GAME, thb.GAME)
_SUITED = (tcp.GAME, fl.GAME, thb.GAME)
_cache: dict[tuple[Any, ...], DecisionValues] = {}
CACHE_LIMIT = 1_000_000
#: whole decisions judged from these values (``tablectl.gamemath.decisions.judge``), forgotten with them
JUDGED: dict[tuple[Any, ...], Any] = {}


class DecisionError(ValueError):
    """A decision the math cannot value as given (unknown game, impossible cards)."""


def _entry(c: object, f: Any) -> tuple[int, int]:
    return (0, f(c)) if isinstance(c, int) else (1, 0 if c is None else 1 + (c == "low"))


def canonical(game: str, sight: Sight) -> tuple[Any, ...]:
    """A key equal for every sight the game values alike (see the module docstring). Where suits
    matter: each suit's ranks in each group of cards (own, board, dealer's known, others), the
    four suits' signatures sorted -- equal exactly when one sight is the other with suits renamed."""
    if game not in _SUITED:
        rank = lambda c: c >> 2  # noqa: E731
        own = tuple(map(rank, sight.own)) if game == oftm.GAME else tuple(sorted(map(rank, sight.own)))
        return (own, tuple(sorted(_entry(c, rank) for c in sight.dealer)),
                tuple(sorted(map(rank, sight.others))), sight.made)
    known = [c for c in sight.dealer if isinstance(c, int)]
    marks = tuple(sorted(_entry(c, int) for c in sight.dealer if not isinstance(c, int)))
    # each card as its group's offset plus its rank (ranks < 16), listed by suit and sorted: each
    # suit's ranks in each group, in one tuple
    suits: tuple[list[int], ...] = ([], [], [], [])
    for offset, group in ((0, sight.own), (16, sight.board), (32, known), (48, sight.others)):
        for c in group:
            suits[c & 3].append(offset + (c >> 2))
    for ranks in suits:
        ranks.sort()
    signature = tuple(sorted(map(tuple, suits)))
    return (signature, marks, tuple(d for d in sight.made if d != thb.CHECK))


def _check(game: str, sight: Sight, decks: int) -> None:
    cards = sight.seen()
    if any(not 0 <= c < 52 for c in cards):
        raise DecisionError(f"{game}: a card outside 0-51 in {list(cards)}")
    if decks == 1 and len(set(cards)) != len(cards):
        raise DecisionError(f"{game}: a card seen twice in a one-deck game: {sorted(cards)}")


def decision_values(game: str, options: Sequence[str], sight: Sight, rules: Any = None, decks: int = 1) -> DecisionValues:
    """Each of ``options``' exact value (per initial main wager) for a seat that saw ``sight``
    at ``game`` under ``rules`` (None: the defaults), from ``decks`` decks."""
    if game not in GAMES:
        raise DecisionError(f"unknown game {game!r} (expected one of {', '.join(GAMES)})")
    rules = RULES_BY_GAME[game]() if rules is None else rules
    options = tuple(options)
    if game in (tcp.GAME, fl.GAME) and len(sight.dealer) == 3 and all(isinstance(c, int) for c in sight.dealer):
        _check(game, sight, decks)  # the dealer's hand known: one showdown, cheaper than a look-up (and never cached:
        return decision_threecard.values(game, options, sight, rules)  # such sights hardly repeat)
    hit, keys = _cached(game, options, sight, rules, decks)
    return hit if hit is not None else _valued(game, options, sight, rules, decks, keys)


def _valued(game: str, options: tuple[str, ...], sight: Sight, rules: Any, decks: int,
            keys: tuple[tuple[Any, ...], ...]) -> DecisionValues:
    """:func:`decision_values` of a sight not cached, stored under ``keys``."""
    _check(game, sight, decks)
    try:
        if game in (tcp.GAME, fl.GAME):
            out = decision_threecard.values(game, options, sight, rules)
        elif game == oftm.GAME:
            out = decision_ranks.oftm_values(options, sight, decks)
        elif game == ocp.GAME:
            out = decision_ranks.ocp_values(options, sight, decks, rules)
        else:
            out = _holdem(options, sight, rules, decks)
    except (ValueError, ZeroDivisionError) as e:
        raise DecisionError(f"{game}: {e}") from None
    _store(keys, out)
    return out


def _holdem(options: tuple[str, ...], sight: Sight, rules: Any, decks: int) -> DecisionValues:
    """A Texas Hold'em Bonus decision: a Turn or River decision from the shared walk where it
    takes the sight (the same values, sooner), else enumerated alone."""
    if decks == 1 and thb.FLOP not in options:
        (out,) = holdem_hidden.values_many(options, [sight], rules)
        if out is not None:
            return out
    return decision_holdem.values(options, sight, rules)


def _cached(game: str, options: tuple[str, ...], sight: Sight, rules: Any,
            decks: int) -> tuple[DecisionValues | None, tuple[tuple[Any, ...], ...]]:
    """The cached values of a sight, if any, and the keys to store them under."""
    if game in (tcp.GAME, fl.GAME) and not (sight.dealer or sight.others or sight.board) and len(sight.own) == 3:
        exact = (game, options, rules, decks, tuple(sorted(sight.own)))  # own cards only: their order does not matter
    else:
        exact = (game, options, rules, decks, sight)
    hit = _cache.get(exact)
    if hit is not None:
        return hit, ()
    key = (game, options, rules, decks, canonical(game, sight))
    hit = _cache.get(key)
    if hit is not None:
        _cache[exact] = hit
        return hit, ()
    return None, (key, exact)


def _store(keys: tuple[tuple[Any, ...], ...], values: DecisionValues) -> None:
    if len(_cache) >= CACHE_LIMIT:
        _cache.clear()
    for k in keys:
        _cache[k] = values


def decision_values_many(game: str, options: Sequence[str], sights: Sequence[Sight], rules: Any = None,
                         decks: int = 1) -> list[DecisionValues]:
    """:func:`decision_values` of each of ``sights``, the sights of one decision under several
    hidden-information hypotheses (the same own cards, board and earlier decisions). Texas Hold'em
    Bonus's Turn and River decisions are valued together, from one walk over the dealer's hands
    (``holdem_hidden``); the values are the same as one at a time."""
    if game not in GAMES:
        raise DecisionError(f"unknown game {game!r} (expected one of {', '.join(GAMES)})")
    rules = RULES_BY_GAME[game]() if rules is None else rules
    options = tuple(options)
    out: list[DecisionValues | None] = [None] * len(sights)
    todo: list[tuple[int, tuple[tuple[Any, ...], ...]]] = []
    for i, sight in enumerate(sights):
        out[i], keys = _cached(game, options, sight, rules, decks)
        if out[i] is None:
            todo.append((i, keys))
    if game == thb.GAME and decks == 1 and len(todo) > 1 and thb.FLOP not in options:
        for i, _ in todo:
            _check(game, sights[i], decks)
        try:
            together = holdem_hidden.values_many(options, [sights[i] for i, _ in todo], rules)
        except (ValueError, ZeroDivisionError) as e:
            raise DecisionError(f"{game}: {e}") from None
        for (i, keys), values in zip(todo, together, strict=True):
            if values is not None:
                out[i] = values
                _store(keys, values)
    for i, keys in todo:
        if out[i] is None:  # valued alone, unless a sight of this batch alike to it was valued since
            out[i] = _cache.get(keys[0]) or _valued(game, options, sights[i], rules, decks, keys)
    return out  # type: ignore[return-value]


def best_knowing_dealer(game: str, options: Sequence[str], sight: Sight, dealer: Sequence[int], rules: Any = None,
                        decks: int = 1) -> str | None:
    """The best option had the seat seen every one of the dealer's cards (``dealer``)."""
    return decision_values(game, options, sight.knowing(tuple(dealer)), rules, decks).best


def clear_cache() -> None:
    """Forget every cached value (benchmarks measure the cold rate this way)."""
    _cache.clear()
    JUDGED.clear()


__all__ = ["GAMES", "DecisionError", "DecisionValues", "Sight", "best_knowing_dealer", "canonical", "clear_cache", "decision_values",
           "decision_values_many"]
