"""The durable, tamper-evident card event log: writer, verifier and signing keys.

- :class:`EventLog` (``writer``): append events as hash-chained JSON lines, group-commit them with
  one fsync, sign checkpoints with Ed25519, rotate files without breaking the chain, and resume
  after a crash (recording the recovery).
- ``verify``: :func:`verify.verify` checks a log with only the public key; :func:`iter_events`
  reads its events back in order. (The function is not re-exported here: it would shadow its
  module, breaking ``import tablectl.eventlog.verify``.)
- ``keys``: generate, save and load Ed25519 keys; key ids.

The format is documented in ``docs/events.md`` (JSON Schema: ``docs/events.schema.json``).
"""

from .errors import (
    EventLogError,
    LogClosedError,
    LogCorruptError,
    LogFailedError,
    LogInputError,
    LogLockedError,
)
from .keys import KeyFileError, generate_key, key_id, load_private_key, load_public_key, save_keypair
from .verify import Finding, VerifyReport, iter_events, iter_located_events
from .writer import EventLog

__all__ = [
    "EventLog",
    "EventLogError",
    "Finding",
    "KeyFileError",
    "LogClosedError",
    "LogCorruptError",
    "LogFailedError",
    "LogInputError",
    "LogLockedError",
    "VerifyReport",
    "generate_key",
    "iter_events",
    "iter_located_events",
    "key_id",
    "load_private_key",
    "load_public_key",
    "save_keypair",
]
