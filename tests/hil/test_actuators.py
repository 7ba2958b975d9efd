"""The actuator layer: its wording, the readiness strategy, and the control actuator against a
real control channel serving a simulator on a real TCP socket."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tablectl.drivers import events as ev
from tablectl.drivers.registry import open_device
from tablectl.simulators.control import ControlServer
from tablectl.simulators.factory import build_device
from tablectl.simulators.serving.tcp import TcpServer

from tablectl.cards import card
from tablectl.hil import ActuatorError, CannotAct, actuator_names, load_actuator
from tablectl.hil.actions import describe
from tablectl.hil.actuator import Actuator
from tablectl.hil.control import ControlActuator
from tablectl.hil.strategy import MIN_CARDS, steps_to_ready
from tablectl.pytest_plugin import DeviceEvents


def test_each_action_reads_as_an_instruction_for_the_device_at_hand() -> None:
    assert describe("shoe", "draw", 1) == "draw 1 card from the shoe"
    assert describe("csm", "draw", 3) == "take 3 cards from the exit of the continuous shuffler"
    assert describe("shuffler", "press_button", 2) == "press the button of the batch shuffler 2 times"
    assert describe("csm", "return_cards", [card("QH"), card("7C")]).endswith("in this order: QH 7C")
    assert describe("shoe", "load") == "load a freshly shuffled shoe (all its decks) with the cut card in"
    assert describe("shuffler", "cause", "missing").startswith("take one card out of the batch shuffler")


@pytest.mark.parametrize(
    ("kind", "status", "steps"),
    [
        ("shoe", ev.Status(ev.DeviceState.READY, 300), []),
        ("shoe", ev.Status(ev.DeviceState.FAULT, 300, faults=frozenset({ev.FaultKind.JAM})), ["clear_faults"]),
        ("csm", ev.Status(ev.DeviceState.FAULT, 3, door_open=True), ["clear_faults", "load"]),
        ("shoe", ev.Status(ev.DeviceState.EMPTY, 0), ["load"]),
        ("shoe", ev.Status(ev.DeviceState.READY, MIN_CARDS), []),
        ("shuffler", ev.Status(ev.DeviceState.EMPTY, 0), []),  # a shuffle gathers its cards itself
    ],
)
def test_a_device_is_made_ready_only_when_its_status_needs_it(kind: str, status: ev.Status, steps: list[str]) -> None:
    assert steps_to_ready(kind, status) == steps


def test_an_actuator_without_an_action_says_which_action_it_cannot_do() -> None:
    class RelayBoard(Actuator):
        name = "relay"

    with pytest.raises(CannotAct, match="the 'relay' actuator cannot draw 2 cards from the shoe"):
        RelayBoard(None, "shoe").draw(2)


def test_the_builtin_actuators_are_listed() -> None:
    assert {"control", "prompt"} <= set(actuator_names())


@pytest.fixture
def served_shoe() -> Iterator[tuple[object, TcpServer, str]]:
    shoe = build_device("shoe", seed=9)
    with TcpServer(shoe) as server, ControlServer(shoe, plug=server) as channel:
        yield shoe, server, channel.address


def test_the_control_actuator_draws_and_reports_the_cards_it_drew(served_shoe) -> None:
    shoe, _, address = served_shoe
    actuator = load_actuator(f"control:{address}", "shoe")
    try:
        seen = actuator.draw(3)
    finally:
        actuator.close()
    assert seen == [e.card for e in shoe.store.unpersisted if isinstance(e, ev.CardDrawn)]
    assert len(seen) == 3


def test_a_refused_action_is_an_error_naming_the_line_and_the_channel(served_shoe) -> None:
    _, _, address = served_shoe
    actuator = ControlActuator(address, "shoe")
    try:
        actuator.cause("jam")
        with pytest.raises(ActuatorError, match=rf"control channel {address}: 'draw 1' refused: draw: device fault active \(jam\)"):
            actuator.draw(1)
    finally:
        actuator.close()


def test_an_unreachable_control_channel_is_a_one_line_error() -> None:
    with pytest.raises(ActuatorError, match=r"control channel 127\.0\.0\.1:9: 'load' failed: Connection refused"):
        ControlActuator("127.0.0.1:9", "shoe").load()


def _disconnected(cleared: bool):
    return lambda es: any(isinstance(e, ev.Fault) and e.kind is ev.FaultKind.DISCONNECTED and e.cleared == cleared for e in es)


def test_unplug_keeps_the_cable_out_until_replug(served_shoe) -> None:
    _, server, address = served_shoe
    events = DeviceEvents(timeout=10)
    driver = open_device("shoe", server.address, "bench", events)
    actuator = ControlActuator(address, "shoe")
    try:
        actuator.unplug()
        events.wait_for(_disconnected(False))
        tries = driver.stats.reconnects
        events.wait_for(lambda es: driver.stats.reconnects >= tries + 2)  # it tried again, twice
        assert not driver.connected and not any(_disconnected(True)([e]) for e in events.events)
        actuator.replug()
        events.wait_for(_disconnected(True))
        assert driver.connected
    finally:
        driver.stop()
        actuator.close()


def test_a_control_channel_without_a_cable_refuses_to_unplug() -> None:
    shoe = build_device("shoe", seed=9)
    with ControlServer(shoe) as channel:
        actuator = ControlActuator(channel.address, "shoe")
        try:
            with pytest.raises(ActuatorError, match="unplug: this device is served without a cable to pull"):
                actuator.unplug()
        finally:
            actuator.close()
