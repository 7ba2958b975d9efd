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

**The floor's rule.** ``tablectl floor`` corrects every (session, hypothesis) test of the floor
together (Holm at its ``--alpha``, ``analytics.floor.detection``). :func:`p_by_round` gives a
session's sequential p-value of each hypothesis after each round; :func:`floor_flagged` runs the
floor's own correction (``detection.flag`` with ``analytics.floor.detection.METHOD``) over a floor
of sessions' p-values; :func:`floor_rounds_to_flag` finds the first round at which one session
among honest ones of the same length is flagged (every p-value only falls as rounds are played and
Holm flags more where p-values fall, so a bisection finds it).

**What a profile gains.** :func:`pool_gain` estimates from the pool the player's expected gain per
round over ``basic`` (initial wagers): the mean over the deals of the best value of the
profile's view less the best value of the own cards, at the round's first decision (whose values
include the best play of what follows under the same view), times the share of rounds with the
information; and its standard error. ``gamemath.advantage`` counts the exact figure where it has one.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import numpy as np

from tablectl.analytics.floor import detection as floor_detection
from tablectl.detection.screen import ALPHA, TEMPERATURES, SeatTest, flag, llr_path
from tablectl.gamemath.decisions.value import decision_values
from tablectl.games import one_for_the_money as oftm_game
from tablectl.games import three_card_poker as tcp_game
from tablectl.games import three_card_poker_florida as fl_game
from tablectl.rules import one_for_the_money as oftm
from tablectl.rules import texas_holdem_bonus as thb
from tablectl.rules import three_card_poker as tcp
from tablectl.rules import three_card_poker_florida as fl
from tablectl.table.simulated.profiles import (
    RECREATIONAL_TEMPERATURE,
    Profile,
    sight_for,
)

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


def p_by_round(s: Session, hypotheses: tuple[str, ...], rounds: int, alternative: str = "both") -> np.ndarray:
    """Each hypothesis's sequential p-value (``detection.p_value``: min(1, exp(-max LLR so far)))
    after each of the session's first ``rounds`` rounds: an array hypotheses x rounds (1 before
    the first decision)."""
    last = np.searchsorted(s.rounds, np.arange(rounds), side="right") - 1  # the last decision of rounds 0..r
    out = np.ones((len(hypotheses), rounds))
    for i, h in enumerate(hypotheses):
        path, _ = llr_path(s.values["own"], s.values[h], s.choice, alternative=alternative)
        if not len(path):
            continue
        p = np.minimum(1.0, np.exp(-np.maximum.accumulate(path)))
        out[i] = np.where(last >= 0, p[np.maximum(last, 0)], 1.0)
    return out


def floor_flagged(pvalues: list[np.ndarray], alpha: float) -> np.ndarray:
    """Which sessions of a floor are flagged (any of their tests) by the floor's correction
    across every test of every session (``detection.flag`` with the floor's method, as
    ``analytics.floor.detection.detect`` runs it): ``pvalues`` one array per session, a p-value
    per hypothesis."""
    tests = [SeatTest(k, str(j), 1, 0.0, TEMPERATURES[0], float(p), ())
             for k, ps in enumerate(pvalues) for j, p in enumerate(ps)]
    out = np.zeros(len(pvalues), dtype=bool)
    for t in flag(tests, alpha, floor_detection.METHOD):
        out[t.seat] |= t.flagged
    return out


def floor_rounds_to_flag(target: np.ndarray, honest: list[np.ndarray], alpha: float) -> tuple[int | None, int]:
    """The session ``target`` (``p_by_round``'s array) on a floor with the ``honest`` sessions
    (arrays of as many rounds), every session at the same number of rounds played: the first round
    after which the floor flags ``target`` (None: not within the rounds), and how many honest
    sessions the floor flags after the last round."""
    rounds = target.shape[1]

    def at(r: int) -> np.ndarray:
        return floor_flagged([target[:, r], *(h[:, r] for h in honest)], alpha)

    end = at(rounds - 1)
    false_alarms = int(end[1:].sum())
    if not end[0]:
        return None, false_alarms
    lo, hi = 0, rounds - 1  # flagged at hi, the first such round in lo..hi
    while lo < hi:
        mid = (lo + hi) // 2
        if at(mid)[0]:
            hi = mid
        else:
            lo = mid + 1
    return lo + 1, false_alarms


def pool_gain(pool: Pool, profile: Profile) -> tuple[float, float]:
    """A profile's expected gain per round over ``basic`` (initial wagers) estimated from the pool,
    and its standard error (see the module doc; 0 for ``basic`` and ``recreational``, whose
    losses are not counted here)."""
    view = view_of(profile, True)
    if view == "own" or profile.kind == "recreational":
        return 0.0, 0.0
    diff = pool.first.values[view].max(axis=1) - pool.first.values["own"].max(axis=1)
    se = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else float("nan")
    return profile.share * float(diff.mean()), profile.share * se


#: per game: the dealer's cards dealt (read or seen by a profile) and what a partner shows a team seat
_CARDS = {tcp.GAME: (3, "his three cards"), fl.GAME: (3, "his three cards"),
          oftm.GAME: (2, "his first card (not a card he trades for)"), thb.GAME: (2, "his two hole cards")}
_ORDINAL = {1: "first", 2: "second", 3: "third"}


def describe(game: str, profile: Profile) -> str:
    """What a profile of the simulation knows at ``game``, in words: which cards, and how often."""
    dealer, partner = _CARDS[game]
    often = "every round" if profile.share == 1.0 else f"{profile.share:.0%} of the rounds (drawn per round; in the others it plays as basic)"
    if profile.kind == "hole-card":
        return f"the dealer's {_ORDINAL.get(profile.card + 1, f'#{profile.card + 1}')} dealt card of {dealer} seen, {often}"
    if profile.kind == "edge-sort":
        return f"each of the dealer's {dealer} cards read high (Q, K, A) or low, {often}"
    if profile.kind == "team":
        return (f"a two-seat team: one partner (seat 2) shows {partner} to this seat, every round; "
                "this seat's session is the one tested")
    if profile.kind == "recreational":
        return "own cards; chooses at random, softmax of the values at temperature 0.15"
    return "own cards; always the best option"


def changed(s: Session) -> int:
    """The session's decisions whose choice is not the best from the seat's own cards."""
    own = s.values["own"]
    return int((own[np.arange(len(s.choice)), s.choice] < own.max(axis=1)).sum())


__all__ = ["DECKS", "HYPOTHESES", "Pool", "Session", "Stage", "changed", "deal_pool", "describe", "floor_flagged", "floor_rounds_to_flag",
           "p_by_round", "pool_gain", "rounds_to_flag", "session", "view_of"]
