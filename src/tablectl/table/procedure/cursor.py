"""The procedure cursor: one round's walk through its game's deal script (pure; no I/O).

The controller asks "where does the next card go?" (``expected``), hands over each card
(``place``), each decision (``decide``) and a shuffler's discard (``discarded``); the cursor
feeds the script and keeps what it is waiting for. Effects the script reports on the way
(``Reveal``, ``Trade``) queue in ``effects`` for the controller to log.

A card may be unknown (``None``: misread) until the dealer identifies it; the phase it belongs
to is not handed to the script before then. A card dealt by mistake and exposed can be taken
back (``retract``): its step is dealt again by the next card. When that card completed a phase
the script has already seen, the cursor replays the script without it (scripts are pure).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablectl.games.procedure import (
    MISSING,
    CardStep,
    Decide,
    Discard,
    Phase,
    Reveal,
    RoundContext,
    Script,
    Trade,
)
from tablectl.rounds import RoundHands


class CursorError(ValueError):
    """A request the procedure cannot take now (the message says why)."""


class RoundCursor:
    """Where one round's procedure stands."""

    __slots__ = (
        "_script",
        "_ctx",
        "_gen",
        "_sent",
        "_effects_after_phase",
        "phase",
        "filled",
        "decision",
        "discard",
        "done",
        "hands",
        "effects",
    )

    def __init__(self, script: Callable[[RoundContext], Script], ctx: RoundContext) -> None:
        self._script = script
        self._ctx = ctx
        self._gen = script(ctx)
        self._sent: list[Any] = []
        self._effects_after_phase = 0
        self.phase: Phase = ()
        self.filled: list[int | None] = []
        self.decision: Decide | None = None
        self.discard = False
        self.done = False
        self.hands: RoundHands | None = None
        self.effects: list[Reveal | Trade] = []
        self._run(None)  # start the script: sending None to a fresh generator is ``next``

    @property
    def context(self) -> RoundContext:
        return self._ctx

    # --- what the procedure waits for -----------------------------------------------------------

    def expected(self) -> CardStep | None:
        """The step the next card is dealt to, or None when no card is expected now."""
        i = len(self.filled)
        phase = self.phase
        return phase[i] if i < len(phase) else None

    def remaining(self) -> Phase:
        """The steps of the current phase still to be dealt (the placement plan, never cards)."""
        return self.phase[len(self.filled) :]

    def packet(self) -> tuple[CardStep, int] | None:
        """The next packet a hand-forming shuffler should deliver: (its step, card count) — the run
        of consecutive steps to the same position — or None."""
        rest = self.remaining()
        if not rest:
            return None
        first = rest[0]
        n = 1
        while n < len(rest) and rest[n].to == first.to:
            n += 1
        return first, n

    @property
    def unidentified(self) -> bool:
        """A misread card in the current phase waits for the dealer to identify it."""
        return None in self.filled

    # --- what happens --------------------------------------------------------------------------

    def place(self, card: int | None, past_burns: bool = False) -> CardStep:
        """The next card (None: misread) goes to the expected step; returns that step.

        ``past_burns``: the card was dealt to a position, not burned: burns due now were not dealt
        (``skip_burns``: the controller's "burn missing") and the card takes the step after them.
        """
        phase = self.phase
        i = len(self.filled)
        if i < len(phase):
            step = phase[i]
            if past_burns and step.burn:
                self.skip_burns()  # which completes the phase when the burns were its last steps
                return self.place(card)
            self.filled.append(card)
            if i + 1 == len(phase):  # the phase's last step: complete it unless a card is unknown
                self._maybe_complete()
            return step
        raise CursorError("no card is expected now")

    def place_run(self, cards: list[int | None]) -> None:
        """Several cards, each to the next step as ``place(card)`` puts it: for a caller that has
        read their steps from ``phase`` (after ``filled``) and knows the phase has them all."""
        filled = self.filled
        phase = self.phase
        if len(filled) + len(cards) > len(phase):
            raise CursorError("no card is expected now")
        filled.extend(cards)
        if len(filled) == len(phase) and None not in filled:  # _maybe_complete(), inline
            value = tuple(filled)
            self.phase = ()
            self.filled = []
            self._sent.append(value)  # _send(value), inline
            self._effects_after_phase = 0
            self._run(value)

    def skip_burns(self) -> int:
        """The burns due now were not dealt (a violation): step past them; returns how many."""
        n = 0
        while (step := self.expected()) is not None and step.burn:
            self.filled.append(MISSING)
            n += 1
        if n:
            self._maybe_complete()
        return n

    def identify(self, card: int) -> CardStep:
        """The first misread card of the phase is ``card``; returns its step."""
        try:
            i = self.filled.index(None)
        except ValueError:
            raise CursorError("no misread card waits to be identified") from None
        self.filled[i] = card
        step = self.phase[i]
        self._maybe_complete()
        return step

    def decide(self, seat: int, choice: str) -> Decide:
        """The awaited decision; ``CursorError`` if it is not this seat's turn or not an option."""
        d = self.decision
        if d is None:
            raise CursorError("no decision is awaited now")
        if seat != d.seat:
            raise CursorError(f"seat {d.seat} decides now, not seat {seat}")
        if choice not in d.options:
            raise CursorError(f"seat {seat} may choose {' or '.join(d.options)}, not {choice!r}")
        self.decision = None
        self._send(choice)
        return d

    def discarded(self, count: int) -> None:
        """A shuffler discarded the rest of its deck."""
        if not self.discard:
            raise CursorError("no discard is expected now")
        self.discard = False
        self._send(count)

    def retract(self) -> tuple[CardStep, int | None]:
        """The last card dealt is taken back (exposed: it becomes a burn). Returns its step and
        card; that step is dealt again by the next card. Only a card dealt to a position (not a
        burn), with no decision, reveal or trade after it."""
        if self.filled:
            step = self.phase[len(self.filled) - 1]
            if step.burn:
                raise CursorError("the last card was a burn")
            return step, self.filled.pop()
        if self.done or not self._sent or not isinstance(self._sent[-1], tuple) or self._effects_after_phase:
            raise CursorError("the last card can no longer be taken back (the procedure moved on)")
        last: tuple[int, ...] = self._sent.pop()
        self._replay()
        step = self.phase[len(last) - 1]
        if step.burn:
            self._sent.append(last)
            self._replay()
            raise CursorError("the last card was a burn")
        self.filled = list(last[:-1])
        return step, last[-1]

    def take_effects(self) -> list[Reveal | Trade]:
        """The reveals and trades reported since the last call."""
        effects, self.effects = self.effects, []
        return effects

    # --- internals -----------------------------------------------------------------------------

    def _maybe_complete(self) -> None:
        filled = self.filled
        if len(filled) == len(self.phase) and None not in filled:
            value = tuple(filled)
            self.phase = ()
            self.filled = []
            self._send(value)

    def _send(self, value: Any) -> None:
        self._sent.append(value)
        self._effects_after_phase = 0
        self._run(value)

    def _run(self, value: Any, *, replaying: bool = False) -> None:
        """Send ``value`` to the script and advance it until it waits for something."""
        try:
            instruction = self._gen.send(value)
            while True:
                if isinstance(instruction, tuple):
                    if instruction:
                        self.phase = instruction
                        return
                    instruction = self._gen.send(())
                elif isinstance(instruction, Decide):
                    self.decision = instruction
                    return
                elif isinstance(instruction, Discard):
                    self.discard = True
                    return
                elif isinstance(instruction, (Reveal, Trade)):
                    if not replaying:
                        self.effects.append(instruction)
                        self._effects_after_phase += 1
                    instruction = self._gen.send(None)
                else:
                    raise TypeError(f"a deal script yielded {instruction!r}")
        except StopIteration as stop:
            self.done = True
            self.hands = stop.value

    def _replay(self) -> None:
        """Run a fresh script through the values sent so far (effects are not reported again)."""
        values = self._sent
        self._gen = self._script(self._ctx)
        self._sent = []
        self.phase, self.filled, self.decision, self.discard = (), [], None, False
        self._run(None, replaying=True)
        for value in values:
            self.phase, self.filled, self.decision, self.discard = (), [], None, False
            self._sent.append(value)
            self._run(value, replaying=True)
