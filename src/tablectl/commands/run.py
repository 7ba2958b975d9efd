"""``tablectl run CONFIG``: run a table from its configuration.

``--simulate`` serves a simulator for each configured device on a pseudo-terminal (the real
serial path: transport, framer, link, driver) instead of opening the configured addresses.
``--headless`` runs without the live display. ``--autoplay ROUNDS`` (with ``--simulate``) has
the virtual dealer play that many rounds, its players deciding by the game math's optimal
strategy (``--player-errors RATE``: each decision wrong at that rate; ``tablectl.table.simulated.players``),
then exits 0. ``--player SEAT:PROFILE`` (repeatable) has a seat play a profile (basic,
recreational, hole-card[#K][@SHARE], edge-sort[@SHARE], team: ``tablectl.table.simulated.profiles``),
``=PLAYER`` after it naming the seat's player as the pit would enter it (``1:basic=P-1077``: the
virtual dealer logs ``player_seated`` before the first round); the
simulation's truth (who played what, and what each saw) goes to ``--truth PATH``, by default
``LOGDIR.simulation.jsonl`` beside the log directory (``tablectl.table.simulated.truth``).
``--mistakes RATE --mistakes-log FILE`` makes it commit procedure errors at that rate per round
and write each one to FILE as a JSON line ``{"round": R, "kind": K}``.

With ``--simulate`` and no signing key configured, the log is signed with the table's session key,
kept in a private directory (``$XDG_STATE_HOME/tablectl/session-keys``, mode 0700), never in the
log directory, and enrolled in the keyring for review (``tablectl.table.simulated.session_key``).

SIGTERM (or Ctrl-C: SIGINT; or SIGHUP) stops the table cleanly at any moment, within
``tablectl.table.stopping.STOP_DEADLINE`` (10 s) whatever is queued: while the table is starting
it is remembered and acted on once the log is open (a log is never left half-opened and
unsigned); after that the table stops at once: it commits what it is applying, logs
``table_stopped`` naming the signal (``reason`` ``signal`` or ``ctrl_c``, ``signal`` its name) and
commits, and takes nothing more of what is queued (never acknowledged, so each device sends it
again at the next start); once its owner thread has ended the log closes with a signed shutdown
checkpoint. The end of autoplay, the display's quit key and an error stop the table as
``autoplay_done``, ``quit`` and ``error``. The signal handler only notes the signal and asks for
the stop; it never raises into the code the main thread is running.

Exit codes: 0 done; 1 the table was held without a planted mistake (a violation found);
2 bad input or configuration; 3 the log on disk does not verify; 4 a device could not be used;
5 the log could not be written (disk full, I/O error: nothing unwritten was acknowledged, so the
devices still hold their events; restart once space is back); 130 stopped by SIGTERM or Ctrl-C.
"""

from __future__ import annotations

import errno
import os
import signal
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import FrameType
from typing import IO, Any

import click

from tablectl.cli import (
    EXIT_DEVICE,
    EXIT_FINDINGS,
    EXIT_INTEGRITY,
    EXIT_INTERRUPTED,
    EXIT_STORAGE,
    EXIT_USAGE,
    CommandError,
)
from tablectl.commands.options import Finite
from tablectl.table.stopping import AUTOPLAY_DONE, ERROR, QUIT, STOP, StopReason, for_signal

# errors of the file system holding the log, not of its configuration: a restart helps once the
# space (or the disk) is back
STORAGE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS})


class Terminated(KeyboardInterrupt):
    """A SIGTERM or Ctrl-C, raised by the main thread itself where it learns of one (never by the
    signal handler), stopping the table the same way a ``KeyboardInterrupt`` does.

    Its own class, not ``KeyboardInterrupt`` itself: an interpreter that sees a bare
    ``KeyboardInterrupt`` end code it runs from a string (a dataclass or namedtuple being made, as
    a module is imported) remembers it, and at exit kills itself with SIGINT whatever exit code
    the program chose; a subclass is not remembered."""


