"""Simulated players' profiles (pure): what each profile sees at a decision and how it chooses.

A profile is named on the command line as ``SEAT:PROFILE`` (``tablectl run --player``):

- ``basic``: plays the best option from its own cards and the board (the exact values of
  ``gamemath.decisions.value``).
- ``recreational``: sees what ``basic`` sees, but chooses at random, option ``o`` with probability
  proportional to ``exp(EV(o) / T)``, ``T`` = ``RECREATIONAL_TEMPERATURE`` (0.15 initial wagers): an
  error that costs little is common (two options worth the same are a coin toss; 0.1 Ante apart
  the worse is taken about a third of the time), a costly one rare (1 Ante apart: about 0.1%).
- ``hole-card``: also sees one dealer card (the first dealt; ``hole-card#K``: the K-th dealt) and
  plays the best option knowing it.
- ``edge-sort``: also knows of every dealer card whether it is high (Q, K, A) or low.
- ``team``: also sees the cards of every other ``team`` seat at the table.

``@SHARE`` after hole-card or edge-sort (``hole-card@0.5``) gives the share of rounds in which the
hidden information is there (drawn per round and seat); in the other rounds the seat plays as
``basic``.

``=PLAYER`` at the end (``1:hole-card@0.5=P-1077``) gives the seat's player id, as the pit
enters it at the keys (``tablectl.table.player_id``): the virtual dealer enters it before the
first round, so the log names the player (``player_seated``) and the floor rates him.

A decision the math does not value (Texas Hold'em Bonus before the flop, unless its
analysis is cached) is taken as the table's other players take it (``players.optimal``).
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tablectl.gamemath.decisions.sight import HIGH, LOW, DealerCard, DecisionValues, Sight, is_high
from tablectl.table import player_id

PROFILES = ("basic", "recreational", "hole-card", "edge-sort", "team")
HIDDEN = ("hole-card", "edge-sort")
RECREATIONAL_TEMPERATURE = 0.15
_SPEC = re.compile(r"^(?P<seat>\d+):(?P<kind>[a-z-]+)(?:#(?P<card>\d+))?(?:@(?P<share>[0-9.]+))?(?:=(?P<player>.*))?$")


class ProfileError(ValueError):
    """A ``SEAT:PROFILE`` the table cannot take."""


@dataclass(frozen=True, slots=True)
class Profile:
    """One seat's profile: ``kind`` (one of PROFILES), the dealer card a hole-carder sees (0 the
    first dealt), the share of rounds with the hidden information, and the seat's player id."""

    seat: int
    kind: str
    card: int = 0
    share: float = 1.0
    player: str | None = None  # the player id entered for the seat

    def label(self) -> str:
        """The profile as written on the command line (without the player id)."""
        text = self.kind + (f"#{self.card + 1}" if self.card else "")
        return text + (f"@{self.share:g}" if self.share != 1.0 else "")


def parse_profile(spec: str, seats: int) -> Profile:
    """``SEAT:PROFILE`` -> Profile; a ProfileError names the spec and what is wrong."""
    m = _SPEC.fullmatch(spec.strip())
    if m is None:
        raise ProfileError(f"--player {spec!r}: expected SEAT:PROFILE[=PLAYER], e.g. 1:hole-card@0.5=P-1077")
    seat, kind = int(m["seat"]), m["kind"]
    if kind not in PROFILES:
        raise ProfileError(f"--player {spec!r}: unknown profile {kind!r} (expected one of {', '.join(PROFILES)})")
    if not 1 <= seat <= seats:
        raise ProfileError(f"--player {spec!r}: no seat {seat} at this table (seats 1-{seats})")
    if (m["card"] or m["share"]) and kind not in HIDDEN:
        raise ProfileError(f"--player {spec!r}: only {' and '.join(HIDDEN)} take #CARD or @SHARE")
    if m["card"] and kind != "hole-card":
        raise ProfileError(f"--player {spec!r}: only hole-card takes #CARD")
    card = int(m["card"]) - 1 if m["card"] else 0
    if card < 0:
        raise ProfileError(f"--player {spec!r}: dealer cards are counted from 1")
    try:
        share = float(m["share"]) if m["share"] else 1.0
    except ValueError:
        share = -1.0
    if not 0.0 < share <= 1.0:
        raise ProfileError(f"--player {spec!r}: the share after @ must be above 0 and at most 1")
    player = m["player"]
    if player is not None:
        wrong = player_id.problem(player)
        if wrong is not None:
            raise ProfileError(f"--player {spec!r}: {wrong}")
    return Profile(seat, kind, card, share, player)


def parse_profiles(specs: Sequence[str], seats: int) -> dict[int, Profile]:
    """Every ``--player`` spec by seat (a seat named twice is an error)."""
    out: dict[int, Profile] = {}
    for spec in specs:
        profile = parse_profile(spec, seats)
        if profile.seat in out:
            raise ProfileError(f"--player {spec!r}: seat {profile.seat} already has a profile")
        out[profile.seat] = profile
    return out


def sight_for(profile: Profile, *, own: Sequence[int], board: Sequence[int], dealer: Sequence[int | None],
              team: Sequence[int], made: Sequence[str], hidden: bool, dealer_exposed: bool = False) -> Sight:
    """What a seat of ``profile`` sees: its own cards and the board; the dealer's card(s) when the
    game exposes them (``dealer_exposed``); in a round with the hidden information (``hidden``), the
    dealer card a hole-carder reads or every dealer card's high/low mark; a team seat, ``team``
    (its partners' cards)."""
    seen_dealer: tuple[DealerCard, ...] = ()
    if dealer_exposed:
        seen_dealer = tuple(dealer)
    elif hidden and profile.kind == "hole-card" and profile.card < len(dealer) and dealer[profile.card] is not None:
        seen_dealer = tuple(c if i == profile.card else None for i, c in enumerate(dealer))
    elif hidden and profile.kind == "edge-sort":
        seen_dealer = tuple(None if c is None else HIGH if is_high(c) else LOW for c in dealer)
    others = tuple(team) if profile.kind == "team" else ()
    return Sight(tuple(own), board=tuple(board), dealer=seen_dealer, others=others, made=tuple(made))


def choose(profile: Profile, values: DecisionValues, rng: random.Random) -> str | None:
    """The option a seat of ``profile`` takes given the options' values (None: not valued)."""
    best = values.best
    if best is None or profile.kind != "recreational":
        return best
    options = list(values.values)
    top = max(v for v in values.values.values() if v is not None)
    weights = [math.exp(float(values.values[o] - top) / RECREATIONAL_TEMPERATURE) for o in options]  # type: ignore[operator]
    return rng.choices(options, weights)[0]


def truth_record(profiles: Mapping[int, Profile]) -> dict[str, str]:
    """Seat -> profile label, for the simulation's truth file."""
    return {str(seat): p.label() for seat, p in sorted(profiles.items())}


__all__ = ["HIDDEN", "PROFILES", "RECREATIONAL_TEMPERATURE", "Profile", "ProfileError", "choose", "parse_profile",
           "parse_profiles", "sight_for", "truth_record"]
