"""``prompt[:SECONDS]``: a technician at the rig does each action, prompted on the terminal.

Each action is printed on the controlling terminal (``/dev/tty``, so it shows and reads even while
pytest captures stdout or its output goes to a file) as one instruction — "draw 5 cards from the
shoe" — and the test waits for Enter. ``s`` then Enter says it cannot be done here (the test is
skipped). Nothing within SECONDS (default 300) fails the test, naming the instruction. Input typed
before an instruction appears is discarded, so a stray Enter never confirms the next action.
"""

from __future__ import annotations

import os
import select
import termios
import time
from collections.abc import Sequence
from typing import ClassVar

from tablectl.hil.actions import describe
from tablectl.hil.actuator import Actuator, ActuatorError, CannotAct

DEFAULT_TIMEOUT = 300.0


class PromptActuator(Actuator):
    """Asks a person for every action; ``arg`` is the timeout in seconds."""

    name: ClassVar[str] = "prompt"
    terminal: ClassVar[str] = "/dev/tty"

    def __init__(self, arg: str | None, kind: str) -> None:
        super().__init__(arg, kind)
        try:
            self.timeout = DEFAULT_TIMEOUT if not arg else float(arg)
        except ValueError:
            raise ActuatorError(f"prompt actuator: the timeout {arg!r} is not a number of seconds") from None
        if not self.timeout > 0:
            raise ActuatorError(f"prompt actuator: the timeout must be above 0 s, got {arg!r}")

    def draw(self, count: int = 1) -> list[int | None] | None:
        self.ask("draw", count)
        return None

    def press_button(self, count: int = 1) -> None:
        self.ask("press_button", count)

    def load(self) -> None:
        self.ask("load")

    def return_cards(self, cards: Sequence[int]) -> None:
        self.ask("return_cards", cards)

    def clear_faults(self) -> None:
        self.ask("clear_faults")

    def cause(self, fault: str) -> None:
        self.ask("cause", fault)

    def power_cycle(self) -> None:
        self.ask("power_cycle")

    def unplug(self) -> None:
        self.ask("unplug")

    def replug(self) -> None:
        self.ask("replug")

    def ask(self, action: str, *args: object) -> None:
        """Print the instruction for ``action`` and wait for the technician's Enter."""
        instruction = describe(self.kind, action, *args)
        try:
            fd = os.open(self.terminal, os.O_RDWR | os.O_NOCTTY)
        except OSError as e:
            raise ActuatorError(
                f"the prompt operator needs a terminal to ask {instruction!r}: {self.terminal}: {e.strerror}"
            ) from None
        try:
            termios.tcflush(fd, termios.TCIFLUSH)
            os.write(fd, (
                f"\n>>> {instruction}\n"
                f"    then press Enter (s and Enter: cannot be done here; {self.timeout:g} s) "
            ).encode())
            answer = self._read_line(fd, time.monotonic() + self.timeout)
            if answer is None:
                os.write(fd, b"\n    timed out\n")
                raise ActuatorError(
                    f"nobody confirmed {instruction!r} within {self.timeout:g} s "
                    "(the prompt operator's timeout: --device-actuator prompt:SECONDS)"
                )
        finally:
            os.close(fd)
        if answer.strip().lower() in ("s", "skip"):
            raise CannotAct(f"the operator could not {instruction}")

    @staticmethod
    def _read_line(fd: int, deadline: float) -> str | None:
        """One line from the terminal, or None when ``deadline`` passes first."""
        got = b""
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 1024)
            if not chunk:
                raise ActuatorError("the terminal closed while waiting for the operator")
            got += chunk
            if b"\n" in got or b"\r" in got:
                return got.splitlines()[0].decode("utf-8", "replace")
