"""Verification and reconstruction in one pass over the files (``verify.scan`` handing each block
of lines to the review's reader): the same verification as ``verify`` alone, the same report
however the files are cut into reads and blocks, every line handed over exactly once."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablectl.eventlog import load_public_key
from tablectl.eventlog import verify as verify_module
from tablectl.eventlog.verify import read_blocks, scan, verify
from tablectl.review.engine import reconstruct, review

if TYPE_CHECKING:
    from reviewhelpers import RunTable, WriteConfig

# (read size, block size): the default, small reads cutting lines, blocks of a line or two
SIZES = [(4 << 20, 64 << 10), (700, 300), (333, 1), (4096, 100_000)]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory, write_config: WriteConfig, run_table: RunTable) -> tuple[Path, Path]:
    """Three Card Poker, 25 rounds with dealer mistakes: a file per shoe."""
    tmp = tmp_path_factory.mktemp("single-pass")
    config, pub = write_config(tmp, "three-card-poker.toml")
    run_table(config, tmp / "log", 25, seed=31, mistakes=0.2)
    return tmp / "log", pub


def _damaged(src: Path, dst: Path, how: str) -> list[Path]:
    shutil.copytree(src, dst)
    files = sorted(dst.glob("*.jsonl"))
    middle = files[len(files) // 2]
    lines = middle.read_bytes().split(b"\n")
    if how == "deleted":
        del lines[3]
    elif how == "unreadable":
        lines[2] = lines[2][:40] + b'"' + lines[2][40:]
    elif how == "swapped":
        lines[2], lines[3] = lines[3], lines[2]
    elif how == "torn":
        files[-1].write_bytes(files[-1].read_bytes() + b'{"seq":1,"event":"dealt"')
    middle.write_bytes(b"\n".join(lines))
    return files


def _report(files: list[Path], pub: Path) -> dict[str, Any]:
    data = review(files, [load_public_key(pub)]).to_dict()
    data.pop("timings")
    return data


def _recon(report_or_recon: Any) -> tuple[Any, ...]:
    r = report_or_recon
    return ([x.to_dict() for x in r.rounds], [x.to_dict() for x in r.shoes], [x.to_dict() for x in r.sessions],
            {k: v.to_dict() for k, v in r.devices.items()}, r.first_seq, r.last_seq, r.lines)


@pytest.mark.parametrize("how", ["intact", "deleted", "unreadable", "swapped", "torn"])
def test_one_pass_verifies_as_verify_alone_and_reads_as_a_separate_read(table: tuple[Path, Path], tmp_path: Path, how: str) -> None:
    log, pub = table
    files = _damaged(log, tmp_path / "log", how)
    key = load_public_key(pub)
    report = review(files, [key], replay=False)
    assert report.verification.to_dict() == verify(files, key).to_dict()
    assert report.ok == (how == "intact")
    recon, reader = reconstruct(files)  # read without verifying
    assert _recon(recon) == _recon(report.recon) and recon.rounds
    assert reader.unreadable == report.unreadable and bool(reader.unreadable) == (how == "unreadable")
    assert reader.torn == ([(str(files[-1]), len(b'{"seq":1,"event":"dealt"'))] if how == "torn" else [])


@pytest.mark.parametrize("how", ["intact", "unreadable", "swapped"])
def test_the_report_does_not_depend_on_how_the_files_are_cut_into_reads_and_blocks(
    table: tuple[Path, Path], tmp_path: Path, how: str
) -> None:
    log, pub = table
    files = _damaged(log, tmp_path / "log", how)
    reports = []
    for chunk, block in SIZES:
        with mock.patch.object(verify_module, "_CHUNK", chunk), mock.patch.object(verify_module, "_BLOCK", block):
            reports.append(_report(files, pub))
    assert all(r == reports[0] for r in reports[1:])


@pytest.mark.parametrize("block", [64 << 10, 1])  # the swap inside one block, or across two
def test_every_seq_is_located_at_its_line_and_none_in_a_file_with_lines_out_of_order(
    table: tuple[Path, Path], tmp_path: Path, block: int
) -> None:
    log, _ = table
    files = _damaged(log, tmp_path / "log", "swapped")
    swapped = files[len(files) // 2]
    with mock.patch.object(verify_module, "_BLOCK", block):
        _, reader = reconstruct(files)
    located = 0
    for path in files:
        for number, line in enumerate(path.read_bytes().splitlines(), start=1):
            seq = int(line[len(b'{"seq":') : line.index(b",")])
            if path == swapped:
                assert reader.locate(seq) is None
            else:
                assert reader.locate(seq) == (str(path), number)
                located += 1
    assert located > 100


class _Recorder:
    def __init__(self) -> None:
        self.lines: list[tuple[int, int, bytes]] = []
        self.ends: list[tuple[int, int, int]] = []

    def block(self, file_index: int, lineno: int, count: int | None, data: bytes, lines: list[bytes] | None) -> int:
        if lines is None:  # read_blocks neither splits nor counts
            assert count is None
            lines = data.split(b"\n")
        assert data == b"\n".join(lines) and count in (None, len(lines))
        self.lines += [(file_index, lineno + i, line) for i, line in enumerate(lines, start=1)]
        return len(lines)

    def end_file(self, file_index: int, lines: int, torn: int) -> None:
        self.ends.append((file_index, lines, torn))


_LINE = st.binary(max_size=60).map(lambda b: b.replace(b"\n", b""))


@settings(max_examples=150, deadline=None)
@given(files=st.lists(st.lists(_LINE, max_size=30), min_size=1, max_size=4), torn=_LINE,
       chunk=st.integers(1, 200), block=st.integers(1, 200))
def test_every_complete_line_reaches_the_sink_once_in_order_with_its_number(
    files: list[list[bytes]], torn: bytes, chunk: int, block: int
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, lines in enumerate(files):
            path = Path(tmp) / f"tablectl-T1-{i + 1:06d}.jsonl"
            path.write_bytes(b"".join(line + b"\n" for line in lines) + (torn if i == len(files) - 1 else b""))
            paths.append(path)
        sink = _Recorder()
        with mock.patch.object(verify_module, "_CHUNK", chunk), mock.patch.object(verify_module, "_BLOCK", block):
            read_blocks(paths, sink)
    assert sink.lines == [(i, n, line) for i, lines in enumerate(files) for n, line in enumerate(lines, start=1)]
    assert sink.ends == [(i, len(lines), len(torn) if i == len(files) - 1 else 0) for i, lines in enumerate(files)]


def test_scan_hands_the_sink_the_lines_read_blocks_does_with_them_split(tmp_path: Path) -> None:
    lines = [b'{"seq":%d,"event":"x"}' % i for i in range(1, 40)]
    path = tmp_path / "tablectl-T1-000001.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    split: list[list[bytes] | None] = []

    class Splits(_Recorder):
        def block(self, file_index: int, lineno: int, count: int | None, data: bytes, lines: list[bytes] | None) -> int:
            split.append(lines)
            return super().block(file_index, lineno, count, data, lines)

    scanned, read = Splits(), _Recorder()
    with mock.patch.object(verify_module, "_BLOCK", 100):
        scan([path], None, scanned)
        read_blocks([path], read)
    assert scanned.lines == read.lines and scanned.ends == read.ends == [(0, len(lines), 0)]
    assert len(split) > 1 and all(s is not None for s in split)
