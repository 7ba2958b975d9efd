"""pytest plugin: the device under test for device contract tests (labgrid's way).

By default every device test runs against a simulator (``tablectl.simulators``) started for the
test and stopped after it, served over a real pty (or TCP, or the simulated USB backend through
pyusb). Point the same tests at real hardware with ``--device-url`` (and ``--device-kind``), or
with an environment file (``--device-env rig.toml`` or ``$TABLECTL_DEVICE_ENV``)::

    [device]
    url = "/dev/ttyUSB0"      # or socket://host:port, rfc2217://..., usb:1209:7ab1[:SERIAL]
    kind = "shoe"             # shoe | csm | shuffler
    actuator = "prompt"       # who or what acts on it (--device-actuator); optional

Whatever a test needs done *to* the device (draw cards, press its button, load a shoe, jam it,
power-cycle or unplug it) goes through an actuator (``tablectl.hil``): against a simulator, its
control channel; against real hardware, ``--device-actuator NAME[:ARG]`` — ``control:HOST:PORT``
(a simulator started apart, ``tablectl sim KIND --tcp ... --control ...``), ``prompt[:SECONDS]``
(also ``--device-operator prompt``: a technician follows instructions on the terminal), or a rig
maker's plug-in from the ``tablectl.actuators`` entry-point group. Without one, a test that needs
an action is skipped, naming the action.

Markers:

- ``@pytest.mark.device("shoe", transports=("pty", "tcp", "usb"))``: a test for that family; it
  is skipped when the device under test is of another family; against simulators it runs once
  per transport (default ``--sim-transport``, itself default ``pty``).
- ``@pytest.mark.requires("deck-check", ...)``: skipped unless the device's Identify lists every
  capability named.

Fixtures: ``device_driver`` (a started driver; stopped after the test), ``device_events`` (what
the driver delivered during the test, with waiting helpers), ``device_actuator`` (acts on the
device; see ``DeviceActuator``), ``device_connect`` (opens another driver to the device),
``device_sim`` (the ``SimDevice`` itself, for simulator-only tests; skips against real hardware),
``device_kind``, ``device_address``. Every test, device test or not, fails if it leaves a driver
thread running.

Before each test the driver resumes after the device's last event (the device forgets older
ones) and, when the device's Status shows a fault or a shoe or CSM running low, the actuator
makes it ready (``tablectl.hil.strategy``); what a test leaves undone (a fault it caused, a cable
it pulled) is undone after it.
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

from tablectl.hil.actions import describe
from tablectl.hil.actuator import Actuator, ActuatorError, CannotAct

KINDS = ("shoe", "csm", "shuffler")
TRANSPORTS = ("pty", "tcp", "usb")
_DRIVER_THREAD_PREFIX = "tablectl-driver:"  # tablectl.drivers.driver.THREAD_PREFIX, unimported here


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tablectl", "tablectl device under test")
    group.addoption("--device-url", default=None, help="address of a real device to test (default: simulators)")
    group.addoption("--device-kind", default=None, choices=KINDS, help="family of the device at --device-url")
    group.addoption("--device-env", default=None, help="TOML file with a [device] table: url, kind, actuator")
    group.addoption(
        "--device-actuator",
        "--device-operator",
        dest="device_actuator",
        default=None,
        metavar="NAME[:ARG]",
        help="who or what acts on the device at --device-url: control:HOST:PORT (a simulator's control "
        "channel), prompt[:SECONDS] (a technician at the terminal), or a tablectl.actuators plug-in",
    )
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
    rig = _rig(config)
    if rig.url and getattr(config.option, "numprocesses", None):
        # one device, one test at a time: pytest-xdist's workers are not started (its own
        # pytest_configure, which starts them, runs after this one)
        config.option.numprocesses, config.option.dist, config.option.tx = 0, "no", []
    if rig.actuator is None:
        return
    if not rig.url or not rig.kind:
        raise pytest.UsageError("--device-actuator acts on a real device: give --device-url and --device-kind too")
    from tablectl.hil.registry import load_actuator

    try:
        config.stash[_ACTUATOR] = load_actuator(rig.actuator, rig.kind)
    except ActuatorError as e:
        raise pytest.UsageError(f"--device-actuator {rig.actuator}: {e}") from None


def pytest_unconfigure(config: pytest.Config) -> None:
    actuator = config.stash.get(_ACTUATOR, None)
    if actuator is not None:
        actuator.close()


@dataclass(frozen=True)
class Rig:
    """Where the device under test is: a real address, or None for simulators."""

    url: str | None = None
    kind: str | None = None
    actuator: str | None = None


_ACTUATOR = pytest.StashKey[Actuator]()


def _rig(config: pytest.Config) -> Rig:
    url = config.getoption("--device-url")
    kind = config.getoption("--device-kind")
    actuator = config.getoption("device_actuator")
    env = config.getoption("--device-env") or os.environ.get("TABLECTL_DEVICE_ENV")
    if env and not url:
        with open(env, "rb") as f:
            table = tomllib.load(f).get("device", {})
        url, kind, actuator = table.get("url"), kind or table.get("kind"), actuator or table.get("actuator")
        if kind is not None and kind not in KINDS:
            raise pytest.UsageError(f"{env}: device kind {kind!r} is not one of {', '.join(KINDS)}")
    return Rig(url, kind, actuator)


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

    def clear(self) -> None:
        """Forget everything delivered so far."""
        self._drain(0)
        self.events.clear()


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
    plug: Any = None  # the simulator's cable: unplug(seconds), plug_in()


class _UsbPlug:
    """A simulated USB device's cable, as the control channel pulls it."""

    def __init__(self, backend: Any, sim: Any) -> None:
        self.backend, self.sim = backend, sim

    def unplug(self, seconds: float | None = None) -> None:
        self.backend.unplug(self.sim, seconds)

    def plug_in(self) -> None:
        self.backend.unplug(self.sim, 0)


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
        from tablectl.simulators.serving.usb import SimUsbBackend

        backend = SimUsbBackend(sim)
        pid = usbids.PRODUCT_IDS[sim.kind]
        yield _Served(f"usb:{usbids.VENDOR_ID:04x}:{pid:04x}:{sim.serial}", sim, backend, _UsbPlug(backend, sim))
        return
    if device_transport == "tcp":
        from tablectl.simulators.serving.tcp import TcpServer

        server: Any = TcpServer(sim)
    else:
        from tablectl.simulators.serving.pty import PtyServer

        server = PtyServer(sim)
    address = server.start()
    try:
        yield _Served(address, sim, None, server)
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
    """The simulated device itself, for simulator-only tests (contract tests use ``device_actuator``)."""
    if _device_served.sim is None:
        pytest.skip("needs a simulated device to act on (the device under test is real hardware)")
    return _device_served.sim


