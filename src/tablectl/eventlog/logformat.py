"""The byte-level format of the card event log, shared by the writer and the verifier.

A log is a sequence of files ``tablectl-<table>-<NNNNNN>.jsonl``; every line is one JSON object
whose first two members are always ``"seq"`` and ``"event"`` and whose last member is always
``"prev"``::

    {"seq":17,"event":"dealt","ts":"...","table":"T1", ... ,"prev":"<64 hex>"}

``prev`` is the BLAKE2b-256 digest (hex) of the previous line's raw bytes (the whole line
without its newline), across files; the first line of a log has ``prev`` = :data:`GENESIS`.
A ``checkpoint`` line also carries ``"sig":"<128 hex>"`` directly before ``"prev"``: an Ed25519
signature over the line's own bytes with that ``,"sig":"..."`` member removed.

Because the layout is fixed, the verifier reads ``seq``, ``event`` and ``prev`` by slicing the
raw bytes, and parses JSON only for the log's own (rare) events. See ``docs/events.md``.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

FORMAT_VERSION = 1
HASH_NAME = "blake2b-256"
GENESIS = "0" * 64
GENESIS_BYTES = GENESIS.encode("ascii")

#: The log's own events; the writer refuses them from :meth:`EventLog.append`.
LOG_OPENED = "log_opened"
RECOVERY = "recovery"
CHECKPOINT = "checkpoint"
ROTATED = "rotated"
LOG_EVENTS = frozenset({LOG_OPENED, RECOVERY, CHECKPOINT, ROTATED})

#: Fields the log itself writes; callers may not pass them.
RESERVED_FIELDS = frozenset({"seq", "event", "ts", "table", "prev", "sig"})

#: Checkpoint reason written by a clean ``close()``.
SHUTDOWN = "shutdown"

# Whole-string patterns: ``\Z``, never ``$`` (which also matches before a trailing newline, so
# ``.match`` would pass "ocp-1\n" and name a log file after it).
EVENT_NAME_RE = re.compile(r"[a-z][a-z0-9_]{0,63}\Z")
TABLE_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}\Z")
FILE_NAME_RE = re.compile(r"tablectl-(?P<table>[A-Za-z0-9][A-Za-z0-9_.-]*)-(?P<number>\d{6,})\.jsonl\Z")

LINE_PREFIX = b'{"seq":'
PREV_MEMBER = b',"prev":"'
LINE_END = b'"}'
#: ``,"prev":"`` + 64 hex + ``"}``
SUFFIX_LEN = len(PREV_MEMBER) + 64 + len(LINE_END)
SIG_MEMBER = b',"sig":"'
SIG_HEX_LEN = 128
#: a ``seq`` longer than this is not a log line (a log of 10**18 lines is not written)
MAX_SEQ_DIGITS = 18


def digest(line: bytes) -> str:
    """The chain digest of one line's raw bytes (without its newline), as 64 hex characters."""
    return hashlib.blake2b(line, digest_size=32).hexdigest()


def file_name(table: str, number: int) -> str:
    """The sortable file name of log file *number* of *table*."""
    return f"tablectl-{table}-{number:06d}.jsonl"


def parse_file_name(name: str) -> tuple[str, int] | None:
    """``(table, number)`` if *name* is a log file name, else None."""
    m = FILE_NAME_RE.fullmatch(name)
    if m is None:
        return None
    return m.group("table"), int(m.group("number"))


def log_files(directory: Path, table: str | None = None) -> dict[str, list[Path]]:
    """The log files in *directory*, by table, each list in file-number order."""
    found: dict[str, list[tuple[int, Path]]] = {}
    for entry in directory.iterdir():
        parsed = parse_file_name(entry.name)
        if parsed is None or (table is not None and parsed[0] != table) or not entry.is_file():
            continue
        found.setdefault(parsed[0], []).append((parsed[1], entry))
    return {t: [p for _, p in sorted(files)] for t, files in found.items()}


def split_head(line: bytes) -> tuple[int, str, str] | None:
    """``(seq, event, prev)`` read from a line's fixed layout, or None if it is not a log line."""
    if not line.startswith(LINE_PREFIX) or not line.endswith(LINE_END):
        return None
    if line[-SUFFIX_LEN : -SUFFIX_LEN + len(PREV_MEMBER)] != PREV_MEMBER:
        return None
    comma = line.find(b",", len(LINE_PREFIX))
    seq_text = line[len(LINE_PREFIX) : comma]
    if comma < 0 or not seq_text.isdigit() or len(seq_text) > MAX_SEQ_DIGITS or not line.startswith(b'"event":"', comma + 1):
        return None
    start = comma + 1 + len(b'"event":"')
    end = line.find(b'"', start)
    if end < 0:
        return None
    try:
        event = line[start:end].decode("ascii")
        prev = line[-SUFFIX_LEN + len(PREV_MEMBER) : -len(LINE_END)].decode("ascii")
    except UnicodeDecodeError:
        return None
    return int(seq_text), event, prev


def split_signature(line: bytes) -> tuple[bytes, str] | None:
    """``(signed_bytes, signature_hex)`` of a checkpoint line, or None if it carries no signature.

    The signed bytes are the line with its ``,"sig":"<128 hex>"`` member removed. JSON escapes
    every quote inside a string, so the member text can occur only once, as the member itself.
    """
    at = line.find(SIG_MEMBER)
    if at < 0 or line.find(SIG_MEMBER, at + 1) >= 0:
        return None
    start = at + len(SIG_MEMBER)
    end = start + SIG_HEX_LEN
    if line[end : end + 1] != b'"':
        return None
    try:
        sig = line[start:end].decode("ascii")
    except UnicodeDecodeError:
        return None
    return line[:at] + line[end + 1 :], sig


def insert_signature(rendered: bytes, sig_hex: str) -> bytes:
    """Place ``,"sig":"<hex>"`` directly before the line's trailing ``prev`` member."""
    cut = len(rendered) - SUFFIX_LEN
    return rendered[:cut] + SIG_MEMBER + sig_hex.encode("ascii") + b'"' + rendered[cut:]
