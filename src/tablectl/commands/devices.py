"""``tablectl devices``: list the serial ports and tablectl USB devices; watch a device's events.

``devices watch DRIVER ADDRESS`` connects like the controller does (HELLO, REPLAY_FROM; without
``--resume-after``, a device a table already used is taken where its events begin, not reported
as having lost the events before) and prints each event as it arrives. It never sends
PERSISTED: watching must not make a device forget events the controller has not logged. Device
trouble is one line, ``tablectl: <address>: <reason>``, exit 4.

Strings a device reports reach the terminal only as printable text (``messages.printable``: the
protocol decoder applies it to every string of a message; the port listing applies it to the USB
descriptor strings).
"""

from __future__ import annotations

import dataclasses
import enum
import json
import queue
import re
import threading
from typing import Any

import click

from tablectl.cli import EXIT_DEVICE, EXIT_INTERRUPTED, EXIT_USAGE, CommandError
from tablectl.commands.options import Finite
from tablectl.config import MAX_ANSWER_TIMEOUT, MAX_EVENT_NO, MIN_ANSWER_TIMEOUT

_SNAKE = re.compile(r"(?<!^)(?=[A-Z])")
_WATCH_QUEUE = 1024  # events waiting to be printed


def event_type(event: object) -> str:
    """``CardDrawn`` -> ``card_drawn``."""
    return _SNAKE.sub("_", type(event).__name__).lower()


def _card_text(c: int | None) -> str | None:
    from tablectl.cards import text

    return None if c is None else text(c)


def event_json(event: object) -> dict[str, Any]:
    """An event as plain JSON values: cards as text (``"QH"``, None for a misread), enums by name."""
    out: dict[str, Any] = {"type": event_type(event)}
    for f in dataclasses.fields(event):  # type: ignore[arg-type]
        value = getattr(event, f.name)
        if f.name == "card":
            value = _card_text(value)
        elif f.name == "cards" and isinstance(value, tuple):
            value = [_card_text(c) for c in value]
        elif f.name in ("missing", "extra"):
            value = {_card_text(c): n for c, n in sorted(value.items())}
        elif isinstance(value, enum.Enum):
            value = value.name.lower()
        elif isinstance(value, frozenset):
            value = sorted(v.name.lower() if isinstance(v, enum.Enum) else v for v in value)
        out[f.name] = value
    return out


def event_line(event: object) -> str:
    """One event for people: ``#12 card_drawn QH``, ``-- fault kind=disconnected ...``."""
    data = event_json(event)
    kind, number = data.pop("type"), data.pop("event_no", 0)
    parts = [f"#{number} {kind}" if number else f"-- {kind}"]
    for k, v in data.items():
        if k == "card":
            parts.append("misread" if v is None else v)
        elif k == "cards" and isinstance(v, list):
            parts.append("cards=" + ",".join("?" if c is None else c for c in v))
        else:
            parts.append(f"{k}={v}")
    return " ".join(parts)


@click.group(name="devices")
def command() -> None:
    """List serial devices; watch a device's events."""


# --- list ---------------------------------------------------------------------------------------


def _serial_ports() -> list[dict[str, Any]]:
    from serial.tools import list_ports

    from tablectl.drivers import usbids

    kinds = {pid: kind.name.lower() for kind, pid in usbids.PRODUCT_IDS.items()}
    rows = []
    for p in sorted(list_ports.comports(), key=lambda p: p.device):
        tablectl = p.vid == usbids.VENDOR_ID and p.pid in kinds
        rows.append(
            {
                "address": _text(p.device),
                "vid": f"{p.vid:04x}" if p.vid is not None else None,
                "pid": f"{p.pid:04x}" if p.pid is not None else None,
                "serial_number": _text(p.serial_number),
                "description": _text(p.description),
                "kind": kinds.get(p.pid) if tablectl else None,
            }
        )
    return rows


def _text(value: str | None) -> str | None:
    """A string a device chose (a USB descriptor), printable."""
    from tablectl.drivers.messages import printable

    return None if value is None else printable(value)


