"""Keys at a simulated device (``--simulate``, a person at the keys): each ``Enter`` does what the
table asks of the device next, so the next one waits for the table to have taken what the last
one made the device report. Two quick ``Enter``s at "deal: burn seat:2" are the burn, then
seat 2's card, never a second burn (a BURN EXTRA hold). In a real terminal, and from plain
values: a controller whose views the test publishes, a simulated device that numbers its events.
"""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path
from typing import Any

from atthekeys import Keys, tablectl_command

from tablectl.display.keys import ENTER
from tablectl.display.live import DEVICE_WAIT, LiveDisplay
from tablectl.display.simhands import SimHands
from tablectl.drivers.events import ButtonPressed, CardDrawn
from tablectl.eventlog.verify import iter_events
from tablectl.table.view import Prompt, SeatView, TableView

REPO = Path(__file__).resolve().parents[2]
BURN_FIRST = Prompt("deal", to=("burn", "seat:2", "seat:3"))
SEAT_2_NEXT = Prompt("deal", to=("seat:2", "seat:3"))


def view(prompt: Prompt, processed: int) -> TableView:
    return TableView(
        table="ocp-1", game="one-card-poker", state="in_round", round=1, shoe=1, dealer_id="D-07",
        seats=tuple(SeatView(s) for s in range(1, 8)), banker_seat=1, dealer=(), board=(),
        penetration=0.0, cap=0.9, cards_drawn=0, cap_cards=280, last_round=False, cards_out=0,
        prompt=prompt, alarms=(), settlement=(), recent=(), processed={"shoe": processed},
    )  # fmt: skip


class Controller:
    def __init__(self, shown: TableView) -> None:
        self.view = shown
        self.running = True
        self.config = None

    def submit(self, inp: Any) -> Future[Any]:
        raise AssertionError(f"nothing is submitted here: {inp!r}")


class Shoe:
    """A simulated shoe's control calls, recorded; each event numbered as the device numbers them."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.event_no = 1  # the shoe load was event 1

    def _event(self, make: Any) -> list[Any]:
        self.event_no += 1
        return [make(self.event_no)]

    def press_button(self, button: int = 0) -> list[Any]:
        self.calls.append("button")
        return self._event(lambda n: ButtonPressed(n, button))

    def draw(self) -> list[Any]:
        self.calls.append("draw")
        return self._event(lambda n: CardDrawn(n, 5))


def at_the_keys(now: list[float]) -> tuple[LiveDisplay, Shoe]:
    shoe = Shoe()
    display = LiveDisplay(Controller(view(BURN_FIRST, 1)), supervisors={}, hands=SimHands(shoe, "shoe", "shoe"),  # type: ignore[arg-type]
                          clock=lambda: now[0])
    return display, shoe


def test_a_second_enter_before_the_table_took_the_burn_deals_seat_2s_card_once_it_has() -> None:
    now = [0.0]
    display, shoe = at_the_keys(now)
    display.key(ENTER)
    display.key(ENTER)  # typed at once: the screen still says "burn"
    display.release()
    assert shoe.calls == ["button", "draw"]  # the burn; the second Enter waits for the table
    display.on_view(view(BURN_FIRST, 2))  # the button taken, not yet the burned card
    display.drain()
    display.release()
    assert shoe.calls == ["button", "draw"]
    display.on_view(view(SEAT_2_NEXT, 3))  # the burn taken: seat 2 is next
    display.drain()
    assert display.release()
    assert shoe.calls == ["button", "draw", "draw"]
    assert display.state.status == "card drawn (to seat:2)"


def test_keys_after_a_device_action_go_on_once_the_device_wait_is_over_without_an_answer() -> None:
    now = [0.0]
    display, shoe = at_the_keys(now)
    display.key(ENTER)
    display.key("w")
    now[0] = DEVICE_WAIT - 0.01
    assert not display.release()
    now[0] = DEVICE_WAIT
    assert display.release()  # the device is down, say: the key is not kept forever
    assert shoe.calls == ["button", "draw", "draw"]


def test_an_enter_after_the_table_answered_acts_at_once() -> None:
    now = [0.0]
    display, shoe = at_the_keys(now)
    display.key(ENTER)
    display.on_view(view(SEAT_2_NEXT, 3))
    display.drain()
    display.key(ENTER)
    assert shoe.calls == ["button", "draw", "draw"]


def test_two_quick_enters_at_a_burn_in_a_pty_burn_then_deal_seat_2_with_no_hold(tmp_path: Path) -> None:
    config = REPO / "config" / "tables" / "one-card-poker.toml"
    log_dir = tmp_path / "logs"
    k = Keys([tablectl_command(), "run", str(config), "--simulate", "--seed", "3", "--log-dir", str(log_dir)], rows=40, cols=120)
    try:
        k.type(b"\r", lambda s: "NO DEALER" in s.text)  # the shoe loaded
        k.type(b"dD-07\r", lambda s: s.signed_in)
        k.type(b"o", lambda s: "wants the bank" in s.status)
        k.type(b"n", lambda s: s.next.startswith("deal: burn seat:2"))
        s = k.type(b"\r\r", lambda s: s.next.startswith("deal: seat:3") or s.state == "HELD")  # one read, both keys
        assert (s.state, s.status.strip()) == ("IN ROUND", "· card drawn (to seat:2)"), s.text
        status, _ = k.quit()
    finally:
        k.t.kill()
    assert status == 0
    events = list(iter_events(sorted(log_dir.glob("*.jsonl"))))
    assert [(e["event"], e.get("to")) for e in events if e["event"] in ("burned", "dealt", "drawn", "violation")] == [
        ("burned", "burn"), ("dealt", "seat:2")
    ]
