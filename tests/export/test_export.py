"""``tablectl export``: verified logs into a Hive-partitioned Parquet dataset, incrementally."""

from __future__ import annotations

import hashlib
from pathlib import Path

import orjson
import pyarrow.dataset as pads
import pyarrow.parquet as pq
from exporthelpers import Tablectl, run_tablectl
from floorgen import Floor, play_shift

from tablectl.analytics.dataset.schemas import DATASETS
from tablectl.eventlog.keys import load_public_key, public_bytes


def read(dataset: Path, name: str) -> list[dict]:
    if not (dataset / name).exists():  # nothing of that kind exported yet
        return []
    return pads.dataset(dataset / name, format="parquet", partitioning="hive").to_table().to_pylist()


def parquet_files(dataset: Path) -> dict[str, bytes]:
    return {str(p.relative_to(dataset)): p.read_bytes() for p in sorted(dataset.rglob("*.parquet"))}


def test_every_dataset_is_partitioned_by_table_and_day(small_floor: Floor, exported: Path) -> None:
    assert {p.name for p in exported.iterdir() if not p.name.startswith("_")} <= set(DATASETS)
    for name in ("rounds", "cards", "bets", "decisions", "shoes", "devices"):
        parts = {(p.parent.parent.name, p.parent.name) for p in (exported / name).glob("*/*/*.parquet")}
        assert {t for t, _ in parts} == {f"table={t}" for t in small_floor.logs}, name
        assert {d for _, d in parts} == {"date=2026-11-02", "date=2026-11-03"}, name


def test_violations_and_holds_are_exported(exported: Path) -> None:
    rounds = read(exported, "rounds")
    assert sum(r["violations"] for r in rounds) == len([a for a in read(exported, "anomalies") if a["kind"] == "violation"])
    assert sum(r["holds"] for r in rounds) > 0


def test_device_faults_are_exported(tmp_path: Path, tablectl: Tablectl) -> None:
    from tablectl.eventlog import EventLog, save_keypair
    from tablectl.eventlog.keys import load_private_key

    keys = save_keypair(tmp_path / "keys")
    log = EventLog(tmp_path / "log", "T9", signing_key=load_private_key(keys.private), fsync=False)
    log.append("fault", fault="jam", cleared=False, detail="card stuck at the exit", device="shoe", event_no=7)
    log.append("fault", fault="jam", cleared=True, detail=None, device="shoe", event_no=8)
    log.commit()
    log.close()
    done = tablectl("export", tmp_path / "log", "--to", tmp_path / "ds", "--key", keys.public)
    assert done.code == 0, done.err
    faults = read(tmp_path / "ds", "faults")
    assert [(f["table"], f["fault"], f["cleared"], f["event_no"]) for f in faults] == [
        ("T9", "jam", False, 7), ("T9", "jam", True, 8)]


def test_rounds_and_bets_match_what_the_logs_settled(small_floor: Floor, exported: Path) -> None:
    rounds = read(exported, "rounds")
    assert len(rounds) == small_floor.rounds
    assert {r["settlement"] for r in rounds} == {"match"}
    bets = read(exported, "bets")
    by_round: dict[tuple[str, str], int] = {}
    for b in bets:
        by_round[b["table"], b["round_id"]] = by_round.get((b["table"], b["round_id"]), 0) - b["net"]
    assert all(by_round.get((r["table"], r["round_id"]), 0) == r["win"] for r in rounds)
    # (a planted "no burn at a dealer change" mistake brings in the virtual dealer's own dealer-N)
    assert {(t, d) for (t, _), d in small_floor.dealers.items()} <= {(r["table"], r["dealer"]) for r in rounds}


def test_shoes_carry_the_shufflers_serial_and_quality_figures(small_floor: Floor, exported: Path) -> None:
    shoes = read(exported, "shoes")
    assert {(s["table"], s["serial"]) for s in shoes} == set(small_floor.serials.items())
    assert all(s["quality_test"] and s["quality_p"] is not None for s in shoes)


