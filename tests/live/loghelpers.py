"""A small signed log to feed the collector's decision, and its lines as messages."""

from __future__ import annotations

from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tablectl.eventlog import EventLog
from tablectl.eventlog import logformat as fmt
from tablectl.live.chain import Message
from tablectl.live.stream import msg_id

CARDS = ["QH", "7S", "AD", "TC", "2H", "KS", "9D", "JC", "5S", "AH", "3C", "8D"]


class Clock:
    """Epoch seconds that move 1 ms per reading."""

    def __init__(self) -> None:
        self.now = 1_714_521_600.0

    def __call__(self) -> float:
        self.now += 0.001
        return self.now


def write_log(directory: Path, table: str, key: Ed25519PrivateKey, *, shoes: int = 3, cards: int = 20,
              checkpoint_every: int = 7, restarts: int = 0) -> list[tuple[str, bytes]]:
    """A signed log: ``shoes`` shoes of ``cards`` cards (a file each), the controller restarted
    ``restarts`` times; its lines as ``(file name, line)`` in order."""
    clock = Clock()
    n = 0
    for run in range(restarts + 1):
        log = EventLog(directory, table, signing_key=key, checkpoint_every=checkpoint_every, clock=clock)
        for shoe in range(1, shoes + 1):
            for i in range(cards):
                log.append("dealt", shoe=shoe, round=1 + i // 5, card=CARDS[n % len(CARDS)], to=f"seat:{i % 5 + 1}",
                           device="shoe-1", event_no=n + 1)
                n += 1
            log.commit()
            log.end_shoe(shoe=shoe)
        log.close()
    return lines_of(directory, table)


def lines_of(directory: Path, table: str) -> list[tuple[str, bytes]]:
    out = []
    for path in fmt.log_files(directory, table).get(table, []):
        out += [(path.name, line) for line in path.read_bytes().split(b"\n")[:-1]]
    return out


def message(table: str, file: str, line: bytes, mid: str | None = None, stream_seq: int = 0) -> Message:
    seq = fmt.split_head(line)[0]  # type: ignore[index]
    return Message(table, file, seq, line, mid or msg_id(table, file, seq), stream_seq)


def is_checkpoint(line: bytes) -> bool:
    return fmt.split_head(line)[1] == fmt.CHECKPOINT  # type: ignore[index]


def signed_runs(lines: list[tuple[str, bytes]]) -> list[list[tuple[str, bytes]]]:
    """*lines* cut after each signed checkpoint: each run is what one checkpoint covers (lines past
    the last checkpoint are left out)."""
    runs: list[list[tuple[str, bytes]]] = []
    run: list[tuple[str, bytes]] = []
    for item in lines:
        run.append(item)
        if is_checkpoint(item[1]):
            runs.append(run)
            run = []
    return runs
