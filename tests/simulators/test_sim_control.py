"""The dealer control channel: the line protocol and its TCP server."""

from __future__ import annotations

import socket
from pathlib import Path

from tablectl.simulators.control import ControlServer, execute
from tablectl.simulators.factory import build_device


def test_lines_act_as_the_dealer() -> None:
    shoe = build_device("shoe", seed=1, order=Path(__file__).parent / "data" / "four_cards.txt", decks=1)
    assert execute(shoe, "draw 2") == "ok CardDrawn#2=AS CardDrawn#3=KH"
    assert execute(shoe, "button") == "ok ButtonPressed#4"
    assert execute(shoe, "status").startswith("ok state=READY cards=2")
    assert execute(shoe, "shuffle").startswith("err SHUFFLE: not supported")
    assert execute(shoe, "fault jam") == "ok Fault#5=JAM"
    assert execute(shoe, "draw").startswith("err draw: device fault active")
    assert execute(shoe, "clear") == "ok Fault#6=JAM-cleared"
    assert execute(shoe, "fault misread") == "ok"
    assert execute(shoe, "draw") == "ok CardDrawn#7=? CutCardReached#8"  # 85% of 4 cards
    assert execute(shoe, "fault bogus").startswith("err unknown fault kind")
    assert execute(shoe, "frobnicate").startswith("err unknown command")


def test_csm_return_and_shuffler_packets() -> None:
    csm = build_device("csm", seed=2)
    assert execute(csm, "return QH 7C") == "ok CardReturned#1=QH CardReturned#2=7C"
    assert execute(csm, "return ZZ").startswith("err not a card")
    shuffler = build_device("shuffler", seed=3)
    assert execute(shuffler, "shuffle") == "ok ShuffleStarted#1=1 ShuffleDone#2=ok"
    assert execute(shuffler, "deliver 2").startswith("ok PacketDelivered#3=0:")
    assert execute(shuffler, "discard") == "ok CardsDiscarded#4=50"
    assert execute(shuffler, "restart") == "ok Fault#5=POWER_UP"


def test_control_server_over_tcp() -> None:
    device = build_device("shoe", seed=4)
    with ControlServer(device) as server:
        host, port = server.address.rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=2) as sock, sock.makefile("rw") as f:
            f.write("draw\ninfo\n")
            f.flush()
            assert f.readline().startswith("ok CardDrawn#2=")
            assert f.readline().startswith("ok kind=SHOE")
