"""Errors raised by the event log writer and verifier."""

from __future__ import annotations


class EventLogError(Exception):
    """Base of every event-log error."""


class LogLockedError(EventLogError):
    """Another process (or another ``EventLog`` in this one) has the table's log open."""


class LogCorruptError(EventLogError):
    """An existing log cannot be resumed: its tail is not a consistent hash chain."""


class LogClosedError(EventLogError):
    """The log was closed; nothing more can be appended."""


class LogFailedError(EventLogError):
    """A write or fsync failed. The log refuses further writes (the page cache can no longer be
    trusted after a failed fsync); restart, and the next open records the recovery."""


class LogInputError(EventLogError):
    """Bad input to verification: a missing path, a file that is not a log, no log files."""
