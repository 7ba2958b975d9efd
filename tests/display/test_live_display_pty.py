"""The live display in a REAL terminal: ``tablectl run CONFIG --simulate --autoplay N`` (no
``--headless``) under a pty of a fixed size, with the virtual dealer playing on simulated
devices. The screen is read back frame by frame and checked against the card log the run wrote:

- face-up cards, the penetration bar with its cap, and (with mistakes injected) the alarms show;
- every violation in the log was on screen, with what to do about it;
- no card is ever on the table panel before the log has it face up in that round — so no
  face-down card (a dealer's hole card, a three-card hand before the showdown) and no undealt
  card is ever shown;
- the terminal is given back as it was found (main screen, cursor, echo and line mode).

The screen model: in the alternate screen, ``rich.live`` redraws the whole terminal for every
frame, starting at the home position (``ESC [ H``) and filling every line, so a frame is the text
between two homes with the escape sequences removed.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import termios
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from atthekeys import Keys, seat_row, tablectl_command

from tablectl.eventlog.verify import iter_events

REPO = Path(__file__).resolve().parents[2]
ROWS, COLS = 42, 110
HOME = "\x1b[H"
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]")
_CARD = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")
_SUIT_LETTER = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_SEQ = re.compile(r"#(\d+) ")
_ROUND = re.compile(r"· round (\d+|-) ·")
_FACE_UP_EVENTS = ("dealt", "revealed", "identified")


def display_entry_point_missing() -> str | None:
    """Why ``tablectl run`` cannot show the display yet, or None when it can."""
    try:
        import tablectl.commands.run as run_module
    except ImportError:
        return "run has no display mode yet (no tablectl.commands.run)"
    source = Path(run_module.__file__).read_text(encoding="utf-8")
    if "run_live" not in source:
        return "run has no display mode yet (tablectl.commands.run does not call tablectl.display.live.run_live)"
    return None


# --- the terminal -------------------------------------------------------------------------------------


@dataclass
class PtyRun:
    status: int
    output: bytes
    modes_after: list[Any]  # the pty's termios after the child ended
    modes_before: list[Any]


def run_in_pty(argv: list[str], *, timeout: float) -> PtyRun:
    """Run ``argv`` on the slave side of a new pty (its controlling terminal, ROWS x COLS,
    TERM=xterm-256color); collect everything written to the terminal until the child exits.
    (Keys typed at it go through ``atthekeys.Keys``, which waits on the screen.)"""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "TERM")}
    env["TERM"] = "xterm-256color"
    pid, master = pty.fork()
    if pid == 0:  # the child: set the window size of its terminal, then become the command
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
            os.execvpe(argv[0], argv, env)
        finally:
            os._exit(127)
    modes_before = termios.tcgetattr(master)
    output = bytearray()
    started = time.monotonic()
    status: int | None = None
    try:
        while True:
            now = time.monotonic() - started
            if now > timeout:
                os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                raise AssertionError(f"{argv} did not finish in {timeout} s; last output:\n{screens(bytes(output))[-1:]}")
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: the child closed the terminal
                    data = b""
                if not data:
                    break
                output += data
            else:
                done, st = os.waitpid(pid, os.WNOHANG)
                if done:
                    status = st
                    # drain what is left
                    while select.select([master], [], [], 0.05)[0]:
                        try:
                            data = os.read(master, 65536)
                        except OSError:
                            break
                        if not data:
                            break
                        output += data
                    break
        modes_after = termios.tcgetattr(master)
    finally:
        if status is None:
            _, status = os.waitpid(pid, 0)
        os.close(master)
    return PtyRun(os.waitstatus_to_exitcode(status), bytes(output), modes_after, modes_before)


def terminal_text(output: bytes) -> str:
    """Everything written to the terminal, escape sequences removed (for failure messages)."""
    return _ESCAPES.sub("", output.decode("utf-8", "replace")).replace("\r", "")


def screens(output: bytes) -> list[str]:
    """The frames drawn, as plain text."""
    text = output.decode("utf-8", "replace")
    return [_ESCAPES.sub("", part).replace("\r", "") for part in text.split(HOME)[1:]]


# --- reading a frame ----------------------------------------------------------------------------------


@dataclass
class Frame:
    text: str
    round: int | None
    last_seq: int | None  # the newest log line on screen: the view is the table after it
    table_cards: Counter[str]  # cards on the table panel (seats, dealer/DP, board), as "QH"


def parse(frame: str) -> Frame:
    seqs = [int(m) for m in _SEQ.findall(frame)]
    header = _ROUND.search(frame)
    rnd = int(header.group(1)) if header and header.group(1) != "-" else None
    panel = frame.split("Penetration", 1)[0]
    cards = Counter(("T" if r == "10" else r) + _SUIT_LETTER[s] for r, s in _CARD.findall(panel))
    return Frame(frame, rnd, max(seqs) if seqs else None, cards)


def face_up_by_round(events: list[dict[str, Any]]) -> dict[int, list[tuple[int, str]]]:
    """round -> [(seq, card)] of every card the log shows face up on the layout in that round."""
    out: dict[int, list[tuple[int, str]]] = {}
    for e in events:
        if e.get("event") not in _FACE_UP_EVENTS or e.get("face") != "up" or e.get("round") is None:
            continue
        cards = e.get("cards") if "cards" in e else [e.get("card")]
        for c in cards or ():
            if isinstance(c, str):
                out.setdefault(e["round"], []).append((e["seq"], c.upper().replace("10", "T")))
    return out


def shown_before_the_log(frames: list[Frame], events: list[dict[str, Any]]) -> list[str]:
    """Every card a frame shows on the table that the log had not yet shown face up in that
    round (a face-down or an undealt card on screen)."""
    up = face_up_by_round(events)
    problems = []
    for f in frames:
        if not f.table_cards:
            continue
        if f.round is None or f.last_seq is None:
            problems.append(f"cards {dict(f.table_cards)} on screen with no round / no log line yet")
            continue
        allowed = Counter(c for seq, c in up.get(f.round, []) if seq <= f.last_seq)
        extra = f.table_cards - allowed
        if extra:
            problems.append(f"round {f.round} after log line {f.last_seq}: {dict(extra)} not face up in the log yet")
    return problems


def hole_cards(events: list[dict[str, Any]]) -> int:
    return sum(1 for e in events if e.get("event") == "dealt" and e.get("face") == "down")


# --- running a table ------------------------------------------------------------------------------------


def run_options() -> str:
    import subprocess

    return subprocess.run([tablectl_command(), "run", "--help"], capture_output=True, text=True, timeout=30).stdout


@dataclass
class TableRun:
    pty: PtyRun
    frames: list[Frame]
    events: list[dict[str, Any]]


def table_argv(table: str, tmp_path: Path, *, rounds: int, seed: int, mistakes: float) -> list[str]:
    """``tablectl run`` of a shipped table, autoplayed on simulated devices into ``tmp_path/logs``."""
    config = REPO / "config" / "tables" / f"{table}.toml"
    assert config.exists(), f"no shipped config {config.name}"
    log_dir = tmp_path / "logs"
    argv = [tablectl_command(), "run", str(config), "--simulate", "--autoplay", str(rounds), "--seed", str(seed), "--log-dir", str(log_dir)]
    help_text = run_options()
    if mistakes:
        argv += ["--mistakes", str(mistakes), "--mistakes-log", str(tmp_path / "mistakes.jsonl")]
    if "--pace" in help_text:
        argv += ["--pace", "0.01"]  # fast, but each step of the deal still gets its frames
    return argv


def run_table(table: str, tmp_path: Path, *, rounds: int, seed: int, mistakes: float) -> TableRun:
    argv = table_argv(table, tmp_path, rounds=rounds, seed=seed, mistakes=mistakes)
    result = run_in_pty(argv, timeout=120)
    logs = sorted((tmp_path / "logs").glob("*.jsonl"))
    assert logs, f"{' '.join(argv)}: exit {result.status}, no log written; terminal:\n{terminal_text(result.output)[-3000:]}"
    return TableRun(result, [parse(s) for s in screens(result.output)], list(iter_events(logs)))


# shipped configs (config/tables/<name>.toml): two games that deal face-down dealer cards, and the rest
TABLES_WITH_HOLE_CARDS = ["one-for-the-money-shoe", "three-card-poker"]
OTHER_TABLES = ["one-card-poker", "one-for-the-money-csm", "three-card-poker-florida", "texas-holdem-bonus"]


def check_table_run(run: TableRun, *, expect_alarm: bool) -> None:
    """What every autoplayed table must show on screen, checked against its log."""
    frames, events = run.frames, run.events
    assert run.pty.status == 0, f"exit {run.pty.status}; last screen:\n{frames[-1].text if frames else run.pty.output[-2000:]!r}"
    assert frames, "nothing was drawn"
    assert events, "no log written"
    # face-up cards on the table
    assert any(f.table_cards for f in frames), "no face-up card was ever shown"
    # the penetration bar and its cap (or a continuous shuffler's cards out)
    bars = [f.text for f in frames if "Penetration [" in f.text]
    if bars:
        assert any(re.search(r"\d+/\d+ cards \d+\.\d% · cap \d+ \(\d+%\)", b) for b in bars)
        assert any("│" in b.split("Penetration [", 1)[1].split("]", 1)[0] for b in bars), "no cap mark on the bar"
    else:
        assert any("continuous shuffler" in f.text for f in frames)
    # every violation the log holds was on screen, with what to do
    violations = [e for e in events if e.get("event") == "violation"]
    if expect_alarm:
        assert violations, "the injected mistakes raised no violation"
    for v in violations:
        tag = f"VIOLATION {v['kind'].replace('_', ' ').upper()}"
        assert any(tag in f.text and "→ " in f.text.split(tag, 1)[1] for f in frames), f"{tag} never shown"
    # never a face-down or undealt card
    assert shown_before_the_log(frames, events) == []
    # the terminal is given back: main screen, cursor shown
    tail = run.pty.output[-200:]
    assert b"\x1b[?1049l" in tail, "the alternate screen was not left"
    assert b"\x1b[?25h" in tail, "the cursor was not shown again"


@pytest.fixture
def display_entry_point() -> None:
    why = display_entry_point_missing()
    if why:
        pytest.skip(why)


# --- the screen checker itself (pure; proves the pty tests can fail) -------------------------------------


def _frame(round_no: int, last_seq: int, dealer: str) -> Frame:
    text = f"╭─ t · One for the Money · IN ROUND · round {round_no} · shoe 1 ─╮\n│ Dealer: {dealer} │\nPenetration [...]\n│ #{last_seq} 12:00:00 state │"
    return parse(text)


HOLE_EVENTS = [
    {"seq": 10, "event": "dealt", "round": 4, "card": "7H", "to": "seat:1", "face": "up"},
    {"seq": 11, "event": "dealt", "round": 4, "to": "dealer", "face": "down"},
    {"seq": 12, "event": "dealt", "round": 4, "to": "dealer", "face": "down"},
    {"seq": 20, "event": "revealed", "round": 4, "to": "dealer", "cards": ["KD", "TS"], "face": "up"},
]


def test_checker_reads_round_last_seq_and_cards_of_a_frame() -> None:
    f = _frame(4, 15, "K♦ 10♠")
    assert (f.round, f.last_seq, f.table_cards) == (4, 15, Counter({"KD": 1, "TS": 1}))


def test_checker_flags_a_hole_card_shown_before_its_reveal() -> None:
    assert shown_before_the_log([_frame(4, 15, "K♦ ▒▒")], HOLE_EVENTS) == [
        "round 4 after log line 15: {'KD': 1} not face up in the log yet"
    ]


def test_checker_accepts_the_hole_cards_after_their_reveal() -> None:
    assert shown_before_the_log([_frame(4, 20, "K♦ 10♠"), _frame(4, 12, "▒▒ ▒▒")], HOLE_EVENTS) == []


def test_checker_flags_a_card_from_another_round() -> None:
    assert shown_before_the_log([_frame(5, 30, "7♥")], HOLE_EVENTS) != []


# --- the display in a real terminal -------------------------------------------------------------------


@pytest.mark.usefixtures("display_entry_point")
@pytest.mark.parametrize("table", [pytest.param(t, marks=pytest.mark.slow) if i else t for i, t in enumerate(TABLES_WITH_HOLE_CARDS)])
def test_display_in_a_pty_shows_cards_penetration_and_alarms_never_a_hidden_card(table: str, tmp_path: Path) -> None:
    run = run_table(table, tmp_path, rounds=5, seed=11, mistakes=0.5)
    assert hole_cards(run.events), "the game dealt no face-down card: the test would prove nothing"
    check_table_run(run, expect_alarm=True)


@pytest.mark.slow
@pytest.mark.usefixtures("display_entry_point")
@pytest.mark.parametrize("table", OTHER_TABLES + TABLES_WITH_HOLE_CARDS)
def test_display_in_a_pty_for_every_game_over_many_rounds(table: str, tmp_path: Path) -> None:
    check_table_run(run_table(table, tmp_path, rounds=40, seed=5, mistakes=0.3), expect_alarm=True)


@pytest.fixture
def at_keys() -> Iterator[Callable[[list[str]], Keys]]:
    """A person at the keys of a command's display (ROWS x COLS); its terminal closed after the test."""
    opened: list[Keys] = []

    def make(argv: list[str]) -> Keys:
        opened.append(Keys(argv, rows=ROWS, cols=COLS))
        return opened[-1]

    yield make
    for k in opened:
        k.t.kill()