def _usb_devices() -> list[dict[str, Any]]:
    """tablectl devices on the USB vendor interface; empty (quietly) without a usable libusb."""
    try:
        import usb.core

        from tablectl.drivers import usbids
        from tablectl.drivers.transport_usb import libusb_backend

        backend = libusb_backend()
        if backend is None:
            return []
        kinds = {pid: kind.name.lower() for kind, pid in usbids.PRODUCT_IDS.items()}
        rows = []
        for dev in usb.core.find(find_all=True, idVendor=usbids.VENDOR_ID, backend=backend):
            if dev.idProduct not in kinds:
                continue
            try:
                serial = _text(dev.serial_number)
            except (ValueError, usb.core.USBError, NotImplementedError):
                serial = None
            address = f"usb:{usbids.VENDOR_ID:04x}:{dev.idProduct:04x}" + (f":{serial}" if serial else "")
            rows.append(
                {
                    "address": address,
                    "vid": f"{usbids.VENDOR_ID:04x}",
                    "pid": f"{dev.idProduct:04x}",
                    "serial_number": serial,
                    "description": f"tablectl {kinds[dev.idProduct]} (USB bus {dev.bus} address {dev.address})",
                    "kind": kinds[dev.idProduct],
                }
            )
        return rows
    except Exception:  # noqa: BLE001 - no USB access is not an error for a listing
        return []


@command.command(name="list")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per device.")
def list_devices(as_json: bool) -> None:
    """Serial ports (with USB VID:PID and serial number) and tablectl USB devices."""
    rows = _serial_ports() + _usb_devices()
    if as_json:
        for row in rows:
            click.echo(json.dumps(row))
        return
    if not rows:
        click.echo("no serial ports or tablectl USB devices found", err=True)
        return
    for r in rows:
        ids = f"{r['vid']}:{r['pid']}" if r["vid"] else "-"
        kind = f"  [tablectl {r['kind']}]" if r["kind"] else ""
        click.echo(f"{r['address']:<28} {ids:<10} {r['serial_number'] or '-':<16} {r['description'] or ''}{kind}")


# --- watch --------------------------------------------------------------------------------------


@command.command(name="watch")
@click.argument("driver")
@click.argument("address")
@click.option("--count", type=click.IntRange(min=1), default=None, help="Stop after N card events.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per event (type, event_no, card...).")
@click.option(
    "--resume-after",
    type=click.IntRange(0, MAX_EVENT_NO),
    default=0,
    show_default=True,
    help="Highest event number already logged (the device replays what comes after).",
)
@click.option(
    "--answer-timeout",
    type=Finite(MIN_ANSWER_TIMEOUT, MAX_ANSWER_TIMEOUT),
    default=2.0,
    show_default=True,
    help=f"Seconds to wait for the device ({MIN_ANSWER_TIMEOUT:g} to {MAX_ANSWER_TIMEOUT:g}).",
)
def watch(driver: str, address: str, count: int | None, as_json: bool, resume_after: int, answer_timeout: float) -> None:
    """Connect to the device at ADDRESS with DRIVER (shoe, csm, shuffler) and print its events.

    ADDRESS is a serial port (/dev/ttyUSB0), a pty, socket://HOST:PORT, rfc2217://HOST:PORT or
    usb:VID:PID[:SERIAL]."""
    from tablectl.drivers import events as ev
    from tablectl.drivers.errors import DriverError, UnknownDriver
    from tablectl.drivers.registry import open_device

    # bounded: while the terminal is slower than the device, the driver waits (and the device
    # keeps its events) instead of the queue growing
    inbox: queue.Queue[ev.DeviceEvent] = queue.Queue(maxsize=_WATCH_QUEUE)
    stopping = threading.Event()

    def sink(_name: str, event: ev.DeviceEvent) -> None:
        while not stopping.is_set():
            try:
                inbox.put(event, timeout=0.25)
                return
            except queue.Full:
                continue

    try:
        dev = open_device(
            driver,
            address,
            address,
            sink,
            resume_after=resume_after,
            adopt=resume_after == 0,  # a used device is taken where its events begin, as the table does
            answer_timeout=answer_timeout,
        )
    except UnknownDriver as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    except DriverError as e:
        raise CommandError(str(e), EXIT_DEVICE) from None
    ident = dev.identity
    assert ident is not None
    click.echo(
        f"{address}: {ident.kind.name.lower()} {ident.model} serial {ident.serial} firmware {ident.firmware} "
        f"(protocol {ident.protocol_version}; last event {ident.last_event_no})",
        err=True,
    )
    seen = 0
    try:
        while count is None or seen < count:
            try:
                event = inbox.get(timeout=0.25)
            except queue.Empty:
                continue
            click.echo(json.dumps(event_json(event)) if as_json else event_line(event))
            if isinstance(event, ev.CARD_EVENTS):
                seen += 1
    except KeyboardInterrupt:
        raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
    finally:
        stopping.set()
        dev.stop()
