"""Which keys may sign a table's log, and over which lines: the trust a verifier starts from.

A public key lying beside the log it vouches for proves nothing: whoever can rewrite the log can
re-sign it with a key of their own and put that key in its place. So the verifier starts from
keys kept apart from the logs, bound to table ids (the keyring, ``tablectl.eventlog.keyring``),
or from keys a reviewer names by hand, and the log itself can only hand trust on, inside what
those allow:

- A key is valid for a span of seqs. In the keyring each key is enrolled from a seq (1 for a
  table's first key) until the seq before the next key enrolled for the table, or until the
  ``until_seq`` a person set, whichever comes first.
- A key is replaced in the log by a checkpoint signed with the key it replaces that names its
  successor (``"next_key": "<64 hex raw public key>"``, reason ``key_rotation``). From the next
  line on only the successor may sign; the replaced key is retired for good.
- The keyring decides where a hand-over may lead. Where it enrols another key from the seq after
  the hand-over, the successor must be that key; where it enrols one later (it names the
  successor), the hand-over is early. Either way the hand-over is an integrity failure
  (``bad_handover``). Where it names no successor, the key introduced inherits the rest of the
  span of the enrolled key it descends from, and signs nothing past its end (``retired_key``).
- Keys named by hand (``--key``) carry no span: the first checkpoint may be signed by any of them,
  and after that only by the key in force, until the log rotates it. Two or more keys given name
  the successors: a hand-over to a key not among them is a ``bad_handover``.

:class:`KeySchedule` applies these rules checkpoint by checkpoint (pure logic, no I/O): a checkpoint
signed by a retired key, by a key before or after its span, or by a key that took over without
being introduced, and a hand-over the trust does not allow, are integrity failures, whatever keys
were passed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from .keys import key_id, public_bytes

#: checkpoint reason of a key rotation; its ``next_key`` names the successor
KEY_ROTATION = "key_rotation"
#: finding kinds (integrity failures)
WRONG_KEY = "wrong_key"  # a key neither trusted nor introduced
RETIRED_KEY = "retired_key"  # a trusted key outside its span, or after it was rotated out
UNANNOUNCED_KEY = "unannounced_key"  # a trusted key that took over without an introduction
BAD_HANDOVER = "bad_handover"  # a key_rotation to a key other than the successor the trust names


@dataclass(frozen=True)
class KeySpan:
    """A key trusted to sign the lines ``from_seq`` .. ``until_seq`` (None: no end) of a table's log."""

    key: Ed25519PublicKey
    from_seq: int = 1
    until_seq: int | None = None

    @property
    def key_id(self) -> str:
        return key_id(self.key)

    def covers(self, seq: int) -> bool:
        return self.from_seq <= seq and (self.until_seq is None or seq <= self.until_seq)

    def describe(self) -> str:
        return f"seq {self.from_seq} on" if self.until_seq is None else f"seq {self.from_seq}..{self.until_seq}"


@dataclass(frozen=True)
class Trust:
    """The keys a verification starts from.

    ``spans`` (from the keyring) bind keys to seq spans of one table's log (``table``);
    ``given`` are keys named by hand, valid as the log's first key or as introduced by it;
    ``beside`` names key files that lie in a folder being verified (never trusted: see the module
    docstring); ``source`` says where the keys came from, for messages."""

    given: tuple[Ed25519PublicKey, ...] = ()
    spans: tuple[KeySpan, ...] = ()
    table: str | None = None
    source: str = "--key"
    beside: tuple[str, ...] = ()

    @classmethod
    def of(cls, keys: Ed25519PublicKey | Iterable[Ed25519PublicKey] | Trust | None) -> Trust | None:
        """*keys* as a :class:`Trust`: keys given by hand, or None for none."""
        if keys is None or isinstance(keys, Trust):
            return keys
        if isinstance(keys, Ed25519PublicKey):
            keys = (keys,)
        keys = tuple(keys)
        return cls(given=keys) if keys else None

    @property
    def key_ids(self) -> list[str]:
        return sorted({key_id(k) for k in self.given} | {s.key_id for s in self.spans})

    def keys(self) -> dict[str, Ed25519PublicKey]:
        """Every trusted key by id."""
        out = {key_id(k): k for k in self.given}
        out.update((s.key_id, s.key) for s in self.spans)
        return out


@dataclass(frozen=True)
class Refusal:
    """Why a checkpoint's key may not sign it: a finding kind and its message."""

    kind: str
    message: str