class _Termination:
    """SIGTERM, SIGINT and SIGHUP for ``run``. The handler never raises: it notes the signal
    (``requested``, ``reason``) and, once ``arm`` has named how to stop the table, calls that with
    the reason (it must be safe in a signal handler: ``TableController.request_stop``). The main
    thread, where it waits, sees ``requested`` or the table ending, and stops the table from
    there. A signal before ``arm`` makes ``arm`` raise :class:`Terminated` (the log is open by
    then and is closed cleanly, naming that signal)."""

    SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)

    def __init__(self) -> None:
        self.requested = False
        self.reason: StopReason | None = None  # the first signal's
        self._stop: Callable[[StopReason], None] | None = None
        self.previous = {signum: signal.signal(signum, self) for signum in self.SIGNALS}

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.requested = True
        if self.reason is None:
            self.reason = for_signal(signum)
        stop = self._stop
        if stop is not None:
            stop(self.reason)

    def arm(self, stop: Callable[[StopReason], None]) -> None:
        """From now on a signal calls ``stop``; raises :class:`Terminated` if one came before."""
        self._stop = stop
        if self.requested:
            raise Terminated

    def restore(self) -> None:
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)


@click.command("run")
@click.argument("config_path", metavar="CONFIG", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--simulate", is_flag=True, help="Simulated devices served on ptys instead of the configured addresses.")
@click.option("--headless", is_flag=True, help="No live display.")
@click.option("--autoplay", "rounds", type=click.IntRange(min=1), metavar="ROUNDS", help="Virtual dealer plays ROUNDS rounds (with --simulate), then exits.")
@click.option("--seed", type=int, default=None, help="Seed for the simulators' shuffles and the virtual dealer.")
@click.option("--log-dir", type=click.Path(path_type=Path, file_okay=False), default=None, help="Write the event log here instead of the config's log dir.")
@click.option("--mistakes", "rate", type=Finite(0.0, 1.0), default=None, metavar="RATE", help="Virtual dealer commits a procedure error in this fraction of rounds.")
@click.option("--player-errors", type=Finite(0.0, 1.0), default=None, metavar="RATE", help="With --autoplay: the players choose a wrong option in this fraction of their decisions (default 0: optimal play).")
@click.option("--player", "players", multiple=True, metavar="SEAT:PROFILE[=PLAYER]", help="With --autoplay: this seat plays a profile: basic, recreational, hole-card[#K][@SHARE], edge-sort[@SHARE] or team; =PLAYER enters the seat's player id (1:basic=P-1077) (repeatable).")
@click.option("--truth", type=click.Path(path_type=Path, dir_okay=False), default=None, metavar="PATH", help="With --player: where the simulation's truth goes (default: LOGDIR.simulation.jsonl beside the log directory).")
@click.option("--mistakes-log", type=click.Path(path_type=Path, dir_okay=False), default=None, metavar="FILE", help="Where the virtual dealer writes each mistake it committed (JSON lines).")
@click.option("--signing-key", type=click.Path(path_type=Path, dir_okay=False), default=None, metavar="PATH", help="Ed25519 private key for the log's checkpoints (overrides the config's log.signing_key).")
@click.option("--fault", "faults", multiple=True, metavar="SPEC", help="With --simulate: a fault for every simulated device, e.g. drop=0.05, disconnect@200, jam=0.001 (repeatable).")
@click.option("--dealer", "dealers", multiple=True, metavar="ID", help="With --autoplay: the virtual dealer signs in as ID, relief dealers as the next --dealer in turn (repeatable; default: the config's [simulate] dealers, else ids of this table's own).")
@click.option("--pace", type=Finite(0.0, 60.0), default=None, metavar="SECONDS", help="With the display: the virtual dealer's pause at each step (default 0.25; 0 = full speed).")
def command(
    config_path: Path,
    simulate: bool,
    headless: bool,
    rounds: int | None,
    seed: int | None,
    log_dir: Path | None,
    rate: float | None,
    mistakes_log: Path | None,
    signing_key: Path | None,
    faults: tuple[str, ...],
    pace: float | None,
    player_errors: float | None,
    players: tuple[str, ...],
    truth: Path | None,
    dealers: tuple[str, ...],
) -> None:
    """Run a table from its config (real or simulated devices)."""
    termination = _Termination()  # first: a SIGTERM from here on is a clean stop
    try:
        _command(config_path, simulate, headless, rounds, seed, log_dir, rate, mistakes_log, signing_key, faults, pace, termination,
                 player_errors, players, truth, dealers)
    finally:
        termination.restore()


def _command(
    config_path: Path, simulate: bool, headless: bool, rounds: int | None, seed: int | None, log_dir: Path | None,
    rate: float | None, mistakes_log: Path | None, signing_key: Path | None, faults: tuple[str, ...], pace: float | None,
    termination: _Termination, player_errors: float | None = None, players: tuple[str, ...] = (), truth: Path | None = None,
    dealers: tuple[str, ...] = (),
) -> None:
    from tablectl.checks import Invalid
    from tablectl.config import ConfigError, SimulateConfig, load_config

    if rounds is not None and not simulate:
        raise CommandError("--autoplay needs --simulate (the virtual dealer works the simulators)", EXIT_USAGE)
    if (rate is None) != (mistakes_log is None):
        raise CommandError("--mistakes and --mistakes-log go together", EXIT_USAGE)
    if rate is not None and rounds is None:
        raise CommandError("--mistakes needs --autoplay", EXIT_USAGE)
    if player_errors is not None and rounds is None:
        raise CommandError("--player-errors needs --autoplay", EXIT_USAGE)
    if players and rounds is None:
        raise CommandError("--player needs --autoplay", EXIT_USAGE)
    if truth is not None and not players:
        raise CommandError("--truth needs --player", EXIT_USAGE)
    if dealers and rounds is None:
        raise CommandError("--dealer needs --autoplay (the dealers the virtual dealer signs in)", EXIT_USAGE)
    if faults and not simulate:
        raise CommandError("--fault needs --simulate (faults are injected by the simulators)", EXIT_USAGE)
    for spec in faults:
        _check_fault(spec)
    try:
        config = load_config(config_path)
    except ConfigError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    if dealers:
        try:
            config = replace(config, simulate=SimulateConfig.read({"dealers": list(dealers)}, ()))
        except Invalid as e:
            raise CommandError(f"--dealer: {e.reason}", EXIT_USAGE) from None
    where = log_dir or config.log.dir
    out = None  # the mistakes log, opened before anything is made (a refusal leaves no key, no log behind)
    if mistakes_log is not None:
        from tablectl.files import open_or_create

        try:  # never through a planted link
            out = os.fdopen(open_or_create(mistakes_log, 0o640, "mistakes log", os.O_WRONLY | os.O_TRUNC)[0], "w",
                            encoding="utf-8")
        except OSError as e:
            raise CommandError(f"{mistakes_log}: cannot write the mistakes log: {e.strerror or e}", EXIT_USAGE) from None
    _check_log_dir(where, "--log-dir" if log_dir is not None else f"{config.source}: log.dir")
    from tablectl.table.simulated.profiles import ProfileError, parse_profiles
    from tablectl.table.simulated.truth import default_truth_path

    try:
        profiles = parse_profiles(players, config.seats)
    except ProfileError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    if profiles:
        truth = truth or default_truth_path(where)
        if truth.resolve().parent == Path(where).resolve():
            raise CommandError(f"--truth {truth}: not inside the log directory (review must not read it)", EXIT_USAGE)
    key = signing_key or config.log.signing_key
    if key is None and simulate:
        key = _session_key(config.table, where)
    if not simulate:
        from tablectl.config import production_risks

        for key_name, reason in production_risks(config):  # `config check` refuses these; run warns
            click.echo(f"tablectl: WARNING: {config.source}: {key_name}: {reason}", err=True)
    demo = simulate and not config.supervisors
    if demo:
        from tablectl.supervisor import demo_supervisors

        config = config.model_copy(update={"supervisors": demo_supervisors()})
    if termination.requested:
        raise SystemExit(EXIT_INTERRUPTED)  # nothing was opened yet
    _run(
        config, simulate=simulate, rounds=rounds, seed=seed, log_dir=log_dir, rate=rate or 0.0, mistakes_out=out,
        headless=headless, pace=0.25 if pace is None else pace, signing_key=key, faults=faults, termination=termination,
        demo_supervisor=demo, player_errors=player_errors or 0.0, profiles=profiles, truth=truth,
    )


def _check_fault(spec: str) -> None:
    from tablectl.simulators.faults import FaultSpecError, parse_fault_spec

    try:
        parse_fault_spec(spec)
    except FaultSpecError as e:
        raise CommandError(f"--fault {spec}: {e}", EXIT_USAGE) from None


def _check_log_dir(where: Path, named: str) -> None:
    """A one-line ``CommandError`` (exit 2) when the log directory ``where`` (``named``: the
    option or the config key it came from), or the nearest part of its path that is there, cannot
    be one: a symbolic link loop, a symbolic link to nothing, or something that is not a
    directory. A directory that does not exist yet is fine (it is made)."""
    there = Path(where)
    while not os.path.lexists(there) and there.parent != there:
        there = there.parent
    culprit = f"{where}" if there == Path(where) else f"{where}: {there}"
    try:
        os.stat(there)
    except FileNotFoundError:
        if os.path.islink(there):
            raise CommandError(f"{named}: {culprit}: a symbolic link to nothing ({os.readlink(there)}); "
                               "make its target or give a directory", EXIT_USAGE) from None
        return
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise CommandError(f"{named}: {culprit}: a symbolic link loop", EXIT_USAGE) from None
        raise CommandError(f"{named}: {culprit}: cannot use as the log directory: {e.strerror or e}", EXIT_USAGE) from None
    if not os.path.isdir(there):
        raise CommandError(f"{named}: {culprit}: not a directory", EXIT_USAGE)


def _session_key(table: str, log_dir: Path) -> Path:
    """The simulated table's signing key (``tablectl.table.simulated.session_key``), enrolled in the keyring."""
    from tablectl.eventlog.keyring import KeyringError
    from tablectl.table.simulated.session_key import session_key

    try:
        got = session_key(table, log_dir)
    except KeyringError as e:
        raise CommandError(f"{table}: cannot enrol the simulated table's key: {e}", EXIT_USAGE) from None
    except OSError as e:
        raise CommandError(f"{e.filename or log_dir}: cannot keep a session signing key: {e.strerror or e}", EXIT_USAGE) from None
    enrolled = "" if got.enrolled_from is None else f", enrolled from seq {got.enrolled_from} in {got.keyring}"
    click.echo(f"tablectl: signing with {'a new' if got.new else 'the'} session key {got.key_id} ({got.private}){enrolled}",
               err=True)
    return got.private


def _failure_code(error: BaseException) -> int:
    """The exit code for why the table could not go on: its log's storage, or a finding."""
    from tablectl.eventlog import LogFailedError

    return EXIT_STORAGE if isinstance(error, LogFailedError) else EXIT_FINDINGS


def _failure(config, error: BaseException) -> CommandError:  # type: ignore[no-untyped-def]
    code = _failure_code(error)
    if code == EXIT_STORAGE:
        return CommandError(
            f"{config.table}: log storage failure: {error}; nothing unwritten was acknowledged (the devices still "
            "hold those events): restart once the log's disk has space",
            code,
        )
    return CommandError(f"{config.table}: {error}", code)


def _run(
    config, *, simulate: bool, rounds: int | None, seed: int | None, log_dir: Path | None, rate: float,
    mistakes_out: IO[str] | None, headless: bool = True, pace: float = 0.0, signing_key: Path | None = None,
    faults: tuple[str, ...] = (),
    termination: _Termination | None = None,
    demo_supervisor: bool = False,
    player_errors: float = 0.0,
    profiles: dict | None = None,  # type: ignore[type-arg]
    truth: Path | None = None,
) -> None:  # type: ignore[no-untyped-def]
    from tablectl.drivers.errors import DriverError
    from tablectl.eventlog import EventLogError, KeyFileError, LogCorruptError, LogFailedError
    from tablectl.table.runtime import TableRuntime

    runtime = TableRuntime(
        config, simulate=simulate, log_dir=log_dir, seed=seed, signing_key=signing_key, sim_options={"faults": list(faults)},
        demo_supervisor=demo_supervisor,
    )
    where = log_dir or config.log.dir
    try:
        controller = runtime.start()
    except DriverError as e:
        raise CommandError(str(e), EXIT_DEVICE) from None
    except LogFailedError as e:
        raise CommandError(f"{where}: log storage failure: {e}; restart once the log's disk has space", EXIT_STORAGE) from None
    except LogCorruptError as e:
        raise CommandError(f"{where}: log integrity failure: {e}", EXIT_INTEGRITY) from None
    except OSError as e:
        if e.errno in STORAGE_ERRNOS:
            raise CommandError(f"{where}: log storage failure: {e}; restart once the log's disk has space", EXIT_STORAGE) from None
        raise CommandError(f"{config.source}: log: {e}", EXIT_USAGE) from None
    except (EventLogError, KeyFileError) as e:
        raise CommandError(f"{config.source}: log: {e}", EXIT_USAGE) from None
    writer = None
    if profiles:
        from tablectl.table.simulated.profiles import truth_record
        from tablectl.table.simulated.truth import TruthWriter

        try:
            writer = TruthWriter(truth, {"table": config.table, "game": config.game, "seed": seed,  # type: ignore[arg-type]
                                         "profiles": truth_record(profiles)})
        except OSError as e:
            runtime.stop()
            raise CommandError(f"--truth {truth}: {e.strerror or e}", EXIT_USAGE) from None
    seated = SeatedPlayers(player_errors, profiles or {}, writer.decision if writer else None)
    interrupted = False
    why = ERROR  # until the run ends as it should

    def stopping() -> bool:
        return termination is not None and termination.requested

    def stop_at_once(reason: StopReason) -> None:  # in the signal handler
        controller.request_stop(reason.reason, signal=reason.signal, at_once=True)

    try:
        if termination is not None:
            termination.arm(stop_at_once)
        if headless:
            why = _run_headless(controller, runtime, config, rounds=rounds, seed=seed, rate=rate, mistakes_out=mistakes_out, players=seated,
                                where=where, stopping=stopping)
        else:
            why = _run_display(controller, runtime, config, rounds=rounds, seed=seed, rate=rate, mistakes_out=mistakes_out, players=seated,
                               pace=pace, where=where, demo_supervisor=demo_supervisor, stopping=stopping)
    except KeyboardInterrupt:
        interrupted = True
        if termination is not None and termination.reason is not None:  # a signal before the table was armed
            stop_at_once(termination.reason)
    finally:
        if mistakes_out is not None:
            mistakes_out.close()
        if writer is not None:
            writer.close()
        runtime.stop(reason=why)  # a signed "shutdown" checkpoint closes the log, whatever ended the run
    if controller.error is not None:  # a stop asked for after the log failed is still that failure
        raise _failure(config, controller.error)
    if interrupted or stopping():
        raise SystemExit(EXIT_INTERRUPTED)


@dataclass(frozen=True)
class SeatedPlayers:
    """How the virtual dealer's players play: the error rate, the seats' profiles, and where each
    profiled decision's truth goes."""

    errors: float = 0.0
    profiles: Mapping[int, Any] = field(default_factory=dict)
    on_decision: Callable[[dict[str, Any]], None] | None = None


def _virtual_dealer(controller, runtime, config, *, seed, rate, mistakes_out, players=SeatedPlayers()):  # type: ignore[no-untyped-def]
    from tablectl.table.simulated.virtual_dealer import VirtualDealer

    return VirtualDealer(controller, runtime.sims[config.card_device], seed=seed, mistakes=rate, mistakes_log=mistakes_out,
                         player_errors=players.errors, profiles=players.profiles, on_decision=players.on_decision,
                         dealers=config.simulate.dealers)


def _tell(line: str, wait: float = 2.0) -> None:
    """``line`` on stdout, given up once stdout has taken nothing for ``wait`` seconds: the table has
    stopped by then, and a terminal nobody reads (its buffer full under the display) must not keep
    the process, and its signed shutdown, from ending. A signal meanwhile is retried, never stuck."""
    import select
    import sys

    sys.stdout.flush()
    data = memoryview((line + "\n").encode())
    while data:
        try:
            _, ready, _ = select.select([], [1], [], wait)
            if not ready:
                return
            data = data[os.write(1, data[:512]):]
        except BlockingIOError:
            continue
        except OSError:  # stdout closed: nobody to tell
            return


def _report(config, report, where) -> str:  # type: ignore[no-untyped-def]
    return (
        f"{config.table}: {report.rounds} rounds, {report.cards} cards, {report.decisions} decisions, "
        f"{len(report.mistakes)} mistakes, {report.resolutions} resolutions; log in {where}"
    )


def _run_headless(controller, runtime, config, *, rounds, seed, rate, mistakes_out, where, stopping, players=SeatedPlayers()) -> str:  # type: ignore[no-untyped-def]
    """No display: serve until SIGTERM / Ctrl-C, or have the virtual dealer play ``rounds``.
    A signal stops the controller (``stopping()`` says so); the dealer then finds its inputs
    rejected and this returns. Returns why the table is to stop (``tablectl.table.stopping``)."""
    from tablectl.table.inputs import InputRejected
    from tablectl.table.simulated.virtual_dealer import DealerError

    if rounds is None:
        click.echo(f"{config.table}: running ({config.game}); log in {where}; Ctrl-C stops", err=True)
        # until a signal stops it, or its log failed; once a signal came, the caller waits for the
        # table with a deadline (the runtime's stop), never here without one
        while not controller.wait_stopped(0.25) and not stopping():
            pass
        return STOP
    dealer = _virtual_dealer(controller, runtime, config, seed=seed, rate=rate, mistakes_out=mistakes_out, players=players)
    try:
        report = dealer.play(rounds)
    except (DealerError, InputRejected) as e:
        if controller.error is not None or stopping():
            return STOP  # the log failed under the dealer (reported as that), or the table was stopped
        if not isinstance(e, DealerError):
            raise
        raise CommandError(f"{config.table}: {e}", EXIT_FINDINGS) from None
    if stopping():
        return STOP
    _tell(_report(config, report, where))
    return AUTOPLAY_DONE


def _run_display(controller, runtime, config, *, rounds, seed, rate, mistakes_out, pace, players=SeatedPlayers(), where, demo_supervisor=False,  # type: ignore[no-untyped-def]
                 stopping=lambda: False) -> str:
    """The live display in this terminal, with the virtual dealer playing (``rounds``) or a
    person at the keys; the report line is printed after the display gives the terminal back.
    Returns why the table is to stop (``tablectl.table.stopping``)."""
    from tablectl.display.live import QUIT as DISPLAY_QUIT
    from tablectl.display.live import SIGNALLED, Paced, run_live
    from tablectl.table.simulated.virtual_dealer import DealerError

    autoplay = None
    if rounds is not None:
        dealer = _virtual_dealer(Paced(controller, pace), runtime, config, seed=seed, rate=rate, mistakes_out=mistakes_out, players=players)
        autoplay = lambda: dealer.play(rounds)  # noqa: E731
    # at the keys on simulated hardware, the display works the simulated card device too
    sim = runtime.sims.get(config.card_device) if autoplay is None else None
    notice = hint = ""
    if demo_supervisor:
        from tablectl.supervisor import DEMO_CREDENTIAL, DEMO_SUPERVISOR

        hint = f"demo: {DEMO_SUPERVISOR} / {DEMO_CREDENTIAL}"
        notice = f"demo supervisor: id {DEMO_SUPERVISOR}, credential {DEMO_CREDENTIAL} (simulated, no [supervisors])"
    result = run_live(controller, autoplay=autoplay, sim=sim, notice=notice, supervisor_hint=hint)
    if controller.error is not None:
        return STOP  # the log failed: reported as that by the caller
    if result.reason == SIGNALLED or stopping():
        raise Terminated  # the table was stopped under the display (and the dealer, if it played)
    if isinstance(result.autoplay_error, DealerError):
        raise CommandError(f"{config.table}: {result.autoplay_error}", EXIT_FINDINGS)
    if result.autoplay_error is not None:
        raise result.autoplay_error
    if result.autoplay_result is not None:
        _tell(_report(config, result.autoplay_result, where))
        return AUTOPLAY_DONE
    if result.reason != DISPLAY_QUIT:
        click.echo(f"{config.table}: display ended ({result.reason}); log in {where}", err=True)
        return STOP
    return QUIT


# --publish URL / [publish]: the table's log streamed to the floor's broker (tablectl.live, docs/live.md)
from tablectl.commands.publish_option import with_publisher  # noqa: E402

command = with_publisher(command)