def test_a_face_down_card_is_exported_only_with_the_line_that_revealed_it(exported: Path) -> None:
    down = [c for c in read(exported, "cards") if c["face"] == "down"]
    shown = [c for c in down if not c["hidden"]]
    hidden = [c for c in down if c["hidden"]]
    assert shown and hidden
    assert all(c["revealed_seq"] > c["seq"] and c["card"] for c in shown)
    assert all(c["revealed_seq"] is None for c in hidden)
    assert all(c["card"] is None for c in hidden if c["round"] is None)  # a burn at the shuffle


def test_every_card_never_shown_in_a_round_folds_included_is_in_the_dataset_as_the_log_has_it(
        small_floor: Floor, exported: Path) -> None:
    logged = {(table, line["seq"]): line["card"] for table, folder in small_floor.logs.items()
              for f in sorted(folder.glob("*.jsonl")) for line in map(orjson.loads, f.read_bytes().splitlines())
              if line.get("event") in ("dealt", "burned") and line.get("face") == "down"}
    hidden = [c for c in read(exported, "cards") if c["hidden"] and c["round"] is not None]
    folded = [c for c in hidden if str(c["position"]).startswith("seat:")]
    assert folded and all(c["card"] == logged[c["table"], c["seq"]] for c in hidden)


def test_each_card_event_is_exported_once_with_its_device_and_event_number(exported: Path) -> None:
    cards = read(exported, "cards")
    keys = [(c["table"], c["seq"]) for c in cards]
    assert len(keys) == len(set(keys))
    assert all(c["device"] and c["event_no"] for c in cards)


def test_the_manifest_records_the_verified_range_chain_head_and_key(small_floor: Floor, exported: Path) -> None:
    import orjson

    manifest = orjson.loads((exported / "_manifests" / "ocp-1.json").read_bytes())
    last_file = sorted(small_floor.logs["ocp-1"].glob("*.jsonl"))[-1]
    last_line = last_file.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[-1]
    (export,) = manifest["exports"]
    assert export["from_seq"] == 1 and export["to_seq"] == manifest["through_seq"] == orjson.loads(last_line)["seq"]
    assert manifest["chain_head"] == hashlib.blake2b(last_line, digest_size=32).hexdigest()
    key = public_bytes(load_public_key(small_floor.public_key))
    assert export["key_fingerprints"] == [hashlib.sha256(key).hexdigest()]


def test_exporting_the_same_logs_again_adds_nothing(small_floor: Floor, exported: Path, tmp_path: Path,
                                                     tablectl: Tablectl) -> None:
    import shutil

    dataset = tmp_path / "ds"
    shutil.copytree(exported, dataset)
    before = parquet_files(dataset)
    done = tablectl("export", *small_floor.logs.values(), "--to", dataset, "--key", small_floor.public_key)
    assert done.code == 0, done.err
    assert done.out.count("nothing new") == len(small_floor.logs)
    assert "exported through seq -" not in done.out  # the seq it says is the last exported
    assert parquet_files(dataset) == before


def test_a_log_that_grew_adds_only_its_new_lines(floor_copy: Floor, tmp_path: Path, tablectl: Tablectl) -> None:
    dataset = tmp_path / "ds"
    log = floor_copy.logs["tcp-1"]
    assert tablectl("export", log, "--to", dataset, "--key", floor_copy.public_key).code == 0
    first = len(read(dataset, "rounds"))
    play_shift(floor_copy, "tcp-1", 2, "D-99", 5, seed=4242)
    done = tablectl("export", log, "--to", dataset, "--key", floor_copy.public_key)
    assert done.code == 0, done.err
    rounds = read(dataset, "rounds")
    assert len(rounds) == first + 5
    assert sorted(r["dealer"] for r in rounds).count("D-99") == 5
    fresh = tmp_path / "fresh"
    assert tablectl("export", log, "--to", fresh, "--key", floor_copy.public_key).code == 0
    def rows(where: Path, name: str) -> list[str]:  # less the figures an export takes over the log so far
        return sorted(str({k: v for k, v in r.items() if not k.startswith(("quality_", "event_no"))})
                      for r in read(where, name))

    for name in DATASETS:
        assert rows(dataset, name) == rows(fresh, name), name


