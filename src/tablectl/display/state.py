"""The live display's own state (pure values): the selected seat, seats sitting out of the next
round, a text prompt being typed, and the status line. The table's state is the ``TableView``;
this is only what the person at the keys has done on the display.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from tablectl.display.wagers import TableLimits


@dataclass(frozen=True, slots=True)
class PromptField:
    """One field of a text prompt (``hidden``: typed characters are shown as ``*``)."""

    label: str
    hidden: bool = False
    optional: bool = False


@dataclass(frozen=True, slots=True)
class TextPrompt:
    """A prompt for one or more lines of text (a card, a dealer id, a supervisor's credential).

    ``purpose`` says what the answers are for (``identify``, ``dealer``, ``player:SEAT``, ``leave:SEAT``, ``resolve``, ``void``,
    ``shoe_change``, ``quit``, ``end``, ``void_confirm``); ``values`` holds the fields already
    answered; ``buffer`` what is being typed for the current field. A ``yes_no`` prompt is a
    confirmation answered by one key.
    """

    purpose: str
    fields: tuple[PromptField, ...]
    values: tuple[str, ...] = ()
    buffer: str = ""
    yes_no: bool = False  # one key answers it: y yes, any other key no (no Enter)

    @property
    def current(self) -> PromptField:
        return self.fields[len(self.values)]

    def typed(self, text: str) -> TextPrompt:
        return replace(self, buffer=self.buffer + text)

    def backspace(self) -> TextPrompt:
        return replace(self, buffer=self.buffer[:-1])

    def entered(self) -> TextPrompt:
        """The current field answered with the buffer (the caller checks ``complete``)."""
        return replace(self, values=(*self.values, self.buffer), buffer="")

    @property
    def complete(self) -> bool:
        return len(self.values) >= len(self.fields)

    def shown(self) -> str:
        """The prompt line as displayed: ``label: buffer`` (a hidden field as ``*``)."""
        f = self.current
        text = "*" * len(self.buffer) if f.hidden else self.buffer
        return f"{f.label}: {text}"


@dataclass(frozen=True, slots=True)
class DisplayState:
    """What the display shows besides the table: selection, sit-outs, the wagers each seat stands
    on, a prompt, the help overlay, the status line."""

    selected: int | None = None
    sitting_out: frozenset[int] = field(default_factory=frozenset)
    standing: Mapping[int, Mapping[str, int]] = field(default_factory=dict)  # seat -> its wagers (same as last round)
    stakes: Mapping[int, int] = field(default_factory=dict)  # seat -> what it puts up when it banks (cents)
    prompt: TextPrompt | None = None
    status: str = ""
    status_error: bool = False
    help: bool = False  # the help overlay is open
    autoplay: bool = False  # a virtual dealer is playing (the key help says so)
    simulated: bool = False  # the display works a simulated device (Enter, w)
    limits: TableLimits | None = None  # None: the display takes no wagers (rounds start without)
    supervisors: bool = True  # the table has supervisors who can resolve a hold
    supervisor_hint: str = ""  # shown in the supervisor prompt (a simulated table's demo supervisor)

    def with_status(self, text: str, *, error: bool = False) -> DisplayState:
        return replace(self, status=text, status_error=error)

    def resumed(self, start: Mapping[str, Any] | None, seats: Iterable[int]) -> DisplayState:
        """The display as the last round logged left it, for a table that starts again on its log:
        ``start`` is that round's ``round_started`` line (None: no round logged, nothing changes),
        ``seats`` the table's seats. Each seat of the round stands on the wagers it played in it
        (those of a bet this table does not take are left to the table default), the bank's seat
        on the stake it put up, and every other seat sits out, as it did."""
        if start is None:
            return self
        played = {int(s) for s in start.get("seats") or ()}
        banker = start.get("banker")
        known = set(self.limits.bets) if self.limits is not None else None
        standing = {
            int(s): dict(w) for s, w in (start.get("wagers") or {}).items()
            if int(s) in played and w and (known is None or set(w) <= known)
        }
        stake = start.get("banker_stake")
        return replace(
            self,
            standing={**self.standing, **standing},
            stakes={**self.stakes, banker: stake} if isinstance(banker, int) and isinstance(stake, int) and stake > 0 else self.stakes,
            sitting_out=frozenset(s for s in seats if s not in played and s != banker),
        )
