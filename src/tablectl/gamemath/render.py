"""A readable rendering of an analysis: one table per bet (rich), strategy lines beneath."""

from __future__ import annotations

from fractions import Fraction

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from tablectl.gamemath.advantage.figure import AdvantageFigure
from tablectl.gamemath.holdem.strategy import MainGameAnalysis
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


def main_game(bet: MainGameAnalysis) -> Group:
    """The main game's figures and its strategy: the 169 starting hands as a chart (pairs on the
    diagonal, suited above, offsuit below; ``.`` play, ``F`` fold), then the flop and turn
    strategy by the hand the player holds."""
    d = bet.decisions
    lines = [
        f"element of risk {float(bet.element_of_risk):.4%} of all money wagered; average total bet {float(bet.average_bet):.4f} Antes",
        f"decisions per hand dealt: fold {d['fold']:.4%}, Flop bet {d['flop_bet']:.4%}, Turn bet {d['turn_bet']:.4%}, River bet {d['river_bet']:.4%}",
        f"pre-flop: fold {', '.join(bet.folds) or 'nothing'}; play everything else",
    ]
    ranks = "AKQJT98765432"
    play = {p["hand"]: p["play"] for p in bet.preflop}
    chart = Table(title="starting hands: suited above the diagonal, offsuit below; F fold", title_justify="left", box=None)
    chart.add_column("")
    for r in ranks:
        chart.add_column(r, justify="center")
    for i, hi in enumerate(ranks):
        row = []
        for j, lo in enumerate(ranks):
            name = hi + lo if i == j else (hi + lo + "s" if j > i else lo + hi + "o")
            row.append("." if play.get(name, True) else "F")
        chart.add_row(hi, *row)
    streets = Table(title="flop and turn: how often to bet, by the hand held", title_justify="left")
    streets.add_column("hand")
    streets.add_column("after the flop: Turn bet", justify="right")
    streets.add_column("after the turn: River bet", justify="right")
    turn = {t["hand"]: t for t in bet.turn}
    for f in bet.flop:
        t = turn.get(f["hand"])
        streets.add_row(f["hand"], f"{f['share_bet']:.1%}", f"{t['share_bet']:.1%}" if t else "-")
    for t in bet.turn:
        if not any(f["hand"] == t["hand"] for f in bet.flop):
            streets.add_row(t["hand"], "-", f"{t['share_bet']:.1%}")
    return Group(Text("\n".join(lines)), chart, streets, Text("\n".join(rule_lines(bet))))


def rule_lines(bet: MainGameAnalysis) -> list[str]:
    """The flop and turn rules, each with how it fares against exact play."""
    from tablectl.gamemath.holdem.rules import StreetRules

    lines = ["rules for the flop and the turn (a summary; the exact strategy is in --export-strategy):"] if bet.street_rules else []
    for found in map(StreetRules.from_dict, bet.street_rules):
        lines.append(f"  {found.street}: bet the {'Turn' if found.street == 'flop' else 'River'} (1x) with:")
        lines.extend(f"    - {phrase}" for phrase in found.bet_with)
        lines.append("    else check.")
        lines.append(f"    agrees with exact play in {found.agreement:.2%} of {found.street} situations (by probability),")
        lines.append(f"    costs {found.ev_cost:.5f} Antes per {found.street} situation against exact play")
    return lines


def render(analysis: GameAnalysis, console: Console) -> None:
    console.print(Text(f"{analysis.game}, {analysis.decks} deck(s)", style="bold"))
    for bet in analysis.bets:
        parts: list[Table | Text | Group] = [bet_table(bet)]
        if isinstance(bet, MainGameAnalysis):
            parts.append(main_game(bet))
        if bet.strategy:
            parts.append(Text("strategy:\n  " + "\n  ".join(bet.strategy)))
        console.print(Group(*parts))
        console.print()
    if analysis.advantage:
        console.print(Text("advantage play: the player's best strategy and edge with hidden information", style="bold"))
        console.print()
        for figure in analysis.advantage:
            console.print(advantage_section(figure))
            console.print()


def advantage_section(figure: AdvantageFigure) -> Text:
    """One kind of hidden information: the exact edge, then the strategy in words."""
    edge = figure.player_edge
    heading = f"{figure.game_bet}, {figure.information} ({figure.kind})"
    lines = [
        f"player edge {float(edge):+.4%} of the initial wager ({edge}), over {figure.cases:,} equally likely cases",
        *figure.strategy,
    ]
    return Text(heading + "\n  " + "\n  ".join(lines))
