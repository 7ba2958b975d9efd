"""The key map, pure: a key and the display state give the next state and at most one action."""

from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import Future
from dataclasses import replace
from typing import Any

import pytest

from tablectl.cards import card
from tablectl.display.keys import BACKSPACE, ENTER, ESCAPE, KeyResult, Quit, SupervisorCheck, SupervisorRequest, handle_key
from tablectl.display.live import LiveDisplay, authorize, decode_keys, describe_input
from tablectl.display.state import DisplayState
from tablectl.supervisor import hash_credential
from tablectl.table.inputs import (
    BurnNext,
    DealerChange,
    Decision,
    EndRound,
    ExposedCard,
    IdentifyCard,
    InputRejected,
    OfferBank,
    Resolve,
    ShoeChange,
    StartRound,
    SupervisorDenied,
)
from tablectl.table.view import Prompt, SeatView, TableView


def make_view(prompt: Prompt = Prompt("start_round"), seats: int = 7, game: str = "one-for-the-money", **changes: Any) -> TableView:
    base = TableView(
        table="t", game=game, state="ready", round=None, shoe=1, dealer_id=None,
        seats=tuple(SeatView(s) for s in range(1, seats + 1)), banker_seat=None, dealer=(), board=(),
        penetration=0.0, cap=0.9, cards_drawn=0, cap_cards=280, last_round=False, cards_out=0,
        prompt=prompt, alarms=(), settlement=(), recent=(), processed={},
    )  # fmt: skip
    return replace(base, **changes)


DECIDE_OTM = Prompt("decide", seat=2, options=("check", "raise", "trade"))


def press(keys: Iterable[str], view: TableView | None = None, state: DisplayState | None = None) -> tuple[DisplayState, list[Any]]:
    state = state or DisplayState()
    view = view or make_view()
    actions = []
    for key in keys:
        result: KeyResult = handle_key(key, state, view)
        state = result.state
        if result.action is not None:
            actions.append(result.action)
    return state, actions


def test_n_starts_a_round_with_every_seat() -> None:
    assert press("n")[1] == [StartRound(seats=(1, 2, 3, 4, 5, 6, 7))]


def test_space_sits_the_selected_seat_out_of_the_next_round() -> None:
    _, actions = press(["3", " ", "5", " ", "n"])
    assert actions == [StartRound(seats=(1, 2, 4, 6, 7))]


def test_space_again_brings_the_seat_back() -> None:
    _, actions = press(["3", " ", " ", "n"])
    assert actions == [StartRound(seats=(1, 2, 3, 4, 5, 6, 7))]


def test_a_digit_selects_a_seat() -> None:
    state, actions = press("4")
    assert (state.selected, actions) == (4, [])


def test_a_seat_the_table_does_not_have_is_refused() -> None:
    state, _ = press("8", view=make_view(seats=7))
    assert state.selected is None and state.status_error


def test_escape_clears_the_selection() -> None:
    state, _ = press(["4", ESCAPE])
    assert state.selected is None


@pytest.mark.parametrize(("key", "choice"), [("c", "check"), ("r", "raise"), ("t", "trade")])
def test_a_decision_key_decides_for_the_seat_whose_turn_it_is(key: str, choice: str) -> None:
    assert press(key, view=make_view(DECIDE_OTM))[1] == [Decision(2, choice)]


def test_a_decision_goes_to_the_selected_seat_when_one_is_selected() -> None:
    state, actions = press(["5", "r"], view=make_view(DECIDE_OTM))
    assert actions == [Decision(5, "raise")]
    assert state.selected is None


def test_r_is_play_in_three_card_poker_and_the_bet_in_holdem() -> None:
    tcp = make_view(Prompt("decide", seat=1, options=("play", "fold")), game="three-card-poker")
    thb = make_view(Prompt("decide", seat=1, options=("turn", "check")), game="texas-holdem-bonus")
    assert press("r", view=tcp)[1] == [Decision(1, "play")]
    assert press("r", view=thb)[1] == [Decision(1, "turn")]


