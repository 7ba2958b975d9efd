"""``python -m tablectl``: the same as the ``tablectl`` program."""

from tablectl.cli import entry

entry()
