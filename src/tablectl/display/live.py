"""The live display loop in a real terminal (``tablectl run`` without ``--headless``).

``run_live(controller, ...)`` draws the table with ``rich.live.Live`` (alternate screen) and
redraws whenever the controller publishes a new ``TableView`` (its view listener only puts the
view in a queue: the controller's thread never waits for the terminal). Keys are read from the
terminal in cbreak mode (``termios``/``tty``, ``select`` on stdin; Ctrl-C still interrupts) and
turned into dealer inputs by ``tablectl.display.keys``; each input is submitted to the
controller and its answer (taken, or rejected and why) shown in the status line. Supervisor
actions are checked against the credential hashes of the table config before the ``Resolve``
input is submitted; the secret never leaves this process. While the display runs, log warnings
(a driver reconnecting, ...) go to the status line instead of scribbling over the screen. A table
started again on its log starts its seats as the last round logged left them (the controller's
``resumed.last_start``, ``DisplayState.resumed``): each on the wagers it played, the others
sitting out.

With ``autoplay`` (a virtual dealer's ``play``) the dealer plays on its own thread while the
display runs; keys still work (a supervisor can resolve a hold). ``Paced`` slows a virtual
dealer down to a watchable speed.

The loop ends when the autoplay is done (after showing the last table for ``linger`` seconds),
when ``stop`` is set, when the person at the keys quits (``Q``, confirmed), when the
controller's thread ends, or on SIGTERM / SIGHUP. The terminal is always restored (cbreak off,
main screen, cursor shown); the caller then stops the table.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import queue
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, replace
from types import FrameType
from typing import Any, Protocol, TextIO

from rich.console import Console, RenderableType
from rich.layout import Layout
from rich.live import Live

from tablectl.display import keys as k
from tablectl.display.render import render
from tablectl.display.simhands import SimDeviceLike, SimHands
from tablectl.display.state import DisplayState
from tablectl.display.termout import TerminalOut
from tablectl.display.wagers import TableLimits
from tablectl.supervisor import Throttle, check_supervisor
from tablectl.table import inputs
from tablectl.table.inputs import Resolve
from tablectl.table.view import TableView

#: seconds keys typed after a device action wait for the table to take what the device reported
#: (an answer takes milliseconds; a device that is down never answers)
DEVICE_WAIT = 2.0

QUIT = "quit"
STOPPED = "stopped"
AUTOPLAY_DONE = "autoplay_done"
CONTROLLER_ENDED = "controller_ended"
SIGNALLED = "signal"

_CSI_NAMES = {
    "\x1b[A": "up",
    "\x1b[B": "down",
    "\x1b[C": "right",
    "\x1b[D": "left",
    "\x1bOA": "up",
    "\x1bOB": "down",
    "\x1bOC": "right",
    "\x1bOD": "left",
    "\x1b[3~": "delete",
}


class ControllerLike(Protocol):
    """What the display needs of ``tablectl.table.controller.TableController``."""

    config: Any

    @property
    def view(self) -> TableView: ...

    @property
    def running(self) -> bool: ...

    def submit(self, inp: Any) -> Future[Any]: ...

    def snapshot(self, timeout: float | None = 5.0) -> TableView: ...

    def add_view_listener(self, listener: Callable[[TableView], None]) -> None: ...

    def remove_view_listener(self, listener: Callable[[TableView], None]) -> None: ...


def decode_keys(data: bytes) -> list[str]:
    """Key names from bytes read off a terminal in cbreak mode: printable characters as
    themselves; ``enter`` (CR, LF or CR LF), ``backspace`` (DEL, BS), ``tab``, ``escape``, arrow
    names; other control characters and unknown escape sequences are dropped."""
    text = data.decode("utf-8", "replace")
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\x1b":
            if i + 1 < len(text) and text[i + 1] in "[O":
                j = i + 2
                while j < len(text) and not ("\x40" <= text[j] <= "\x7e"):
                    j += 1
                name = _CSI_NAMES.get(text[i : j + 1])
                if name:
                    out.append(name)
                i = j + 1
                continue
            out.append(k.ESCAPE)
        elif ch == "\r":
            out.append(k.ENTER)
            if text[i + 1 : i + 2] == "\n":
                i += 1
        elif ch == "\n":
            out.append(k.ENTER)
        elif ch in "\x7f\x08":
            out.append(k.BACKSPACE)
        elif ch == "\t":
            out.append(k.TAB)
        elif ch.isprintable():
            out.append(ch)
        i += 1
    return out


@contextlib.contextmanager
def cbreak(fd: int | None) -> Iterator[int | None]:
    """Put the terminal on ``fd`` in cbreak mode (no echo, no line buffering, signals kept) and
    restore it on exit, whatever happens. Yields ``fd``, or None when it is not a terminal. A
    terminal hung up meanwhile (an SSH session dropped) is not restored: there is none left."""
    if fd is None or not os.isatty(fd):
        yield None
        return
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd, termios.TCSANOW)
        yield fd
    finally:
        # TCSANOW, not TCSAFLUSH: that one waits for the output to drain, which on a terminal that
        # stopped reading is forever; typed-ahead keys are discarded all the same
        with contextlib.suppress(termios.error, OSError):  # EIO: the terminal was hung up
            termios.tcsetattr(fd, termios.TCSANOW, saved)
            termios.tcflush(fd, termios.TCIFLUSH)


def describe_input(inp: Any) -> str:
    """A short label for an input in the status line (``decision seat 3: raise``)."""
    name = inputs.INPUT_NAMES.get(type(inp), type(inp).__name__).replace("_", " ")
    if isinstance(inp, inputs.Decision):
        return f"{name} seat {inp.seat}: {inp.decision}"
    if isinstance(inp, inputs.StartRound):
        return f"{name} (seats {', '.join(map(str, inp.seats))})"
    if isinstance(inp, inputs.DealerChange):
        return f"{name}: {inp.dealer}"
    if isinstance(inp, inputs.SeatPlayer):
        return f"seat {inp.seat}: " + (f"player {inp.player}" if inp.player is not None else "the player leaves")
    if isinstance(inp, inputs.OfferBank):
        return f"seat {inp.seat} {'wants' if inp.wants else 'declines'} the bank"
    if isinstance(inp, inputs.Resolve):
        return f"{'void + ' if inp.void_round else ''}resolve by {inp.supervisor}"
    return name


def authorize(request: k.SupervisorRequest, supervisors: Mapping[str, str]) -> Resolve | str:
    """The ``Resolve`` input for a supervisor request whose credential checks out, else why not."""
    if not supervisors:
        return "no supervisor credentials are configured for this table ([supervisors] in the config)"
    if not request.supervisor:
        return "a supervisor id is required"
    if not check_supervisor(supervisors, request.supervisor, request.secret):
        return f"supervisor {request.supervisor!r}: credential not accepted"
    return Resolve(request.supervisor, request.note, request.void_round)


def locked_text(supervisor: str, tries: int, wait: float) -> str:
    """``supervisor 'anna': locked after 3 wrong credentials: try again in 42 s``."""
    return f"supervisor {supervisor!r}: locked after {tries} wrong credentials: try again in {math.ceil(wait)} s"


def _supervisors_of(controller: Any) -> Mapping[str, str]:
    config = getattr(controller, "config", None)
    value = getattr(config, "supervisors", None)
    return dict(value) if isinstance(value, Mapping) else {}


class LiveDisplay:
    """The display's loop state; ``run_live`` is the usual way in. Split out so that the key and
    reply handling can be driven without a terminal."""

    def __init__(
        self,
        controller: ControllerLike,
        *,
        supervisors: Mapping[str, str] | None = None,
        autoplay: bool = False,
        hands: SimHands | None = None,
        throttle: Throttle | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.controller = controller
        self.clock = clock
        self.throttle = throttle or Throttle()  # wrong credentials: a few tries, then a pause per id
        self.supervisors = dict(supervisors) if supervisors is not None else _supervisors_of(controller)
        self.hands = hands
        config = getattr(controller, "config", None)
        self.state = DisplayState(
            autoplay=autoplay, simulated=hands is not None, supervisors=bool(self.supervisors),
            limits=TableLimits.of(config) if hasattr(config, "game_def") else None,
        )
        self.view: TableView | None = controller.view
        # a table started again on its log: the seats stand on what they played in the last round
        # logged, and the seats left out of it sit out, as before the stop
        seats = [s.seat for s in self.view.seats] if self.view is not None else range(1, int(getattr(config, "seats", 0)) + 1)
        self.state = self.state.resumed(getattr(getattr(controller, "resumed", None), "last_start", None), seats)
        self.views: queue.SimpleQueue[TableView] = queue.SimpleQueue()
        self.replies: queue.SimpleQueue[tuple[str, BaseException | None]] = queue.SimpleQueue()
        self.notes: queue.SimpleQueue[str] = queue.SimpleQueue()  # log warnings for the status line
        # a byte on this pipe wakes the loop's select when a view or a reply arrives, so the
        # screen follows the table at once instead of at the next poll
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(self.wake_w, False)
        self._wake_lock = threading.Lock()  # a wake from another thread never writes to a closed fd
        self._closed = False
        self.quit = False
        self.locked: str | None = None  # a supervisor id locked out, its time left on the status line
        # keys typed while the table has not yet taken what the last device action made the
        # simulated device report: applied, in order, once a view shows it taken
        self.typed: list[str] = []
        self._device_since: float | None = None  # when that action was done

    # the controller's thread calls this: it must never block
    def on_view(self, view: TableView) -> None:
        self.views.put(view)
        self.wake()

    def wake(self) -> None:
        """Wake the display loop (any thread; never blocks: a full pipe already wakes it)."""
        with self._wake_lock:
            if not self._closed:
                with contextlib.suppress(BlockingIOError):
                    os.write(self.wake_w, b"\0")

    def woken(self) -> None:
        """Empty the wake pipe (the loop is awake)."""
        with contextlib.suppress(BlockingIOError):
            while os.read(self.wake_r, 4096):
                pass

    def close(self) -> None:
        """Close the wake pipe (a late view or reply then wakes nobody)."""
        with self._wake_lock:
            if not self._closed:
                self._closed = True
                os.close(self.wake_r)
                os.close(self.wake_w)

    def __del__(self) -> None:
        if hasattr(self, "_wake_lock"):
            self.close()

    def submit(self, inp: Any) -> None:
        label = describe_input(inp)
        try:
            future = self.controller.submit(inp)
        except Exception as e:  # noqa: BLE001 - show it, keep the display
            self.replies.put((label, e))
            return
        future.add_done_callback(lambda f: (self.replies.put((label, f.exception())), self.wake()))

    def key(self, name: str) -> None:
        """Apply one key; or, while the table has not yet taken what the last device action made
        the simulated device report, keep it (``release`` applies it then): the next action is
        chosen from the table's answer, never from the screen before it."""
        if self.typed or self._awaiting():
            self.typed.append(name)
            return
        self._apply(name)

    def release(self) -> bool:
        """Apply the kept keys the table's answer now allows (all of them, once ``DEVICE_WAIT``
        seconds have passed without an answer: a device that is down); whether any was."""
        applied = False
        while self.typed and not self._awaiting():
            self._apply(self.typed.pop(0))
            applied = True
        return applied

    def _awaiting(self) -> bool:
        """Whether the last device action still waits for the table's answer."""
        if self._device_since is None:
            return False
        if self.hands is None or self.hands.answered(self.view) or self.clock() - self._device_since >= DEVICE_WAIT:
            self._device_since = None
            return False
        return True

    def _apply(self, name: str) -> None:
        result = k.handle_key(name, self.state, self.view)
        self.state = result.state
        action = result.action
        if action is None:
            return
        if isinstance(action, k.Quit):
            self.quit = True
        elif isinstance(action, (k.DeviceStep, k.DeviceDraw)):
            if self.hands is None:
                self.state = self.state.with_status("no simulated device to work", error=True)
                return
            text, error = self.hands.step(self.view) if isinstance(action, k.DeviceStep) else self.hands.draw()
            self.state = self.state.with_status(text, error=error)
            if not self.hands.answered(self.view):
                self._device_since = self.clock()
        elif isinstance(action, k.SupervisorCheck):
            refused = self._check_supervisor(action.supervisor, action.secret, action.void_round)
            if refused is not None:
                self.state = replace(self.state, prompt=None).with_status(self._lockout_said(action.supervisor, refused), error=True)
            else:
                self.state = self.state.with_status(f"supervisor {action.supervisor}: accepted")
        elif isinstance(action, k.SupervisorRequest):
            refused = self._check_supervisor(action.supervisor, action.secret, action.void_round)
            if refused is not None:
                self.state = self.state.with_status(self._lockout_said(action.supervisor, refused), error=True)
            else:
                decided = Resolve(action.supervisor, action.note, action.void_round)
                self.state = self.state.with_status(f"{describe_input(decided)}: sent")
                self.submit(decided)
        else:
            self.submit(action)

    def _check_supervisor(self, supervisor: str, secret: str, void_round: bool) -> str | None:
        """Why the supervisor's credential is refused (logged as ``supervisor_refused``), or None."""
        request = k.SupervisorRequest(supervisor, secret, void_round=void_round)
        wait = self.throttle.locked(supervisor)
        if wait > 0:
            decided: Resolve | str = locked_text(supervisor, self.throttle.limit, wait)
        else:
            decided = authorize(request, self.supervisors)
            if isinstance(decided, str) and self.supervisors:
                self.throttle.failed(supervisor)
            elif not isinstance(decided, str):
                self.throttle.succeeded(supervisor)
        if isinstance(decided, str):
            self._log_denied(request, decided)
            return decided
        return None

    def _lockout_said(self, supervisor: str, refused: str) -> str:
        """The refusal as the status line says it: with the tries left before the lockout, or the
        lockout's time left (kept up to date by ``tick`` while it lasts)."""
        wait = self.throttle.locked(supervisor)
        if wait > 0:
            self.locked = supervisor
            return locked_text(supervisor, self.throttle.limit, wait)
        left = self.throttle.tries_left(supervisor)
        if self.supervisors and 0 < left < self.throttle.limit:
            return f"{refused} · {left} more wrong and the id is locked for {math.ceil(self.throttle.lockout)} s"
        return refused

    def tick(self) -> bool:
        """Keep a lockout's time left on the status line up to date; whether it changed."""
        if self.locked is None:
            return False
        wait = self.throttle.locked(self.locked)
        if not self.state.status.startswith(f"supervisor {self.locked!r}: locked"):
            self.locked = None
            return False
        said = locked_text(self.locked, self.throttle.limit, wait) if wait > 0 else f"supervisor {self.locked!r}: lockout over, S or V to try again"
        if wait <= 0:
            self.locked = None
        if said == self.state.status:
            return False
        self.state = self.state.with_status(said, error=wait > 0)
        return True

    def _log_denied(self, request: k.SupervisorRequest, reason: str) -> None:
        """Have the controller log the refused supervisor action (``supervisor_refused``)."""
        action = "void" if request.void_round else "resolve"
        self.controller.submit(inputs.SupervisorDenied(request.supervisor, action, reason))

    def take_views(self) -> list[TableView]:
        """The views published since the last call, oldest first; the last becomes the shown one."""
        views: list[TableView] = []
        while True:
            try:
                views.append(self.views.get_nowait())
            except queue.Empty:
                break
        if views:
            self.view = views[-1]
        return views

    def drain(self) -> bool:
        """Take the views and replies that arrived; whether anything changed."""
        changed = bool(self.take_views())
        while True:
            try:
                label, error = self.replies.get_nowait()
            except queue.Empty:
                break
            changed = True
            if error is None:
                self.state = self.state.with_status(f"✓ {label}")
            else:
                # the reason first: a round's seats would push what to do off a narrow status line
                self.state = self.state.with_status(f"{label.partition(' (seats ')[0]}: rejected: {error}", error=True)
        while True:
            try:
                note = self.notes.get_nowait()
            except queue.Empty:
                break
            changed = True
            self.state = self.state.with_status(note, error=True)
        return changed