def test_s_is_stand_after_a_trade_and_surrender_at_a_tie() -> None:
    otm = make_view(Prompt("decide", seat=1, options=("stand", "raise")))
    ocp = make_view(Prompt("decide", seat=1, options=("extend", "surrender")), game="one-card-poker")
    assert press("s", view=otm)[1] == [Decision(1, "stand")]
    assert press("s", view=ocp)[1] == [Decision(1, "surrender")]


def test_l_is_the_dp_declining_the_war() -> None:
    ocp = make_view(Prompt("decide", seat=4, options=("extend", "dp-declines"), banker=True), game="one-card-poker")
    assert press("l", view=ocp)[1] == [Decision(4, "dp-declines")]


def test_a_decision_key_that_is_not_an_option_is_refused_locally() -> None:
    state, actions = press("f", view=make_view(DECIDE_OTM))
    assert actions == []
    assert state.status_error and "check or raise or trade" in state.status


def test_a_decision_key_when_no_decision_is_awaited_is_refused_locally() -> None:
    state, actions = press("r", view=make_view(Prompt("deal", to=("seat:1",))))
    assert actions == []
    assert state.status_error and "deal" in state.status


@pytest.mark.parametrize(("key", "action"), [("b", BurnNext()), ("x", ExposedCard()), ("E", EndRound())])
def test_single_key_corrections_and_end_of_round(key: str, action: Any) -> None:
    assert press(key)[1] == [action]


def test_o_offers_the_bank_to_the_selected_seat_and_toggles_back() -> None:
    ocp = make_view(game="one-card-poker")
    assert press(["2", "o"], view=ocp)[1] == [OfferBank(2, True)]
    wanting = replace(ocp, seats=tuple(replace(s, wants_bank=s.seat == 2) for s in ocp.seats))
    assert press(["2", "o"], view=wanting)[1] == [OfferBank(2, False)]


def test_i_prompts_for_the_misread_card_and_identifies_it() -> None:
    state, actions = press(["i", "q", "h", ENTER])
    assert actions == [IdentifyCard(int(card("QH")))]
    assert state.prompt is None


def test_a_bad_card_text_is_refused_with_the_reason() -> None:
    state, actions = press(["i", "Z", "Z", ENTER])
    assert actions == [] and state.status_error and "not a card" in state.status


def test_typing_in_a_prompt_does_not_trigger_keys() -> None:
    # "n", "b" and digits are text while the dealer-id prompt is open
    _, actions = press(["d", "n", "b", "7", ENTER])
    assert actions == [DealerChange("nb7")]


def test_backspace_erases_in_a_prompt() -> None:
    _, actions = press(["d", "a", "x", BACKSPACE, "b", ENTER])
    assert actions == [DealerChange("ab")]


def test_escape_cancels_a_prompt() -> None:
    state, actions = press(["d", "a", ESCAPE, "b"])
    assert state.prompt is None and actions == [BurnNext()]


def test_an_empty_required_field_is_not_accepted() -> None:
    state, actions = press(["d", ENTER])
    assert actions == [] and state.prompt is not None and state.status_error


def test_shoe_change_asks_to_confirm_with_one_key() -> None:
    assert press(["C", "n"])[1] == []
    assert press(["C", "y"])[1] == [ShoeChange()]


def test_quit_asks_to_confirm_with_one_key() -> None:
    state, actions = press(["Q", "n"])
    assert actions == [] and state.prompt is None and state.status == "quit cancelled"
    assert press(["Q", "y"])[1] == [Quit()]


IN_PLAY = replace(make_view(Prompt("deal", to=("seat:2",)), state="in_round", round=4),
                  seats=tuple(SeatView(s, in_play=s == 2) for s in range(1, 8)))


def test_quit_with_a_round_in_play_says_so() -> None:
    state, _ = press(["Q"], IN_PLAY)
    assert state.prompt is not None and state.prompt.shown() == "round 4 is in play: quit anyway? (y/n): "