class KeySchedule:
    """The key in force line by line: trust from a :class:`Trust`, handed on by the log's own
    rotations inside what the trust allows. :meth:`key_for` says whether a key may sign a
    checkpoint; :meth:`accept` records a checkpoint whose signature verified, and says why a
    hand-over it makes is not allowed."""

    def __init__(self, trust: Trust) -> None:
        self.trust = trust
        self._given = {key_id(k): k for k in trust.given}
        self._spans: dict[str, list[KeySpan]] = {}
        for span in trust.spans:
            self._spans.setdefault(span.key_id, []).append(span)
        self.current: str | None = None  # the key of the last accepted checkpoint
        self._introduced: dict[str, tuple[Ed25519PublicKey, int, str]] = {}  # id -> (key, from seq, by)
        self._retired: dict[str, tuple[int, str]] = {}  # id -> (last seq it signed, successor)

    def _table(self) -> str:
        return f"table {self.trust.table}" if self.trust.table else "the table"

    def key_for(self, kid: str, seq: int) -> Ed25519PublicKey | Refusal:
        """The key to check a checkpoint at *seq* signed by key *kid* with, or why it may not sign.
        The keyring's spans come before anything the log introduced: the keyring decides."""
        retired = self._retired.get(kid)
        if retired is not None and seq > retired[0]:
            return Refusal(RETIRED_KEY, f"checkpoint signed by key {kid}, retired at seq {retired[0]} when it "
                                        f"introduced key {retired[1]}: a retired key signs nothing after its successor")
        spans = self._spans.get(kid)
        if spans is not None:
            for span in spans:
                if span.covers(seq):
                    return span.key
            where = ", ".join(s.describe() for s in spans)
            return Refusal(RETIRED_KEY, f"checkpoint at seq {seq} signed by key {kid}, which {self.trust.source} "
                                        f"trusts for {self._table()} only at {where}")
        introduced = self._introduced.get(kid)
        if introduced is not None and seq >= introduced[1]:
            root, handed_at = self._lineage(kid)
            until = self._span_end(root, handed_at) if root is not None else None
            if until is None or seq <= until:
                return introduced[0]
            return Refusal(RETIRED_KEY, f"checkpoint at seq {seq} signed by key {kid}, introduced by key "
                                        f"{introduced[2]} at seq {introduced[1] - 1}: a key the log introduces signs "
                                        f"only inside the span of the key it descends from, and {self.trust.source} "
                                        f"ends key {root}'s span for {self._table()} at seq {until}")
        key = self._given.get(kid)
        if key is not None:
            if self.current is None or self.current == kid:
                return key
            return Refusal(UNANNOUNCED_KEY, f"checkpoint signed by key {kid}, which takes over from key {self.current} "
                                            f"without a key_rotation checkpoint signed by {self.current}")
        known = ", ".join(self.trust.key_ids) or "none"
        table = f" for table {self.trust.table}" if self.trust.table else ""
        return Refusal(WRONG_KEY, f"checkpoint signed by key {kid}, not a key {self.trust.source} trusts{table} "
                                  f"({known}) nor one the log introduced")

    def accept(self, kid: str, seq: int, next_key: Ed25519PublicKey | None) -> Refusal | None:
        """A checkpoint at *seq* signed by *kid* verified; *next_key*: the successor it introduces.
        Returns why the trust does not allow that hand-over (``bad_handover``; the successor is then
        not introduced), else None. Either way *kid* signs nothing after *seq*."""
        self.current = kid
        if next_key is None:
            return None
        nid = key_id(next_key)
        if nid == kid:
            return None
        refusal = self._handover(kid, seq, nid)
        self._retired[kid] = (seq, nid)
        if refusal is None:
            self._introduced[nid] = (next_key, seq + 1, kid)
        return refusal

    def _handover(self, kid: str, seq: int, nid: str) -> Refusal | None:
        """Why *kid*'s hand-over to *nid* at *seq* is not allowed, or None."""
        what = f"key_rotation at seq {seq}: key {kid} hands over to key {nid}"
        if self.trust.spans:
            return self._keyring_handover(kid, seq, nid, what)
        if len(self._given) > 1 and nid not in self._given:
            return Refusal(BAD_HANDOVER, f"{what}, none of the keys given ({self.trust.source} "
                                         f"{', '.join(sorted(self._given))}): with several keys given, the log hands "
                                         "over only to one of them")
        return None

    def _keyring_handover(self, kid: str, seq: int, nid: str, what: str) -> Refusal | None:
        """The keyring's word on a hand-over: to the key it enrols from the next seq, if another;
        not before the seq it enrols the successor from; to anyone where it names no successor."""
        root, _ = self._lineage(kid)
        others = [s for s in self.trust.spans if s.key_id not in (kid, root)]
        take_over = seq + 1
        in_force = next((s for s in others if s.covers(take_over)), None)
        if in_force is not None:
            if in_force.key_id == nid:
                return None
            return Refusal(BAD_HANDOVER, f"{what}, but {self.trust.source} enrols key {in_force.key_id} for "
                                         f"{self._table()} from seq {in_force.from_seq}")
        later = min((s for s in others if s.from_seq > take_over), key=lambda s: s.from_seq, default=None)
        if later is None:
            return None
        if later.key_id == nid:
            return Refusal(BAD_HANDOVER, f"{what} from seq {take_over}, but {self.trust.source} enrols it for "
                                         f"{self._table()} only from seq {later.from_seq}")
        return Refusal(BAD_HANDOVER, f"{what}, but {self.trust.source} names key {later.key_id} as the successor "
                                     f"for {self._table()}, from seq {later.from_seq}")

    def _lineage(self, kid: str) -> tuple[str | None, int]:
        """The enrolled key *kid*'s trust descends from through the log's hand-overs, and the seq of
        its hand-over on that line; ``(None, 0)`` when it descends from a key given by hand."""
        seen = set()
        handed_at = 0
        while kid not in self._spans:
            introduced = self._introduced.get(kid)
            if introduced is None or kid in seen:
                return None, 0
            seen.add(kid)
            handed_at, kid = introduced[1] - 1, introduced[2]
        return kid, handed_at

    def _span_end(self, root: str, seq: int) -> int | None:
        """The last seq of enrolled key *root*'s span that holds *seq* (None: no end)."""
        span = next((s for s in self._spans[root] if s.covers(seq)), None)
        return span.until_seq if span is not None else seq

    def state(self) -> dict[str, Any]:
        """What the checkpoints so far changed, as plain values (:meth:`restore` takes them back):
        the key in force, the keys introduced (raw public key hex, from seq, by) and retired."""
        return {
            "current": self.current,
            "introduced": {k: [public_bytes(v[0]).hex(), v[1], v[2]] for k, v in sorted(self._introduced.items())},
            "retired": {k: [v[0], v[1]] for k, v in sorted(self._retired.items())},
        }

    def restore(self, state: dict[str, Any]) -> None:
        """Go on from :meth:`state`'s values (checked: ``ValueError`` for anything else)."""
        current, introduced, retired = state["current"], state["introduced"], state["retired"]
        if not (current is None or isinstance(current, str)) or not isinstance(introduced, dict) \
                or not isinstance(retired, dict):
            raise ValueError("key state: current, introduced or retired of the wrong type")
        self.current = current
        self._introduced = {}
        for kid, (raw, from_seq, by) in introduced.items():
            if not (isinstance(raw, str) and isinstance(from_seq, int) and isinstance(by, str)):
                raise ValueError(f"key state: introduced key {kid!r} malformed")
            key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(raw))
            if key_id(key) != kid:
                raise ValueError(f"key state: introduced key {kid!r} is not the key it names")
            self._introduced[kid] = (key, from_seq, by)
        self._retired = {}
        for kid, (seq, successor) in retired.items():
            if not (isinstance(seq, int) and isinstance(successor, str)):
                raise ValueError(f"key state: retired key {kid!r} malformed")
            self._retired[kid] = (seq, successor)


def effective_spans(enrolled: Sequence[KeySpan]) -> tuple[KeySpan, ...]:
    """Spans as enrolled, each ended by the next key enrolled after it, or by its own ``until_seq``,
    whichever comes first: no two keys' spans share a seq."""
    ordered = sorted(enrolled, key=lambda s: s.from_seq)
    out = []
    for i, span in enumerate(ordered):
        until = span.until_seq
        later = [s.from_seq for s in ordered[i + 1 :] if s.from_seq > span.from_seq and s.key_id != span.key_id]
        if later and (until is None or until >= later[0]):
            until = later[0] - 1
        out.append(KeySpan(span.key, span.from_seq, until))
    return tuple(out)
