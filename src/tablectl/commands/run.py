"""``tablectl run CONFIG``: run a table from its configuration.

``--simulate`` serves a simulator for each configured device on a pseudo-terminal (the real
serial path: transport, framer, link, driver) instead of opening the configured addresses.
``--headless`` runs without the live display. ``--autoplay ROUNDS`` (with ``--simulate``) has
the virtual dealer play that many rounds with random legal decisions, then exits 0.
``--mistakes RATE --mistakes-log FILE`` makes it commit procedure errors at that rate per round
and write each one to FILE as a JSON line ``{"round": R, "kind": K}``.

Exit codes: 0 done; 1 the table was held without a planted mistake (a violation found);
2 bad input or configuration; 4 a device could not be used; 130 interrupted.
"""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import click

from tablectl.cli import EXIT_DEVICE, EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_USAGE, CommandError
from tablectl.commands.options import Finite


@click.command("run")
@click.argument("config_path", metavar="CONFIG", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--simulate", is_flag=True, help="Simulated devices served on ptys instead of the configured addresses.")
@click.option("--headless", is_flag=True, help="No live display.")
@click.option("--autoplay", "rounds", type=click.IntRange(min=1), metavar="ROUNDS", help="Virtual dealer plays ROUNDS rounds (with --simulate), then exits.")
@click.option("--seed", type=int, default=None, help="Seed for the simulators' shuffles and the virtual dealer.")
@click.option("--log-dir", type=click.Path(path_type=Path, file_okay=False), default=None, help="Write the event log here instead of the config's log dir.")
@click.option("--mistakes", "rate", type=Finite(0.0, 1.0), default=None, metavar="RATE", help="Virtual dealer commits a procedure error in this fraction of rounds.")
@click.option("--mistakes-log", type=click.Path(path_type=Path, dir_okay=False), default=None, metavar="FILE", help="Where the virtual dealer writes each mistake it committed (JSON lines).")
@click.option("--signing-key", type=click.Path(path_type=Path, dir_okay=False), default=None, metavar="PATH", help="Ed25519 private key for the log's checkpoints (overrides the config's log.signing_key).")
@click.option("--fault", "faults", multiple=True, metavar="SPEC", help="With --simulate: a fault for every simulated device, e.g. drop=0.05, disconnect@200, jam=0.001 (repeatable).")
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
) -> None:
    """Run a table from its config (real or simulated devices)."""
    from tablectl.config import ConfigError, load_config

    if rounds is not None and not simulate:
        raise CommandError("--autoplay needs --simulate (the virtual dealer works the simulators)", EXIT_USAGE)
    if (rate is None) != (mistakes_log is None):
        raise CommandError("--mistakes and --mistakes-log go together", EXIT_USAGE)
    if rate is not None and rounds is None:
        raise CommandError("--mistakes needs --autoplay", EXIT_USAGE)
    if faults and not simulate:
        raise CommandError("--fault needs --simulate (faults are injected by the simulators)", EXIT_USAGE)
    for spec in faults:
        _check_fault(spec)
    try:
        config = load_config(config_path)
    except ConfigError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    where = log_dir or config.log.dir
    key = signing_key or config.log.signing_key
    if key is None and simulate:
        key = _session_key(where)
    _run(
        config, simulate=simulate, rounds=rounds, seed=seed, log_dir=log_dir, rate=rate or 0.0, mistakes_log=mistakes_log,
        headless=headless, pace=0.25 if pace is None else pace, signing_key=key, faults=faults,
    )


def _check_fault(spec: str) -> None:
    from tablectl.simulators.faults import FaultSpecError, parse_fault_spec

    try:
        parse_fault_spec(spec)
    except FaultSpecError as e:
        raise CommandError(f"--fault {spec}: {e}", EXIT_USAGE) from None


def _session_key(log_dir: Path) -> Path:
    """The simulated table's signing key, kept beside its log (``session.key`` / ``session.pub``) so
    review can verify it: made on the first simulated run into ``log_dir``, reused after that."""
    from tablectl.eventlog import save_keypair

    private, public = Path(log_dir) / "session.key", Path(log_dir) / "session.pub"
    if private.exists():
        click.echo(f"tablectl: signing with the session key; public key: {public}", err=True)
        return private
    try:
        save_keypair(Path(log_dir), name="session")
    except OSError as e:
        raise CommandError(f"{log_dir}: cannot write a session signing key: {e.strerror or e}", EXIT_USAGE) from None
    click.echo(f"tablectl: signing with a new session key; public key: {public}", err=True)
    return private