def test_E_before_the_round_is_all_dealt_asks_first_and_any_other_key_keeps_the_round() -> None:
    state, actions = press(["E"], IN_PLAY)
    assert actions == [] and state.prompt is not None and "end it short? (y/n)" in state.prompt.shown()
    state, actions = press(["E", "n"], IN_PLAY)
    assert actions == [] and state.prompt is None and "cancelled" in state.status
    assert press(["E", "y"], IN_PLAY)[1] == [EndRound()]


def test_E_once_the_round_is_settling_ends_it_at_once() -> None:
    assert press(["E"], make_view(Prompt("end_round"), state="settling", round=4))[1] == [EndRound()]


def test_S_checks_the_credential_before_asking_for_the_note() -> None:
    state, actions = press(["S", *"anna", ENTER, *"pw", ENTER])
    assert actions == [SupervisorCheck("anna", "pw", void_round=False)]
    assert state.prompt is not None and state.prompt.current.label == "note (optional)"
    _, actions = press([*"ok", ENTER], state=state)
    assert actions == [SupervisorRequest("anna", "pw", "ok", void_round=False)]


def test_V_asks_to_confirm_with_one_key_then_the_same_and_voids_the_round() -> None:
    state, actions = press(["V", "n"], IN_PLAY)
    assert actions == [] and state.prompt is None
    _, actions = press(["V", "y", *"anna", ENTER, *"pw", ENTER, ENTER], IN_PLAY)
    assert actions[-1] == SupervisorRequest("anna", "pw", "", void_round=True)


def test_the_credential_is_never_in_the_status_line() -> None:
    state, _ = press(["S", *"anna", ENTER, *"hunter2"])
    assert "hunter2" not in state.prompt.shown()  # type: ignore[union-attr]
    assert state.prompt.shown() == "credential: *******"  # type: ignore[union-attr]


# --- the supervisor check between the key map and the controller ----------------------------------

FAST = {"n": 2**4, "r": 1, "p": 1}


def test_a_supervisor_request_with_the_right_credential_becomes_resolve() -> None:
    supervisors = {"anna": hash_credential("pw", **FAST)}
    assert authorize(SupervisorRequest("anna", "pw", "checked", True), supervisors) == Resolve("anna", "checked", True)


def test_a_wrong_credential_is_refused() -> None:
    supervisors = {"anna": hash_credential("pw", **FAST)}
    assert "not accepted" in str(authorize(SupervisorRequest("anna", "pW"), supervisors))


def test_no_configured_supervisors_refuses_every_request() -> None:
    assert "no supervisor credentials" in str(authorize(SupervisorRequest("anna", "pw"), {}))


class FakeController:
    """Records what is submitted; rejects what ``reject`` names."""

    def __init__(self, view: TableView, reject: str | None = None) -> None:
        self.view = view
        self.running = True
        self.config = None
        self.submitted: list[Any] = []
        self.reject = reject

    def submit(self, inp: Any) -> Future[Any]:
        self.submitted.append(inp)
        f: Future[Any] = Future()
        if self.reject:
            f.set_exception(InputRejected(self.reject))
        else:
            f.set_result(None)
        return f


def test_the_display_submits_resolve_only_after_the_credential_checks_out() -> None:
    ctl = FakeController(make_view(Prompt("resolve"), state="held"))
    display = LiveDisplay(ctl, supervisors={"anna": hash_credential("pw", **FAST)})  # type: ignore[arg-type]
    for key in ["S", *"anna", ENTER, *"bad", ENTER]:
        display.key(key)
    assert [i for i in ctl.submitted if isinstance(i, Resolve)] == []
    assert display.state.status_error


