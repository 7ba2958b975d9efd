"""Every kind of line the table writes is a kind review parses in its fast path (a block decoded
in one pass): a kind the schema does not name would send every block holding one to the line by
line reading."""

from __future__ import annotations

import re
from pathlib import Path

import tablectl.table
from tablectl.eventlog.records import RECORDS

#: ``log.append("kind", ...)`` or the core's ``_write("kind", {...})`` (or its local ``write``), the call spread over lines or not
_APPEND = re.compile(r'\b(?:log\.append|_?write)\(\s*"([a-z_]+)"')


def _kinds_written() -> set[str]:
    package = Path(tablectl.table.__file__).parent
    return {kind for path in package.rglob("*.py") for kind in _APPEND.findall(path.read_text())}


def test_the_table_writes_kinds_found_by_the_scan() -> None:
    assert {"dealt", "settled", "supervisor_refused", "round_started", "table_started"} <= _kinds_written()


def test_every_kind_the_table_writes_has_a_record_type() -> None:
    assert _kinds_written() - set(RECORDS) == set()

