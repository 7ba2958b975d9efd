"""The floor's NATS permissions, as nats-server authorization config text (pure).

- a table's user may publish only its own subjects, ``tablectl.<table>.>`` (its log, its status),
  and read only its own replies (``_INBOX_<table>.>``: the stream's acknowledgements);
- the collector may not publish a log line: it reads the stream through its durable consumer
  (the JetStream API calls that takes, on the log stream only), acknowledges, and publishes alarms;
- the pit reads the logs, alarms and states, and nothing else.

:func:`render_permissions` writes the ``authorization { users = [...] }`` block for a list of
tables; each user signs in with a password (``password`` may be a bcrypt hash or a ``$VARIABLE``
nats-server takes from the environment) or an nkey (``nkey``: the public key, ``U...``).
``config/nats/floor-permissions.conf`` is its output for the shipped example tables.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .connect import inbox_prefix
from .stream import (
    ALARM_STREAM,
    ALARM_SUBJECTS,
    DURABLE,
    LOG_SUBJECTS,
    STATUS_SUBJECTS,
    STREAM,
    subject_token,
)


@dataclass(frozen=True)
class Login:
    """How one user signs in: a password (clear, a bcrypt hash, or ``$VARIABLE``) or an nkey."""

    password: str | None = None
    nkey: str | None = None

    def render(self, user: str) -> str:
        if self.nkey is not None:
            return f"nkey: {json.dumps(self.nkey)}"
        password = self.password or ""
        value = password if password.startswith("$") and not password.startswith("$2") else json.dumps(password)
        return f"user: {json.dumps(user)}, password: {value}"


def table_permissions(table: str) -> dict[str, dict[str, list[str]]]:
    """A table may publish its own subjects and read its own replies, nothing else."""
    token = subject_token(table)
    return {"publish": {"allow": [f"tablectl.{token}.>"]}, "subscribe": {"allow": [f"{inbox_prefix(table)}.>"]}}


def collector_permissions(durable: str = DURABLE) -> dict[str, dict[str, list[str]]]:
    """The collector: its consumer on the log stream, the two streams' info and creation, acks,
    alarms; never a log subject."""
    return {
        "publish": {
            "allow": [
                "$JS.API.INFO",
                f"$JS.API.STREAM.INFO.{STREAM}", f"$JS.API.STREAM.CREATE.{STREAM}",
                f"$JS.API.STREAM.INFO.{ALARM_STREAM}", f"$JS.API.STREAM.CREATE.{ALARM_STREAM}",
                f"$JS.API.CONSUMER.CREATE.{STREAM}.>", f"$JS.API.CONSUMER.DURABLE.CREATE.{STREAM}.>",
                f"$JS.API.CONSUMER.INFO.{STREAM}.>", f"$JS.API.CONSUMER.MSG.NEXT.{STREAM}.>",
                f"$JS.ACK.{STREAM}.>", ALARM_SUBJECTS,
            ],
            "deny": [LOG_SUBJECTS, STATUS_SUBJECTS],
        },
        "subscribe": {"allow": [f"{inbox_prefix(durable)}.>"]},
    }


def pit_permissions(name: str = "pit") -> dict[str, dict[str, list[str]]]:
    """The pit page: reads the logs, alarms and states (live, and from the streams through
    consumers of its own); publishes nothing a table or the collector would read."""
    return {
        "publish": {
            "allow": [
                "$JS.API.INFO", f"$JS.API.STREAM.INFO.{STREAM}", f"$JS.API.STREAM.INFO.{ALARM_STREAM}",
                f"$JS.API.CONSUMER.CREATE.{STREAM}.>", f"$JS.API.CONSUMER.CREATE.{ALARM_STREAM}.>",
                f"$JS.API.CONSUMER.MSG.NEXT.{STREAM}.>", f"$JS.API.CONSUMER.MSG.NEXT.{ALARM_STREAM}.>",
                f"$JS.API.CONSUMER.DELETE.{STREAM}.>", f"$JS.API.CONSUMER.DELETE.{ALARM_STREAM}.>",
                f"$JS.ACK.{STREAM}.>", f"$JS.ACK.{ALARM_STREAM}.>",
            ],
        },
        "subscribe": {"allow": [LOG_SUBJECTS, ALARM_SUBJECTS, STATUS_SUBJECTS, f"{inbox_prefix(name)}.>"]},
    }


def _perms(p: Mapping[str, Mapping[str, Sequence[str]]], indent: str) -> str:
    lines = []
    for direction in ("publish", "subscribe"):
        if direction not in p:
            continue
        parts = [f"{k}: [{', '.join(json.dumps(s) for s in v)}]" for k, v in p[direction].items()]
        lines.append(f"{indent}  {direction}: {{ {', '.join(parts)} }}")
    return "\n".join(lines)


def render_permissions(tables: Mapping[str, Login], collector: Login | None = None, pit: Login | None = None,
                       durable: str = DURABLE, header: str = "") -> str:
    """The ``authorization`` block: one user per table (named as the table), ``collector`` and
    ``pit`` when given."""
    out = [header.rstrip("\n")] if header else []
    out += ["authorization {", "  users = ["]
    entries: list[tuple[str, Login, Mapping[str, Mapping[str, Sequence[str]]]]] = [
        (t, login, table_permissions(t)) for t, login in tables.items()]
    if collector is not None:
        entries.append(("collector", collector, collector_permissions(durable)))
    if pit is not None:
        entries.append(("pit", pit, pit_permissions("pit")))
    for user, login, perms in entries:
        out += [f"    {{ {login.render(user)}", "      permissions: {", _perms(perms, "      "), "      } }"]
    out += ["  ]", "}"]
    return "\n".join(out) + "\n"


__all__ = ["Login", "collector_permissions", "pit_permissions", "render_permissions", "table_permissions"]
