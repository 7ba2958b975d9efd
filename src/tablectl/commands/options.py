"""Bounded number types for command-line options: what a table can mean, never nan or infinity.

``click.FloatRange`` lets ``nan`` through (every comparison with it is false) and, without an
upper bound, ``inf``; ``Finite`` refuses both, so an option's value is always a real number in its
range. Usage error (exit 2) with click's one-line message otherwise.
"""

from __future__ import annotations

import math
from typing import Any

import click


class Finite(click.FloatRange):
    """A finite float within ``min``..``max`` (click's ``FloatRange`` options)."""

    name = "float"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return super().convert(number, param, ctx)
