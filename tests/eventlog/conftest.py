"""Fixtures for the event-log tests: keys, a controllable clock, and a realistic signed log."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tablectl.eventlog import EventLog, generate_key

CARDS = ["QH", "7S", "AD", "TC", "2H", "KS", "9D", "JC", "5S", "AH", "3C", "8D"]
TARGETS = ["burn", "seat:1", "seat:2", "seat:3", "dp"]


class FakeClock:
    """UTC epoch seconds that move only when told to (1 ms per reading by default)."""

    def __init__(self, start: float = 1_714_521_600.0, step: float = 0.001) -> None:  # 2024-05-01T00:00Z
        self.now = start
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture
def make_clock() -> type[FakeClock]:
    """The FakeClock class, for a test that needs its own start time or step."""
    return FakeClock


@pytest.fixture
def key() -> Ed25519PrivateKey:
    return generate_key()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def _deal(log: EventLog, shoe: int, cards: int, first_event_no: int) -> int:
    """Append *cards* card events of one shoe; returns the next device event number."""
    n = first_event_no
    for i in range(cards):
        log.append("card_dealt", shoe=shoe, round=1 + i // 5, card=CARDS[n % len(CARDS)],
                   to=TARGETS[i % len(TARGETS)], device="shoe-1", event_no=n)
        n += 1
    return n


@pytest.fixture
def deal() -> Callable[[EventLog, int, int, int], int]:
    """``deal(log, shoe, cards, first_event_no)``: append card events; returns the next event_no."""
    return _deal


@pytest.fixture
def signed_log(tmp_path: Path, key: Ed25519PrivateKey, clock: FakeClock) -> Path:
    """A cleanly closed log of three shoes of 20 cards, one file per shoe, checkpoint every 8."""
    directory = tmp_path / "log"
    with EventLog(directory, "T1", signing_key=key, checkpoint_every=8, clock=clock) as log:
        n = 1
        for shoe in (1, 2, 3):
            n = _deal(log, shoe, 20, n)
            log.commit()
            log.end_shoe(shoe=shoe)
    return directory


@pytest.fixture
def log_files() -> Callable[[Path], list[Path]]:
    def files(directory: Path) -> list[Path]:
        return sorted(directory.glob("tablectl-*.jsonl"))

    return files
