"""pytest plugin: the device under test for device contract tests (labgrid's way).

By default every device test runs against a simulator (``tablectl.simulators``) started for the
test and stopped after it, served over a real pty (or TCP, or the simulated USB backend through
pyusb). Point the same tests at real hardware with ``--device-url`` (and ``--device-kind``), or
with an environment file (``--device-env rig.toml`` or ``$TABLECTL_DEVICE_ENV``)::

    [device]
    url = "/dev/ttyUSB0"      # or socket://host:port, rfc2217://..., usb:1209:7ab1[:SERIAL]
    kind = "shoe"             # shoe | csm | shuffler

Markers:

- ``@pytest.mark.device("shoe", transports=("pty", "tcp", "usb"))``: a test for that family; it
  is skipped when the device under test is of another family; against simulators it runs once
  per transport (default ``--sim-transport``, itself default ``pty``).
- ``@pytest.mark.requires("deck-check", ...)``: skipped unless the device's Identify lists every
  capability named.

Fixtures: ``device_driver`` (a started driver; stopped after the test), ``device_events`` (what
the driver delivered, with waiting helpers), ``device_sim`` (the ``SimDevice`` to act as the
dealer on; skips against real hardware), ``device_kind``, ``device_address``. Every test, device
test or not, fails if it leaves a driver thread running.
"""

from __future__ import annotations

import os
import queue
import threading
import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

KINDS = ("shoe", "csm", "shuffler")
TRANSPORTS = ("pty", "tcp", "usb")
_DRIVER_THREAD_PREFIX = "tablectl-driver:"  # tablectl.drivers.driver.THREAD_PREFIX, unimported here


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tablectl", "tablectl device under test")
    group.addoption("--device-url", default=None, help="address of a real device to test (default: simulators)")
    group.addoption("--device-kind", default=None, choices=KINDS, help="family of the device at --device-url")
    group.addoption("--device-env", default=None, help="TOML file with a [device] table: url, kind")
    group.addoption(
        "--sim-transport",
        default=None,
        help="comma-separated transports for simulated devices: pty,tcp,usb (default: pty, or the marker's)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "device(kind, transports=None): a device contract test for one family (shoe, csm, shuffler)"
    )
    config.addinivalue_line("markers", "requires(*capabilities): skip unless the device reports these capabilities")


@dataclass(frozen=True)
class Rig:
    """Where the device under test is: a real address, or None for simulators."""

    url: str | None = None
    kind: str | None = None


def _rig(config: pytest.Config) -> Rig:
    url = config.getoption("--device-url")
    kind = config.getoption("--device-kind")
    env = config.getoption("--device-env") or os.environ.get("TABLECTL_DEVICE_ENV")
    if env and not url:
        with open(env, "rb") as f:
            table = tomllib.load(f).get("device", {})
        url, kind = table.get("url"), kind or table.get("kind")
        if kind is not None and kind not in KINDS:
            raise pytest.UsageError(f"{env}: device kind {kind!r} is not one of {', '.join(KINDS)}")
    return Rig(url, kind)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "device_transport" not in metafunc.fixturenames:
        return
    rig = _rig(metafunc.config)
    if rig.url:
        transports: tuple[str, ...] = ("url",)
    else:
        option = metafunc.config.getoption("--sim-transport")
        marker = metafunc.definition.get_closest_marker("device")
        marked = marker.kwargs.get("transports") if marker is not None else None
        if option:
            transports = tuple(t.strip() for t in option.split(",") if t.strip())
        elif marked:
            transports = tuple(marked)
        else:
            transports = ("pty",)
        bad = [t for t in transports if t not in TRANSPORTS]
        if bad:
            raise pytest.UsageError(f"unknown simulator transport(s) {bad}: use {', '.join(TRANSPORTS)}")
    metafunc.parametrize("device_transport", transports)


# --- the leak check ---------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _tablectl_no_leaked_driver_threads() -> Iterator[None]:
    """Fail any test that leaves a device driver's I/O thread running."""
    before = set(threading.enumerate())
    yield
    leaked = [
        t.name for t in threading.enumerate() if t.name.startswith(_DRIVER_THREAD_PREFIX) and t not in before
    ]
    if leaked:
        pytest.fail(f"driver threads left running (stop every driver a test starts): {leaked}", pytrace=False)


# --- what a device test gets ------------------------------------------------------------------


