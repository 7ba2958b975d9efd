"""Between rounds the bank is with the seat that banks the next round, whatever happened before:
a restart after a voided hand the dealer had not collected, a seat offering to bank once the
banker's hands are done, a second restart. The virtual dealer (like a dealer at the keys) keeps
the seat the table shows banking out of the round; a bank that had banked its hands and not moved
on showed the old banker while the table gave the next round to the next seat, so autoplay after
a restart crashed with ``InputRejected: seat 2 banks this round``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablectl.drivers import events as ev

from tablectl.config import load_config
from tablectl.table.controller import TableController
from tablectl.table.inputs import Decision, EndRound, OfferBank, Resolve, StartRound
from tablectl.table.runtime import TableRuntime
from tablectl.table.simulated.virtual_dealer import VirtualDealer

TABLES = Path(__file__).resolve().parents[2] / "config" / "tables"


def at_device(controller: TableController, sim: Any, action: Callable[[], Any]) -> None:
    """Something done at the device, waited for until the table has taken its events."""
    action()
    assert controller.wait_processed(controller.core.source, sim.store.last_no)


def test_after_a_restart_on_a_voided_hand_not_collected_the_bank_is_with_the_next_player_dealer_and_autoplay_goes_on(
    tmp_path: Path,
) -> None:
    config = load_config(TABLES / "three-card-poker.toml")  # the player-dealer banks 2 hands
    log_dir = tmp_path / "log"
    first = TableRuntime(config, simulate=True, log_dir=log_dir, seed=5, fsync=False)
    controller = first.start()
    sim = first.sims[config.card_device]
    try:
        VirtualDealer(controller, sim, seed=6).play(1)  # every seat wants the bank: seat 1 banks its first hand
        assert controller.snapshot().banker_seat == 1
        at_device(controller, sim, sim.start_shuffle)
        controller.start_round([2], {2: {"ante": 500}}).result(5)  # seat 1's second hand
        at_device(controller, sim, lambda: sim.deliver_packet(3))
        controller.end_round().result(5)  # short: held
        controller.resolve("sup-1", note="planted", void_round=True).result(5)  # voided, not collected
    finally:
        first.stop()

    again = TableRuntime(config, simulate=True, log_dir=log_dir, seed=7, fsync=False)
    controller = again.start()
    try:
        view = controller.snapshot()
        assert (view.banker_seat, view.next_banker) == (2, 2)
        report = VirtualDealer(controller, again.sims[config.card_device], seed=8).play(4)
    finally:
        again.stop()
    assert report.rounds == 4


def _tcp_round(t, seat: int = 1) -> None:  # type: ignore[no-untyped-def]
    """One Three Card Poker round of ``seat`` against the player-dealer, collected."""
    t.shuffle()
    t.input(StartRound((seat,), {seat: {"ante": 500}}, banker_stake=10000))
    t.packet(0, ["2S", "3S", "4S"])
    t.packet(1, ["5S", "6S", "7S"])
    t.event(lambda n: ev.CardsDiscarded(n, 46))
    t.input(Decision(seat, "play"))
    t.input(EndRound())


def test_a_seat_offering_to_bank_takes_it_at_once_from_a_banker_whose_hands_are_done(table) -> None:  # type: ignore[no-untyped-def]
    t = table("three-card-poker")
    t.input(OfferBank(4))
    _tcp_round(t)
    _tcp_round(t)  # seat 4 has banked its two hands; nobody else wants the bank: it stays
    t.input(OfferBank(6))
    view = t.core.view()
    assert (view.banker_seat, view.next_banker) == (6, 6)
    assert t.log.events("bank")[-1] | {"seq": 0} == {"seq": 0, "event": "bank", "seat": 6, "previous": 4, "round": 3}


def test_a_voided_hand_counts_once_for_the_player_dealer_across_two_restarts(table) -> None:  # type: ignore[no-untyped-def]
    t = table("three-card-poker")
    for seat in (3, 6):
        t.input(OfferBank(seat))
    t.shuffle()
    t.input(StartRound((1,), {1: {"ante": 500}}))  # seat 3's first hand
    t.packet(0, ["2S", "3S", "4S"])
    t.input(EndRound())  # short: held
    t.input(Resolve("sup-1", "planted", True))  # voided, not collected
    t = t.restarted().restarted()
    bankers = []
    for _ in range(3):
        bankers.append(t.core.view().banker_seat)
        _tcp_round(t)
    assert bankers == [3, 6, 6]