def test_a_wrong_credential_is_refused_before_the_note_is_asked_for_and_logged_by_id() -> None:
    ctl = FakeController(make_view(Prompt("resolve"), state="held"))
    display = LiveDisplay(ctl, supervisors={"anna": hash_credential("pw", **FAST)})  # type: ignore[arg-type]
    for key in ["S", *"anna", ENTER, *"bad", ENTER]:
        display.key(key)
    assert display.state.prompt is None
    assert display.state.status == "supervisor 'anna': credential not accepted · 2 more wrong and the id is locked for 60 s"
    (denied,) = [i for i in ctl.submitted if isinstance(i, SupervisorDenied)]
    assert denied.supervisor == "anna" and "bad" not in repr(denied)
    for key in ["S", *"anna", ENTER, *"pw", ENTER, ENTER]:
        display.key(key)
    assert [i for i in ctl.submitted if isinstance(i, Resolve)] == [Resolve("anna", "", False)]


def test_a_rejected_input_shows_the_controllers_reason() -> None:
    ctl = FakeController(make_view(), reject="seat 2 decides now, not seat 5")
    display = LiveDisplay(ctl, supervisors={})  # type: ignore[arg-type]
    display.key("n")
    assert display.drain()
    assert display.state.status_error
    assert display.state.status.endswith("rejected: seat 2 decides now, not seat 5")


def test_a_taken_input_is_acknowledged() -> None:
    ctl = FakeController(make_view())
    display = LiveDisplay(ctl, supervisors={})  # type: ignore[arg-type]
    display.key("b")
    display.drain()
    assert ctl.submitted == [BurnNext()]
    assert display.state.status == "✓ burn next" and not display.state.status_error


def test_views_from_the_controller_replace_the_shown_view() -> None:
    ctl = FakeController(make_view())
    display = LiveDisplay(ctl, supervisors={})  # type: ignore[arg-type]
    newer = make_view(DECIDE_OTM)
    display.on_view(newer)
    assert display.drain()
    assert display.view is newer


# --- terminal bytes to key names --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "keys"),
    [
        (b"n", ["n"]),
        (b"S", ["S"]),
        (b"ab\r", ["a", "b", ENTER]),
        (b"\r\n", [ENTER]),
        (b"\n", [ENTER]),
        (b"\x7f", [BACKSPACE]),
        (b"\x1b", [ESCAPE]),
        (b"\x1b[A3", ["up", "3"]),
        (b"\x1b[1;5C", []),
        (b"\x01\x02x", ["x"]),
        ("é".encode(), ["é"]),
    ],
)
def test_decode_keys(data: bytes, keys: list[str]) -> None:
    assert decode_keys(data) == keys


def test_describe_input_names_the_seat_and_choice() -> None:
    assert describe_input(Decision(3, "raise")) == "decision seat 3: raise"


# --- simulated devices at the keys (Enter, w) --------------------------------------------------------


def test_enter_and_w_work_a_simulated_device_only() -> None:
    from tablectl.display.keys import DeviceDraw, DeviceStep

    real, actions = press([ENTER, "w"])
    assert actions == [] and real.status_error
    _, actions = press([ENTER, "w"], state=DisplayState(simulated=True))
    assert actions == [DeviceStep(), DeviceDraw()]


class FakeSim:
    """Records the control calls; a drawn card is the next of ``cards``."""

    def __init__(self, cards: list[int] | None = None, refuse: str | None = None) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.cards = list(cards or [])
        self.refuse = refuse

    def _call(self, name: str, arg: Any = None) -> list[Any]:
        if self.refuse:
            raise RuntimeError(self.refuse)
        self.calls.append((name, arg))
        return []

    def draw(self) -> list[Any]:
        from tablectl.drivers.events import CardDrawn

        self._call("draw")
        return [CardDrawn(len(self.calls), self.cards.pop(0))] if self.cards else []

    def press_button(self, button: int = 0) -> list[Any]:
        return self._call("button", button)

    def load(self) -> list[Any]:
        return self._call("load")

    def start_shuffle(self) -> list[Any]:
        return self._call("shuffle")

    def deliver_packet(self, count: int) -> list[Any]:
        return self._call("packet", count)

    def discard_rest(self) -> list[Any]:
        return self._call("discard")

    def return_cards(self, cards: Iterable[int]) -> list[Any]:
        return self._call("return", list(cards))

    def clear_fault(self) -> list[Any]:
        return self._call("clear")


