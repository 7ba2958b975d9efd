"""``control:HOST:PORT``: the reference actuator, a simulator's control channel.

It acts on a simulator served by ``tablectl sim KIND --tcp ... --control HOST:PORT`` (or an
in-process ``ControlServer``) exactly as a rig's relay board or robot acts on a real device: the
test reaches the device only through its driver and this actuator. One line per action over one
TCP connection (``tablectl.simulators.control`` is the other end); an ``err`` answer or a lost
connection raises ``ActuatorError`` naming the action and the address.
"""

from __future__ import annotations

import socket
from collections.abc import Sequence
from typing import ClassVar

from tablectl.cards import card, text
from tablectl.hil.actuator import Actuator, ActuatorError

#: Seconds to wait for the control channel's answer to one line.
ANSWER_TIMEOUT = 10.0


class ControlActuator(Actuator):
    """Sends each action as a control-channel line; ``arg`` is the channel's ``HOST:PORT``."""

    name: ClassVar[str] = "control"

    def __init__(self, arg: str | None, kind: str) -> None:
        super().__init__(arg, kind)
        host, _, port = (arg or "").rpartition(":")
        if not host or not port.isdigit():
            raise ActuatorError(f"control actuator: expected control:HOST:PORT, got {arg!r}")
        self.address = (host, int(port))
        self._sock: socket.socket | None = None
        self._file: socket.SocketIO | None = None

    def draw(self, count: int = 1) -> list[int | None] | None:
        drawn = [t.partition("=")[2] for t in self.send(f"draw {count}") if t.startswith("CardDrawn#")]
        return [None if t == "?" else card(t) for t in drawn]

    def press_button(self, count: int = 1) -> None:
        for _ in range(count):
            self.send("button")

    def load(self) -> None:
        self.send("load")

    def return_cards(self, cards: Sequence[int]) -> None:
        self.send("return " + " ".join(text(c) for c in cards))

    def clear_faults(self) -> None:
        self.send("clear")

    def cause(self, fault: str) -> None:
        self.send(f"fault {fault}")

    def power_cycle(self) -> None:
        self.send("restart")

    def unplug(self) -> None:
        self.send("unplug")

    def replug(self) -> None:
        self.send("replug")

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def send(self, line: str) -> list[str]:
        """Send one control line; the event tokens of its ``ok`` answer."""
        where = f"control channel {self.address[0]}:{self.address[1]}"
        try:
            if self._file is None:
                self._sock = socket.create_connection(self.address, timeout=ANSWER_TIMEOUT)
                self._file = self._sock.makefile("rwb", buffering=0)
            self._file.write(line.encode() + b"\n")
            answer = self._file.readline().decode("utf-8", "replace").strip()
        except OSError as e:
            self.close()
            raise ActuatorError(f"{where}: {line!r} failed: {e.strerror or e}") from None
        if not answer:
            self.close()
            raise ActuatorError(f"{where}: {line!r} got no answer (the simulator went away)")
        status, _, rest = answer.partition(" ")
        if status != "ok":
            raise ActuatorError(f"{where}: {line!r} refused: {rest or answer}")
        return rest.split()
