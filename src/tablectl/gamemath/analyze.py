"""``analyze(game, decks)``: every analysed bet of a game, and which deck counts each game takes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tablectl.gamemath import one_card_poker, one_for_the_money, texas_holdem_bonus, three_card_poker
from tablectl.gamemath.advantage import cache as advantage_cache
from tablectl.gamemath.advantage import holdem_run as advantage_holdem_run
from tablectl.gamemath.advantage import one_card_poker as advantage_one_card_poker
from tablectl.gamemath.advantage import one_for_the_money as advantage_one_for_the_money
from tablectl.gamemath.advantage import threecard as advantage_threecard
from tablectl.gamemath.advantage.figure import AdvantageFigure
from tablectl.gamemath.table import BetAnalysis, GameAnalysis
from tablectl.rules.paytables import AnteBonusTable

Progress = Callable[[float], None]  # told the share of a count done, 0 to 1


@dataclass(frozen=True, slots=True)
class CachedFigures:
    """Advantage-play figures that take half a minute or more to count: counted once per machine
    (``count``, telling its progress) and then read from the cache (``advantage_cache``, by
    ``name`` and what they depend on)."""

    name: str
    depends_on: str
    count: Callable[[Progress | None], list[AdvantageFigure]]

    def cached(self) -> bool:
        """Whether this machine has counted them."""
        return advantage_cache.load(self.name, self.depends_on) is not None

    def __call__(self, decks: int, progress: Progress | None = None) -> list[AdvantageFigure]:
        return advantage_cache.load_or_compute(self.name, self.depends_on, lambda: self.count(progress))


@dataclass(frozen=True, slots=True)
class GameMath:
    """A game's analysis: its default and allowed deck counts, the function that runs it and the
    one that computes its advantage-play figures (``slow_advantage``: half a minute or more the
    first time on a machine, then cached; ``--quick`` leaves them out)."""

    default_decks: int
    decks: range
    run: Callable[..., list[BetAnalysis]]  # (decks, **options) -> the bets
    advantage: Callable[[int], list[AdvantageFigure]] = lambda _: []  # decks -> the figures

    @property
    def slow_advantage(self) -> CachedFigures | None:
        """The advantage-play figures if they take long the first time on a machine."""
        return self.advantage if isinstance(self.advantage, CachedFigures) else None


GAMES: dict[str, GameMath] = {
    "one-card-poker": GameMath(6, range(1, 9), one_card_poker.analyses, advantage_one_card_poker.analyses),
    "three-card-poker": GameMath(
        1, range(1, 2), lambda _: three_card_poker.player_banked(),
        CachedFigures("three-card-poker", AnteBonusTable().describe(), advantage_threecard.player_banked),
    ),
    "one-for-the-money": GameMath(6, range(1, 9), one_for_the_money.analyses, advantage_one_for_the_money.analyses),
    "three-card-poker-florida": GameMath(
        1, range(1, 2), lambda _: three_card_poker.florida_variant(),
        CachedFigures("three-card-poker-florida", "no ante bonus", advantage_threecard.florida),
    ),
    # the hole-card figures take hours: counted only by ``tablectl math texas-holdem-bonus --advantage``
    "texas-holdem-bonus": GameMath(1, range(1, 2), lambda _, **options: texas_holdem_bonus.analyses(**options),
                                   lambda _: advantage_holdem_run.cached()),
}


def analyze(game: str, decks: int | None = None, advantage: bool = True, *, advantage_progress: Progress | None = None,
            **options: object) -> GameAnalysis:
    """Every analysed bet of ``game`` at ``decks`` decks (default: the game's usual shoe), and
    with ``advantage`` its advantage-play figures (``advantage_progress``: told the share of
    slow ones counted). ``options`` go to a game's analysis that takes them (Texas Hold'em Bonus:
    ``main``, ``strategy_file``, ``export``, ``progress``).

    Raises ``KeyError`` for an unknown game and ``ValueError`` for a deck count the game does
    not take."""
    math = GAMES[game]
    decks = math.default_decks if decks is None else decks
    if decks not in math.decks:
        allowed = f"{math.decks.start}" if len(math.decks) == 1 else f"{math.decks.start}-{math.decks.stop - 1}"
        raise ValueError(f"{game} is dealt from {allowed} deck(s), not {decks}")
    bets = math.run(decks, **options) if options else math.run(decks)
    if not advantage:
        return GameAnalysis(game, decks, bets, [])
    slow = math.slow_advantage
    return GameAnalysis(game, decks, bets, slow(decks, advantage_progress) if slow else math.advantage(decks))
