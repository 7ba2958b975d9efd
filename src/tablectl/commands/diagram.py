"""``tablectl diagram``: print the table state machine as a mermaid ``stateDiagram``.

Drawn by transitions' ``GraphMachine(graph_engine="mermaid")`` from the very states and
transitions the table runs on (``tablectl.table.lifecycle``), never from a hand-written text.
"""

from __future__ import annotations

import click


@click.command("diagram")
@click.option("--title", default="tablectl table", show_default=True, help="The diagram's title.")
def command(title: str) -> None:
    """Print the table state machine as a mermaid stateDiagram."""
    from tablectl.table.lifecycle import mermaid

    click.echo(mermaid(title), nl=False)
