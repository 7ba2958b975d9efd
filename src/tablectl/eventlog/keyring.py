"""The keyring: surveillance's record of which public keys may sign which table's log, kept apart
from the logs (``tablectl keyring``; review, anchor and export read it by default).

A folder (``$TABLECTL_KEYRING``, else ``$XDG_CONFIG_HOME/tablectl/keyring``, else
``~/.config/tablectl/keyring``; ``--keyring DIR`` on every command that reads it) with one TOML file
per table, named for the table and naming it inside, so a renamed file is refused::

    # tablectl keyring: the keys that may sign table ocp-1's log
    table = "ocp-1"

    [[keys]]
    id = "0bb0f64bbb96471e"
    public = "<64 hex: the raw Ed25519 public key>"
    from_seq = 1
    # until_seq = 120000
    added = "2026-11-25T20:45:47Z"
    note = "first key"

A key is trusted from ``from_seq`` until the seq before the next key's ``from_seq`` (or its own
``until_seq``): see ``tablectl.eventlog.trust``. Files are written whole (a temporary file renamed
over the old one, fsynced) under a lock, mode 0644 in a 0755 folder whatever the umask.

Whoever can write the keyring chooses the keys review trusts, so reading refuses, each in one line
naming the path (as ssh refuses a key file others may read): a folder or file that group or others
may write (its mode shown), two keys of a table from the same seq (the table and the file's line
shown: which one signs there is not decided by the order of the lines), and a seq no log line can
carry (1 to 2**63 - 1).
"""

from __future__ import annotations

import datetime as dt
import fcntl
import json
import os
import re
import stat
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from tablectl.files import atomic_write, open_lock, private_mkdir, read_regular

from . import logformat as fmt
from .keyplace import beside_log
from .keys import key_id, load_public_key, public_bytes
from .trust import KeySpan, Trust, effective_spans

ENV = "TABLECTL_KEYRING"
SUFFIX = ".toml"
MAX_BYTES = 1 << 20
FILE_MODE = 0o644
DIR_MODE = 0o755
#: the largest seq a log line carries (its records' integers are 64-bit)
MAX_SEQ = (1 << 63) - 1
_SHARED_WRITE = stat.S_IWGRP | stat.S_IWOTH
_KEYS_HEADER = re.compile(r"\s*\[\[\s*keys\s*\]\]")
_FROM_SEQ = re.compile(r"\s*from_seq\s*=")
_FILE_FIELDS = frozenset({"table", "keys"})  # what _render writes, and all a keyring file may hold
_ENTRY_FIELDS = frozenset({"id", "public", "from_seq", "until_seq", "added", "note"})


class KeyringError(ValueError):
    """A keyring that cannot be read or written, or an enrolment it refuses (one line)."""


@dataclass(frozen=True)
class Enrolment:
    """One key enrolled for a table."""

    table: str
    key: Ed25519PublicKey
    from_seq: int = 1
    until_seq: int | None = None
    added: str = ""
    note: str = ""

    @property
    def key_id(self) -> str:
        return key_id(self.key)


def default_dir() -> Path:
    """Where the keyring is when no ``--keyring`` is given."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "tablectl" / "keyring"


def table_file(directory: Path, table: str) -> Path:
    if not fmt.TABLE_NAME_RE.fullmatch(table):
        raise KeyringError(f"table id {table!r}: use letters, digits, '.', '_', '-' (max 64)")
    return Path(directory) / f"{table}{SUFFIX}"


def check_seq(what: str, seq: int) -> None:
    """Refuse a seq no log line can carry (one line naming *what*)."""
    if not 1 <= seq <= MAX_SEQ:
        raise KeyringError(f"{what} {seq}: not a seq a log line can carry (1 to {MAX_SEQ})")


def _check_mode(path: Path, what: str) -> None:
    """Refuse a keyring folder or file that group or others may write (nothing to check if it is not there)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as e:
        raise KeyringError(f"{path}: cannot read the keyring: {e.strerror or e}") from None
    if mode & _SHARED_WRITE:
        raise KeyringError(f"{path}: permissions {stat.S_IMODE(mode):04o} are too open: a keyring {what} that group or "
                           f"others may write is not trusted (chmod go-w {path})")


