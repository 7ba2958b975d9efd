"""``tablectl sim``: serve a simulated device over a pty or TCP until interrupted.

The first stdout line is the address to connect to (a pty path, or ``socket://127.0.0.1:PORT``);
with ``--control`` the second line is the control channel's ``HOST:PORT`` (see
``tablectl.simulators.control``). SIGINT or SIGTERM ends it cleanly (exit 0).
"""

from __future__ import annotations

import signal
import sys
import time
from types import FrameType
from typing import TYPE_CHECKING

import click

from tablectl.cli import EXIT_DEVICE, EXIT_USAGE, CommandError
from tablectl.commands.options import Finite

if TYPE_CHECKING:
    from tablectl.simulators.device import SimDevice
    from tablectl.simulators.serving.server import ServerBase

FAULT_HELP = (
    "KIND=RATE (per card event / per frame, 0..1), KIND@N (once, at event number / frame N) or "
    "KIND (once, at the first chance). Kinds: jam door misread foreign extra missing restart "
    "noise crc drop dup reorder disconnect. Repeatable."
)


def _host_port(value: str, what: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not host:
        raise CommandError(f"{what} {value!r}: expected HOST:PORT", EXIT_USAGE)
    try:
        number = int(port)
    except ValueError:
        raise CommandError(f"{what} {value!r}: port {port!r} is not a number", EXIT_USAGE) from None
    if not 0 <= number <= 65535:
        raise CommandError(f"{what} {value!r}: port out of range", EXIT_USAGE)
    return host, number


@click.command(name="sim")
@click.argument("kind", type=click.Choice(["shoe", "csm", "shuffler"]))
@click.option("--decks", type=click.IntRange(1, 255), default=None, help="Decks held (default: shoe 6, csm 6, shuffler 1).")
@click.option("--seed", type=int, default=None, help="Seed for the card order and the faults (default: random, echoed on stderr).")
@click.option("--order", "order_file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Explicit card order file: card texts separated by whitespace, first out first.")
@click.option("--pty", "use_pty", is_flag=True, help="Serve on a pseudo-terminal (prints its path).")
@click.option("--tcp", "tcp", metavar="HOST:PORT", default=None, help="Serve on TCP (PORT 0 picks a free port).")
@click.option("--autodraw", type=Finite(0, 10_000, min_open=True), default=None, metavar="RATE",
              help="Deal by itself at RATE cards per second until the shoe/deck is done.")
@click.option("--packet", type=click.IntRange(1, 255), default=3, show_default=True,
              help="Packet size when a batch shuffler autodraws.")
@click.option("--fault", "faults", multiple=True, metavar="SPEC", help=FAULT_HELP)
@click.option("--penetration", type=Finite(0, 1, min_open=True), default=0.85, show_default=True,
              help="Where a shoe's cut card sits (fraction of the shoe).")
@click.option("--shuffle-quality", type=click.Choice(["good", "poor"]), default="good", show_default=True,
              help="poor: a batch shuffler doing --riffles GSR riffles; a CSM with a lagging carousel.")
@click.option("--riffles", type=click.IntRange(1, 50), default=3, show_default=True, help="Riffle passes when poor.")
@click.option("--protocol-version", type=click.IntRange(0, 65535), default=None,
              help="Speak this protocol version instead of the current one (version-mismatch tests).")
@click.option("--mute", is_flag=True, help="Never answer anything.")
@click.option("--serial", default=None, help="Serial number reported in IDENTIFY.")
@click.option("--control", metavar="HOST:PORT", default=None,
              help="Serve the dealer control channel (printed as the second line).")
def command(
    kind: str,
    decks: int | None,
    seed: int | None,
    order_file: str | None,
    use_pty: bool,
    tcp: str | None,
    autodraw: float | None,
    packet: int,
    faults: tuple[str, ...],
    penetration: float,
    shuffle_quality: str,
    riffles: int,
    protocol_version: int | None,
    mute: bool,
    serial: str | None,
    control: str | None,
) -> None:
    """Serve a simulated KIND device (shoe, csm, shuffler) until interrupted."""
    from tablectl.cards import CardError
    from tablectl.drivers.messages import PROTOCOL_VERSION
    from tablectl.simulators.factory import build_device
    from tablectl.simulators.faults import FaultSpecError, parse_fault_spec

    if use_pty == (tcp is not None):
        raise CommandError("choose one of --pty or --tcp HOST:PORT", EXIT_USAGE)
    try:
        specs = [parse_fault_spec(f) for f in faults]
    except FaultSpecError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    tcp_addr = _host_port(tcp, "--tcp") if tcp is not None else None
    control_addr = _host_port(control, "--control") if control is not None else None
    try:
        device = build_device(
            kind,
            decks=decks,
            seed=seed,
            order=order_file,
            faults=specs,
            penetration=penetration,
            quality=shuffle_quality,
            riffles=riffles,
            protocol_version=PROTOCOL_VERSION if protocol_version is None else protocol_version,
            mute=mute,
            serial=serial,
        )
    except (CardError, OSError, ValueError) as e:
        raise CommandError(f"cannot build the simulator: {e}", EXIT_USAGE) from None
    if seed is None:
        click.echo(f"tablectl sim: seed {device.model.seed}", err=True)
    _serve(device, tcp_addr, control_addr, autodraw, packet)


def _serve(device: SimDevice, tcp_addr: tuple[str, int] | None, control_addr: tuple[str, int] | None,
           autodraw: float | None, packet: int) -> None:
    from tablectl.simulators.autodeal import AutoDealer
    from tablectl.simulators.control import ControlServer
    from tablectl.simulators.serving.pty import PtyServer
    from tablectl.simulators.serving.tcp import TcpServer

    server: ServerBase
    if tcp_addr is not None:
        server = TcpServer(device, tcp_addr[0], tcp_addr[1])
    else:
        server = PtyServer(device)
    try:
        address = server.start()
    except OSError as e:
        where = f"{tcp_addr[0]}:{tcp_addr[1]}" if tcp_addr else "a pty"
        raise CommandError(f"cannot serve on {where}: {e.strerror or e}", EXIT_DEVICE) from None
    controller: ControlServer | None = None
    dealer: AutoDealer | None = None
    try:
        if control_addr is not None:
            controller = ControlServer(device, control_addr[0], control_addr[1], plug=server)
            try:
                control_address = controller.start()
            except OSError as e:
                controller = None
                raise CommandError(
                    f"cannot serve the control channel on {control_addr[0]}:{control_addr[1]}: {e.strerror or e}",
                    EXIT_DEVICE,
                ) from None
        click.echo(address)
        if controller is not None:
            click.echo(control_address)
        sys.stdout.flush()
        if autodraw is not None:
            dealer = AutoDealer(device, autodraw, packet=packet).start()
        elif controller is None:
            click.echo(
                "tablectl sim: no card is dealt until asked: give --autodraw RATE to deal by itself, "
                "or --control HOST:PORT to deal on command",
                err=True,
            )
        _wait_for_signal(server)
    finally:
        if dealer is not None:
            dealer.stop()
        if controller is not None:
            controller.stop()
        server.stop()


def _wait_for_signal(server: ServerBase) -> None:
    """Block until SIGINT/SIGTERM (or the serving thread dies)."""
    # The handler only sets a flag: Event.set takes a lock the interrupted main thread may hold.
    signalled: list[int] = []

    def on_signal(signum: int, frame: FrameType | None) -> None:
        signalled.append(signum)

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        while not signalled:
            time.sleep(0.2)
            if not server.running:
                raise CommandError(f"the simulator stopped: {server.error}", EXIT_DEVICE)
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
