"""Fault specs, fault plans and the line-fault injector."""

from __future__ import annotations

import pytest

from tablectl.drivers.framer import Framer, encode
from tablectl.simulators.faults import FaultPlan, FaultSpec, FaultSpecError, parse_fault_spec
from tablectl.simulators.linefaults import LineFaults, split_frames

FRAMES = [encode(i, 0x20, bytes([i]) * 5) for i in range(1, 11)]


def test_parse_fault_specs() -> None:
    assert parse_fault_spec("jam=0.25") == FaultSpec("jam", rate=0.25)
    assert parse_fault_spec("drop@40") == FaultSpec("drop", at=40)
    assert parse_fault_spec("restart") == FaultSpec("restart")
    for bad in ("bogus=1", "jam=2", "jam=x", "jam@x"):
        with pytest.raises(FaultSpecError):
            parse_fault_spec(bad)


def test_plan_fires_at_a_number_once_and_armed_once() -> None:
    plan = FaultPlan(at={"jam": {3}})
    assert [plan.roll(n, ["jam"]) for n in range(1, 6)] == [set(), set(), {"jam"}, set(), set()]
    plan.arm("door")
    assert plan.roll(9, ["door"]) == {"door"} and plan.roll(10, ["door"]) == set()


def test_plan_rates_are_deterministic_from_the_seed() -> None:
    def rolls(seed: int) -> list[set[str]]:
        plan = FaultPlan(rates={"drop": 0.5}, seed=seed)
        return [plan.roll(n, ["drop"]) for n in range(50)]

    assert rolls(1) == rolls(1) != rolls(2)


def test_split_frames_passes_garbage_and_keeps_a_partial_frame() -> None:
    buf = bytearray(b"xx" + FRAMES[0] + b"\xa5yy" + FRAMES[1][:5])
    pieces = split_frames(buf)
    assert pieces == [(False, b"xx"), (True, FRAMES[0]), (False, b"\xa5yy")]
    assert bytes(buf) == FRAMES[1][:5]


def frames_after(faults: LineFaults, data: bytes) -> list[int]:
    return [f.seq for f in Framer().feed(faults.outbound(data))]


def test_drop_dup_reorder_crc_at_given_frames() -> None:
    stream = b"".join(FRAMES)
    assert frames_after(LineFaults(FaultPlan(at={"drop": {2}})), stream) == [1, 3, 4, 5, 6, 7, 8, 9, 10]
    assert frames_after(LineFaults(FaultPlan(at={"dup": {2}})), stream) == [1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert frames_after(LineFaults(FaultPlan(at={"reorder": {2}})), stream) == [1, 3, 2, 4, 5, 6, 7, 8, 9, 10]
    crc = LineFaults(FaultPlan(at={"crc": {4}}))
    framer = Framer()
    assert [f.seq for f in framer.feed(crc.outbound(stream))] == [1, 2, 3, 5, 6, 7, 8, 9, 10]
    assert framer.crc_errors + framer.header_errors >= 1


def test_noise_is_skipped_by_the_framer() -> None:
    faults = LineFaults(FaultPlan(rates={"noise": 1.0}))
    out = faults.outbound(b"".join(FRAMES))
    assert len(out) > sum(map(len, FRAMES))
    assert [f.seq for f in Framer().feed(out)] == list(range(1, 11))


def test_disconnect_asks_the_transport_to_drop() -> None:
    faults = LineFaults(FaultPlan(at={"disconnect": {3}}))
    assert frames_after(faults, b"".join(FRAMES[:4])) == [1, 2, 4]
    assert faults.take_disconnect() and not faults.take_disconnect()


def test_inbound_faults_apply_to_whole_frames_across_split_reads() -> None:
    faults = LineFaults(FaultPlan(rates={"dup": 1.0}))
    stream = b"".join(FRAMES[:3])
    out = b"".join(faults.inbound(stream[i : i + 7]) for i in range(0, len(stream), 7))
    assert [f.seq for f in Framer().feed(out)] == [1, 1, 2, 2, 3, 3]


def test_inbound_untouched_without_rates() -> None:
    faults = LineFaults(FaultPlan(at={"drop": {1}}))
    assert faults.inbound(FRAMES[0]) == FRAMES[0]


def test_a_misread_cards_face_is_kept_for_the_dealer_who_turns_it_over() -> None:
    from tablectl.drivers.events import CardDrawn
    from tablectl.simulators.factory import build_device

    shoe = build_device("shoe", seed=2, faults=["misread@1"])
    (drawn,) = [e for e in shoe.draw() if isinstance(e, CardDrawn)]
    assert drawn.card is None
    face = [card for card, n in enumerate(shoe.model._drawn_counts) if n]  # the card that left the shoe
    assert shoe.faces(drawn.event_no) == tuple(face)
    assert shoe.model.faults.fired["misread"] == 1
