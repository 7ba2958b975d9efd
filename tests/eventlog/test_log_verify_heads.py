"""The verifier's fast path checks the heads of a block's lines (``{"seq":N,"event":"``) against
heads joined from a table of their last three digits (``verify._heads``) rather than formatted
number by number: the same bytes, and past seq 1000 the same verdicts as the line-by-line path."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from tablectl.eventlog import EventLog, generate_key
from tablectl.eventlog import verify as verify_module
from tablectl.eventlog.verify import _HEAD, _heads, verify

STARTS = [1, 2, 998, 999, 1000, 1001, 1998, 1999, 2000, 9_999, 10_000, 123_456, 999_990, 1_000_000, 10**12 - 3]


@pytest.mark.parametrize("first", STARTS)
@pytest.mark.parametrize("n", [1, 2, 3, 266, 999, 1000, 1001, 2500])
def test_the_heads_are_the_formatted_heads(first: int, n: int) -> None:
    assert _heads(first, n) == (_HEAD * n) % tuple(range(first, first + n))


@pytest.fixture(scope="module")
def long_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Ed25519PublicKey]:
    """A signed log of 2,700 lines in one file: seqs of one to four digits."""
    key = generate_key()
    directory = tmp_path_factory.mktemp("long") / "log"
    with EventLog(directory, "T1", signing_key=key, checkpoint_every=250) as log:
        for n in range(1, 2700):
            log.append("card_dealt", shoe=1, round=n // 5, card="QH", to="seat:1", device="shoe-1", event_no=n)
    return directory, key.public_key()


def _tampered(src: Path, dst: Path, how: str) -> Path:
    dst.mkdir()
    path = next(src.glob("*.jsonl"))
    lines = path.read_bytes().split(b"\n")[:-1]
    i = 1499
    if how == "seq":  # 1500 -> 1509: as wide
        lines[i] = lines[i].replace(b'{"seq":1500,', b'{"seq":1509,')
    elif how == "deleted":
        del lines[i]
    elif how == "swapped":
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif how == "duplicated":
        lines.insert(i, lines[i])
    elif how == "head":
        lines[i] = lines[i].replace(b',"event":"', b', "event":"')
    (dst / path.name).write_bytes(b"".join(x + b"\n" for x in lines))
    return dst


@pytest.mark.parametrize("how", ["intact", "seq", "deleted", "swapped", "duplicated", "head"])
def test_past_seq_1000_the_fast_path_finds_what_the_line_by_line_path_finds(
    long_log: tuple[Path, Ed25519PublicKey], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    src, public = long_log
    log = _tampered(src, tmp_path / "log", how)
    report = verify([log], public).to_dict()
    assert report["ok"] == (how == "intact")
    assert all(f["line"] >= 1500 for f in report["findings"])
    monkeypatch.setattr(verify_module._Verifier, "batch", lambda self, index, lineno, parts: False)
    assert verify([log], public).to_dict() == report
