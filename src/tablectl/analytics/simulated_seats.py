"""Simulated seats for the detection power (pure, seeded): deals valued once, sessions drawn from them.

:func:`deal_pool` deals ``size`` rounds of a game as a table does (one deck; One for the Money six)
and values each decision of the seat under every view a profile may have: its own cards
(``"own"``) and each hidden-information hypothesis of :data:`HYPOTHESES` -- each view's sight made
by ``table.simulated.profiles.sight_for``, each value by ``gamemath.decisions.value`` (exact, as floats).
A decision that follows another (One for the Money's stand-or-raise after a trade; Texas Hold'em
Bonus's River after a Turn bet or a check) is valued on each branch.

:func:`session` plays ``rounds`` rounds drawn from the pool (with replacement) by one
``profiles.Profile``: the best option of its view (what ``profiles.choose`` returns for every
profile but recreational), or for ``recreational`` a draw from the softmax of the own values at
``profiles.RECREATIONAL_TEMPERATURE`` (``choose``'s draw, vectorised). :func:`rounds_to_flag`
runs the detection statistic along the session and returns the round at which the seat is
first flagged: Holm across the game's hypotheses at ``alpha`` (its first step: the smallest
sequential p-value at most alpha / m).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import numpy as np

from tablectl.detection.screen import ALPHA, llr_path
from tablectl.gamemath.decisions.value import decision_values
from tablectl.games import one_for_the_money as oftm_game
from tablectl.games import three_card_poker as tcp_game
from tablectl.games import three_card_poker_florida as fl_game
from tablectl.rules import one_for_the_money as oftm
from tablectl.rules import texas_holdem_bonus as thb
from tablectl.rules import three_card_poker as tcp
from tablectl.rules import three_card_poker_florida as fl
from tablectl.table.simulated.profiles import RECREATIONAL_TEMPERATURE, Profile, sight_for

#: the hypotheses tested per game whose decisions depend on hidden cards ("team:2": seat 2's cards)
HYPOTHESES: dict[str, tuple[str, ...]] = {
    tcp.GAME: ("hole:1", "hole:2", "hole:3", "edge", "team:2"),
    fl.GAME: ("hole:1", "hole:2", "hole:3", "edge", "team:2"),
    oftm.GAME: ("hole:1", "hole:2", "edge", "team:2"),
    thb.GAME: ("hole:1", "hole:2", "edge", "team:2"),
}
DECKS = {tcp.GAME: 1, fl.GAME: 1, oftm.GAME: 6, thb.GAME: 1}
_VIEW_PROFILE = {"edge": Profile(1, "edge-sort"), "team:2": Profile(1, "team")}


def view_of(profile: Profile, hidden: bool) -> str:
    """The view a profile decides from in a round (``hidden``: it has its information then)."""
    if profile.kind == "team":
        return "team:2"
    if hidden and profile.kind == "hole-card":
        return f"hole:{profile.card + 1}"
    if hidden and profile.kind == "edge-sort":
        return "edge"
    return "own"


@dataclass
class Stage:
    """One decision of every pooled deal: options, each view's values (deals x options) and
    best option's index (deals)."""

    options: tuple[str, ...]
    values: dict[str, np.ndarray] = field(default_factory=dict)
    best: dict[str, np.ndarray] = field(default_factory=dict)


@dataclass
class Pool:
    """A game's pooled deals: the first decision, and the decisions that follow a first choice
    (first choice's index -> Stage)."""

    game: str
    size: int
    first: Stage
    then: dict[int, Stage]


def _profile(view: str) -> Profile:
    if view.startswith("hole:"):
        return Profile(1, "hole-card", card=int(view[5:]) - 1)
    return _VIEW_PROFILE.get(view, Profile(1, "basic"))


class _Builder:
    """A Stage's rows as they are valued, deal by deal."""

    def __init__(self, options: tuple[str, ...]) -> None:
        self.options = options
        self.values: dict[str, list[list[float]]] = {}
        self.best: dict[str, list[int]] = {}

    def add(self, game: str, views: tuple[str, ...], own: list[int], board: list[int], dealer: list[int],
            partner: list[int], made: list[str]) -> None:
        for view in views:
            sight = sight_for(_profile(view), own=own, board=board, dealer=dealer, team=partner, made=made,
                              hidden=view != "own")
            dv = decision_values(game, self.options, sight, None, DECKS[game])
            self.values.setdefault(view, []).append([float(dv.values[o]) for o in self.options])  # type: ignore[arg-type]
            self.best.setdefault(view, []).append(self.options.index(dv.best))  # type: ignore[arg-type]

    def stage(self) -> Stage:
        return Stage(self.options, {v: np.asarray(a, dtype=float) for v, a in self.values.items()},
                     {v: np.asarray(a, dtype=np.int64) for v, a in self.best.items()})