class _ToStatusLine(logging.Handler):
    """Log records (warnings and worse) go to the display's status line instead of stderr, which
    would scribble over the screen: a driver's reconnect warning shows where the dealer looks."""

    def __init__(self, display: LiveDisplay) -> None:
        super().__init__(logging.WARNING)
        self.display = display

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage().splitlines()[0] if record.getMessage() else record.levelname
            self.display.notes.put(f"{record.levelname.lower()}: {record.name}: {text}")
        except Exception:  # noqa: BLE001 - logging must never raise
            self.handleError(record)


def _fresh_view(controller: ControllerLike) -> TableView | None:
    """The table as it is now (the controller publishes views only after a batch, and none may
    have come since it started), or None if it does not answer in time."""
    try:
        return controller.snapshot(2.0)
    except Exception:  # noqa: BLE001 - a table that does not answer is shown as it was last seen
        return None


def _screen(display: LiveDisplay, console: Console, view: TableView | None = None) -> RenderableType:
    """The whole terminal: a ``Layout`` fills every line and column, so a shorter frame never
    leaves the last frame's text behind."""
    shown = view if view is not None else display.view
    return Layout(render(shown, display.state, height=console.size.height, width=console.size.width))


@dataclass
class LiveResult:
    """How the display ended (``reason``: ``quit``, ``stopped``, ``autoplay_done``,
    ``controller_ended``, ``signal``) and, with autoplay, what it returned or raised."""

    reason: str
    autoplay_result: Any = None
    autoplay_error: BaseException | None = None


