"""A banking player's coverage limit.

Where payouts are limited to what the banker has wagered, bets are settled in the game's order and
each win is paid from what the banker's stake has left; a win larger than what is left is paid
what is left ("win-capped"); once nothing is left, every later bet is returned ("no-action").
Bets forfeited before the showdown (folds) were collected already and are never returned.
"""

from __future__ import annotations

from tablectl.rounds import BetResult


class Cover:
    """What a banker can still pay during one settlement. ``stake=None``: no limit."""

    __slots__ = ("left", "losses_extend")

    def __init__(self, stake: int | None, losses_extend: bool = False) -> None:
        self.left = stake
        self.losses_extend = losses_extend

    def apply(self, result: BetResult, forfeited: bool = False) -> BetResult:
        """``result`` as the banker's remaining cover allows it."""
        if self.left is None or forfeited:
            return result
        if self.left <= 0:
            return result._replace(outcome="no-action", pays="", net=0)
        if result.net > self.left:
            capped = result._replace(outcome="win-capped", net=self.left)
            self.left = 0
            return capped
        if result.net > 0:
            self.left -= result.net
        elif result.net < 0 and self.losses_extend:
            self.left -= result.net
        return result


def cover(stake: int | None, losses_extend: bool = False) -> Cover | None:
    """The banker's cover for one settlement, or None when payouts are not limited (``stake``
    None): every result then stands as computed (what ``Cover(None).apply`` returns), and a game
    settling many rounds need not pass each result through it."""
    return None if stake is None else Cover(stake, losses_extend)
