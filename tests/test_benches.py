"""Every bench under bench/ runs, at its smallest size, so none rots: each in a subprocess as a user
runs it, its exit code checked (no timing asserted). The Texas Hold'em Bonus analysis has no small
size (the full board walk is the bench): it runs with the slow tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"

#: bench file -> its smallest-size arguments (one run each)
SMOKE: dict[str, list[list[str]]] = {
    "bench_advantage.py": [["--cards", "12", "--repeat", "1"]],
    "bench_collect.py": [["--tables", "2", "--lines", "400", "--repeat", "1"]],
    "bench_dataset_check.py": [["--per-game", "1", "--days", "1", "--rounds", "3", "--repeat", "1"]],
    "bench_controller.py": [
        ["cost", "--cards", "60", "--games", "ocp", "--fsync", "off", "--append-lines", "500", "--settle-rounds", "50"],
        ["stack", "--cards", "60", "--games", "ocp", "--fsync", "off"],
        ["proc", "--cards", "60", "--games", "ocp", "--fsync", "off"],
        ["device", "--device-cards", "200"],
    ],
    "bench_decisions.py": [["--decisions", "20"]],
    "bench_detection.py": [["--games", "one-for-the-money", "--pool", "10", "--honest", "2", "--cheats", "2", "--rounds", "50"]],
    "bench_export.py": [["--sizes", "3000", "--repeat", "1"]],
    "bench_export_games.py": [["--rounds", "5", "--repeat", "1", "--games", "oftm", "--base", "HEAD"]],
    "bench_flood.py": [["--events", "300"]],
    "bench_floorgen.py": [["--rounds", "2", "--workers", "2", "--repeat", "1"]],
    "bench_framer.py": [["200"]],
    "bench_judging.py": [["--lines", "2000", "--repeat", "1"]],
    "bench_latency.py": [["30", "0.0", "--repeat", "1"]],
    "bench_log.py": [["--events", "200", "--fsync-events", "128", "--repeat", "1"]],
    "bench_math.py": [["--quick"]],
    "bench_shuffle_quality.py": [["--timing-shuffles", "20", "--timing-rounds", "20"]],
    "bench_sightings.py": [["--rounds", "5", "--repeat", "1"]],
    "bench_sim_memory.py": [["--seconds", "0.5"]],
    "bench_thb_hole_card.py": [["--cards", "14", "--units", "2"]],
    "bench_thb_sightings.py": [["--rounds", "3", "--decisions", "1", "--repeat", "1"]],
    "bench_theo_var.py": [["--rounds", "5", "--repeat", "1"]],
    "bench_startup.py": [["--runs", "1", "--config", "config/tables/one-card-poker.toml"]],
    "soak.py": [["--rounds", "5"]],
}
SLOW = {"bench_thb_math.py": [["--repeat", "1"]]}


def run_bench(name: str, args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, str(BENCH / name), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, (name, args, proc.stderr[-2000:])
    return proc


def test_every_bench_has_a_smoke_run() -> None:
    benches = {p.name for p in BENCH.glob("*.py")}
    assert benches == set(SMOKE) | set(SLOW) | {"bench_review.py", "bench_review_split.py"}


@pytest.mark.parametrize(("name", "args"), [(n, a) for n, runs in SMOKE.items() for a in runs],
                         ids=[f"{n}:{a[0]}" for n, runs in SMOKE.items() for a in runs])
def test_the_bench_runs_at_its_smallest_size(name: str, args: list[str], tmp_path: Path) -> None:
    run_bench(name, args, tmp_path)


def test_bench_review_and_its_split_run_on_a_small_kept_log(tmp_path: Path) -> None:
    run_bench("bench_review.py", ["--sizes", "1000", "--repeat", "1", "--dir", str(tmp_path), "--keep"], tmp_path)
    run_bench("bench_review_split.py", ["--dir", str(tmp_path / "1000"), "--repeat", "1"], tmp_path)


def test_bench_review_judges_a_small_three_card_poker_log(tmp_path: Path) -> None:
    proc = run_bench("bench_review.py", ["--game", "three-card-poker", "--sizes", "2000", "--repeat", "1", "--no-rss",
                                         "--dir", str(tmp_path)], tmp_path)
    assert "judged / review" in proc.stdout


@pytest.mark.slow
@pytest.mark.parametrize(("name", "args"), [(n, a) for n, runs in SLOW.items() for a in runs])
def test_the_slow_bench_runs(name: str, args: list[str], tmp_path: Path) -> None:
    run_bench(name, args, tmp_path)
