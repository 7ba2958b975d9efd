"""``tablectl anchor`` runs at once on one anchor file, as real processes: each links its line to a
line of its own (the appends take turns under a lock on the anchor file), so the file's lines
still link and every table's head is in it once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from anchorhelpers import write_log

from tablectl.eventlog import save_keypair
from tablectl.eventlog.anchor import read_anchors

TABLES = ("T1", "T2", "T3", "T4")


def test_four_anchor_runs_at_once_each_link_to_a_distinct_line(tmp_path: Path, key: Ed25519PrivateKey) -> None:
    pub = save_keypair(tmp_path / "keys", key).public
    logs = {table: write_log(tmp_path / table, table, key, lines=20_000) for table in TABLES}
    anchor = tmp_path / "anchors" / "floor.jsonl"
    anchor.parent.mkdir()
    runs = [subprocess.Popen([sys.executable, "-m", "tablectl", "anchor", str(log), "--key", str(pub), "--anchor", str(anchor)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for log in logs.values()]
    for run in runs:
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
    anchors = read_anchors(anchor)
    assert anchors.broken is None, anchors.broken
    assert sorted(a.table for a in anchors) == sorted(TABLES)
    lines = anchor.read_bytes().splitlines()
    assert len({line.split(b'"prev":')[1] for line in lines}) == len(TABLES)  # no two link to the same line
