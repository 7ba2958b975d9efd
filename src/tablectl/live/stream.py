"""Subjects, message ids and the JetStream stream and consumer of the live floor.

Everything here is pure except :func:`ensure_stream` and :func:`ensure_alarm_stream`, which talk
to a broker through a nats-py JetStream context.

Subjects
    ``tablectl.<table>.log``    every line of a table's log, one line per message, in log order
    ``tablectl.<table>.alarm``  what the collector refused for that table (JSON, see collect.py)
    ``tablectl.<table>.status`` the table's publisher's state every few seconds (JSON, not kept)
    ``LOG_SUBJECTS = "tablectl.*.log"``, ``ALARM_SUBJECTS = "tablectl.*.alarm"``: the wildcards.

A table name may hold ``.``, which a NATS subject uses between tokens; in a subject it is written
``~`` (a character a table name never holds), so :func:`table_of` gives the name back exactly.

Message ids
    ``<table>:<log>:<seq>:<digest>``, ``<log>`` the log file's name without ``.jsonl``, ``<digest>``
    the first 16 hex digits of the line's own chain digest (``T1:tablectl-T1-000003:1042:9f3c...``).
    The stream drops a message whose id it saw within its duplicate window, so a publisher that
    sends a line again after a lost ack stores it once; the digest makes that the same line only,
    never another log's line at the same place (a table restarted on a new log starts again at
    file 1, seq 1). The collector takes the file name a line belongs in from this id (it is not
    signed: the collector checks it against the table and the chain, see docs/live.md) and also
    reads ids an earlier tablectl gave, ``<table>:<log>:<seq>`` (no digest).

API
    ``log_subject(table) -> str``, ``alarm_subject(table) -> str``, ``status_subject(table) -> str``,
    ``table_of(subject) -> str | None``
    ``msg_id(table, log, seq, digest=None) -> str``, ``parse_msg_id(text) -> MsgId | None``
    ``StreamSettings(name="TABLECTL_LOGS", replicas=1, duplicate_window=120.0, max_age=7 days)``
    ``stream_config(settings) -> nats.js.api.StreamConfig``
    ``consumer_config(durable, ack_wait=30.0) -> nats.js.api.ConsumerConfig``
    ``await ensure_stream(js, settings=None) -> str`` (the stream's name; made if missing)
    ``await ensure_alarm_stream(js, replicas=1) -> str``
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

PREFIX = "tablectl"
LOG_SUBJECTS = "tablectl.*.log"
ALARM_SUBJECTS = "tablectl.*.alarm"
STATUS_SUBJECTS = "tablectl.*.status"
STREAM = "TABLECTL_LOGS"
ALARM_STREAM = "TABLECTL_ALARMS"
DURABLE = "collector"  # the collector's durable consumer, unless named otherwise
MSG_ID_HEADER = "Nats-Msg-Id"
DEFAULT_DUPLICATE_WINDOW = 120.0  # seconds
DEFAULT_MAX_AGE = 7 * 24 * 3600.0  # seconds a line stays in the stream (the table keeps its own log)
ID_DIGEST_LEN = 16  # hex digits of a line's chain digest in its message id

_TABLE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")
_LOG = re.compile(r"tablectl-(?P<table>[A-Za-z0-9][A-Za-z0-9_.-]*)-(?P<number>[0-9]{6,})\Z")
_ID_DIGEST = re.compile(rf"[0-9a-f]{{{ID_DIGEST_LEN}}}\Z")


def _check_table(table: str) -> None:
    if not _TABLE.match(table):
        raise ValueError(f"not a table name: {table!r} (letters, digits, '_', '.', '-')")


def subject_token(table: str) -> str:
    """The table's name as one subject token (``.`` written ``~``)."""
    _check_table(table)
    return table.replace(".", "~")


def log_subject(table: str) -> str:
    """``tablectl.<table>.log``: the subject that carries every line of ``table``'s log."""
    return f"{PREFIX}.{subject_token(table)}.log"


def alarm_subject(table: str) -> str:
    """``tablectl.<table>.alarm``: where the collector reports what it refused for ``table``."""
    return f"{PREFIX}.{subject_token(table)}.alarm"


def status_subject(table: str) -> str:
    """``tablectl.<table>.status``: the table's publisher's state every few seconds (JSON, core NATS,
    not kept): ``{"table", "published_seq", "log_seq", "behind", "connected", "unreachable_s"}``."""
    return f"{PREFIX}.{subject_token(table)}.status"


def table_of(subject: str) -> str | None:
    """The table a ``tablectl.<table>.log``, ``.alarm`` or ``.status`` subject names; None for any other."""
    parts = subject.split(".")
    if len(parts) != 3 or parts[0] != PREFIX or parts[2] not in ("log", "alarm", "status"):
        return None
    table = parts[1].replace("~", ".")
    return table if _TABLE.match(table) else None


@dataclass(frozen=True)
class MsgId:
    """A line's message id taken apart: the table, its log file's stem, the line's seq and the
    first :data:`ID_DIGEST_LEN` hex digits of its chain digest (None: an id an earlier tablectl gave)."""

    table: str
    log: str
    seq: int
    digest: str | None = None

    @property
    def file_name(self) -> str:
        """The log file's name: ``<log>.jsonl``."""
        return f"{self.log}.jsonl"

    @property
    def file_number(self) -> int:
        """The log file's number (``tablectl-T1-000003`` -> 3)."""
        m = _LOG.match(self.log)
        assert m is not None  # parse_msg_id made sure
        return int(m.group("number"))

    def __str__(self) -> str:
        return msg_id(self.table, self.log, self.seq, self.digest)


