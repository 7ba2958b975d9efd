"""``tablectl math GAME [--decks N] [--json]``: exact combinatorial analysis of a game's bets."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tablectl.cli import EXIT_USAGE, CommandError
from tablectl.commands.options import computing_progress_option

if TYPE_CHECKING:
    from tablectl.progress import Told


@click.command(name="math")
@click.argument("game")
@click.option("--decks", type=int, default=None, help="Decks in the shoe (default: the game's usual).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
@click.option("--quick", is_flag=True, help="Leave out what takes minutes the first time (Texas Hold'em Bonus's main game) "
              "or half a minute (Three Card Poker's advantage-play figures).")
@click.option("--strategy-file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Texas Hold'em Bonus: write the full decision table (NumPy .npz) to FILE.")
@click.option("--export-strategy", "export", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Texas Hold'em Bonus: write the exact strategy, one row per situation with its cards as text, "
                   "the best action and the EV of each option, to FILE (.parquet or .csv; solves again: minutes).")
@click.option("--advantage", "count_advantage", is_flag=True,
              help="Texas Hold'em Bonus: count the figures with the dealer's hole cards seen (hours of CPU; "
                   "resumable: each hand counted is kept, a later run goes on from there).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="With --advantage: processes counting at once (default: one per CPU).")
@computing_progress_option
def command(game: str, decks: int | None, as_json: bool, quick: bool, strategy_file: Path | None,
            export: Path | None, count_advantage: bool, workers: int | None, progress: bool | None) -> None:
    """Every outcome of each bet of GAME with its pay, combination count, probability and return,
    and the house edge per unit of the initial wager (exact counts; no sampling); then the
    advantage-play figures: the player's best strategy and exact edge with each kind of hidden
    information (dealer cards seen, card backs sorted high/low, other players' cards). Texas
    Hold'em Bonus's main game is solved for the optimal strategy (under a minute of CPU the
    first time on a machine, its progress on stderr, then cached). Ctrl-C or SIGTERM stops it at
    once (exit 130), leaving no cache file half written."""
    import sys

    from tablectl.commands.interrupt import exit_on_interrupt
    from tablectl.gamemath.analyze import GAMES, analyze
    from tablectl.progress import Told, wanted

    exit_on_interrupt()
    told = Told(sys.stderr, wanted(progress, sys.stderr))
    if game not in GAMES:
        raise CommandError(f"unknown game {game!r} (expected one of: {', '.join(GAMES)})", EXIT_USAGE)
    options: dict[str, object] = {}
    if game == "texas-holdem-bonus":
        options = {"main": not quick, "strategy_file": strategy_file, "export": export}
        if quick and export is not None:
            raise CommandError("--export-strategy needs the main game solved: leave out --quick", EXIT_USAGE)
        if export is not None:
            from tablectl.gamemath.holdem.export import check_path

            try:
                check_path(export)
            except ValueError as error:
                raise CommandError(str(error), EXIT_USAGE) from None
        if quick:
            click.echo("tablectl: --quick: Texas Hold'em Bonus's main game (Ante, Flop, Turn and River under the "
                       "optimal strategy) left out; only the Bonus bet is analysed", err=True)
    elif count_advantage:
        raise CommandError(f"--advantage: {game}'s advantage-play figures are always shown (only texas-holdem-bonus "
                           "counts them on request)", EXIT_USAGE)
    elif export is not None:
        raise CommandError(f"--export-strategy: {game} has no decision table (only texas-holdem-bonus)", EXIT_USAGE)
    elif strategy_file is not None:
        raise CommandError(f"--strategy-file: {game} has no decision table (only texas-holdem-bonus)", EXIT_USAGE)
    if workers is not None and not count_advantage:
        raise CommandError("--workers: only with --advantage", EXIT_USAGE)
    if count_advantage:
        _count_hole_card(workers or os.cpu_count() or 1, told)
    slow = GAMES[game].slow_advantage
    advantage = not (quick and slow)
    if not advantage:
        click.echo(f"tablectl: --quick: {game}'s advantage-play figures left out", err=True)
    solving = game == "texas-holdem-bonus" and not quick and _will_solve(strategy_file, export, told)
    if solving:
        options["progress"] = told.share
    counting = advantage and slow is not None and not slow.cached()
    if counting:
        told.say(f"counting {game}'s advantage-play figures: about ten seconds of CPU the first time on this "
                 "machine, then cached")
        told.begin(f"counting {game}'s advantage-play figures")
    try:
        analysis = analyze(game, decks, advantage, advantage_progress=told.share if counting else None, **options)
    except ValueError as error:
        raise CommandError(str(error), EXIT_USAGE) from None
    if solving:
        told.say(f"Texas Hold'em Bonus's main game solved in {told.end():.0f} s")
    if counting:
        told.say(f"{game}'s advantage-play figures counted in {told.end():.0f} s")
    if as_json:
        click.echo(json.dumps(analysis.to_dict(), indent=2))
        return
    from rich.console import Console

    from tablectl.gamemath.render import render

    render(analysis, Console())


def _will_solve(strategy_file: Path | None, export: Path | None, told: Told) -> bool:
    """Whether the main game is to be solved now (not cached, or an export asks for it); if so
    it is told, and the solve begun on ``told``."""
    from tablectl.gamemath.holdem import strategy as holdem_strategy

    if not holdem_strategy.will_solve(strategy_file=strategy_file, export=export):
        return False
    if export is not None:
        told.say(f"solving Texas Hold'em Bonus's main game to write its exact strategy to {export} (about a minute of CPU)")
    else:
        told.say("solving Texas Hold'em Bonus's main game for its optimal strategy: under a minute of CPU the first time "
             f"on this machine, then cached in {holdem_strategy.cache_dir()}")
    told.begin("solving Texas Hold'em Bonus's main game")
    return True


def _count_hole_card(workers: int, told: Told) -> None:
    """Texas Hold'em Bonus's hole-card count, going on from where the last one stopped: said on
    stderr, with its progress where ``told`` shows it."""
    import sys
    import time

    from tablectl.gamemath.advantage import holdem_run as run

    start = time.monotonic()

    def progress(done: int, of: int, this_run: int) -> None:
        if told.shown:
            sys.stderr.write("\r\x1b[K" + run.describe(done, of, this_run, time.monotonic() - start))
            sys.stderr.flush()

    told.say(f"counting Texas Hold'em Bonus with the dealer's hole cards seen (hours of CPU; stop at any time, a "
             f"later run goes on): {run.results_path()}")
    try:
        run.count(progress=progress, workers=workers)
    finally:
        if told.shown:
            sys.stderr.write("\r\x1b[K")
    told.say(f"Texas Hold'em Bonus's hole-card count: {time.monotonic() - start:.0f} s in this run")