@dataclass
class DeviceEvents:
    """The sink given to the driver: every event delivered, with ways to wait for more."""

    timeout: float = 5.0
    events: list[Any] = field(default_factory=list)
    _q: queue.Queue = field(default_factory=queue.Queue)

    def __call__(self, name: str, event: Any) -> None:
        self._q.put(event)

    def _drain(self, timeout: float) -> None:
        try:
            self.events.append(self._q.get(timeout=timeout))
            while True:
                self.events.append(self._q.get_nowait())
        except queue.Empty:
            pass

    def wait_for(self, predicate: Callable[[list[Any]], bool], timeout: float | None = None) -> list[Any]:
        """Wait until ``predicate(events)`` holds; AssertionError after ``timeout``."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        self._drain(0)
        while not predicate(self.events):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"device events never matched; got {self.events!r}")
            self._drain(min(left, 0.05))
        return self.events

    def of_type(self, cls: type) -> list[Any]:
        self._drain(0)
        return [e for e in self.events if isinstance(e, cls)]

    def wait_type(self, cls: type, count: int = 1, timeout: float | None = None) -> list[Any]:
        """Wait for ``count`` events of ``cls``; returns all of them so far."""
        self.wait_for(lambda es: sum(isinstance(e, cls) for e in es) >= count, timeout)
        return self.of_type(cls)

    def numbered(self) -> list[Any]:
        self._drain(0)
        return [e for e in self.events if e.event_no]


@pytest.fixture
def device_kind(request: pytest.FixtureRequest) -> str:
    """The family under test: the test's ``device`` marker, else ``--device-kind``, else shoe."""
    rig = _rig(request.config)
    marker = request.node.get_closest_marker("device")
    wanted = marker.args[0] if marker is not None and marker.args else None
    if wanted is not None and wanted not in KINDS:
        raise pytest.UsageError(f"{request.node.nodeid}: device kind {wanted!r} is not one of {', '.join(KINDS)}")
    if rig.url and rig.kind and wanted and wanted != rig.kind:
        pytest.skip(f"the device under test is a {rig.kind}, not a {wanted}")
    return wanted or rig.kind or "shoe"


@dataclass
class _Served:
    address: str
    sim: Any = None
    usb_backend: Any = None
    stop: Callable[[], None] = lambda: None


@pytest.fixture
def _device_served(request: pytest.FixtureRequest, device_kind: str, device_transport: str) -> Iterator[_Served]:
    rig = _rig(request.config)
    if device_transport == "url":
        yield _Served(rig.url or "")
        return
    from tablectl.simulators.factory import build_device

    sim = build_device(device_kind, seed=20240601)
    if device_transport == "usb":
        from tablectl.drivers import usbids
        from tablectl.simulators.usb_backend import SimUsbBackend

        backend = SimUsbBackend(sim)
        pid = usbids.PRODUCT_IDS[sim.kind]
        yield _Served(f"usb:{usbids.VENDOR_ID:04x}:{pid:04x}:{sim.serial}", sim, backend)
        return
    if device_transport == "tcp":
        from tablectl.simulators.tcp_server import TcpServer

        server: Any = TcpServer(sim)
    else:
        from tablectl.simulators.pty_server import PtyServer

        server = PtyServer(sim)
    address = server.start()
    try:
        yield _Served(address, sim, None, server.stop)
    finally:
        server.stop()


@pytest.fixture
def device_address(_device_served: _Served) -> str:
    """The address the driver connects to (a pty path, ``socket://``, ``usb:``, or the rig's)."""
    return _device_served.address


@pytest.fixture
def device_events() -> DeviceEvents:
    return DeviceEvents()


@pytest.fixture
def device_sim(_device_served: _Served) -> Any:
    """The simulated device, to act on as the dealer would (draw, load, inject faults)."""
    if _device_served.sim is None:
        pytest.skip("needs a simulated device to act on (the device under test is real hardware)")
    return _device_served.sim


@pytest.fixture
def device_driver(
    request: pytest.FixtureRequest, device_kind: str, _device_served: _Served, device_events: DeviceEvents
) -> Iterator[Any]:
    """A started driver for the device under test (stopped after the test)."""
    from tablectl.drivers.errors import WrongDevice
    from tablectl.drivers.registry import open_device

    try:
        driver = open_device(
            device_kind, _device_served.address, f"dut-{device_kind}", device_events, usb_backend=_device_served.usb_backend
        )
    except WrongDevice as e:
        if _device_served.sim is None:
            pytest.skip(str(e))
        raise
    try:
        marker = request.node.get_closest_marker("requires")
        missing = sorted(set(marker.args) - driver.identity.capabilities) if marker is not None else []
        if missing:
            pytest.skip(f"the device lacks {', '.join(missing)}")
        yield driver
    finally:
        driver.stop()
