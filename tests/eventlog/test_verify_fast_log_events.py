"""The verifier's fast path finds the log's own events (checkpoints and the like) among a block's
lines by searching the joined heads and name prefixes instead of slicing every name: it must hand
exactly those lines to the slow path, wherever they sit in a block, and let game events through
whose names merely start alike (or are shorter than the prefix it looks at)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from tablectl.eventlog import EventLog, generate_key
from tablectl.eventlog import verify as verify_module
from tablectl.eventlog.verify import UNSIGNED_TAIL, WRONG_KEY, verify

# Names sharing a log event's first bytes (log_, reco, chec, rota), and names shorter than them.
LOOKALIKES = ["log_note", "record", "checkers", "rotation", "ok", "c", "lo"]


@pytest.fixture(scope="module")
def signed_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Ed25519PublicKey]:
    """About 3,000 lines over several blocks, a checkpoint every 37 lines (at every place in a block)."""
    key = generate_key()
    directory = tmp_path_factory.mktemp("fast") / "log"
    with EventLog(directory, "T1", signing_key=key, checkpoint_every=37) as log:
        for n in range(1, 3000):
            log.append(LOOKALIKES[n % len(LOOKALIKES)] if n % 5 == 0 else "card_dealt",
                       shoe=1, round=n // 5, card="QH", to="seat:1", device="shoe-1", event_no=n)
    return directory, key.public_key()


def _line_by_line(monkeypatch: pytest.MonkeyPatch, log: Path, public: Ed25519PublicKey) -> dict:
    monkeypatch.setattr(verify_module._Verifier, "batch", lambda self, index, lineno, parts: False)
    return verify([log], public).to_dict()


def test_lookalike_game_events_pass_and_every_checkpoint_is_counted(
    signed_log: tuple[Path, Ed25519PublicKey], monkeypatch: pytest.MonkeyPatch
) -> None:
    log, public = signed_log
    report = verify([log], public).to_dict()
    assert report["ok"] and report["clean"]
    assert report["checkpoints"] == _line_by_line(monkeypatch, log, public)["checkpoints"] > 70
    assert report == _line_by_line(monkeypatch, log, public)


def test_under_another_key_every_checkpoint_is_refused_by_the_fast_path(
    signed_log: tuple[Path, Ed25519PublicKey], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The chain is intact, so the blocks stay on the fast path: only its picking out of the
    # checkpoints brings them to the signature check.
    log, _ = signed_log
    other = generate_key().public_key()
    report = verify([log], other).to_dict()
    assert not report["ok"] and report["checkpoints"] == 0 and report["signed_seq"] == 0
    assert [f["kind"] for f in report["findings"]] == [WRONG_KEY, UNSIGNED_TAIL]
    assert report["suppressed"] > 70  # every later checkpoint: the same wrong key, counted
    assert report == _line_by_line(monkeypatch, log, other)
