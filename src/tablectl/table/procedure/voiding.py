"""A voided round's wagers (pure): every bet of the round so far — those placed before the deal
and those its decisions made (a Play, a Raise, a Flop bet) — goes back to the players. The
``round_voided`` line carries them (``returned``), the view shows them returned, and review
reads them as returned, never as won or lost."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tablectl.rules.bets import round_wagers


def returned_wagers(game: str, seats: Iterable[int], wagers: Mapping[int, Mapping[str, int]] | None,
                    decisions: Mapping[int, Iterable[str]]) -> dict[str, dict[str, int]] | None:
    """Seat (text) -> bet -> cents returned by a void of the round in play (None: the round was
    dealt without wagers)."""
    if wagers is None:
        return None
    out: dict[str, dict[str, int]] = {}
    for seat in seats:
        placed = round_wagers(game, dict(wagers.get(seat, {})), tuple(decisions.get(seat, ())))
        kept = {bet: cents for bet, cents in placed.items() if cents}
        if kept:
            out[str(seat)] = kept
    return out


__all__ = ["returned_wagers"]
