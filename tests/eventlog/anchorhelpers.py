"""Helpers of the anchor tests (``from anchorhelpers import ...``): signed logs of a given length,
written fast (no fsync), and anchor lines of other tables to fill an anchor file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import orjson
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tablectl.eventlog import EventLog
from tablectl.eventlog.logformat import GENESIS, digest

CARDS = ["QH", "7S", "AD", "TC", "2H", "KS", "9D", "JC", "5S", "AH", "3C", "8D"]
SHOE = 400  # card events per shoe (one log file each)


def write_log(directory: Path, table: str, key: Ed25519PrivateKey, lines: int) -> Path:
    """A cleanly closed signed log of *table* in *directory* of about *lines* card events."""
    start = dt.datetime(2026, 11, 2, tzinfo=dt.UTC).timestamp()
    ticks = iter(range(10**9))
    with EventLog(directory, table, signing_key=key, checkpoint_every=256, clock=lambda: start + next(ticks) / 1000,
                  fsync=False) as log:
        n = 1
        for shoe in range(1, lines // SHOE + 2):
            for i in range(SHOE):
                log.append("card_dealt", shoe=shoe, round=1 + i // 5, card=CARDS[n % len(CARDS)], to="seat:1",
                           device="shoe-1", event_no=n)
                n += 1
            log.commit()
            log.end_shoe(shoe=shoe)
    return directory


def filler_lines(size: int) -> bytes:
    """Linked anchor lines of table ``filler`` (heads no log holds), each ending in a newline, as
    many as *size* bytes hold."""
    out, total, prev = [], 0, GENESIS
    for n in range(1, size):
        line = orjson.dumps({"anchor": 2, "table": "filler", "seq": n, "head": f"{n:064x}", "key": None,
                             "reason": "shutdown", "ts": None, "anchored_at": "2026-11-02T00:00:00.000000Z",
                             "prev": prev})
        if total + len(line) + 1 > size:
            break
        out.append(line)
        total += len(line) + 1
        prev = digest(line)
    return b"".join(line + b"\n" for line in out)