class Paced:
    """The controller as a virtual dealer sees it while a person watches: every look the dealer
    takes at the table (``snapshot``) waits ``pace`` seconds first, so each step of the deal and
    each decision stays on screen long enough to be seen; paying and collecting (``end_round``)
    takes ``4 x pace`` and a supervisor's walk to the table (``resolve``) ``8 x pace``, so a
    settled round and an alarm stay up a while. Everything else passes through unchanged.
    (A stand-in until the virtual dealer takes a pace of its own.)"""

    END_ROUND = 4
    RESOLVE = 8

    def __init__(self, controller: Any, pace: float) -> None:
        self._controller = controller
        self._pace = pace

    def _wait(self, steps: float) -> None:
        if self._pace > 0:
            time.sleep(self._pace * steps)

    def snapshot(self, timeout: float | None = 5.0) -> TableView:
        self._wait(1)
        return self._controller.snapshot(timeout)  # type: ignore[no-any-return]

    def end_round(self) -> Future[Any]:
        self._wait(self.END_ROUND)
        return self._controller.end_round()  # type: ignore[no-any-return]

    def resolve(self, supervisor: str, *, note: str = "", void_round: bool = False) -> Future[Any]:
        self._wait(self.RESOLVE)
        return self._controller.resolve(supervisor, note=note, void_round=void_round)  # type: ignore[no-any-return]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._controller, name)