def _run(
    config, *, simulate: bool, rounds: int | None, seed: int | None, log_dir: Path | None, rate: float,
    mistakes_log: Path | None, headless: bool = True, pace: float = 0.0, signing_key: Path | None = None,
    faults: tuple[str, ...] = (),
) -> None:  # type: ignore[no-untyped-def]
    from tablectl.drivers.errors import DriverError
    from tablectl.eventlog import EventLogError, KeyFileError
    from tablectl.table.runtime import TableRuntime

    runtime = TableRuntime(
        config, simulate=simulate, log_dir=log_dir, seed=seed, signing_key=signing_key, sim_options={"faults": list(faults)}
    )
    try:
        controller = runtime.start()
    except DriverError as e:
        raise CommandError(str(e), EXIT_DEVICE) from None
    except (EventLogError, KeyFileError, OSError) as e:
        raise CommandError(f"{config.source}: log: {e}", EXIT_USAGE) from None
    where = log_dir or config.log.dir
    out = open(mistakes_log, "w", encoding="utf-8") if mistakes_log is not None else None  # noqa: SIM115
    try:
        if headless:
            _run_headless(controller, runtime, config, rounds=rounds, seed=seed, rate=rate, mistakes_out=out, where=where)
        else:
            _run_display(controller, runtime, config, rounds=rounds, seed=seed, rate=rate, mistakes_out=out, pace=pace, where=where)
    except KeyboardInterrupt:
        raise SystemExit(EXIT_INTERRUPTED) from None
    finally:
        if out is not None:
            out.close()
        runtime.stop()  # a signed "shutdown" checkpoint closes the log, whatever ended the run
    if controller.error is not None:
        raise CommandError(f"{config.table}: {controller.error}", EXIT_FINDINGS)


def _virtual_dealer(controller, runtime, config, *, seed, rate, mistakes_out):  # type: ignore[no-untyped-def]
    from tablectl.table.virtual_dealer import VirtualDealer

    return VirtualDealer(controller, runtime.sims[config.card_device], seed=seed, mistakes=rate, mistakes_log=mistakes_out)


def _report(config, report, where) -> str:  # type: ignore[no-untyped-def]
    return (
        f"{config.table}: {report.rounds} rounds, {report.cards} cards, {report.decisions} decisions, "
        f"{len(report.mistakes)} mistakes, {report.resolutions} resolutions; log in {where}"
    )


def _run_headless(controller, runtime, config, *, rounds, seed, rate, mistakes_out, where) -> None:  # type: ignore[no-untyped-def]
    """No display: serve until SIGTERM / Ctrl-C, or have the virtual dealer play ``rounds``."""
    from tablectl.table.virtual_dealer import DealerError

    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        if rounds is None:
            click.echo(f"{config.table}: running ({config.game}); log in {where}; Ctrl-C stops", err=True)
            threading.Event().wait()
        dealer = _virtual_dealer(controller, runtime, config, seed=seed, rate=rate, mistakes_out=mistakes_out)
        try:
            report = dealer.play(rounds)
        except DealerError as e:
            raise CommandError(f"{config.table}: {e}", EXIT_FINDINGS) from None
        click.echo(_report(config, report, where))
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _run_display(controller, runtime, config, *, rounds, seed, rate, mistakes_out, pace, where) -> None:  # type: ignore[no-untyped-def]
    """The live display in this terminal, with the virtual dealer playing (``rounds``) or a
    person at the keys; the report line is printed after the display gives the terminal back."""
    from tablectl.display.live import QUIT, SIGNALLED, Paced, run_live
    from tablectl.table.virtual_dealer import DealerError

    autoplay = None
    if rounds is not None:
        dealer = _virtual_dealer(Paced(controller, pace), runtime, config, seed=seed, rate=rate, mistakes_out=mistakes_out)
        autoplay = lambda: dealer.play(rounds)  # noqa: E731
    # at the keys on simulated hardware, the display works the simulated card device too
    sim = runtime.sims.get(config.card_device) if autoplay is None else None
    result = run_live(controller, autoplay=autoplay, sim=sim)
    if isinstance(result.autoplay_error, DealerError):
        raise CommandError(f"{config.table}: {result.autoplay_error}", EXIT_FINDINGS)
    if result.autoplay_error is not None:
        raise result.autoplay_error
    if result.autoplay_result is not None:
        click.echo(_report(config, result.autoplay_result, where))
    elif result.reason == SIGNALLED:
        raise SystemExit(EXIT_INTERRUPTED)
    elif result.reason != QUIT:
        click.echo(f"{config.table}: display ended ({result.reason}); log in {where}", err=True)