@pytest.mark.parametrize(
    ("prompt", "kind", "calls"),
    [
        (Prompt("load_shoe"), "shoe", [("load", None)]),
        (Prompt("shuffle"), "csm", [("shuffle", None)]),
        (Prompt("deal", to=("seat:1", "seat:2")), "shoe", [("draw", None)]),
        (Prompt("deal", to=("burn", "seat:1")), "shoe", [("button", 0), ("draw", None)]),
        (Prompt("packet", to=("seat:3",), count=3), "shuffler", [("packet", 3)]),
        (Prompt("discard"), "shuffler", [("discard", None)]),
        (Prompt("clear_fault"), "shoe", [("clear", None)]),
        (Prompt("decide", seat=1, options=("play", "fold")), "shoe", []),
    ],
)
def test_enter_does_the_one_device_action_the_prompt_asks_for(prompt: Prompt, kind: str, calls: list[Any]) -> None:
    from tablectl.display.simhands import SimHands

    sim = FakeSim(cards=[5])
    _, error = SimHands(sim, kind).step(make_view(prompt))  # type: ignore[arg-type]
    assert sim.calls == calls
    assert error == (calls == [])


def test_cards_drawn_from_a_continuous_shuffler_go_back_into_it() -> None:
    from tablectl.display.simhands import SimHands

    sim = FakeSim(cards=[7, 33])
    hands = SimHands(sim, "csm")  # type: ignore[arg-type]
    hands.step(make_view(Prompt("deal", to=("seat:1", "dealer"))))
    hands.draw()
    text, error = hands.step(make_view(Prompt("return_cards", count=2)))
    assert sim.calls[-1] == ("return", [7, 33])
    assert (text, error) == ("2 cards returned to the shuffler", False)


def test_a_device_refusal_is_shown_not_raised() -> None:
    from tablectl.display.simhands import SimHands

    text, error = SimHands(FakeSim(refuse="shoe empty"), "shoe").step(make_view(Prompt("deal", to=("seat:1",))))  # type: ignore[arg-type]
    assert error and text == "device: shoe empty"


def test_a_new_round_clears_the_seat_selection() -> None:
    # so that the first decision goes to the seat whose turn it is, not the last seat sat out
    state, _ = press(["7", " ", "n"])
    assert state.selected is None


def test_a_log_warning_shows_in_the_status_line_not_on_stderr() -> None:
    import logging

    from tablectl.display.live import _ToStatusLine

    display = LiveDisplay(FakeController(make_view()), supervisors={})  # type: ignore[arg-type]
    record = logging.LogRecord("tablectl.drivers.shoe", logging.WARNING, __file__, 1, "shoe-1: link down, reconnecting in %s s", (2,), None)
    _ToStatusLine(display).handle(record)
    assert display.drain()
    assert display.state.status == "warning: tablectl.drivers.shoe: shoe-1: link down, reconnecting in 2 s"
    assert display.state.status_error


def test_wrong_credentials_lock_the_supervisor_id_for_a_while_and_each_refusal_is_logged() -> None:
    from tablectl.supervisor import Throttle
    from tablectl.table.inputs import SupervisorDenied

    now = [0.0]
    ctl = FakeController(make_view(Prompt("resolve"), state="held"))
    display = LiveDisplay(  # type: ignore[arg-type]
        ctl, supervisors={"anna": hash_credential("pw", **FAST)}, throttle=Throttle(limit=3, lockout=60, clock=lambda: now[0])
    )

    def attempt(secret: str) -> None:
        for key in ["S", *"anna", ENTER, *secret, ENTER]:
            display.key(key)
        if display.state.prompt is not None:  # accepted: the note
            display.key(ENTER)

    for _ in range(3):
        attempt("bad")
    attempt("pw")  # the right one, but the id is locked: refused unchecked
    assert [i for i in ctl.submitted if isinstance(i, Resolve)] == []
    assert "try again in 60 s" in display.state.status
    assert len([i for i in ctl.submitted if isinstance(i, SupervisorDenied)]) == 4
    now[0] = 61.0
    attempt("pw")
    assert [i for i in ctl.submitted if isinstance(i, Resolve)] == [Resolve("anna", "", False)]


