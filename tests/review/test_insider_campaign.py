"""The insider campaign (``-m slow``): what someone with write access to the table computer's files
but no private key can do beside the log — re-sign it with a key of their own and leave that key
beside it, sign with a retired or unannounced key, roll an anchor file back, rename one table's
files as another's, run two exports at once, leave a stray empty file — done many times over real
logs of three tables. Every forgery must be caught (integrity failure, exit 3) or flagged (exit 1);
none clean, none a traceback. The two that are not forgeries (two exports at once, an empty file)
must leave a dataset with every row once and a table that still exports. Prints the table of
counts (class x outcome) that docs/review.md quotes.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from forgery import LogCopy, copy_log

from tablectl.eventlog import EventLog, generate_key, keyring, load_private_key
from tablectl.eventlog import anchor as anc
from tablectl.eventlog.trust import Trust
from tablectl.review.engine import review

PER_CLASS = 20
PER_SCENARIO = 4  # the classes that run exports in subprocesses


@dataclass(frozen=True)
class Table:
    log: Path
    key: Ed25519PrivateKey
    keyring: Path
    anchor: Path
    name: str


def tablectl(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tablectl", *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory, write_config, run_table) -> list[Table]:  # type: ignore[no-untyped-def]
    """Three real tables, two sessions each, anchored after each session, keys in a keyring."""
    out = []
    for name in ("one-card-poker.toml", "one-for-the-money-csm.toml", "three-card-poker.toml"):
        tmp = tmp_path_factory.mktemp(name.split(".")[0])
        config, public = write_config(tmp, name)
        key = load_private_key(public.with_suffix(".key"))
        ring, anchor = tmp / "keyring", tmp / "anchors.jsonl"
        for seed in (8, 9):
            run_table(config, tmp / "log", 15, seed=seed)
            table = LogCopy.read(tmp / "log").record(0, 0)["table"]
            keyring.enrol(ring, table, key.public_key())
            done = subprocess.run([sys.executable, "-m", "tablectl", "anchor", str(tmp / "log"), "--keyring", str(ring),
                                   "--anchor", str(anchor)], capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr
        out.append(Table(tmp / "log", key, ring, anchor, table))
    return out


def outcome(directory: Path, trust: Trust | None, anchor: Path | None = None) -> str:
    try:
        report = review([directory], trust or (), anchors=anc.read_anchors(anchor) if anchor else None)
    except Exception as e:  # noqa: BLE001 - what the campaign counts
        return f"traceback {type(e).__name__}"
    if not report.ok:
        return "caught (3)"
    return "flagged (1)" if report.anomalies else "clean (0)"


def _session(directory: Path, table: str, key: Ed25519PrivateKey, rng: random.Random,
             previous: Ed25519PrivateKey | None = None) -> None:
    """A short session appended to the log copy in *directory*, signed by *key*."""
    with EventLog(directory, table, signing_key=key, previous_key=previous, checkpoint_every=0) as log:
        for n in range(rng.randrange(1, 6)):
            log.append("alarm", kind=f"appended_{n}")


def rekeyed(t: Table, target: Path, rng: random.Random) -> list[str]:
    """Lines dropped and renumbered, every checkpoint re-signed with a fresh key whose public half
    is written beside the log; reviewed against the keyring and with that key."""
    log = LogCopy.read(t.log)
    fi = rng.randrange(len(log.files))
    if len(log.files[fi]) > 4:
        cut = rng.randrange(1, len(log.files[fi]) - 2)
        del log.files[fi][cut : cut + rng.randrange(1, 3)]
    log.renumber()
    fresh = generate_key()
    log.rekey(fresh)
    log.write(target)
    beside = target / "session.pub"
    beside.write_bytes(fresh.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    return [outcome(target, keyring.trust(t.keyring, t.name), t.anchor),
            outcome(target, keyring.trust_for(t.name, [beside], [target], t.keyring))]


def retired(t: Table, target: Path, rng: random.Random) -> list[str]:
    """The key handed over to a new one in the log, then a session signed by the old key."""
    copy_log(t.log, target)
    new = generate_key()
    _session(target, t.name, new, rng, previous=t.key)
    _session(target, t.name, t.key, rng)
    return [outcome(target, keyring.trust(t.keyring, t.name)),
            outcome(target, Trust(given=(t.key.public_key(), new.public_key())))]


def unannounced(t: Table, target: Path, rng: random.Random) -> list[str]:
    """A session signed by another key with no hand-over, reviewed with both keys given."""
    copy_log(t.log, target)
    other = generate_key()
    _session(target, t.name, other, rng)
    return [outcome(target, keyring.trust(t.keyring, t.name)),
            outcome(target, Trust(given=(t.key.public_key(), other.public_key())))]


def anchor_rolled_back(t: Table, target: Path, rng: random.Random) -> list[str]:
    """The last session's files deleted, and the anchor file's first line appended again."""
    log = LogCopy.read(t.log)
    first = [n for n, lines in enumerate(log.files) if any(b'"event":"table_started"' in line for line in lines)]
    keep = first[-1] if len(first) > 1 else len(log.files) - 1
    log.files, log.names = log.files[:keep], log.names[:keep]
    log.write(target)
    anchor = target.parent / f"{target.name}-anchors.jsonl"
    data = t.anchor.read_bytes()
    lines = data.splitlines(keepends=True)
    anchor.write_bytes(data + lines[rng.randrange(len(lines) - 1)])
    return [outcome(target, keyring.trust(t.keyring, t.name), anchor)]


def renamed(t: Table, target: Path, rng: random.Random) -> list[str]:
    """The log's files renamed as another table's, reviewed with that table's keys and with its own."""
    other = rng.choice(["ocp-2", "tcp-9", "x"])
    target.mkdir()
    for path in t.log.glob(f"tablectl-{t.name}-*.jsonl"):
        shutil.copy(path, target / path.name.replace(f"tablectl-{t.name}-", f"tablectl-{other}-"))
    ring = target.parent / f"{target.name}-keyring"
    keyring.enrol(ring, other, t.key.public_key())
    return [outcome(target, keyring.trust(ring, other)), outcome(target, keyring.trust(t.keyring, t.name))]


