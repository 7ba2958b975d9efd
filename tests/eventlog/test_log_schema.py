"""docs/events.schema.json describes the lines the writer really writes."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from tablectl.eventlog import EventLog


jsonschema = pytest.importorskip("jsonschema")

SCHEMA = json.loads((Path(__file__).parents[2] / "docs" / "events.schema.json").read_text())


@pytest.fixture(scope="module")
def validator():
    cls = jsonschema.Draft202012Validator
    cls.check_schema(SCHEMA)
    return cls(SCHEMA)


def all_lines(directory: Path) -> list[dict]:
    return [orjson.loads(x) for p in sorted(directory.glob("*.jsonl")) for x in p.read_bytes().splitlines()]


def test_every_line_of_a_signed_log_matches_the_schema(signed_log, validator):
    lines = all_lines(signed_log)
    assert {r["event"] for r in lines} == {"log_opened", "card_dealt", "checkpoint", "rotated"}
    for record in lines:
        validator.validate(record)


def test_recovery_and_torn_tail_records_match_the_schema(tmp_path, key, clock, validator, deal):
    log = EventLog(tmp_path, "T1", signing_key=key, clock=clock)
    deal(log, 1, 3, 1)
    log.commit()
    log.close(clean=False)
    with open(log.path, "ab") as f:
        f.write(b'{"seq":5,"ev')
    EventLog(tmp_path, "T1", signing_key=key, clock=clock).close()
    lines = all_lines(tmp_path)
    recovery = next(r for r in lines if r["event"] == "recovery")
    assert recovery["torn"] is not None
    for record in lines:
        validator.validate(record)


def test_the_schema_rejects_a_line_whose_prev_is_not_a_digest(signed_log, validator):
    record = next(r for r in all_lines(signed_log) if r["event"] == "card_dealt")
    record["prev"] = "not-a-digest"
    assert not validator.is_valid(record)


def test_the_schema_rejects_card_text_that_is_not_a_card(signed_log, validator):
    record = next(r for r in all_lines(signed_log) if r["event"] == "card_dealt")
    record["card"] = "1Z"
    assert not validator.is_valid(record)


def test_the_schema_rejects_an_unsigned_checkpoint_that_names_a_key(signed_log, validator):
    record = next(r for r in all_lines(signed_log) if r["event"] == "checkpoint")
    del record["sig"]
    assert not validator.is_valid(record)
