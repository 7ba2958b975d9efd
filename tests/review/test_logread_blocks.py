"""The review's reader parses a block of lines as one JSON array and counts the block's lines from
that array's text (``read_blocks`` no longer counts them): the same records, unreadable lines and
line numbers as the reader that counted the newlines and joined the lines with bare commas, kept
here as the reference, whatever the lines and however the files are cut into blocks; except for a
block that reference read differently depending on where the block began and ended (the last
test), which now reads as it does in blocks of one line."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import msgspec
import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from tablectl.eventlog import verify as verify_module
from tablectl.eventlog.records import decode_block
from tablectl.review.logread import LogReader


class Reference(LogReader):
    """The reader as it was: the block's newlines counted, the lines joined with bare commas."""

    def read(self) -> None:
        _counting_read_blocks(self.files, self)

    @staticmethod
    def _parse(data: bytes, count: int | None) -> tuple[list[Any] | None, int]:
        assert count is not None
        try:
            return decode_block(b"[" + data.replace(b"\n", b",") + b"]"), count
        except msgspec.DecodeError:
            return None, count


def _counting_read_blocks(paths: list[Path], sink: Any) -> None:
    for index, path in enumerate(verify_module.resolve_paths(paths)):
        lineno = 0
        tail: list[bytes] = []
        with open(path, "rb") as f:
            for data in verify_module._blocks(f, tail):
                count = data.count(b"\n") + 1
                sink.block(index, lineno, count, data, None)
                lineno += count
        sink.end_file(index, lineno, len(tail[0]) if tail else 0)


def _record(seq: int) -> bytes:
    return orjson.dumps({"seq": seq, "event": "shoe_change", "shoe": 1, "ts": "2026-01-01T00:00:00Z", "table": "T1", "card": "AS", "note": "a, b", "prev": "0" * 8})


# A line: a record (its seq in order, or not), or what a damaged log holds instead. No line holds
# two JSON values side by side ("{...},{...}"): see the test after the property.
_JUNK = st.sampled_from([b"", b"not json", b'{"seq":', b"[1,2]", b'"x"', b"42", b"{}", b"null",
                         b'{"seq":"4","event":"x"}', b'{"seq":4,"event":7}', b'{"event":"x"}', b'{"seq":4}'])


@st.composite
def _lines(draw: st.DrawFn) -> list[bytes]:
    out: list[bytes] = []
    for seq in range(1, draw(st.integers(0, 40)) + 1):
        what = draw(st.integers(0, 9))
        line = _record(seq + draw(st.sampled_from([0, 0, 0, 1, -1])))
        if what == 0:
            out.append(draw(_JUNK))
        elif what == 1:  # cut in two lines, anywhere: in a string, between members
            at = draw(st.integers(1, len(line) - 1))
            out += [line[:at], line[at:]]
        else:
            out.append(line)
    return out


def _read(reader_type: type[LogReader], paths: list[Path]) -> tuple[Any, ...]:
    fed: list[Any] = []
    reader = reader_type(paths, fed.extend)
    reader.read()
    located = [reader.locate(seq) for seq in range(-1, 45)]
    return fed, reader.unreadable, reader.torn, reader.lines, reader.bytes_read, located


@settings(max_examples=200, deadline=None)
@given(files=st.lists(_lines(), min_size=1, max_size=3), torn=st.sampled_from([b"", b'{"seq":9']),
       chunk=st.one_of(st.integers(1, 400), st.just(4 << 20)), block=st.one_of(st.integers(1, 300), st.just(64 << 10)))
def test_blocks_read_as_they_did_however_the_files_are_cut(files: list[list[bytes]], torn: bytes, chunk: int,
                                                            block: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, lines in enumerate(files):
            path = Path(tmp) / f"tablectl-T1-{i + 1:06d}.jsonl"
            path.write_bytes(b"".join(line + b"\n" for line in lines) + (torn if i == len(files) - 1 else b""))
            paths.append(path)
        with mock.patch.object(verify_module, "_CHUNK", chunk), mock.patch.object(verify_module, "_BLOCK", block):
            assert _read(LogReader, paths) == _read(Reference, paths)


def test_a_line_cut_inside_a_string_is_unreadable_even_when_another_line_makes_up_the_count(tmp_path: Path) -> None:
    """Two pieces of a line, cut inside a string, joined with a bare comma made one record out of
    two lines; a line holding two records made up the count, and the block passed for readable.
    Joined with a comma and a newline, which no JSON string may hold, the pieces do not parse: the
    block is read line by line, as a block of one line reads."""
    line = _record(2)
    cut = line.index(b"a, b") + 1
    lines = [_record(1), line[:cut], line[cut:], _record(3) + b"," + _record(4)]
    path = tmp_path / "tablectl-T1-000001.jsonl"
    path.write_bytes(b"".join(x + b"\n" for x in lines))
    fed, unreadable, *_ = _read(LogReader, [path])
    assert [r.seq for r in fed] == [1]
    assert [u.line for u in unreadable] == [2, 3, 4]
    with mock.patch.object(verify_module, "_BLOCK", 1):
        assert _read(LogReader, [path])[:2] == (fed, unreadable)


def test_a_record_whose_seq_is_not_a_number_is_unreadable_wherever_it_stands(tmp_path: Path) -> None:
    first, later = b'{"seq":"1","event":"dealt"}', b'{"seq":[3],"event":"dealt"}'
    path = tmp_path / "tablectl-T1-000001.jsonl"
    path.write_bytes(b"".join(x + b"\n" for x in [first, _record(2), later, _record(4)]))
    fed, unreadable, *_ = _read(LogReader, [path])
    assert [r.seq for r in fed] == [2, 4]
    assert [u.line for u in unreadable] == [1, 3]