def log_stem(file_name: str) -> str:
    """A log file's name without ``.jsonl`` (``tablectl-T1-000003.jsonl`` -> ``tablectl-T1-000003``)."""
    return file_name.removesuffix(".jsonl")


def msg_id(table: str, log: str, seq: int, digest: str | None = None) -> str:
    """``<table>:<log>:<seq>:<digest>``: the JetStream message id of one line; ``log`` a file name
    or stem, ``digest`` the line's chain digest (``logformat.digest``; its first
    :data:`ID_DIGEST_LEN` hex digits are kept). A publisher always gives it: without it, the id an
    earlier tablectl gave, ``<table>:<log>:<seq>``, which the same place in another log shares."""
    place = f"{table}:{log_stem(log)}:{seq}"
    return place if digest is None else f"{place}:{digest[:ID_DIGEST_LEN]}"


def parse_msg_id(text: str | None) -> MsgId | None:
    """The parts of a message id, or None when it is not one: a table name, a log file stem of
    that same table, a positive seq, and :data:`ID_DIGEST_LEN` lowercase hex digits (or none: an
    id an earlier tablectl gave)."""
    if not text:
        return None
    parts = text.split(":")
    if len(parts) not in (3, 4) or not _TABLE.match(parts[0]) or not parts[2].isdigit():
        return None
    m = _LOG.match(parts[1])
    if m is None or m.group("table") != parts[0]:
        return None
    digest = parts[3] if len(parts) == 4 else None
    if digest is not None and not _ID_DIGEST.match(digest):
        return None
    seq = int(parts[2])
    return MsgId(parts[0], parts[1], seq, digest) if seq >= 1 else None


@dataclass(frozen=True)
class StreamSettings:
    """What the log stream is made with: its name, replicas (3 on a site's cluster), the duplicate
    window (seconds within which a repeated message id is dropped) and how long a line is kept."""

    name: str = STREAM
    replicas: int = 1
    duplicate_window: float = DEFAULT_DUPLICATE_WINDOW
    max_age: float = DEFAULT_MAX_AGE

    def __post_init__(self) -> None:
        if self.replicas not in (1, 2, 3, 4, 5):
            raise ValueError(f"stream replicas must be 1 to 5, not {self.replicas}")
        if self.duplicate_window <= 0 or self.max_age <= 0:
            raise ValueError("stream duplicate_window and max_age must be positive seconds")
        if self.duplicate_window > self.max_age:
            raise ValueError("stream duplicate_window must not exceed max_age")


def stream_config(settings: StreamSettings | None = None) -> Any:
    """The ``nats.js.api.StreamConfig`` of the log stream: file storage, limits retention (the
    collector's durable consumer reads it; lines age out after ``max_age``)."""
    from nats.js import api

    s = settings or StreamSettings()
    return api.StreamConfig(
        name=s.name, subjects=[LOG_SUBJECTS], storage=api.StorageType.FILE,
        retention=api.RetentionPolicy.LIMITS, discard=api.DiscardPolicy.OLD,
        num_replicas=s.replicas, duplicate_window=s.duplicate_window, max_age=s.max_age,
        description="tablectl: every line of every table's signed event log",
    )


def consumer_config(durable: str = DURABLE, ack_wait: float = 30.0, max_ack_pending: int = 20000) -> Any:
    """The collector's durable pull consumer: every line from the start of the stream, acked one
    by one after it is written and fsynced in the copy."""
    from nats.js import api

    return api.ConsumerConfig(
        durable_name=durable, deliver_policy=api.DeliverPolicy.ALL, ack_policy=api.AckPolicy.EXPLICIT,
        ack_wait=ack_wait, max_deliver=-1, filter_subject=LOG_SUBJECTS, max_ack_pending=max_ack_pending,
        replay_policy=api.ReplayPolicy.INSTANT,
    )


async def ensure_stream(js: Any, settings: StreamSettings | None = None) -> str:
    """The name of the log stream on the broker ``js`` (a nats-py JetStream context) talks to,
    made with ``settings`` when there is none yet (an existing stream is left as it is)."""
    from nats.js.errors import NotFoundError

    s = settings or StreamSettings()
    try:
        info = await js.stream_info(s.name)
        return str(info.config.name)
    except NotFoundError:
        pass
    await js.add_stream(stream_config(s))
    return s.name


async def ensure_alarm_stream(js: Any, replicas: int = 1, max_age: float = DEFAULT_MAX_AGE) -> str:
    """The stream that keeps the alarms (``tablectl.*.alarm``) for whoever reads them later, made
    when missing."""
    from nats.js import api
    from nats.js.errors import NotFoundError

    try:
        await js.stream_info(ALARM_STREAM)
        return ALARM_STREAM
    except NotFoundError:
        pass
    await js.add_stream(api.StreamConfig(
        name=ALARM_STREAM, subjects=[ALARM_SUBJECTS], storage=api.StorageType.FILE,
        num_replicas=replicas, max_age=max_age, description="tablectl: what the collector refused"))
    return ALARM_STREAM


__all__ = [
    "ALARM_STREAM",
    "ALARM_SUBJECTS",
    "DURABLE",
    "ID_DIGEST_LEN",
    "LOG_SUBJECTS",
    "MSG_ID_HEADER",
    "STATUS_SUBJECTS",
    "STREAM",
    "MsgId",
    "StreamSettings",
    "alarm_subject",
    "consumer_config",
    "ensure_alarm_stream",
    "ensure_stream",
    "log_stem",
    "log_subject",
    "msg_id",
    "parse_msg_id",
    "status_subject",
    "stream_config",
    "subject_token",
    "table_of",
]
