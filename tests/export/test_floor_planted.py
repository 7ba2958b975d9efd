"""A floor at scale (slow): an honest floor of 15 tables (every game, both bankings, three days,
20,250 rounds) played by optimal players flags no table, player bank, dealer, day, rules, shuffler or seat; the
same floor with four planted tables — a pay table raised, a pay table changed between two shifts of one
day, a house rule the game math does not model, a weak continuous shuffler replacing a good one —
adds a flag for each plant, by name, and nothing else; and every reader opens every dataset of both floors and of an almost empty one with
the same counts and a text table id.

Run by hand: ``pytest -n 0 -m slow tests/export/test_floor_planted.py -s`` (prints the rounds, the
times of playing, export and report, and each flag's z or p)."""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pytest
from exporthelpers import run_tablectl
from floorgen import (
    CHANGED,
    GOOD_SERIAL,
    PLANTS,
    RAISED,
    UNMODELLED,
    WEAK_SERIAL,
    Floor,
    floor_shifts,
    new_floor,
    planted_shifts,
    play_shifts,
)
from readers import RECIPES, TEXT_TYPES, faults_only_dataset, spark_recipe, spark_session, tablectl_counts

from tablectl.analytics.dataset.schemas import DATASETS

pytestmark = pytest.mark.slow

PER_GAME, DAYS, ROUNDS, SEED = 3, 3, 450, 12  # 15 honest tables x 3 days x 450 rounds
WORKERS = 4  # tables played at once (each table's process mostly waits on its devices' serial lines)
GAMES = {"one-card-poker", "three-card-poker", "three-card-poker-florida", "one-for-the-money", "texas-holdem-bonus"}


@dataclass
class Reported:
    """An exported floor and its ``tablectl floor --json``."""

    dataset: Path
    code: int
    report: dict[str, Any]
    export_s: float
    floor_s: float


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Floor:
    """The honest floor and the planted tables, played together (the logs of each apart)."""
    floor = new_floor(tmp_path_factory.mktemp("bigfloor"))
    shifts = (floor_shifts(floor, per_game=PER_GAME, days=DAYS, rounds=ROUNDS, seed=SEED, plants=False)
              + planted_shifts(floor, days=DAYS, rounds=ROUNDS, seed=SEED))
    t0 = time.perf_counter()
    play_shifts(floor, shifts, workers=WORKERS)
    print(f"\nplayed {len(floor.logs)} tables, {floor.rounds:,} rounds ({len(shifts)} shifts) in "
          f"{time.perf_counter() - t0:.0f} s with {WORKERS} processes")
    return floor


def _honest_logs(floor: Floor) -> list[Path]:
    return [log for name, log in floor.logs.items() if name not in PLANTS]


def _export_and_report(dataset: Path, logs: list[Path], floor: Floor, what: str) -> Reported:
    t0 = time.perf_counter()
    done = run_tablectl("export", *logs, "--to", dataset, "--key", floor.public_key, timeout=3600)
    export_s = time.perf_counter() - t0
    assert done.code == 0, done.err
    t1 = time.perf_counter()
    report = run_tablectl("floor", dataset, "--json", timeout=1800)
    floor_s = time.perf_counter() - t1
    assert report.code in (0, 1), report.err
    out = Reported(dataset, report.code, orjson.loads(report.out), export_s, floor_s)
    tables = out.report["tables"]
    print(f"{what}: {len(tables)} tables, {sum(t['rounds'] for t in tables):,} rounds; export of {len(logs)} logs "
          f"{export_s:.1f} s; floor {floor_s:.1f} s (exit {report.code})")
    return out


@pytest.fixture(scope="module")
def honest(played: Floor, tmp_path_factory: pytest.TempPathFactory) -> Reported:
    """The honest floor exported and reported."""
    return _export_and_report(tmp_path_factory.mktemp("honest") / "ds", _honest_logs(played), played, "honest floor")


@pytest.fixture(scope="module")
def planted(played: Floor, honest: Reported, tmp_path_factory: pytest.TempPathFactory) -> Reported:
    """The honest floor's dataset with the planted tables exported into it, reported."""
    dataset = tmp_path_factory.mktemp("planted") / "ds"
    shutil.copytree(honest.dataset, dataset)
    return _export_and_report(dataset, [played.logs[name] for name in PLANTS], played, "planted floor")


