"""A readable rendering of an analysis: one table per bet (rich), strategy lines beneath."""

from __future__ import annotations

from fractions import Fraction

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from tablectl.gamemath.table import BetAnalysis, GameAnalysis


def _pays(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):g}"


def bet_table(bet: BetAnalysis) -> Table:
    rules = ", ".join(f"{k}={v}" for k, v in bet.rules.items())
    table = Table(title=f"{bet.bet}  ({rules})", title_justify="left", show_footer=True)
    table.add_column("outcome", footer="total")
    table.add_column("pays", justify="right")
    table.add_column("combinations", justify="right", footer=f"{bet.combinations:,}")
    table.add_column("probability", justify="right", footer="1.000000")
    table.add_column("return", justify="right", footer=f"{float(-bet.house_edge):.6f}")
    for line in bet.outcomes:
        table.add_row(
            line.outcome,
            _pays(line.pays),
            f"{line.combinations:,}",
            f"{float(bet.probability(line)):.6f}",
            f"{float(bet.expected_return(line)):.6f}",
        )
    table.caption = f"house edge {float(bet.house_edge):.4%} of the initial wager"
    table.caption_justify = "left"
    return table


def render(analysis: GameAnalysis, console: Console) -> None:
    console.print(Text(f"{analysis.game}, {analysis.decks} deck(s)", style="bold"))
    for bet in analysis.bets:
        parts: list[Table | Text] = [bet_table(bet)]
        if bet.strategy:
            parts.append(Text("strategy:\n  " + "\n  ".join(bet.strategy)))
        console.print(Group(*parts))
        console.print()
