"""One seat's judged decisions for ``tablectl review --seat N``: those that cost the most and those
that only the dealer's cards explain (the choice is the best had the player seen the dealer's
cards, and not the best from what the player could see).

:class:`SeatDecisions` is a round sink (``review(..., rounds=...)``): it judges the seat's decisions
of each round the replay settled (``tablectl.gamemath.decisions.judge``) and keeps only what it lists, so its
memory does not grow with the log. :func:`lines` renders them.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tablectl.cards import text as card_text
from tablectl.detection.rows import detection_rows
from tablectl.detection.screen import ALPHA, DecisionRow, SeatTest, screen
from tablectl.gamemath.decisions.judge import JudgedDecision, judge_round, main_wager
from tablectl.gamemath.decisions.value import DecisionError
from tablectl.games import GAMES
from tablectl.progress import Told
from tablectl.review.model import RoundRecord
from tablectl.rounds import RoundHands


@dataclass(frozen=True, slots=True)
class SeatDecision:
    """A judged decision of the seat, with its round and the cards on the layout."""

    round_id: str
    seat: int
    choice: str
    best: str | None
    best_knowing_dealer: str | None
    cost_units: Fraction
    cost_cents: float | None
    own: tuple[str, ...]
    dealer: tuple[str, ...]
    board: tuple[str, ...]

    @property
    def dealer_explained(self) -> bool:
        """Only the dealer's cards explain the choice."""
        return self.choice == self.best_knowing_dealer and self.best is not None and self.choice != self.best


class SeatDecisions:
    """Collects one seat's costliest decisions (``top`` of them) and every one only the dealer's
    cards explain; counts the decisions judged and not valued."""

    def __init__(self, seat: int, top: int = 10, then: Callable[[RoundRecord], None] | None = None,
                 told: Told | None = None) -> None:
        self.seat, self.top, self.then, self.told = seat, top, then, told
        self._games: set[str] = set()  # whose decisions were valued once (their math compiled)
        self.judged = self.not_valued = 0
        self.total_cost = 0.0  # cents
        self._costly: list[tuple[Fraction, int, SeatDecision]] = []
        self.explained: list[SeatDecision] = []
        self._n = 0
        self.rows: list[DecisionRow] = []  # for the hidden-information test: a few numbers per decision
        self._round_ids: list[str] = []
        self.players: dict[str, int] = {}  # player the pit entered at the seat -> rounds it played there

    def __call__(self, rnd: RoundRecord) -> None:
        if self.then is not None:
            self.then(rnd)
        player = (rnd.players or {}).get(str(self.seat))
        if player is not None and self.seat in rnd.seats:
            self.players[player] = self.players.get(player, 0) + 1
        hands, how = rnd.hands, rnd.judge_with
        if hands is None or how is None or not any(s.seat == self.seat for s in hands.seats):
            return
        try:
            judged = [j for j in self._judge(hands, how[0], how[1] or 1) if j.point.seat == self.seat]
        except DecisionError:
            return
        seat = next(s for s in hands.seats if s.seat == self.seat)
        self._round_ids.append(rnd.id or f"{rnd.session}.{rnd.number}")
        self.rows += detection_rows(len(self._round_ids) - 1, hands, judged, how[0], how[1] or 1)
        game = GAMES.get(hands.game)
        stake = seat.wagers.get(main_wager(game.wagers if game else ()))
        for j in judged:
            self._add(rnd, j, stake, tuple(map(card_text, seat.cards)), tuple(map(card_text, hands.dealer)),
                      tuple(map(card_text, hands.board)))

    def _judge(self, hands: RoundHands, rules: Any, decks: int) -> list[JudgedDecision]:
        """The round's decisions judged; the first of a game's said on ``told`` if it takes
        seconds (its decision math is compiled on its first use on a machine)."""
        if self.told is None or hands.game in self._games:
            return judge_round(hands, rules, decks)
        self._games.add(hands.game)
        with self.told.slow(f"preparing the exact math of {hands.game} decisions (compiled on its first use on this "
                            "machine, then loaded)", f"{hands.game} decision math ready in {{seconds}} s"):
            return judge_round(hands, rules, decks)

    def _add(self, rnd: RoundRecord, j: JudgedDecision, stake: int | None, own: tuple[str, ...],
             dealer: tuple[str, ...], board: tuple[str, ...]) -> None:
        if j.cost is None:
            self.not_valued += 1
            return
        self.judged += 1
        cents = None if stake is None else float(j.cost * stake)
        self.total_cost += cents or 0.0
        d = SeatDecision(rnd.id or f"{rnd.session}.{rnd.number}", self.seat, j.point.choice, j.best,
                         j.best_knowing_dealer, j.cost, cents, own, dealer, board)
        if d.dealer_explained:
            self.explained.append(d)
        if j.cost > 0:
            self._n += 1
            item = (j.cost, -self._n, d)
            if len(self._costly) < self.top:
                heapq.heappush(self._costly, item)
            else:
                heapq.heappushpop(self._costly, item)

    def tests(self) -> list[SeatTest]:
        """The seat tested for every hidden-information hypothesis its game allows, flagged at
        :data:`~tablectl.detection.screen.ALPHA` (Holm across the hypotheses)."""
        return screen(self.rows)

    def round_id(self, index: int) -> str:
        """The round id of a test's evidence (``Evidence.round``)."""
        return self._round_ids[index]

    @property
    def costliest(self) -> list[SeatDecision]:
        """The seat's costliest decisions, most costly first."""
        return [d for _, _, d in sorted(self._costly, key=lambda x: (-x[0], -x[1]))]


def _row(d: SeatDecision) -> str:
    cards = f"own {' '.join(d.own)}; dealer {' '.join(d.dealer) or '-'}" + (f"; board {' '.join(d.board)}" if d.board else "")
    money = "" if d.cost_cents is None else f" (${d.cost_cents / 100:,.2f})"
    return (f"  round {d.round_id}: {d.choice}, best {d.best}, knowing the dealer {d.best_knowing_dealer or '-'}; "
            f"cost {float(d.cost_units):.4f} units{money}; {cards}")


def lines(found: SeatDecisions) -> list[str]:
    """The ``--seat`` section of review's text report."""
    out = [f"Seat {found.seat}: {found.judged} decisions judged, {found.not_valued} not valued; "
           f"cost ${found.total_cost / 100:,.2f}; {len(found.explained)} only the dealer's cards explain"]
    if found.players:
        out.append("Players entered at the seat: " + ", ".join(f"{p} ({n} rounds)" for p, n in sorted(found.players.items())))
    if found.explained:
        out.append("Decisions only the dealer's cards explain:")
        out += [_row(d) for d in found.explained]
    costly = found.costliest
    out.append(f"Costliest decisions ({len(costly)}):" if costly else "No decision cost anything.")
    out += [_row(d) for d in costly]
    tests = found.tests()
    if tests:
        out.append(f"Play from hidden cards (alpha {ALPHA:g}, Holm across the {len(tests)} hypotheses; "
                   "p: the chance an honest player's decisions lean this far):")
        for t in tests:
            verdict = "FLAGGED" if t.flagged else "not flagged"
            out.append(f"  {t.hypothesis}: {verdict}; p {t.p_value:.3g}, {t.decisions} decisions tell it apart, "
                       f"{len(t.evidence)} only it explains")
            if t.flagged:
                out += [f"    round {found.round_id(e.round)}: {e.choice}, best from own cards {e.own_best}, "
                        f"best knowing it {e.hidden_best}; gives up {e.cost:.4f} units" for e in t.evidence[:10]]
    return out


__all__ = ["SeatDecision", "SeatDecisions", "lines"]