class DeviceActuator:
    """The actuator as a test uses it (``tablectl.hil.Actuator``'s actions, same arguments).

    An action the actuator cannot do skips the test, naming it; with no actuator at all (real
    hardware, no ``--device-actuator``) every action skips, naming what is needed. A failed
    action fails the test in one line. ``restore()`` undoes what the test left: a fault it caused
    is cleared (a card taken out: the device is loaded), a cable it pulled is plugged back.
    """

    def __init__(self, actuator: Actuator | None, kind: str) -> None:
        self.actuator = actuator
        self.kind = kind
        self._undo: list[str] = []

    def draw(self, count: int = 1) -> list[int | None] | None:
        return self._act("draw", count)  # type: ignore[no-any-return]

    def press_button(self, count: int = 1) -> None:
        self._act("press_button", count)

    def load(self) -> None:
        self._act("load")

    def return_cards(self, cards: list[int]) -> None:
        self._act("return_cards", cards)

    def clear_faults(self) -> None:
        self._act("clear_faults")

    def cause(self, fault: str) -> None:
        self._act("cause", fault)

    def power_cycle(self) -> None:
        self._act("power_cycle")

    def unplug(self) -> None:
        self._act("unplug")

    def replug(self) -> None:
        self._act("replug")

    def restore(self) -> None:
        """Undo, latest first, what the test left undone."""
        while self._undo:
            self._act(self._undo[-1])

    def _act(self, action: str, *args: Any) -> Any:
        if self.actuator is None:
            pytest.skip(
                f"needs an actuator to {describe(self.kind, action, *args)} (the device under test is real "
                "hardware): give --device-actuator NAME[:ARG] (a rig plug-in, or control:HOST:PORT) or "
                "--device-operator prompt"
            )
        try:
            result = getattr(self.actuator, action)(*args)
        except CannotAct as e:
            pytest.skip(str(e))
        except ActuatorError as e:
            pytest.fail(str(e), pytrace=False)
        undo = _UNDO.get((action, args[0] if action == "cause" else None))
        if undo is not None and undo not in self._undo:
            self._undo.append(undo)
        if action in self._undo:
            self._undo.remove(action)
        return result