def run_live(
    controller: ControllerLike,
    *,
    supervisors: Mapping[str, str] | None = None,
    autoplay: Callable[[], Any] | None = None,
    sim: SimDeviceLike | None = None,
    linger: float = 2.0,
    stop: threading.Event | None = None,
    console: Console | None = None,
    stdin: TextIO | None = None,
    poll: float = 0.05,
    screen: bool = True,
    notice: str = "",
    supervisor_hint: str = "",
) -> LiveResult:
    """Show the table live in this terminal until told to stop.

    ``controller``: a started ``TableController``. ``supervisors``: supervisor id -> stored
    credential hash (default: ``controller.config.supervisors`` when the config has them).
    ``autoplay``: a virtual dealer's ``play`` (e.g. ``lambda: dealer.play(20)``), run on its own
    thread while the display runs (keys still work); when it returns or fails, the display shows
    the final table for ``linger`` seconds and ends (``autoplay_done``). ``stop``: set by the
    caller to end the display. ``sim``: the simulated card device (``runtime.sims[config.card_device]``)
    when a person plays the dealer on simulated hardware (no ``autoplay``): ``Enter`` and ``w``
    then work the device (``tablectl.display.simhands``). ``notice``: the first status line (a
    demo supervisor, say); ``supervisor_hint``: shown in the supervisor prompt. Keys are read from ``stdin`` (default ``sys.stdin``) when it is a
    terminal. Ends early on ``Q`` (confirmed), when the controller's thread ends, or on
    SIGTERM/SIGHUP; the terminal is always restored. Never stops the controller: the caller does.
    """
    stop = stop or threading.Event()
    terminal: TerminalOut | None = None
    if console is None:
        terminal = TerminalOut(sys.stdout)  # a terminal that stops reading must not stall the display
        console = Console(file=terminal)
    if sim is not None and autoplay is not None:
        raise ValueError("a simulated device is worked by the virtual dealer or at the keys, not both")
    config = getattr(controller, "config", None)
    hands = SimHands(sim, getattr(config, "card_driver", "shoe"), getattr(config, "card_device", None)) if sim is not None else None
    display = LiveDisplay(controller, supervisors=supervisors, autoplay=autoplay is not None, hands=hands)
    display.state = replace(display.state, supervisor_hint=supervisor_hint)
    if notice:
        display.state = display.state.with_status(notice)
    controller.add_view_listener(display.on_view)
    display.view = _fresh_view(controller) or display.view
    to_status = _ToStatusLine(display)
    logging.getLogger().addHandler(to_status)
    signalled = threading.Event()
    resized = threading.Event()
    restore = _install_signals(stop, signalled, resized)
    stream = stdin if stdin is not None else sys.stdin
    try:
        fd: int | None = stream.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None
    result = LiveResult(STOPPED)
    played = threading.Event()
    player: threading.Thread | None = None

    def play() -> None:
        try:
            result.autoplay_result = autoplay()  # type: ignore[misc]
        except BaseException as e:  # noqa: BLE001 - reported to the caller after the display ends
            result.autoplay_error = e
        finally:
            played.set()

    try:
        with cbreak(fd) as key_fd, Live(
            _screen(display, console),
            console=console,
            screen=screen,
            auto_refresh=False,
            redirect_stdout=False,
            redirect_stderr=False,
            transient=False,
        ) as live:
            if autoplay is not None:
                player = threading.Thread(target=play, name="tablectl-autoplay", daemon=True)
                player.start()
            last_draw = time.monotonic()
            done_at: float | None = None
            held_since: float | None = None
            shown_alarms: tuple[Any, ...] = ()
            while True:
                if stop.is_set():
                    result.reason = SIGNALLED if signalled.is_set() else STOPPED
                    break
                if display.quit:
                    result.reason = QUIT
                    break
                if not controller.running:
                    failure = getattr(controller, "error", None)
                    if failure is None:
                        result.reason = CONTROLLER_ENDED
                        break
                    if held_since is None:  # the log failed: say so on screen before the run exits
                        held_since = time.monotonic()
                        display.state = display.state.with_status(
                            f"TABLE HELD — the event log could not be written ({failure}); nothing more is "
                            "accepted; tablectl restarts once the log's disk has space",
                            error=True,
                        )
                        resized.set()
                    elif time.monotonic() - held_since >= max(linger, 3.0):
                        result.reason = CONTROLLER_ENDED
                        break
                if played.is_set():
                    if done_at is None:
                        done_at = time.monotonic()
                        error = result.autoplay_error
                        display.state = display.state.with_status(
                            f"virtual dealer stopped: {error}" if error else "virtual dealer done",
                            error=error is not None,
                        )
                        resized.set()  # redraw with the status
                    elif time.monotonic() - done_at >= linger:
                        result.reason = AUTOPLAY_DONE
                        break
                dirty = False
                if key_fd is not None:
                    ready, _, _ = select.select([key_fd, display.wake_r], [], [], poll)
                    if display.wake_r in ready:
                        display.woken()
                        _at_frame_rate(last_draw)
                    if key_fd in ready:
                        try:
                            data = os.read(key_fd, 1024)
                        except OSError:  # EIO: the terminal is being hung up
                            data = b""
                        if not data:
                            key_fd = None  # the terminal went away: no more keys
                        for name in decode_keys(data):
                            display.key(name)
                        dirty = bool(data)
                else:
                    if select.select([display.wake_r], [], [], poll)[0]:
                        display.woken()
                        _at_frame_rate(last_draw)
                # every view that brings an alarm gets a frame of its own, however fast the
                # table moves on (a held view is never coalesced away)
                for view in display.take_views():
                    if view.alarms and view.alarms != shown_alarms:
                        live.update(_screen(display, console, view), refresh=True)
                    shown_alarms = view.alarms
                    dirty = True
                dirty = display.drain() or dirty
                dirty = display.release() or dirty
                dirty = display.tick() or dirty
                now = time.monotonic()
                if dirty or resized.is_set() or now - last_draw > 1.0:
                    resized.clear()
                    live.update(_screen(display, console), refresh=True)
                    last_draw = now
            display.drain()
            live.update(_screen(display, console), refresh=True)
    finally:
        if terminal is not None:
            terminal.close(timeout=1.0)
        logging.getLogger().removeHandler(to_status)
        restore()
        with contextlib.suppress(ValueError):
            controller.remove_view_listener(display.on_view)
        display.close()
    return result