def frames_of(k: Keys) -> list[Frame]:
    return [parse(s) for s in screens(bytes(k.t.output))]


@pytest.mark.slow
@pytest.mark.usefixtures("display_entry_point")
def test_quitting_while_the_virtual_dealer_deals_gives_the_terminal_back(tmp_path: Path, at_keys: Callable[[list[str]], Keys]) -> None:
    k = at_keys(table_argv("one-for-the-money-shoe", tmp_path, rounds=500, seed=3, mistakes=0))
    k.type(b"", lambda s: s.state == "IN ROUND")  # the virtual dealer is dealing
    s = k.type(b"Q", lambda s: s.prompt_open and "quit" in s.status)
    assert re.search(r"(round \d+ is in play: quit anyway|quit the table display)\? \(y/n\)", s.status), s.status
    status, modes_after = k.quit(b"y")
    assert status == 0
    lflag = modes_after[3]
    assert lflag & termios.ECHO and lflag & termios.ICANON, "echo / line mode not restored"
    assert modes_after[3] == k.modes_before[3]
    assert b"\x1b[?1049l" in k.t.output[-200:]


@pytest.mark.usefixtures("display_entry_point")
def test_supervisor_keys_in_a_pty_check_the_credential_and_the_controller_logs_the_action(
    tmp_path: Path, at_keys: Callable[[list[str]], Keys]
) -> None:
    from tablectl.supervisor import hash_credential

    config = tmp_path / "otm.toml"
    shipped = (REPO / "config" / "tables" / "one-for-the-money-shoe.toml").read_text(encoding="utf-8")
    config.write_text(shipped + f'\n[supervisors]\nanna = "{hash_credential("right-one")}"\n', encoding="utf-8")
    log_dir = tmp_path / "logs"
    k = at_keys([tablectl_command(), "run", str(config), "--simulate", "--seed", "1", "--log-dir", str(log_dir)])
    # refused at the display, before the note
    k.type(b"S", lambda s: s.prompt_open and "supervisor id" in s.status)
    k.type(b"anna\r", lambda s: s.prompt_open and "credential" in s.status)
    k.type(b"wrong-one\r", "supervisor 'anna': credential not accepted")
    # sent; nothing is held
    k.type(b"S", lambda s: s.prompt_open and "supervisor id" in s.status)
    k.type(b"anna\r", lambda s: s.prompt_open and "credential" in s.status)
    k.type(b"right-one\r", lambda s: s.prompt_open and "note" in s.status)
    k.type(b"checked\r", "resolve by anna: rejected:")
    status, _ = k.quit()
    assert status == 0, terminal_text(bytes(k.t.output))[-3000:]
    frames = frames_of(k)
    events = list(iter_events(sorted(log_dir.glob("*.jsonl"))))
    assert not any("wrong-one" in f.text or "right-one" in f.text for f in frames), "a credential was echoed"
    # the refused credential never reached the table; the checked one did, and was logged
    # (rejected there: nothing is held)
    resolves = [e for e in events if e.get("input") == "resolve" and e.get("event") in ("input", "input_rejected")]
    assert [(e["supervisor"], e["note"]) for e in resolves] == [("anna", "checked")]
    assert resolves[0]["event"] == "input_rejected" or resolves[0].get("accepted") is False
    # and the refused attempt is on the record too, without the credential typed
    refused = [e for e in events if e["event"] == "supervisor_refused"]
    assert [(e["supervisor"], e["action"]) for e in refused] == [("anna", "resolve")]
    assert "credential not accepted" in refused[0]["reason"]
    assert not any("wrong-one" in str(e) for e in events)


