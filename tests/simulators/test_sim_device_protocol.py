"""The device end of the protocol, driven by a minimal host over function calls (no transport)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tablectl.drivers import events as ev
from tablectl.drivers import messages as msg
from tablectl.drivers.framer import encode as encode_frame
from tablectl.simulators.device import SimDevice
from tablectl.simulators.factory import build_device
from tablectl.simulators.minihost import MiniHost

Connect = Callable[[SimDevice], MiniHost]


def test_hello_gets_identify_with_the_last_event_number(connect: Connect) -> None:
    device = build_device("shoe", seed=1, serial="SN1")  # loaded: event 1
    host = connect(device)
    host.hello()
    ident = host.wait_type(ev.Identify)
    assert (ident.kind, ident.serial, ident.protocol_version, ident.last_event_no) == (ev.DeviceKind.SHOE, "SN1", 1, 1)
    assert "draw" in ident.capabilities


def test_version_mismatch_is_an_error(connect: Connect) -> None:
    device = build_device("shoe", seed=1, protocol_version=2)
    host = connect(device)
    host.hello(1, 1)
    error = host.wait_type(msg.DeviceError)
    assert error == msg.DeviceError(msg.ERR_VERSION, "device speaks protocol 2")
    host.send(ev.ReplayFrom(1))
    assert host.wait_type(msg.DeviceError).code == msg.ERR_NOT_NOW


def test_identify_and_status_any_time_but_commands_need_hello(connect: Connect) -> None:
    host = connect(build_device("shuffler", seed=1))
    host.send(ev.RequestStatus())
    status = host.wait_type(ev.Status)
    assert status == ev.Status(ev.DeviceState.READY, 52)
    host.send(ev.RequestIdentify())
    assert host.wait_type(ev.Identify).kind == ev.DeviceKind.SHUFFLER
    host.send(ev.StartShuffle())
    assert host.wait_type(msg.DeviceError) == msg.DeviceError(msg.ERR_NOT_NOW, "SHUFFLE: HELLO first")


def test_persisted_is_taken_before_hello_and_frees_the_store(connect: Connect) -> None:
    device = build_device("shoe", seed=1)  # event 1: ShoeLoaded
    device.draw()  # event 2
    host = connect(device)
    host.send(ev.Persisted(2))
    host.send(ev.RequestStatus())  # answered after PERSISTED was handled: same in-order link
    host.wait_type(ev.Status)
    assert not [m for m in host.inbox if isinstance(m, msg.DeviceError)]
    assert device.store.unpersisted == []


def test_events_wait_in_the_store_until_replay_then_stream_live(connect: Connect, shake: Callable) -> None:
    device = build_device("shoe", seed=2)  # event 1: ShoeLoaded
    drawn = device.draw()  # event 2, no host yet
    host = connect(device)
    shake(host, replay_from=None)
    device.draw()  # event 3, host connected but not replaying: stored only
    host.pump(0.05)
    assert not [m for m in host.inbox if isinstance(m, ev.DeviceEvent)]
    host.send(ev.ReplayFrom(2))
    got = host.collect(ev.CardDrawn, 2)
    assert [e.event_no for e in got] == [2, 3] and got[0] == drawn[0]
    live = device.draw()
    assert host.wait_type(ev.CardDrawn) == live[0]


def test_replay_resends_exactly_the_unpersisted_events_from_n(connect: Connect, shake: Callable) -> None:
    device = build_device("shoe", seed=3)
    for _ in range(9):
        device.draw()  # events 2..10
    host = connect(device)
    shake(host, replay_from=None)
    host.send(ev.Persisted(5))
    host.send(ev.ReplayFrom(4))  # 4 and 5 are forgotten: replay starts at 6
    got = host.collect(ev.CardDrawn, 5)
    assert [e.event_no for e in got] == [6, 7, 8, 9, 10]
    assert [e.event_no for e in device.store.unpersisted] == [6, 7, 8, 9, 10]
    host.pump(0.05)
    assert not any(isinstance(m, ev.DeviceEvent) for m in host.inbox)


def test_restart_keeps_the_counter_and_the_store(connect: Connect, shake: Callable) -> None:
    device = build_device("shoe", seed=4)
    host = connect(device)
    shake(host, replay_from=1)
    host.wait_type(ev.ShoeLoaded)
    first = device.draw()[0]
    host.wait_type(ev.CardDrawn)
    host.send(ev.Persisted(first.event_no))
    host.pump(0.05)
    unseen = device.restart()  # POWER_UP, numbered on from the NV counter
    assert unseen == [ev.Fault(first.event_no + 1, ev.FaultKind.POWER_UP, False, "restart")]
    after = device.draw()[0]
    assert after.event_no == first.event_no + 2
    host.wait_for(lambda m: m == msg.SYNC)  # the device's new session
    shake(host, replay_from=first.event_no + 1)
    assert host.wait_type(ev.Fault) == unseen[0]
    assert host.wait_type(ev.CardDrawn) == after


def test_shoe_refuses_shuffle_and_unknown_commands(connect: Connect, shake: Callable) -> None:
    host = connect(build_device("shoe", seed=5))
    shake(host)
    host.send(ev.StartShuffle())
    assert host.wait_type(msg.DeviceError).code == msg.ERR_NOT_SUPPORTED
    host.link.send(0x7E, b"", 0.0)
    host.pump(0.01)
    assert host.wait_type(msg.DeviceError).code == msg.ERR_UNKNOWN_COMMAND
    host.link.send(msg.PERSISTED, b"\x01", 0.0)
    host.pump(0.01)
    assert host.wait_type(msg.DeviceError).code == msg.ERR_BAD_PAYLOAD


def test_batch_shuffler_over_the_wire(connect: Connect, shake: Callable) -> None:
    device = build_device("shuffler", seed=6)
    host = connect(device)
    shake(host)
    host.send(ev.StartShuffle())
    assert host.wait_type(ev.ShuffleStarted).shoe_id == 1
    assert host.wait_type(ev.ShuffleDone).deck_ok
    host.send(ev.DeliverPacket(3))
    packet = host.wait_type(ev.PacketDelivered)
    assert packet.packet == 0 and len(packet.cards) == 3
    host.send(ev.DiscardRest())
    assert host.wait_type(ev.CardsDiscarded).count == 49
    host.send(ev.DeliverPacket(3))
    assert host.wait_type(msg.DeviceError).code == msg.ERR_NOT_NOW


def test_reset_clears_a_jam(connect: Connect, shake: Callable) -> None:
    device = build_device("shoe", seed=7)
    host = connect(device)
    shake(host, replay_from=2)
    device.inject("jam")
    assert host.wait_type(ev.Fault).kind == ev.FaultKind.JAM
    host.send(ev.Reset())
    cleared = host.wait_type(ev.Fault)
    assert cleared.cleared and cleared.kind == ev.FaultKind.JAM
    host.send(ev.RequestStatus())
    assert host.wait_type(ev.Status).state == ev.DeviceState.READY


def test_a_new_host_session_must_replay_again(connect: Connect, shake: Callable) -> None:
    device = build_device("shoe", seed=8)
    first = connect(device)
    shake(first)
    first.wait_type(ev.ShoeLoaded)
    # a second host process on the same line (a pty has no connect event)
    second = MiniHost(first._read, first._write)
    second.open()
    second.hello()
    assert second.wait_type(ev.Identify).last_event_no == 1
    device.draw()
    second.pump(0.05)
    assert not any(isinstance(m, ev.DeviceEvent) for m in second.inbox)
    second.send(ev.ReplayFrom(1))
    assert [type(e) for e in second.collect(ev.DeviceEvent, 2)] == [ev.ShoeLoaded, ev.CardDrawn]


def test_mute_device_says_nothing() -> None:
    device = build_device("shoe", seed=9, mute=True)
    device.connected(0.0)
    device.receive(encode_frame(0, msg.SYNC, b"abcd") + encode_frame(1, msg.HELLO, b"\x01\x00\x01\x00"), 0.0)
    assert device.outgoing(0.0) == b"" and device.next_deadline() is None


@pytest.mark.parametrize("kind", ["noise", "crc", "drop", "dup", "reorder"])
def test_every_event_arrives_once_in_order_through_line_faults(kind: str, connect: Connect, shake: Callable) -> None:
    device = build_device("shoe", seed=10, faults=[f"{kind}=0.3"], retransmit_after=0.01)
    host = connect(device)
    host.link.retransmit_after = 0.01
    shake(host)
    for _ in range(30):
        device.draw()
    got = host.collect(ev.DeviceEvent, 31, timeout=10)
    assert [e.event_no for e in got] == list(range(1, 32))
    assert device.line.applied.get(kind, 0) > 0