# --- wagers, the bank, help, supervisors -------------------------------------------------------------

from pathlib import Path  # noqa: E402

from tablectl.config import load_config  # noqa: E402
from tablectl.display.wagers import TableLimits, parse  # noqa: E402

TABLES = Path(__file__).resolve().parents[2] / "config" / "tables"


def limits_of(table: str) -> TableLimits:
    """The wager limits of a shipped table config."""
    return TableLimits.of(load_config(TABLES / f"{table}.toml"))


OTM_LIMITS = limits_of("texas-holdem-bonus")  # ante $5-$500 in cents, bonus $1-$25
TCP_LIMITS = limits_of("three-card-poker")


def typed(text: str) -> list[str]:
    return [*text, ENTER]


def test_a_round_starts_on_the_table_default_without_typing() -> None:
    _, actions = press(["2", " ", "3", " ", "4", " ", "5", " ", "6", " ", "7", " ", "n"], state=DisplayState(limits=OTM_LIMITS))
    assert actions == [StartRound(seats=(1,), wagers={1: {"ante": 500}})]


def test_wagers_typed_for_a_seat_stand_for_the_next_rounds() -> None:
    state, actions = press(["1", "$", *typed("25 bonus 5"), "n"], state=DisplayState(limits=OTM_LIMITS))
    assert actions[0].wagers[1] == {"ante": 2500, "bonus": 500}
    _, again = press(["n"], state=state)
    assert again[0].wagers[1] == {"ante": 2500, "bonus": 500}


def test_a_wager_over_the_table_maximum_is_refused_in_one_line_naming_the_seat() -> None:
    state, actions = press(["3", "$", *typed("9999")], state=DisplayState(limits=OTM_LIMITS))
    assert actions == [] and state.status_error
    assert state.status == "seat 3: ante: $9,999 is outside the limits $5-$500"


@pytest.mark.parametrize(("text", "wanted"), [
    ("25", {"ante": 2500}),
    ("a 7.50 p 5", {"ante": 750, "pairplus": 500}),
    ("ante 10 scb 5", {"ante": 1000, "six-card-bonus": 500}),
    ("$10, pairplus $2", {"ante": 1000, "pairplus": 200}),
    ("ante 10 pairplus 0", {"ante": 1000}),
])  # fmt: skip
def test_wagers_read_as_a_person_types_them(text: str, wanted: dict[str, int]) -> None:
    assert parse(text, TCP_LIMITS) == wanted


@pytest.mark.parametrize(("text", "why"), [
    ("ante", "'ante' has no amount"),
    ("ante ten", "'ten' is not an amount"),
    ("x 5", "no bet 'x'"),
    ("pairplus 5", "needs a ante wager"),
    ("2.005", "not an amount"),
])  # fmt: skip
def test_wagers_a_person_mistypes_are_refused_with_why(text: str, why: str) -> None:
    result = parse(text, TCP_LIMITS)
    assert isinstance(result, str) and why in result


def test_whole_dollar_games_refuse_cents() -> None:
    assert "whole dollars" in str(parse("7.50", limits_of("one-card-poker")))


def test_n_leaves_out_the_seat_the_bank_goes_to_and_no_sit_out_is_needed() -> None:
    view = make_view(game="one-card-poker", next_banker=3)
    assert press("n", view)[1] == [StartRound(seats=(1, 2, 4, 5, 6, 7))]
    after = make_view(game="one-card-poker", next_banker=4)  # the bank moved on: seat 3 plays again
    assert press("n", after)[1] == [StartRound(seats=(1, 2, 3, 5, 6, 7))]


