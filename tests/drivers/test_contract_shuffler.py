"""The batch shuffler's contract, over pty, TCP and USB (or the real shuffler at --device-url)."""

from __future__ import annotations

import pytest
from contract import ALL_TRANSPORTS, DeviceContract

from tablectl.drivers import events as ev
from tablectl.pytest_plugin import DeviceActuator

pytestmark = pytest.mark.device("shuffler", transports=ALL_TRANSPORTS)


class TestShufflerContract(DeviceContract):
    kind = ev.DeviceKind.SHUFFLER

    def stimulate(self, actuator: DeviceActuator, n: int) -> None:
        actuator.press_button(n)

    def test_a_shuffle_reports_a_clean_deck_check(self, device_driver, device_events) -> None:
        device_driver.shuffle()
        done = device_events.wait_type(ev.ShuffleDone)[0]
        assert done.deck_ok and done.cards == 52 * done.decks

    def test_a_packet_brings_the_cards_asked_for(self, device_driver, device_events) -> None:
        device_driver.shuffle()
        device_events.wait_type(ev.ShuffleDone)
        device_driver.deliver_packet(3)
        packet = device_events.wait_type(ev.PacketDelivered)[0]
        assert (packet.packet, len(packet.cards)) == (0, 3)

    def test_discarding_reports_how_many_cards_went(self, device_driver, device_events) -> None:
        device_driver.shuffle()
        done = device_events.wait_type(ev.ShuffleDone)[0]
        device_driver.deliver_packet(5)
        device_events.wait_type(ev.PacketDelivered)
        device_driver.discard_rest()
        assert device_events.wait_type(ev.CardsDiscarded)[0].count == done.cards - 5

    @pytest.mark.requires("deck-check")
    def test_the_deck_check_names_a_missing_card(self, device_driver, device_actuator, device_events) -> None:
        device_actuator.cause("missing")
        device_driver.shuffle()
        done = device_events.wait_type(ev.ShuffleDone)[0]
        assert sum(done.missing.values()) == 1 and not done.deck_ok