def test_a_tampered_log_is_refused_with_its_file_and_line_and_nothing_of_it_exported(
        floor_copy: Floor, tmp_path: Path, tablectl: Tablectl) -> None:
    log_file = sorted(floor_copy.logs["ocp-1"].glob("*.jsonl"))[0]
    lines = log_file.read_bytes().split(b"\n")
    n = next(i for i, line in enumerate(lines) if b'"event":"dealt"' in line)
    lines[n] = lines[n].replace(b'"card":"', b'"card":"A', 1).replace(b'"card":"A', b'"card":"', 1).replace(
        b'"to":"seat:', b'"to":"seat:9', 1)
    log_file.write_bytes(b"\n".join(lines))
    dataset = tmp_path / "ds"
    done = tablectl("export", *floor_copy.logs.values(), "--to", dataset, "--key", floor_copy.public_key)
    assert done.code == 3
    assert f"{log_file}:{n + 1}:" in done.err and "ocp-1: refused" in done.err
    assert not list(dataset.glob("*/table=ocp-1"))
    assert len(list(dataset.glob("rounds/table=*"))) == len(floor_copy.logs) - 1


def _first_shift_only(floor: Floor, table: str) -> Path:
    log = floor.logs[table]
    for f in sorted(log.glob("*.jsonl")):
        if b'"ts":"2026-11-02' not in f.read_bytes()[:200]:
            f.unlink()
    return log


def test_a_log_shorter_than_the_one_exported_is_refused(floor_copy: Floor, tmp_path: Path, tablectl: Tablectl) -> None:
    dataset = tmp_path / "ds"
    assert tablectl("export", floor_copy.logs["thb-1"], "--to", dataset, "--key", floor_copy.public_key).code == 0
    log = _first_shift_only(floor_copy, "thb-1")
    done = tablectl("export", log, "--to", dataset, "--key", floor_copy.public_key)
    assert done.code == 3 and "the log ends at seq" in done.err and "were exported before" in done.err


def test_a_log_that_differs_from_the_one_exported_is_refused(floor_copy: Floor, tmp_path: Path,
                                                            tablectl: Tablectl) -> None:
    dataset = tmp_path / "ds"
    log = _first_shift_only(floor_copy, "thb-1")
    assert tablectl("export", log, "--to", dataset, "--key", floor_copy.public_key).code == 0
    other = tmp_path / "other"  # another log of a table of that name, signed with the same key, longer
    play_shift(Floor(tmp_path, floor_copy.public_key, {"thb-1": other}), "thb-1", 0, "D-98", 40, seed=1)
    done = tablectl("export", other, "--to", dataset, "--key", floor_copy.public_key)
    assert done.code == 3 and "differs from the one exported" in done.err


def test_files_of_an_interrupted_export_are_never_read_and_are_removed(small_floor: Floor, exported: Path,
                                                                      tmp_path: Path, tablectl: Tablectl) -> None:
    import shutil

    dataset = tmp_path / "ds"
    shutil.copytree(exported, dataset)
    part = next((dataset / "rounds" / "table=tcp-1").glob("date=*/part-*.parquet"))
    stray = part.with_name("part-000000999999-000001000000.parquet")  # past the manifest: never committed
    pq.write_table(pq.read_table(part), stray)
    half = part.with_name(".part-000000999999-000001000000.parquet.123.tmp")
    half.write_bytes(b"PAR1 half written")
    counted = run_tablectl("query", dataset, "SELECT count(*) AS n FROM rounds", "--csv")
    assert counted.out.split() == ["n", str(len(read(exported, "rounds")))]  # the stray file is not read
    done = run_tablectl("export", small_floor.logs["tcp-1"], "--to", dataset, "--key", small_floor.public_key)
    assert done.code == 0, done.err
    assert not stray.exists() and not half.exists()
    assert len(read(dataset, "rounds")) == len(read(exported, "rounds"))