MIN_FRAME = 0.02  # seconds between frames at most (a table that moves fast is drawn at 50 frames/s)


def _at_frame_rate(last_draw: float) -> None:
    """Wait until a frame is due: views that arrive meanwhile are drawn as one."""
    wait = MIN_FRAME - (time.monotonic() - last_draw)
    if wait > 0:
        time.sleep(wait)


def _install_signals(stop: threading.Event, signalled: threading.Event, resized: threading.Event) -> Callable[[], None]:
    """SIGTERM / SIGHUP end the display (through ``stop``, so the terminal is restored; a
    previous Python handler is still called after); SIGWINCH redraws. Main thread only."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous: dict[int, Any] = {}

    def ending(signum: int, frame: FrameType | None) -> None:
        signalled.set()
        stop.set()
        before = previous.get(signum)
        if callable(before):
            before(signum, frame)

    def resize(signum: int, frame: FrameType | None) -> None:
        resized.set()

    wanted: list[tuple[int, Callable[[int, FrameType | None], None]]] = [(signal.SIGTERM, ending), (signal.SIGHUP, ending)]
    if hasattr(signal, "SIGWINCH"):
        wanted.append((signal.SIGWINCH, resize))
    for signum, handler in wanted:
        previous[signum] = signal.signal(signum, handler)

    def restore() -> None:
        for signum, handler in previous.items():
            signal.signal(signum, handler)

    return restore


__all__ = [
    "AUTOPLAY_DONE",
    "CONTROLLER_ENDED",
    "QUIT",
    "SIGNALLED",
    "STOPPED",
    "ControllerLike",
    "LiveDisplay",
    "LiveResult",
    "Paced",
    "authorize",
    "cbreak",
    "decode_keys",
    "describe_input",
    "run_live",
]