def load(directory: Path, table: str) -> list[Enrolment]:
    """The keys enrolled for *table* (none if the keyring has no file for it)."""
    path = table_file(directory, table)
    _check_mode(Path(directory), "folder")
    _check_mode(path, "file")
    try:
        text = read_regular(path, "keyring file", MAX_BYTES)
    except FileNotFoundError:
        return []
    except OSError as e:
        raise KeyringError(f"{path}: cannot read the keyring: {e.strerror or e}") from None
    try:
        data = tomllib.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as e:
        raise KeyringError(f"{path}: not a keyring file: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
    if data.get("table") != table:
        raise KeyringError(f"{path}: table = {data.get('table')!r}, but the file is named for table {table!r}")
    unknown = sorted(set(data) - _FILE_FIELDS)
    if unknown:
        raise KeyringError(f"{path}: {unknown[0]}: not a keyring field (a keyring file holds table and [[keys]])")
    out = []
    entries = data.get("keys", [])
    if not isinstance(entries, list):
        raise KeyringError(f"{path}: keys: not a list of [[keys]] tables")
    places = _entry_places(path, text.decode("utf-8"), len(entries))
    for n, entry in enumerate(entries, start=1):
        out.append(_entry(places[n - 1][0], n, table, entry))
    _one_key_per_seq(table, out, places)
    return out


def _entry_places(path: Path, text: str, count: int) -> list[tuple[str, str]]:
    """Where each of *count* ``[[keys]]`` entries is, for messages: ``(FILE:LINE of the entry,
    FILE:LINE of its from_seq)``; ``FILE`` alone when the file does not write them as ``[[keys]]``."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if _KEYS_HEADER.match(line)]
    if len(starts) != count:
        return [(str(path), str(path))] * count
    places = []
    for start, end in zip(starts, [*starts[1:], len(lines)][:len(starts)], strict=True):
        seq_line = next((i for i in range(start, end) if _FROM_SEQ.match(lines[i])), start)
        places.append((f"{path}:{start + 1}", f"{path}:{seq_line + 1}"))
    return places


def _one_key_per_seq(table: str, enrolled: list[Enrolment], places: list[tuple[str, str]]) -> None:
    """Refuse two enrolments of *table* from the same seq: which key signs there would be a guess."""
    first: dict[int, int] = {}
    for n, e in enumerate(enrolled):
        if e.from_seq in first:
            other = first[e.from_seq]
            raise KeyringError(f"{places[n][1]}: table {table}: key {e.key_id} is enrolled from seq {e.from_seq}, as "
                               f"key {enrolled[other].key_id} is ({places[other][1]}): one key per seq; remove one")
        first[e.from_seq] = n


def _entry(place: str, n: int, table: str, entry: object) -> Enrolment:
    where = f"{place}: keys[{n}]"
    if not isinstance(entry, dict):
        raise KeyringError(f"{where}: not a table")
    unknown = sorted(set(entry) - _ENTRY_FIELDS)
    if unknown:
        raise KeyringError(f"{where}.{unknown[0]}: not a field of a key (one of {', '.join(sorted(_ENTRY_FIELDS))})")
    public = entry.get("public")
    try:
        raw = bytes.fromhex(public) if isinstance(public, str) else b""
        if len(raw) != 32:
            raise ValueError
        key = Ed25519PublicKey.from_public_bytes(raw)
    except ValueError:
        raise KeyringError(f"{where}.public: not 64 hex characters of an Ed25519 public key") from None
    if entry.get("id") is not None and entry.get("id") != key_id(key):
        raise KeyringError(f"{where}.id: {entry.get('id')!r} is not the id of its public key ({key_id(key)})")
    from_seq, until_seq = entry.get("from_seq", 1), entry.get("until_seq")
    if type(from_seq) is not int or not 1 <= from_seq <= MAX_SEQ:
        raise KeyringError(f"{where}.from_seq: a seq, 1 to {MAX_SEQ}")
    if until_seq is not None and (type(until_seq) is not int or not from_seq <= until_seq <= MAX_SEQ):
        raise KeyringError(f"{where}.until_seq: a seq, from_seq to {MAX_SEQ}")
    return Enrolment(table, key, from_seq, until_seq, str(entry.get("added", "")), str(entry.get("note", "")))


def trust(directory: Path, table: str) -> Trust | None:
    """The keyring's trust for *table*, or None if it holds no key of the table."""
    enrolled = load(directory, table)
    if not enrolled:
        return None
    spans = effective_spans([KeySpan(e.key, e.from_seq, e.until_seq) for e in enrolled])
    return Trust(spans=spans, table=table, source=f"the keyring {directory}")


def trust_for(table: str | None, key_paths: Sequence[Path], log_paths: Sequence[Path], directory: Path) -> Trust | None:
    """What a review, anchor or export of *table*'s log trusts: the keys named by hand (each
    marked when it lies beside the log, as given or where it leads: ``Trust.beside``,
    ``tablectl.eventlog.keyplace``), else the keyring's keys of the table (marked so when the
    table's keyring file lies beside the log: whoever writes there writes the keyring too); None
    when there are neither. Raises :class:`KeyringError` or ``KeyFileError``."""
    if key_paths:
        given = tuple(load_public_key(p) for p in key_paths)
        beside = tuple(str(p) for p in key_paths if beside_log(Path(p), log_paths))
        return Trust(given=given, source="--key", beside=beside)
    if table is None:
        return None
    found = trust(directory, table)
    path = table_file(directory, table)
    if found is not None and beside_log(path, log_paths):
        return replace(found, beside=(str(path),))
    return found


def tables(directory: Path) -> dict[str, list[Enrolment]]:
    """Every table the keyring holds, with its keys."""
    directory = Path(directory)
    if not directory.is_dir():
        return {}
    _check_mode(directory, "folder")
    out = {}
    for path in sorted(directory.glob(f"*{SUFFIX}")):
        out[path.name[: -len(SUFFIX)]] = load(directory, path.name[: -len(SUFFIX)])
    return out


def enrol(directory: Path, table: str, key: Ed25519PublicKey, *, from_seq: int = 1, until_seq: int | None = None,
          note: str = "") -> tuple[Enrolment, bool]:
    """Enrol *key* for *table* from *from_seq*; ``(enrolment, added)``: ``added`` False when the key
    is already enrolled from that seq (nothing written). Refuses a second key from the same seq."""
    if not note.isprintable():
        raise KeyringError(f"note {note!r}: control characters are not allowed")
    check_seq("from seq", from_seq)
    if until_seq is not None:
        check_seq("until seq", until_seq)
    if until_seq is not None and until_seq < from_seq:
        raise KeyringError(f"key {key_id(key)}: from seq {from_seq} to {until_seq} is not a span of seqs")
    with _locked(directory):
        enrolled = load(directory, table)
        for e in enrolled:
            if e.key_id == key_id(key) and e.from_seq == from_seq:
                return e, False
            if e.from_seq == from_seq:
                raise KeyringError(f"{table_file(directory, table)}: key {e.key_id} is already enrolled from seq "
                                   f"{from_seq}; enrol the new key from the seq it takes over at")
        new = Enrolment(table, key, from_seq, until_seq, _now(), note)
        _write(directory, table, [*enrolled, new])
        return new, True


def remove(directory: Path, table: str, kid: str, from_seq: int) -> None:
    """Take key *kid*'s enrolment from *from_seq* out of *table*'s keys."""
    with _locked(directory):
        enrolled = load(directory, table)
        _write(directory, table, [e for e in enrolled if (e.key_id, e.from_seq) != (kid, from_seq)])


def retire(directory: Path, table: str, kid: str, until_seq: int) -> Enrolment:
    """End the span of key *kid* of *table* at *until_seq*."""
    check_seq("seq", until_seq)
    with _locked(directory):
        enrolled = load(directory, table)
        hit = [e for e in enrolled if e.key_id == kid]
        if not hit:
            raise KeyringError(f"{table_file(directory, table)}: no key {kid} enrolled for table {table}")
        last = max(hit, key=lambda e: e.from_seq)
        if until_seq < last.from_seq:
            raise KeyringError(f"key {kid}: enrolled from seq {last.from_seq}; it cannot end at seq {until_seq}")
        done = Enrolment(table, last.key, last.from_seq, until_seq, last.added, last.note)
        _write(directory, table, [done if e is last else e for e in enrolled])
        return done


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _quote(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text)


def _render(table: str, enrolled: list[Enrolment]) -> bytes:
    lines = [f"# tablectl keyring: the keys that may sign table {table}'s log", f"table = {_quote(table)}"]
    for e in enrolled:
        lines += ["", "[[keys]]", f"id = {_quote(e.key_id)}", f"public = {_quote(public_bytes(e.key).hex())}",
                  f"from_seq = {e.from_seq}"]
        if e.until_seq is not None:
            lines.append(f"until_seq = {e.until_seq}")
        lines += [f"added = {_quote(e.added)}", f"note = {_quote(e.note)}"]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _write(directory: Path, table: str, enrolled: list[Enrolment]) -> None:
    path = table_file(directory, table)
    try:
        atomic_write(path, _render(table, enrolled), FILE_MODE, what="keyring file")
    except OSError as e:
        raise KeyringError(f"{path}: cannot write the keyring: {e.strerror or e}") from None


class _locked:
    """The keyring's lock (``.lock`` in its folder), held while a table's file is rewritten."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.fd = -1

    def __enter__(self) -> None:
        try:
            private_mkdir(self.directory, DIR_MODE)
            self.fd = open_lock(self.directory / ".lock", FILE_MODE, "keyring lock")
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        except OSError as e:
            raise KeyringError(f"{e.filename or self.directory}: cannot use the keyring: {e.strerror or e}") from None

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)
