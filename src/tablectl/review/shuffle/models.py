"""Reference shuffle models: good and deliberately bad shufflers, as pure functions.

Used by the shuffle-quality tests to prove that each analysis passes a good shuffle and fails the
bad ones, and reusable by the simulators:

* :func:`uniform_shuffle` - a perfect shuffle (Fisher-Yates via :meth:`random.Random.shuffle`);
* :func:`gsr_riffle` / :func:`riffles` - the Gilbert-Shannon-Reeds riffle shuffle (Bayer and
  Diaconis 1992): cut binomially, then drop cards from each packet with probability proportional
  to its size. Seven riffles are "about right" for 52 cards by total variation; 1-3 are far off;
* :func:`shelf_shuffle` - the shelf shuffler of Diaconis, Fulman and Holmes (2013): cards are dealt
  from the bottom of the deck, each onto one of ``shelves`` shelves chosen uniformly, placed on top
  of or below that shelf's pile with probability 1/2; the piles are then stacked in random order;
* :func:`simulate_csm` - a continuous shuffling machine's dispense/return event stream, either a
  uniform pool (every card inside equally likely to come out next) or a lagging carousel that parks
  returned cards next to the exit (``"near_exit"``: they come out again far too soon) or away from
  it (``"far_from_exit"``: they cannot come out again for a long while).

Every function takes the random source as an argument and never touches global random state; decks
are sequences of card ints (top first) and are never mutated.
"""

from __future__ import annotations

import heapq
import random
from collections import deque
from collections.abc import Sequence
from typing import Literal, TypeVar

from tablectl.review.shuffle.common import CsmEvent

T = TypeVar("T")

CarouselMode = Literal["uniform", "near_exit", "far_from_exit"]


def uniform_shuffle(deck: Sequence[T], rng: random.Random) -> list[T]:
    """A uniformly random permutation of ``deck`` (a new list)."""
    out = list(deck)
    rng.shuffle(out)
    return out


def gsr_riffle(deck: Sequence[T], rng: random.Random) -> list[T]:
    """One Gilbert-Shannon-Reeds riffle shuffle of ``deck`` (top first); returns a new list.

    The cut takes the top ``c ~ Binomial(n, 1/2)`` cards; the two packets are then merged, the next
    card coming from a packet with probability proportional to the cards left in it. This makes
    every one of the ``C(n, c)`` interleavings equally likely, which is the GSR model.
    """
    n = len(deck)
    cut = sum(rng.getrandbits(1) for _ in range(n))
    left, right = 0, cut  # next unused index in each packet
    a, b = cut, n - cut  # cards left in each packet
    out: list[T] = []
    while a or b:
        if rng.random() * (a + b) < a:
            out.append(deck[left])
            left += 1
            a -= 1
        else:
            out.append(deck[right])
            right += 1
            b -= 1
    return out


def riffles(deck: Sequence[T], times: int, rng: random.Random) -> list[T]:
    """``times`` successive GSR riffle shuffles of ``deck``."""
    if times < 0:
        raise ValueError(f"times must be >= 0, got {times}")
    out = list(deck)
    for _ in range(times):
        out = gsr_riffle(out, rng)
    return out


def shelf_shuffle(deck: Sequence[T], rng: random.Random, shelves: int = 10, passes: int = 1) -> list[T]:
    """The DFH shelf shuffler: ``passes`` passes through a machine with ``shelves`` shelves.

    Cards are dealt one at a time from the bottom of the deck; each goes to a uniformly chosen shelf
    and is put on top of or below the cards already there with probability 1/2. The shelves are then
    stacked in a random order. Each shelf is therefore a "peak" in original positions (rising then
    falling), which is the structure the guessing test exploits.
    """
    if shelves < 1:
        raise ValueError(f"shelves must be >= 1, got {shelves}")
    out = list(deck)
    for _ in range(passes):
        piles: list[deque[T]] = [deque() for _ in range(shelves)]
        for c in reversed(out):
            pile = piles[rng.randrange(shelves)]
            if rng.getrandbits(1):
                pile.appendleft(c)
            else:
                pile.append(c)
        rng.shuffle(piles)
        out = [c for pile in piles for c in pile]
    return out


def simulate_csm(
    rng: random.Random,
    *,
    decks: int = 6,
    rounds: int = 300,
    cards_per_round: tuple[int, int] = (4, 16),
    mode: CarouselMode = "uniform",
    lag: int | None = None,
) -> list[CsmEvent]:
    """A continuous shuffler's event stream: each round dispenses some cards, then returns them.

    The machine starts holding ``decks`` full decks. Each round dispenses a uniform number of cards in
    ``cards_per_round`` (inclusive) and then returns those cards in a random order. How the next card
    is chosen depends on ``mode``:

    * ``"uniform"``: any card inside is equally likely (the null model of the re-entry test);
    * ``"near_exit"``: a lagging carousel that parks each returned card in a slot next to the exit -
      it comes out again at a uniformly random dispense among the next ``lag`` (default: an eighth of
      the cards in the game), ahead of the rest of the pool, which is dispensed uniformly;
    * ``"far_from_exit"``: each returned card is parked away from the exit and cannot come out for
      ``lag`` dispenses (default: half the cards in the game); then it joins the uniform pool.
    """
    lo, hi = cards_per_round
    size = 52 * decks
    if decks < 1 or not 1 <= lo <= hi < size:
        raise ValueError("need decks >= 1 and 1 <= cards_per_round[0] <= cards_per_round[1] < deck size")
    if mode not in ("uniform", "near_exit", "far_from_exit"):
        raise ValueError(f"unknown carousel mode {mode!r}")
    if lag is None:
        lag = max(1, size // 8) if mode == "near_exit" else max(1, size // 2)
    pool = [c for c in range(52) for _ in range(decks)]
    parked: list[tuple[int, int, int]] = []  # (dispense number it is due / released at, tie-break, card)
    dispensed = 0
    events: list[CsmEvent] = []
    for _ in range(rounds):
        out: list[int] = []
        for _ in range(rng.randint(lo, hi)):
            dispensed += 1
            if mode == "far_from_exit":
                while parked and (parked[0][0] <= dispensed or not pool):
                    pool.append(heapq.heappop(parked)[2])
            if mode == "near_exit" and parked and parked[0][0] <= dispensed:
                c = heapq.heappop(parked)[2]
            else:
                i = rng.randrange(len(pool))
                pool[i], pool[-1] = pool[-1], pool[i]
                c = pool.pop()
            out.append(c)
            events.append(CsmEvent("dispense", c, len(events)))
        rng.shuffle(out)
        for c in out:
            events.append(CsmEvent("return", c, len(events)))
            if mode == "uniform":
                pool.append(c)
            elif mode == "near_exit":
                heapq.heappush(parked, (dispensed + rng.randint(1, lag), len(events), c))
            else:
                heapq.heappush(parked, (dispensed + lag + 1, len(events), c))
    return events
