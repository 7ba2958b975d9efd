"""The rows of the ``sightings`` dataset (pure, no I/O): what the floor's test of play from hidden
cards (``detection.screen.screen``) takes, one row per judged player decision and per
hidden-information hypothesis its game allows.

Export makes them where it judges a settled round (``analytics.export.rows.Extractor``): each decision
``gamemath.decisions.judge`` valued is valued again under each hypothesis (``detection.rows``:
``hole:K`` the dealer's K-th dealt card seen, ``edge`` every dealer card read high or low,
``team:J`` seat J's cards seen). A row holds the options, the choice, the options' values from the
seat's own information (``own``) and under the hypothesis (``hidden``; NULL where they are the
own values: the hypothesis tells nothing about that decision), in units of the initial main wager.
The floor reads them back as ``detection.DecisionRow``\\ s with :func:`decision_rows`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from tablectl.detection.rows import detection_rows, hypotheses
from tablectl.detection.screen import DecisionRow
from tablectl.gamemath.decisions.judge import JudgedDecision, decision_points
from tablectl.gamemath.decisions.value import DecisionError, decision_values_many
from tablectl.rounds import RoundHands
from tablectl.rules import texas_holdem_bonus as thb


class Sighting(NamedTuple):
    """One decision (the seat's ``decision``-th of the round) under one hypothesis: the options,
    the choice, the own values and the hypothesis's (None: the same as the own)."""

    seat: int
    decision: int
    hypothesis: str
    options: tuple[str, ...]
    choice: str
    own: tuple[float, ...]
    hidden: tuple[float, ...] | None


def value_together(hands: RoundHands, rules: Any, decks: int) -> None:
    """Value each Texas Hold'em Bonus Turn and River decision of ``hands`` from the player's own
    sight and under every hypothesis :func:`sightings` takes, in one walk over the dealer's hands
    (``decision_value.decision_values_many``): judging it and its sightings then find every value
    cached, where each would otherwise walk the dealer's hands once."""
    if hands.game != thb.GAME or decks != 1:
        return
    for p in decision_points(hands):
        if thb.FLOP in p.options:  # valued from the cached analysis, not a walk
            continue
        try:
            decision_values_many(hands.game, p.options, [p.sight, *hypotheses(hands, p.sight, p.seat).values()],
                                 rules, decks)
        except DecisionError:
            return  # judging says what is wrong, as without this


def sightings(hands: RoundHands, judged: Sequence[JudgedDecision], rules: Any = None, decks: int = 1) -> list[Sighting]:
    """The sightings of a settled round's ``judged`` decisions (none of a round the math cannot
    value under the hypotheses); by decision, then hypothesis."""
    out: list[Sighting] = []
    for j in judged:
        try:
            rows = detection_rows(0, hands, [j], rules, decks)
        except DecisionError:
            return []
        for r in rows:  # detection_rows' options and values are tuples already
            own = r.own
            for name in sorted(r.hidden):
                values = r.hidden[name]
                out.append(Sighting(r.seat, j.point.index, name, r.options, r.choice, own, None if values == own else values))
    return out


def decision_rows(records: Iterable[Mapping[str, Any]], seat: int = 0) -> tuple[list[DecisionRow], list[Any]]:
    """Sightings read back, one mapping per decision with its hypotheses gathered (``options``,
    ``choice``, ``own``; ``hypotheses``: the names; ``hidden``: their values, in the same order,
    None where they are the own values; ``round``: what the evidence names), in the order played,
    as one seat's ``DecisionRow``\\ s (numbered ``seat``) and, by ``DecisionRow.round``, each
    row's ``round``."""
    rows: list[DecisionRow] = []
    rounds: list[Any] = []
    for at, rec in enumerate(records):
        own = tuple(rec["own"])
        hidden = {str(h): own if v is None else tuple(v) for h, v in zip(rec["hypotheses"], rec["hidden"], strict=True)}
        rows.append(DecisionRow(at, seat, tuple(rec["options"]), str(rec["choice"]), own, hidden))
        rounds.append(rec["round"])
    return rows, rounds


__all__ = ["Sighting", "decision_rows", "sightings"]
