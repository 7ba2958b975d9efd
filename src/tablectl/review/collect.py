"""The cyclic garbage collector's pace while a log is read (:func:`fewer_collections`).

Reading a log makes and lets go of many small containers (a round's layout, the rows of an
export waiting in their chunk) and forms no cycles to speak of: at Python's default pace (a young
collection every 700 new containers) the collector walks them hundreds of times per 250,000 lines
and the older generations, which hold every chunk of rows, several times — about a seventh of an
export's time. For the length of the read a young collection comes every :data:`YOUNG` new
containers instead; the older generations' pace, and everything after the read, are as before.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: new containers between two young collections while a log is read (Python's default: 700)
YOUNG = 50_000


@contextmanager
def fewer_collections(young: int = YOUNG) -> Iterator[None]:
    """Collect the young generation every *young* new containers (never more often than the
    pace already set), restoring the thresholds found on the way out."""
    before = gc.get_threshold()
    if before[0] and before[0] < young:  # 0: collection turned off; leave it so
        gc.set_threshold(young, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