@pytest.fixture(scope="module")
def almost_empty(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A dataset of table ``0012`` with two faults: every other dataset empty."""
    return faults_only_dataset(tmp_path_factory.mktemp("empty"))


def _not_flagged(report: dict[str, Any], *keep: str) -> dict[str, list[str]]:
    return {k: v for k, v in report["flagged"].items() if v and k not in keep}


def _dealers_at(dataset: Path, table: str) -> set[str]:
    done = run_tablectl("query", dataset, f"SELECT DISTINCT dealer FROM rounds WHERE table_id = '{table}'", "--json")
    assert done.code == 0, done.err
    return {r["dealer"] for r in orjson.loads(done.out)}


def _flag_figures(report: dict[str, Any]) -> list[str]:
    """Each flag with its z (tables, banks, dealers, days, seats) or p (shufflers)."""
    f = report["flagged"]
    z = {("tables", t["table_id"]): t["z"] for t in report["tables"]}
    z |= {("dealers", d["dealer"]): d["z"] for d in report["dealers"]}
    z |= {("days", str(d["date"])): d["z"] for d in report["days"]}
    z |= {("seats", f"{s['table_id']}:{s['seat']}"): s["z"] for s in report["seats"]}
    p = {s["serial"]: s["combined_p"] for s in report["shufflers"]}
    out = [f"{k} {n}: z {z[k if k != 'player_banks' else 'tables', n]:+.2f}"
           for k in ("tables", "player_banks", "dealers", "days", "seats") for n in f[k]]
    out += [f"shufflers {n}: p {p[n]:.3g}" for n in f["shufflers"] + f["hand_shuffles"]]
    out += [f"rules {r['table_id']}: {r['finding']}: {r['detail']} ({r['rounds']} rounds)" for r in report["rules"]]
    return out


def test_the_honest_floor_is_every_game_both_bankings_three_days_and_20000_rounds(honest: Reported) -> None:
    tables = honest.report["tables"]
    assert len(tables) >= 12 and {t["game"] for t in tables} == GAMES
    assert {t["bank"] for t in tables} == {"house", "player"}
    assert len(honest.report["days"]) == DAYS and sum(t["rounds"] for t in tables) >= 20_000


def test_the_honest_floor_raises_at_most_one_chance_alarm_over_tables_banks_dealers_days_rules_shufflers(
        honest: Reported) -> None:
    report = honest.report
    lowest = min(t["z"] for t in report["tables"] if t["z"] is not None)
    flags = _not_flagged(report, "not_judged", "partly_judged", "seats")
    print(f"honest floor: flagged {_not_flagged(report, 'not_judged', 'partly_judged')}; lowest table z {lowest:+.2f}; "
          f"expected false alarms {report['expected_false_alarms']:.3f}; partly judged {report['flagged']['partly_judged']}")
    # each family holds its false-alarm rate: about 0.16 alarms expected here, two or more about 1 floor in 100
    assert report["expected_false_alarms"] < 0.25 and sum(len(v) for v in flags.values()) <= 1
    assert honest.code == (1 if flags or report["flagged"]["seats"] else 0)  # a seat flagged is a finding too
    # the player-dealer's stake covers the table in 9 rounds of 10: judged but for the rounds it could bind
    assert report["flagged"]["partly_judged"] == ["tcp-1", "tcp-2", "tcp-3"] and report["flagged"]["not_judged"] == []
    tcp = [t for t in report["tables"] if t["game"] == "three-card-poker"]
    assert all(t["rules"] == "partly judged" and t["z"] is not None for t in tcp)
    assert all(t["rules"] == "approved" for t in report["tables"] if t not in tcp)
    binds = [f for f in report["rules"] if f["finding"] == "not judged"]
    assert all(f["detail"].startswith(f"stake limit could bind: {f['rounds']:,} rounds") for f in binds)


def test_the_honest_floor_flags_no_seat(honest: Reported) -> None:
    assert honest.report["flagged"]["seats"] == []


def test_a_raised_pay_table_is_flagged_by_table_rule_and_both_values(planted: Reported) -> None:
    [finding] = [r for r in planted.report["rules"] if r["table_id"] == RAISED]
    assert (finding["finding"], finding["detail"]) == ("not approved", "tie_wager.any_tie 40 (approved 4)")
    assert finding["rounds"] == DAYS * ROUNDS and RAISED in planted.report["flagged"]["rules"]
    table = next(t for t in planted.report["tables"] if t["table_id"] == RAISED)
    assert RAISED in planted.report["flagged"]["tables"] and table["z"] < 0  # the bank lost beyond chance


def test_a_pay_table_changed_between_two_shifts_of_one_day_is_flagged_with_both_values(planted: Reported) -> None:
    findings = [r for r in planted.report["rules"] if r["table_id"] == CHANGED]
    changed = [(f["date"], f["rounds"], f["detail"]) for f in findings if f["finding"] == "changed"]
    assert changed == [("2026-11-03", ROUNDS // 2, "in force first of 2 rule sets on 2026-11-03"),
                       ("2026-11-03", ROUNDS - ROUNDS // 2, "changed to pairplus.pair 2 -> 1")]
    [not_approved] = [f for f in findings if f["finding"] == "not approved"]
    assert not_approved["detail"] == "pairplus.pair 1 (approved 2)"
    assert not_approved["rounds"] == ROUNDS - ROUNDS // 2 + ROUNDS  # the lowered table stayed
    assert CHANGED in planted.report["flagged"]["rules"]


def test_a_house_rule_the_math_does_not_model_is_marked_not_judged(planted: Reported) -> None:
    findings = {f["finding"]: f for f in planted.report["rules"] if f["table_id"] == UNMODELLED}
    assert findings.keys() == {"not judged", "not approved"}
    assert "dp_declines_war = 'player-wins'" in findings["not judged"]["detail"]
    assert findings["not approved"]["detail"] == "dp_declines_war 'player-wins' (approved 'push')"
    table = next(t for t in planted.report["tables"] if t["table_id"] == UNMODELLED)
    assert table["z"] is None and table["judged_handle"] == 0 and table["rounds"] == DAYS * ROUNDS
    assert UNMODELLED in planted.report["flagged"]["not_judged"]


def test_a_weak_shuffler_replacing_a_good_one_is_flagged_and_the_good_one_is_not(planted: Reported) -> None:
    shufflers = {s["serial"]: s for s in planted.report["shufflers"]}
    assert planted.report["flagged"]["shufflers"] == [WEAK_SERIAL]
    assert shufflers[GOOD_SERIAL]["combined_p"] >= planted.report["p_limit"]
    assert shufflers[WEAK_SERIAL]["tables"] == shufflers[GOOD_SERIAL]["tables"] == 1


def test_the_planted_floor_flags_the_plants_by_name_and_nothing_else(planted: Reported, honest: Reported) -> None:
    report = planted.report
    print("planted floor flags:\n  " + "\n  ".join(_flag_figures(report)))
    added = {k: sorted(set(v) - set(honest.report["flagged"][k])) for k, v in report["flagged"].items()}
    assert planted.code == 1
    assert added["rules"] == sorted([RAISED, CHANGED, UNMODELLED])
    assert added["not_judged"] == [UNMODELLED]
    assert added["shufflers"] == [WEAK_SERIAL]
    # the raised Tie's money: its table (the bank's result), the dealers who dealt there (its own,
    # and the relief dealers named on the virtual dealer's mistaken dealer changes), its seats
    assert added["tables"] == [RAISED]
    assert set(added["dealers"]) <= _dealers_at(planted.dataset, RAISED)
    assert all(seat.startswith(f"{RAISED}:") for seat in added["seats"])
    assert {k: v for k, v in added.items() if v and k not in ("rules", "not_judged", "shufflers", "tables", "dealers",
                                                               "seats")} == {}


def _reader_counts(dataset: Path) -> dict[str, dict[str, int]]:
    counts = tablectl_counts(dataset)
    out: dict[str, dict[str, int]] = {}
    for name in DATASETS:
        for recipe in RECIPES:
            n, ids, kind = recipe(dataset, name)
            assert kind.lower() in TEXT_TYPES, (recipe.__name__, dataset, name, kind)
            assert all(isinstance(i, str) for i in ids), (recipe.__name__, dataset, name)
            out.setdefault(name, {})[recipe.__name__] = n
        assert set(out[name].values()) == {counts[name]}, (dataset, name, out[name], counts[name])
    return out


def test_duckdb_pyarrow_and_polars_open_every_dataset_of_both_floors_and_an_empty_one(
        honest: Reported, planted: Reported, almost_empty: Path, played: Floor) -> None:
    for dataset in (honest.dataset, planted.dataset, almost_empty):
        counts = _reader_counts(dataset)
        print(f"{dataset.parent.name}: " + ", ".join(f"{n} {c['duckdb_recipe']:,}" for n, c in counts.items()))
    honest_ids = {t["table_id"] for t in honest.report["tables"]}
    assert {i for r in RECIPES for i in r(planted.dataset, "rounds")[1]} == honest_ids | set(PLANTS)
    assert {i for r in RECIPES for i in r(almost_empty, "faults")[1]} == {"0012"}


def test_spark_opens_every_dataset_of_both_floors_and_an_empty_one(honest: Reported, planted: Reported,
                                                                   almost_empty: Path) -> None:
    spark = spark_session()
    try:
        for dataset in (honest.dataset, planted.dataset, almost_empty):
            counts = tablectl_counts(dataset)
            for name in DATASETS:
                n, ids, kind = spark_recipe(spark, dataset, name)
                assert n == counts[name] and kind in TEXT_TYPES, (dataset, name, n, counts[name], kind)
                assert all(isinstance(i, str) for i in ids)
            assert spark_recipe(spark, almost_empty, "faults")[1] == {"0012"}
    finally:
        spark.stop()
