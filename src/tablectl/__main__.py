"""``python -m tablectl``: the same as the ``tablectl`` command."""

from tablectl.cli import main

main()