CLASSES: dict[str, Callable[[Table, Path, random.Random], list[str]]] = {
    "re-keyed, key beside": rekeyed,
    "retired key": retired,
    "unannounced key": unannounced,
    "anchor re-appended": anchor_rolled_back,
    "files renamed": renamed,
}


@pytest.mark.slow
def test_every_insider_forgery_is_caught_or_flagged(tables: list[Table], tmp_path: Path) -> None:
    rng = random.Random(22)
    counts: dict[str, Counter[str]] = {}
    for name, forge in CLASSES.items():
        counts[name] = Counter()
        for n in range(PER_CLASS):
            target = tmp_path / f"{forge.__name__}{n}"
            counts[name].update(forge(tables[n % len(tables)], target, rng))
    width = max(map(len, counts))
    print(f"\n{'class':{width}}  outcomes (each copy reviewed with every trust a reviewer could use)")
    for name, c in counts.items():
        print(f"{name:{width}}  {dict(c)}")
    assert {k for c in counts.values() for k in c} <= {"caught (3)", "flagged (1)"}, counts


def _rows(dataset: Path) -> tuple[int, int]:
    con = duckdb.connect()
    total, distinct = con.execute(
        f"SELECT count(*), count(DISTINCT start_seq) FROM read_parquet('{dataset}/rounds/*/*/*.parquet')"
    ).fetchone()
    return total, distinct


@pytest.mark.slow
def test_exports_at_once_and_a_stray_empty_file_leave_every_row_once(tables: list[Table], tmp_path: Path) -> None:
    table = tables[0]
    env = {**os.environ, "TABLECTL_KEYRING": str(table.keyring)}
    results: Counter[str] = Counter()
    for n in range(PER_SCENARIO):
        dataset = tmp_path / f"at-once{n}"
        runs = [tablectl("export", table.log, "--to", dataset, env=env) for _ in range(2)]
        codes = [p.wait(timeout=300) for p in runs]
        total, distinct = _rows(dataset)
        results[f"two exports at once: exits {sorted(codes)}, rows {'each once' if total == distinct else 'twice'}"] += 1
    for n in range(PER_SCENARIO):
        logs, dataset = tmp_path / f"empty{n}", tmp_path / f"empty-ds{n}"
        copy_log(table.log, logs)
        numbers = sorted(int(p.stem.rsplit("-", 1)[1]) for p in logs.glob("*.jsonl"))
        (logs / f"tablectl-{table.name}-{numbers[-1] + 1:06d}.jsonl").touch()
        first = tablectl("export", logs, "--to", dataset, env=env).wait(timeout=300)
        _session(logs, table.name, table.key, random.Random(n))
        again = tablectl("export", logs, "--to", dataset, env=env).wait(timeout=300)
        results[f"stray empty file: exports exit {first} then {again}"] += 1
    print("\n" + "\n".join(f"{k}: {v}" for k, v in results.items()))
    assert all(k.endswith("each once") or k.endswith("exit 0 then 0") for k in results), results
