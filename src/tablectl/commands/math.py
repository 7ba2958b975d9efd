"""``tablectl math GAME [--decks N] [--json]``: exact combinatorial analysis of a game's bets."""

from __future__ import annotations

import json

import click

from tablectl.cli import EXIT_USAGE, CommandError


@click.command(name="math")
@click.argument("game")
@click.option("--decks", type=int, default=None, help="Decks in the shoe (default: the game's usual).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
def command(game: str, decks: int | None, as_json: bool) -> None:
    """Every outcome of each bet of GAME with its pay, combination count, probability and return,
    and the house edge per unit of the initial wager (exact counts; no sampling)."""
    from tablectl.gamemath.analyze import GAMES, analyze

    if game not in GAMES:
        raise CommandError(f"unknown game {game!r} (expected one of: {', '.join(GAMES)})", EXIT_USAGE)
    try:
        analysis = analyze(game, decks)
    except ValueError as error:
        raise CommandError(str(error), EXIT_USAGE) from None
    if as_json:
        click.echo(json.dumps(analysis.to_dict(), indent=2))
        return
    from rich.console import Console

    from tablectl.gamemath.render import render

    render(analysis, Console())