def test_export_without_a_trusted_key_is_a_usage_error(small_floor: Floor, tmp_path: Path, tablectl: Tablectl) -> None:
    done = tablectl("export", small_floor.logs["tcp-1"], "--to", tmp_path / "ds", "--keyring", tmp_path / "empty-keyring")
    assert done.code == 2 and "no trusted key of table tcp-1" in done.err


def test_a_path_without_logs_is_a_one_line_error(small_floor: Floor, tmp_path: Path, tablectl: Tablectl) -> None:
    done = tablectl("export", tmp_path, "--to", tmp_path / "ds", "--key", small_floor.public_key)
    assert done.code == 2 and done.err.startswith("tablectl: ") and done.err.count("\n") == 1


def test_a_round_a_restart_went_on_with_is_exported_once_when_it_ends(tmp_path: Path, tablectl: Tablectl) -> None:
    from tablectl.config import load_config
    from tablectl.eventlog import save_keypair
    from tablectl.table.runtime import TableRuntime
    from tablectl.table.simulated.virtual_dealer import VirtualDealer

    keys = save_keypair(tmp_path / "keys")
    config = load_config(Path(__file__).resolve().parents[2] / "config" / "tables" / "one-card-poker.toml")
    log, dataset = tmp_path / "log", tmp_path / "ds"

    def runtime(sims: dict) -> TableRuntime:
        return TableRuntime(config, simulate=True, log_dir=log, seed=5, fsync=False, signing_key=keys.private,
                            sims=sims)

    first = runtime({})
    controller = first.start()
    VirtualDealer(controller, first.sims["shoe"], seed=6, dealer_change_rate=0.0).play(3)
    first.stop()
    sim = first.sims["shoe"]
    second = runtime({"shoe": sim})  # stops two cards into round 4
    controller = second.start()
    controller.start_round([1, 2, 3], {s: {"primary": 1000, "tie": 500} for s in (1, 2, 3)}).result(5)
    sim.draw(), sim.draw()
    assert controller.wait_processed("shoe", sim.store.last_no)
    second.stop()
    assert tablectl("export", log, "--to", dataset, "--key", keys.public).code == 0
    assert sorted(r["round"] for r in read(dataset, "rounds")) == [1, 2, 3]  # round 4 may go on: not yet
    third = runtime({"shoe": sim})
    controller = third.start()
    VirtualDealer(controller, sim, seed=8, dealer_change_rate=0.0).play(1)  # round 4 to its end
    third.stop()
    done = tablectl("export", log, "--to", dataset, "--key", keys.public)
    assert done.code == 0, done.err
    rounds = {r["round"]: r for r in read(dataset, "rounds")}
    assert sorted(rounds) == [1, 2, 3, 4, 5] and rounds[4]["status"] == "complete"
    bets = [b for b in read(dataset, "bets") if b["round"] == 4]
    assert {b["round_id"] for b in bets} == {rounds[4]["round_id"]} and len(bets) >= 3
    assert sum(-b["net"] for b in bets) == rounds[4]["win"]


def test_review_anchored_on_a_dataset_refuses_a_log_cut_shorter_than_what_was_exported(
        floor_copy: Floor, tmp_path: Path, tablectl: Tablectl) -> None:
    dataset = tmp_path / "ds"
    assert tablectl("export", floor_copy.logs["thb-1"], "--to", dataset, "--key", floor_copy.public_key).code == 0
    whole = tablectl("review", floor_copy.logs["thb-1"], "--key", floor_copy.public_key, "--anchor", dataset)
    assert whole.code in (0, 1) and "anchor" not in whole.err, whole.err
    log = _first_shift_only(floor_copy, "thb-1")
    cut = tablectl("review", log, "--key", floor_copy.public_key, "--anchor", dataset)
    assert cut.code == 3 and "before the anchored checkpoint" in cut.err and "cut short" in cut.err