#: (action, fault) -> the action that undoes it.
_UNDO: dict[tuple[str, str | None], str] = {
    ("cause", "jam"): "clear_faults",
    ("cause", "door"): "clear_faults",
    ("cause", "missing"): "load",
    ("unplug", None): "replug",
}


@pytest.fixture
def device_actuator(
    request: pytest.FixtureRequest, device_kind: str, _device_served: _Served
) -> Iterator[DeviceActuator]:
    """Acts on the device under test: a simulator through its control channel, real hardware
    through ``--device-actuator`` (or nothing: the actions skip)."""
    if _device_served.sim is None:
        hands = DeviceActuator(request.config.stash.get(_ACTUATOR, None), device_kind)
        try:
            yield hands
        finally:
            hands.restore()
        return
    from tablectl.hil.registry import load_actuator
    from tablectl.simulators.control import ControlServer

    with ControlServer(_device_served.sim, plug=_device_served.plug) as server:
        actuator = load_actuator(f"control:{server.address}", device_kind)
        hands = DeviceActuator(actuator, device_kind)
        try:
            yield hands
        finally:
            try:
                hands.restore()
            finally:
                actuator.close()


@pytest.fixture
def device_connect(device_kind: str, _device_served: _Served) -> Callable[..., Any]:
    """``device_connect(name, sink, **opts)``: another started driver to the device under test
    (``opts`` as for ``open_device``: ``resume_after``, ...); the test stops it."""
    from tablectl.drivers.errors import WrongDevice
    from tablectl.drivers.registry import open_device

    def connect(name: str, sink: Callable[[str, Any], None], **opts: Any) -> Any:
        try:
            return open_device(device_kind, _device_served.address, name, sink, usb_backend=_device_served.usb_backend, **opts)
        except WrongDevice as e:
            if _device_served.sim is None:
                pytest.skip(str(e))
            raise

    return connect


@pytest.fixture
def device_driver(
    request: pytest.FixtureRequest,
    device_kind: str,
    _device_served: _Served,
    device_connect: Callable[..., Any],
    device_events: DeviceEvents,
    device_actuator: DeviceActuator,
) -> Iterator[Any]:
    """A started driver for the device under test, resuming after the device's last event, the
    device made ready for a test (stopped after the test)."""
    from tablectl.hil.strategy import steps_to_ready

    if _device_served.sim is not None:
        last = _device_served.sim.store.last_no
    else:  # ask the device: a driver's handshake reports its last event
        probe = device_connect(f"probe-{device_kind}", lambda *a: None)
        probe.stop()
        last = probe.identity.last_event_no
    driver = device_connect(f"dut-{device_kind}", device_events, resume_after=last, persist_after=0)
    try:
        marker = request.node.get_closest_marker("requires")
        missing = sorted(set(marker.args) - driver.identity.capabilities) if marker is not None else []
        if missing:
            pytest.skip(f"the device lacks {', '.join(missing)}")
        steps = steps_to_ready(device_kind, driver.request_status())
        if steps:
            for step in steps:
                getattr(device_actuator, step)()
            driver.request_status()  # answered after every event the steps caused was delivered
            device_events.clear()
        yield driver
    finally:
        driver.stop()
