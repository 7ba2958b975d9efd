"""``tablectl review`` holds one round at a time: its peak memory does not grow with the log's
length. Two logs of 25,000 and 200,000 lines, played through the real table logic as
``bench/bench_review.py`` does, each reviewed by the command in a process of its own (the longer
one verified in a forked worker, as every log of 8 MiB or more)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from bench_review import generate  # noqa: E402


def _peak_rss_kib(args: list[str]) -> int:
    probe = ("import resource, subprocess, sys; "
             "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=False); "
             "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, check=True)
    code, rss = out.stdout.split()
    assert code in ("0", "1")  # verified (an anomaly at most: the round the log may end in)
    return int(rss)


@pytest.mark.parametrize("flags", [[], ["--json"]], ids=["text", "json"])
def test_the_peak_memory_of_a_review_eight_times_as_long_is_within_a_tenth(
        tmp_path_factory: pytest.TempPathFactory, flags: list[str]) -> None:
    peaks = []
    for lines in (25_000, 200_000):
        d = tmp_path_factory.getbasetemp() / f"memory-{lines}"
        if not (d / "log").exists():
            d.mkdir(parents=True, exist_ok=True)
            generate(d, lines)
        peaks.append(_peak_rss_kib([sys.executable, "-m", "tablectl", "review", str(d / "log"),
                                    "--key", str(d / "keys" / "table.pub"), *flags]))
    assert peaks[1] <= 1.10 * peaks[0], f"peak RSS {peaks[0]} KiB at 25,000 lines, {peaks[1]} KiB at 200,000"