def deal_pool(game: str, size: int, rng: random.Random) -> Pool:
    """``size`` deals of ``game``, each decision valued under every view (see the module doc)."""
    if game not in HYPOTHESES:
        raise ValueError(f"deal_pool: no decision of {game!r} depends on hidden cards (expected one of {', '.join(HYPOTHESES)})")
    views = ("own", *HYPOTHESES[game])
    if game in (tcp.GAME, fl.GAME):
        first = _Builder(tcp_game.OPTIONS if game == tcp.GAME else fl_game.OPTIONS)
        for _ in range(size):
            d = rng.sample(range(52), 9)
            first.add(game, views, d[:3], [], d[3:6], d[6:9], [])
        return Pool(game, size, first.stage(), {})
    if game == oftm.GAME:
        first, after = _Builder(oftm_game.FIRST_OPTIONS), _Builder(oftm_game.AFTER_TRADE)
        for _ in range(size):
            d = [c % 52 for c in rng.sample(range(52 * DECKS[game]), 5)]
            first.add(game, views, d[:1], [], d[1:3], d[3:4], [])
            after.add(game, views, [d[0], d[4]], [], d[1:3], d[3:4], [oftm.TRADE])
        return Pool(game, size, first.stage(), {oftm_game.FIRST_OPTIONS.index(oftm.TRADE): after.stage()})
    turn = _Builder((thb.TURN, thb.CHECK))
    rivers = {0: _Builder((thb.RIVER, thb.CHECK)), 1: _Builder((thb.RIVER, thb.CHECK))}
    for _ in range(size):
        d = rng.sample(range(52), 11)
        own, dealer, board, partner = d[:2], d[2:4], d[4:9], d[9:11]
        turn.add(game, views, own, board[:3], dealer, partner, [thb.FLOP])
        for i, made in ((0, thb.TURN), (1, thb.CHECK)):
            rivers[i].add(game, views, own, board[:4], dealer, partner, [thb.FLOP, made])
    return Pool(game, size, turn.stage(), {i: b.stage() for i, b in rivers.items()})


def _choose(stage: Stage, deals: np.ndarray, views: np.ndarray, names: tuple[str, ...], recreational: bool,
            gen: np.random.Generator, temperature: float) -> np.ndarray:
    own = stage.values["own"][deals]
    if recreational:
        w = np.exp((own - own.max(axis=1, keepdims=True)) / temperature)
        cum = np.cumsum(w / w.sum(axis=1, keepdims=True), axis=1)
        return np.minimum((cum < gen.random(len(deals))[:, None]).sum(axis=1), own.shape[1] - 1)
    best = np.stack([stage.best[n] for n in names])
    return best[views, deals]


@dataclass
class Session:
    """One seat's simulated decisions in order: round of each, values under each view (padded to
    the widest options), column of the choice."""

    rounds: np.ndarray
    values: dict[str, np.ndarray]
    choice: np.ndarray


def session(pool: Pool, profile: Profile, rounds: int, gen: np.random.Generator,
            temperature: float = RECREATIONAL_TEMPERATURE) -> Session:
    """``rounds`` rounds of ``profile`` on deals drawn from ``pool`` (see the module doc);
    ``temperature``: a recreational seat's (a sloppier honest player: higher)."""
    names = ("own", *HYPOTHESES[pool.game])
    deals = gen.integers(0, pool.size, rounds)
    hidden = gen.random(rounds) < profile.share
    view_names = [view_of(profile, h) for h in (False, True)]
    views = np.where(hidden, names.index(view_names[1]), names.index(view_names[0]))
    recreational = profile.kind == "recreational"
    first = _choose(pool.first, deals, views, names, recreational, gen, temperature)
    width = max(len(pool.first.options), *(len(s.options) for s in pool.then.values())) if pool.then else len(pool.first.options)
    parts = [(np.arange(rounds) * 2, pool.first, deals, first)]
    for taken, stage in pool.then.items():
        idx = np.flatnonzero(first == taken)
        parts.append((idx * 2 + 1, stage, deals[idx], _choose(stage, deals[idx], views[idx], names, recreational, gen, temperature)))
    order = np.argsort(np.concatenate([p[0] for p in parts]), kind="stable")
    values = {}
    for n in names:
        blocks = []
        for _, stage, d, _c in parts:
            block = np.full((len(d), width), -1e6)
            block[:, : len(stage.options)] = stage.values[n][d]
            blocks.append(block)
        values[n] = np.concatenate(blocks)[order]
    return Session(np.concatenate([p[0] for p in parts])[order] // 2, values, np.concatenate([p[3] for p in parts])[order])


def rounds_to_flag(s: Session, hypotheses: tuple[str, ...], alpha: float = ALPHA, alternative: str = "both") -> int | None:
    """The number of rounds played when the seat is first flagged (Holm across ``hypotheses`` at
    ``alpha``: the largest LLR so far reaches log(m / alpha)), or None if never in the session;
    ``alternative``: the statistic's (``detection.llr_path``)."""
    threshold = math.log(len(hypotheses) / alpha)
    hit = None
    for h in hypotheses:
        path, _ = llr_path(s.values["own"], s.values[h], s.choice, alternative=alternative)
        above = np.flatnonzero(path >= threshold)
        if len(above):
            hit = above[0] if hit is None else min(hit, above[0])
    return None if hit is None else int(s.rounds[hit]) + 1


__all__ = ["DECKS", "HYPOTHESES", "Pool", "Session", "Stage", "deal_pool", "rounds_to_flag", "session", "view_of"]