def test_with_no_seat_banking_n_says_what_to_do_and_o_alone_offers_the_first_seat_in_play() -> None:
    view = make_view(game="three-card-poker", prompt=Prompt("offer_bank"))
    state, actions = press("n", view)
    assert actions == [] and "no seat has the bank" in state.status
    assert press(["1", " ", "0", "o"], view)[1] == [OfferBank(2, True)]


def test_a_bank_whose_stake_limits_payouts_needs_its_stake_first() -> None:
    view = make_view(game="three-card-poker", next_banker=2, seats=8)
    state, actions = press("n", view, DisplayState(limits=TCP_LIMITS))
    assert actions == [] and state.status == "seat 2 banks: enter its stake first (select 2, then $)"
    state, actions = press(["2", "$", *typed("2000"), "n"], view, DisplayState(limits=TCP_LIMITS))
    assert actions[0].banker_stake == 200000 and 2 not in actions[0].seats


def test_question_mark_opens_the_help_and_any_key_closes_it_without_acting() -> None:
    state, _ = press("?")
    assert state.help
    state, actions = press(["?", "n"])
    assert not state.help and actions == []


def test_s_says_at_once_when_the_table_has_no_supervisor() -> None:
    state, _ = press("S", state=DisplayState(supervisors=False))
    assert state.prompt is None and "no supervisor is configured" in state.status


def test_the_demo_supervisor_is_named_in_the_supervisor_prompt() -> None:
    state, _ = press("S", state=DisplayState(supervisor_hint="demo: demo / demo"))
    assert state.prompt is not None and "demo: demo / demo" in state.prompt.shown()


def test_d_asks_for_a_sign_in_when_no_dealer_is_on_duty() -> None:
    state, _ = press("d")
    assert state.prompt is not None and "sign-in" in state.prompt.shown()


# --- people at work: the void, the seat kept, hints, the lockout ------------------------------------


def test_V_with_no_round_in_play_is_refused_before_any_credential_is_asked() -> None:
    state, actions = press(["V"], make_view(Prompt("resolve"), state="held"))
    assert actions == [] and state.prompt is None
    assert state.status_error and state.status == "no round in play: nothing to void (S resolves a hold)"


def test_V_mid_round_confirms_that_every_wager_is_returned() -> None:
    state, _ = press(["V"], IN_PLAY)
    assert state.prompt is not None and "every wager returned? (y/n)" in state.prompt.shown()


def test_dollar_keeps_the_seat_so_a_second_dollar_adds_a_side_bet_to_it() -> None:
    state, actions = press(["1", "$", *typed("25"), "$", *typed("bonus 5")], state=DisplayState(limits=OTM_LIMITS))
    assert actions == [] and state.selected == 1
    assert state.standing[1] == {"ante": 2500, "bonus": 500} and state.status == "seat 1 bets ante $25 bonus $5"


def test_a_wager_typed_during_a_round_says_it_counts_from_next_round() -> None:
    state, _ = press(["1", "$", *typed("25 bonus 5")], IN_PLAY, DisplayState(limits=OTM_LIMITS))
    assert state.status == "seat 1 bets ante $25 bonus $5 from next round"


def test_a_lockout_shows_its_time_left_and_counts_down() -> None:
    from tablectl.supervisor import Throttle

    now = [0.0]
    ctl = FakeController(make_view(Prompt("resolve"), state="held"))
    display = LiveDisplay(  # type: ignore[arg-type]
        ctl, supervisors={"anna": hash_credential("pw", **FAST)}, throttle=Throttle(limit=3, lockout=60, clock=lambda: now[0])
    )
    for _ in range(3):
        for key in ["S", *"anna", ENTER, *"bad", ENTER]:
            display.key(key)
    assert display.state.status == "supervisor 'anna': locked after 3 wrong credentials: try again in 60 s"
    now[0] = 18.2
    assert display.tick() and display.state.status.endswith("try again in 42 s")
    now[0] = 61.0
    assert display.tick() and display.state.status == "supervisor 'anna': lockout over, S or V to try again"