@pytest.mark.usefixtures("display_entry_point")
def test_a_person_at_the_keys_deals_a_round_on_simulated_hardware(tmp_path: Path, at_keys: Callable[[list[str]], Keys]) -> None:
    # One for the Money from a simulated shoe, no virtual dealer: Enter works the device
    config = REPO / "config" / "tables" / "one-for-the-money-shoe.toml"
    log_dir = tmp_path / "logs"
    k = at_keys([tablectl_command(), "run", str(config), "--simulate", "--seed", "2", "--log-dir", str(log_dir)])
    k.ready_with_seat_1_alone()  # the shoe loaded, the dealer signed in, seats 2-7 sitting out
    k.type(b"n", lambda s: s.state == "IN ROUND")  # round start: seat 1
    k.type(b"\r", lambda s: _CARD.search(seat_row(s, 1)) is not None)  # seat 1's card
    k.type(b"\r", "Dealer: ▒▒")
    k.type(b"\r", lambda s: s.decision is not None)  # the dealer's second card: seat 1 decides
    k.type(b"c", lambda s: s.next.startswith("pay and collect"))  # seat 1 checks: the dealer reveals
    k.type(b"E", lambda s: s.state != "SETTLING" and s.round == 1)  # paid and collected
    status, modes_after = k.quit()
    assert status == 0, terminal_text(bytes(k.t.output))[-3000:]
    frames = frames_of(k)
    events = list(iter_events(sorted(log_dir.glob("*.jsonl"))))
    dealt = [e["to"] for e in events if e.get("event") == "dealt"]
    assert dealt == ["seat:1", "dealer", "dealer"]
    assert [e["event"] for e in events if e.get("event") in ("revealed", "round_ended")] == ["revealed", "round_ended"]
    assert not [e for e in events if e.get("event") == "violation"]
    assert any("Dealer: ▒▒ ▒▒" in f.text for f in frames)
    assert any(f.table_cards and "Dealer: ▒▒" not in f.text for f in frames), "the revealed dealer cards never showed"
    assert shown_before_the_log(frames, events) == []
    # quit (Q, y): the terminal is given back as it was
    assert modes_after == k.modes_before, "terminal modes not restored"
    assert b"\x1b[?1049l" in k.t.output[-200:], "the alternate screen was not left"
