"""Each wager's house edge and exact variance from ``tablectl.gamemath``, under the house rules
and pay tables given (the floor report gives those of the approved set judging the rounds; None: the
game's defaults).

``edge`` is the bank's expected win per unit of the initial wager (the bets a decision adds, such
as Play or War, are part of it), ``variance`` the exact variance of the bank's result per unit,
``outcomes`` its distribution (each result per unit and its probability), all from the
analysis's outcome counts (no sampling). A wager is judged under the strategy the analysis
assumes (``strategy``): a player who plays worse hands the bank more, so a table holding *less*
than expected is the one that needs a look. A wager the math does not analyse has ``edge``
None and its ``note`` says so; the floor report leaves it out of the expected hold and its band.
Texas Hold'em Bonus's main game is analysed once per machine (under a minute of CPU;
:func:`prepare`) and then read from its cache: the figures are exact, the same on every machine.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import orjson

from tablectl.gamemath.table import BetAnalysis


@dataclass(frozen=True)
class WagerMath:
    """One wager under one set of rules."""

    game: str
    wager: str
    edge: float | None
    variance: float | None
    strategy: str
    note: str
    #: the bank's result per unit of the initial wager and its probability, one pair per outcome
    #: (empty for a wager the math does not analyse): what ``tails`` takes a group's p-value from
    outcomes: tuple[tuple[float, float], ...] = ()


#: the note of a wager whose math this machine had not computed (a game math cache made so is stale)
NOT_COMPUTED = "not analysed on this machine"


def complete(entries: list[dict[str, Any]]) -> bool:
    """Whether cached ``WagerMath`` entries (as dicts) hold every wager's math this code computes."""
    return all(isinstance(e, dict) and NOT_COMPUTED not in str(e.get("note", "")) for e in entries)


def prepare(game: str, progress: Callable[[str], None] | None = None) -> None:
    """Compute what ``game``'s math needs that takes long the first time on a machine (Texas
    Hold'em Bonus's main game, cached by ``holdem_strategy``), telling ``progress`` before and
    after (how long it took); a ``tablectl.progress.Told`` is told these whether it is shown or not,
    and the share done as it goes."""
    if game != "texas-holdem-bonus":
        return
    from tablectl.gamemath.holdem import strategy as holdem_strategy
    from tablectl.progress import Told

    if not holdem_strategy.will_solve():
        return
    told = progress if isinstance(progress, Told) else Told(io.StringIO(), False)
    say = told.say if isinstance(progress, Told) else progress
    if say is not None:
        say("computing the Texas Hold'em Bonus main game's optimal strategy (once per machine: under a minute of CPU)")
    told.begin("computing the Texas Hold'em Bonus main game")
    holdem_strategy.analyse(progress=told.share)
    seconds = told.end()
    if say is not None:
        say(f"Texas Hold'em Bonus main game computed in {seconds:.0f} s (cached in {holdem_strategy.cache_dir()})")


def moments(analysis: BetAnalysis) -> tuple[float, float]:
    """(house edge, variance) per unit of the initial wager, exact until the final float."""
    n = analysis.combinations
    mean = sum((line.pays * line.combinations for line in analysis.outcomes), Fraction(0)) / n
    square = sum((line.pays * line.pays * line.combinations for line in analysis.outcomes), Fraction(0)) / n
    return float(-mean), float(square - mean * mean)


def outcomes(analysis: BetAnalysis) -> tuple[tuple[float, float], ...]:
    """(the bank's result per unit, probability) of each distinct result of ``analysis``, by result."""
    counts: dict[Fraction, int] = {}
    for line in analysis.outcomes:
        counts[-line.pays] = counts.get(-line.pays, 0) + line.combinations
    n = analysis.combinations
    return tuple((float(v), c / n) for v, c in sorted(counts.items()) if c)


def wager_math(game: str, decks: int | None, rules: dict[str, Any] | None) -> list[WagerMath]:
    """Every wager of ``game`` at ``decks`` decks under ``rules`` (``{"house_rules", "pay_tables"}``
    as logged; None: the game's defaults)."""
    return list(_cached(game, decks, orjson.dumps(rules, option=orjson.OPT_SORT_KEYS).decode()))


@cache
def _cached(game: str, decks: int | None, rules_json: str) -> tuple[WagerMath, ...]:
    from tablectl.review.replay import game_rules

    try:
        settlement = game_rules(game, orjson.loads(rules_json), "export").settlement
    except ValueError as e:
        return (WagerMath(game, "*", None, None, "", f"house rules not usable: {e}"),)
    analyses = _ANALYSES.get(game)
    if analyses is None:
        return (WagerMath(game, "*", None, None, "", f"no game math for {game}"),)
    try:
        found = analyses(decks, settlement)
    except ValueError as e:
        return (WagerMath(game, "*", None, None, "", f"game math refused: {e}"),)
    out = []
    for wager, analysis, note in found:
        if analysis is None:
            out.append(WagerMath(game, wager, None, None, "", note))
            continue
        edge, variance = moments(analysis)
        out.append(WagerMath(game, wager, edge, variance, "; ".join(analysis.strategy), note, outcomes(analysis)))
    return tuple(out)


Found = list[tuple[str, BetAnalysis | None, str]]


def _one_card_poker(decks: int | None, rules: Any) -> Found:
    from tablectl.gamemath import one_card_poker as m

    d = decks or 6
    return [("primary", m.primary_extend(d, rules), "the player extends every tie"),
            ("tie", m.tie_wager(d, rules, extended=True), "")]


def _three_card_poker(decks: int | None, rules: Any) -> Found:
    from tablectl.gamemath import three_card_poker as m

    return [("ante", m.ante_play(rules), ""), ("pairplus", m.pairplus(rules), ""),
            ("six-card-bonus", m.six_card_bonus(rules), "")]


def _florida(decks: int | None, rules: Any) -> Found:
    from tablectl.gamemath import three_card_poker as m

    return [("ante", m.florida_ante(), ""), ("pairplus", m.florida_pairplus(rules), "")]


def _one_for_the_money(decks: int | None, rules: Any) -> Found:
    from tablectl.gamemath import one_for_the_money as m

    analyses = m.analyses(decks or 6, rules)
    table = rules.perfect_match if rules.side_bet == "perfect-match" else rules.three_card_bonus
    bonus = [a for a in analyses if a.bet == "bonus" and a.rules.get("side_bet") == rules.side_bet
             and str(a.rules.get("pay_table", "")).endswith(table.describe())
             and a.rules.get("player", "").startswith("optimal")]
    found: Found = [("ante", analyses[0], "")]
    found.append(("bonus", bonus[0], "") if bonus else ("bonus", None, f"pay table {table.describe()} not analysed"))
    return found


def _texas_holdem_bonus(decks: int | None, rules: Any) -> Found:
    from tablectl.gamemath import texas_holdem_bonus as m
    from tablectl.gamemath.holdem.strategy import analyse

    found: Found = [("bonus", m.bonus(rules), "")]
    variant = getattr(rules, "ante_pays_from", "straight")
    main = [a for a in analyse() if a.rules.get("ante_pays_from") == variant]
    if main:
        found.append(("ante", main[0], f"optimal play, Ante pays from a {variant}"))
    else:
        found.append(("ante", None, f"main game with the Ante paying from a {variant} not analysed"))
    return found


_ANALYSES = {
    "one-card-poker": _one_card_poker,
    "three-card-poker": _three_card_poker,
    "three-card-poker-florida": _florida,
    "one-for-the-money": _one_for_the_money,
    "texas-holdem-bonus": _texas_holdem_bonus,
}
