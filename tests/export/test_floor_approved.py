"""``tablectl floor`` judges every round against the approved math (par sheets): tables whose
pay tables or house rules differ from it, or change within a day, are flagged with their rounds;
rules the game math does not model are not judged; player banks are reported apart from the
house; the math a dataset is judged by is computed, stored with it and never stale."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest
from exporthelpers import THB_MAIN, Tablectl, run_tablectl
from floorgen import CONFIGS, GAME_CONFIGS, Floor, play_shift, stacked

from tablectl.analytics import approved as ap
from tablectl.config import load_config
from tablectl.eventlog.keys import save_keypair

TIE_40 = {"tie_wager": {"any_tie": 40, "black_tie": 10, "ace_tie": 25, "double_tie": 50, "triple_tie": 150, "quad_tie": 200}}


def _floor(root: Path) -> Floor:
    save_keypair(root / "keys")
    return Floor(root, root / "keys" / "table.pub")


def _export(floor: Floor) -> Path:
    dataset = floor.root / "ds"
    done = run_tablectl("export", *floor.logs.values(), "--to", dataset, "--key", floor.public_key)
    assert done.code == 0, done.err
    return dataset


def _report(tablectl: Tablectl, dataset: Path, *args: str | Path) -> tuple[int, dict]:
    done = tablectl("floor", dataset, "--json", *args)
    assert done.code in (0, 1), done.err
    return done.code, orjson.loads(done.out)


def test_a_raised_tie_pay_table_is_flagged_by_name(tmp_path: Path, tablectl: Tablectl, monkeypatch: pytest.MonkeyPatch) -> None:
    floor = _floor(tmp_path)
    play_shift(floor, "ocp-1", 0, "D-01", 16, 11, pay_tables=TIE_40)
    code, report = _report(tablectl, _export(floor))
    assert code == 1 and report["flagged"]["rules"] == ["ocp-1"]
    [finding] = report["rules"]
    assert finding["finding"] == "not approved" and finding["rounds"] == 16
    assert finding["detail"] == "tie_wager.any_tie 40 (approved 4)"
    assert finding["seq_from"] < finding["seq_to"]
    [table] = report["tables"]
    assert table["rules"] == "not approved" and table["rules_ids"] == finding["rules_id"]
    tie = next(m for m in report["math"] if m["wager"] == "tie")
    assert tie["judged_by"] == "one-card-poker" and abs(tie["edge"] - 0.1353) < 1e-3  # the approved 4:1, not 40:1
    assert finding["round_span"] == f"{finding['first_round']}..{finding['last_round']} (16)"
    assert {k: v for k, v in report["flagged"].items() if v} .keys() <= {"rules", "tables", "dealers", "seats"}
    assert all(s.startswith("ocp-1:") for s in report["flagged"]["seats"])  # players who won the raised Tie
    monkeypatch.setenv("COLUMNS", "200")
    text = tablectl("floor", tmp_path / "ds")
    assert text.code == 1 and "FLAGGED rules: ocp-1" in text.out and "tie_wager.any_tie 40 (approved 4)" in text.out


def test_a_pay_table_changed_mid_day_is_flagged_with_its_rounds(tmp_path: Path, tablectl: Tablectl) -> None:
    floor = _floor(tmp_path)
    play_shift(floor, "ocp-1", 0, "D-01", 12, 21)
    play_shift(floor, "ocp-1", 0, "D-01", 8, 22, pay_tables=TIE_40, hour=3)
    code, report = _report(tablectl, _export(floor))
    assert code == 1 and report["flagged"]["rules"] == ["ocp-1"]
    changed = [f for f in report["rules"] if f["finding"] == "changed"]
    assert [(f["date"], f["rounds"]) for f in changed] == [("2026-11-02", 12), ("2026-11-02", 8)]
    assert changed[0]["seq_to"] < changed[1]["seq_from"]
    assert [t["rules"] for t in report["tables"]] == ["not approved, rules changed"]
    assert changed[0]["detail"].startswith("in force first") and changed[1]["detail"] == "changed to tie_wager.any_tie 4 -> 40"
    [not_approved] = [f for f in report["rules"] if f["finding"] == "not approved"]
    assert not_approved["rounds"] == 8 and not_approved["rules_id"] == changed[1]["rules_id"]


def test_an_unmodelled_house_rule_is_not_judged(tmp_path: Path, tablectl: Tablectl) -> None:
    floor = _floor(tmp_path)
    play_shift(floor, "ocp-1", 0, "D-01", 12, 31, house_rules={"dp_declines_war": "player-wins"})
    _, report = _report(tablectl, _export(floor))
    assert report["flagged"]["not_judged"] == ["ocp-1"]
    [finding] = [f for f in report["rules"] if f["finding"] == "not judged"]
    assert "dp_declines_war = 'player-wins'" in finding["detail"] and finding["rounds"] == 12
    [table] = report["tables"]
    assert table["expected_hold"] is None and table["z"] is None and table["judged_handle"] == 0
    assert [m["note"] for m in report["math"]] == [f"not judged: {finding['detail']}"]


def test_a_player_bank_result_is_not_the_house_win_and_has_its_own_band(exported: Path, tablectl: Tablectl) -> None:
    _, report = _report(tablectl, exported)
    banks = {t["table_id"]: t["bank"] for t in report["tables"]}
    assert banks == {"ocp-1": "player", "tcp-1": "player", "tcpfl-1": "house", "oftm-csm-1": "house", "thb-1": "house"}
    for day in report["days"]:  # two player-banked and three house-banked tables, 20 rounds a day each
        assert (day["player_bank_rounds"], day["rounds"]) == (40, 60)
    house_win = sum(t["win"] for t in report["tables"] if t["bank"] == "house")
    player_win = sum(t["win"] for t in report["tables"] if t["bank"] == "player")
    assert sum(d["win"] for d in report["days"]) == house_win
    assert sum(d["player_bank_win"] for d in report["days"]) == player_win
    ocp = next(t for t in report["tables"] if t["table_id"] == "ocp-1")
    assert ocp["band_low"] < ocp["expected_hold"] < ocp["band_high"]  # the DP's position: the Tie and the primary
    assert set(report["flagged"]["player_banks"]) <= {"ocp-1", "tcp-1"}
    assert any("none (no collection fee" in line and line.startswith("one-card-poker") for line in report["house_revenue"])
    assert report["alarms"]["player_banks"]["tests"] == 4  # both banks judged on both sides (Three Card Poker where its stake covers)


def test_a_dp_beating_the_players_far_beyond_chance_is_a_finding_and_not_the_houses(tmp_path: Path,
                                                                                   tablectl: Tablectl) -> None:
    floor = _floor(tmp_path)
    play_shift(floor, "ocp-1", 0, "D-01", 20, 41, order=stacked(6, rising=True))  # the seats before the DP draw low
    code, report = _report(tablectl, _export(floor))
    assert code == 1 and report["flagged"]["player_banks"] == ["ocp-1"]
    assert report["flagged"]["tables"] == [] and report["flagged"]["days"] == []
    [table] = report["tables"]
    assert table["bank"] == "player" and table["z"] >= report["alarms"]["player_banks"]["limit"]
    assert table["judged_hold"] > table["band_high"]
    assert [d["win"] for d in report["days"]] in ([0], [None]) and report["days"][0]["player_bank_win"] == table["win"]


def test_math_json_without_the_holdem_main_game_is_recomputed(exported: Path, tmp_path: Path, tablectl: Tablectl) -> None:
    dataset = tmp_path / "ds"
    shutil.copytree(exported, dataset)
    _report(tablectl, dataset)
    stored = dataset / "_manifests" / "_math.json"
    cache = orjson.loads(stored.read_bytes())
    for entry in cache["entries"].values():  # as a machine without the main game wrote it
        for m in entry["wagers"]:
            if m["game"] == "texas-holdem-bonus" and m["wager"] == "ante":
                m.update(edge=None, variance=None, note="main game not analysed on this machine yet")
    stored.write_bytes(orjson.dumps(cache))
    _, report = _report(tablectl, dataset)
    ante = next(m for m in report["math"] if m["game"] == "texas-holdem-bonus" and m["wager"] == "ante")
    assert ante["edge"] is not None and abs(ante["edge"] - 0.020369) < 1e-5  # the exact optimal-play figure
    thb = next(t for t in report["tables"] if t["table_id"] == "thb-1")
    assert thb["judged_handle"] > 0 and thb["expected_hold"] < 0.06  # the Ante with the Bonus, not the Bonus alone


def test_the_shipped_three_card_poker_is_judged_where_its_bank_stake_covers_the_worst_case(exported: Path, tablectl: Tablectl) -> None:
    _, report = _report(tablectl, exported)
    assert "tcp-1" not in report["flagged"]["rules"]
    tcp = next(t for t in report["tables"] if t["table_id"] == "tcp-1")
    assert tcp["judged_handle"] > 0 and tcp["expected_hold"] is not None and tcp["z"] is not None
    assert tcp["rounds"] == 40 and tcp["win"] != 0
    for finding in (f for f in report["rules"] if f["table_id"] == "tcp-1"):  # rounds whose stake falls short
        assert finding["finding"] == "not judged" and 0 < finding["rounds"] < 40
        assert finding["detail"].startswith(f"stake limit could bind: {finding['rounds']} rounds")


def test_the_stored_math_is_keyed_by_the_rules_and_a_foreign_entry_is_recomputed(exported: Path, tmp_path: Path,
                                                                                  tablectl: Tablectl) -> None:
    dataset = tmp_path / "ds"
    shutil.copytree(exported, dataset)
    _, first = _report(tablectl, dataset)
    stored = dataset / "_manifests" / "_math.json"
    cache = orjson.loads(stored.read_bytes())
    assert set(cache) == {"format", "entries"}  # nothing of the program on this machine
    for key, entry in cache["entries"].items():
        assert key.startswith(f"{entry['game']}/{entry['decks']}/") and entry["rules"]
    ocp = next(e for e in cache["entries"].values() if e["game"] == "one-card-poker")
    ocp["rules"]["tie_wager.any_tie"] = 40  # an entry another dataset made for other rules, under this key
    for m in ocp["wagers"]:
        m["edge"] = 0.5
    stored.write_bytes(orjson.dumps(cache))
    _, again = _report(tablectl, dataset)
    assert again["math"] == first["math"] and _to_9_digits(again["tables"]) == _to_9_digits(first["tables"])
    assert next(e for e in orjson.loads(stored.read_bytes())["entries"].values()
                if e["game"] == "one-card-poker")["rules"]["tie_wager.any_tie"] == 4


def _to_9_digits(rows: list[dict]) -> list[dict]:
    """Report rows with floats to 9 significant digits: DuckDB sums floats on several threads, in an
    order that moves their last bits from run to run."""
    return [{k: float(f"{v:.9g}") if isinstance(v, float) else v for k, v in r.items()} for r in rows]


def test_stored_math_of_another_format_is_recomputed(exported: Path, tmp_path: Path, tablectl: Tablectl) -> None:
    dataset = tmp_path / "ds"
    shutil.copytree(exported, dataset)
    _, first = _report(tablectl, dataset)
    stored = dataset / "_manifests" / "_math.json"
    cache = orjson.loads(stored.read_bytes())
    for entry in cache["entries"].values():
        for m in entry["wagers"]:
            m["edge"] = 0.5
    stored.write_bytes(orjson.dumps({**cache, "format": cache["format"] - 1}))
    _, again = _report(tablectl, dataset)
    assert again["math"] == first["math"]


@pytest.mark.parametrize("name", sorted(GAME_CONFIGS))
def test_the_shipped_approved_math_is_the_shipped_table_configs(name: str) -> None:
    config = load_config(CONFIGS / GAME_CONFIGS[name])
    rules = {"house_rules": dict(config.house_rules), "pay_tables": dict(config.pay_tables)}
    v = ap.verdict(ap.load(ap.shipped_path()), config.game, config.decks, rules)
    assert v.approved, v.differences
    assert v.judged_by is not None and not v.not_judged  # a stake limit: judged where the stake covers
    assert v.stake_limited == (config.game == "three-card-poker")


def test_an_approved_math_file_kept_with_the_dataset_is_the_default(exported: Path, tmp_path: Path, tablectl: Tablectl) -> None:
    dataset = tmp_path / "ds"
    shutil.copytree(exported, dataset)
    kept = ap.shipped_path().read_text().replace("any_tie = 4,", "any_tie = 5,")
    (dataset / "_manifests" / "approved.toml").write_text(kept)
    _, report = _report(tablectl, dataset)
    assert report["approved"].endswith("_manifests/approved.toml") and "ocp-1" in report["flagged"]["rules"]


def test_an_unusable_approved_file_is_a_one_line_usage_error(exported: Path, tmp_path: Path, tablectl: Tablectl) -> None:
    bad = tmp_path / "approved.toml"
    bad.write_text('[[approved]]\ngame = "one-card-poker"\nbank = "casino"\n')
    done = tablectl("floor", exported, "--approved", bad)
    assert done.code == 2 and done.err == f"tablectl: {bad}: approved set 1 (one-card-poker): bank 'casino' is not one of house, player\n"


@pytest.mark.parametrize(("text", "error"), [
    ('[[approved]]\ngame = "one-card-poker"\ncolour = "red"\n',
     "approved set 1 (one-card-poker): unknown key 'colour' (expected one of bank, decks, game, house_rules, name, pay_tables)"),
    ('[[approved]]\ngame = "one-card-poker"\ndecks = 6\n', "approved set 1 (one-card-poker): decks must be a list of shoe sizes"),
    ('[[approved]]\ngame = "one-card-poker"\npay_tables.tie_wager = { any_tie = "x" }\n',
     "approved set 1 (one-card-poker): house rules: tie_wager.any_tie: expected a whole number 0 or more, got 'x'"),
    ('approved = 1\n', "no [[approved]] sets"),
])
def test_a_bad_key_of_the_approved_file_is_named_with_the_file(exported: Path, tmp_path: Path, tablectl: Tablectl,
                                                             text: str, error: str) -> None:
    bad = tmp_path / "approved.toml"
    bad.write_text(text)
    done = tablectl("floor", exported, "--approved", bad)
    assert (done.code, done.err, done.out) == (2, f"tablectl: {bad}: {error}\n", "")


def _floor_with_stderr_on_a_pty(dataset: Path) -> tuple[int, str]:
    import os
    import pty
    import subprocess
    import sys

    master, slave = pty.openpty()
    proc = subprocess.run([sys.executable, "-m", "tablectl", "floor", str(dataset)], stdout=subprocess.DEVNULL,
                          stderr=slave, timeout=600)
    os.close(slave)
    told = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the pty's other end is closed and drained
            break
        if not chunk:
            break
        told += chunk
    os.close(master)
    return proc.returncode, told.decode()


def test_missing_math_is_computed_with_progress_on_a_terminal_and_quietly_otherwise(exported: Path, tmp_path: Path,
                                                                                    tablectl: Tablectl) -> None:
    dataset = tmp_path / "ds"
    shutil.copytree(exported, dataset)
    (dataset / "_manifests" / "_math.json").unlink(missing_ok=True)
    code, told = _floor_with_stderr_on_a_pty(dataset)
    assert code in (0, 1)
    assert "tablectl: computing the game math of one-card-poker at 6 decks under the rules of one-card-poker" in told
    assert "game math of three-card-poker at 1 decks" in told  # judged where the bank's stake covers the worst case
    assert (dataset / "_manifests" / "_math.json").is_file()
    (dataset / "_manifests" / "_math.json").unlink()
    quiet = tablectl("floor", dataset)
    assert quiet.err == "" and (dataset / "_manifests" / "_math.json").is_file()


def test_a_missing_holdem_main_game_is_computed_with_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tablectl.analytics.expected import prepare, wager_math
    from tablectl.gamemath.holdem import strategy as holdem_strategy

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # a machine without the main game
    stored = orjson.loads(THB_MAIN.read_bytes())
    monkeypatch.setattr(holdem_strategy, "_run",
                        lambda with_table=False, progress=None: ([holdem_strategy._from_dict(d) for d in stored], {}, None))
    told: list[str] = []
    prepare("texas-holdem-bonus", told.append)
    assert holdem_strategy.cached() is not None and len(told) == 2 and "computing" in told[0]
    ante = next(m for m in wager_math("texas-holdem-bonus", 1, None) if m.wager == "ante")
    assert ante.edge is not None and ante.note.startswith("optimal play")


def test_a_player_bank_is_flagged_above_its_band_and_the_house_is_not() -> None:
    from tablectl.analytics.floor.report import Alarms, FloorReport

    report = FloorReport.__new__(FloorReport)
    report.alarms = {family: Alarms(1, 3.0, 0.0, 0.0, 3.0) for family in ("player_banks", "tables")}
    assert report.flags("player_banks", {"z": 3.5}) and report.flags("player_banks", {"z": -3.5})
    assert not report.flags("tables", {"z": 3.5}) and report.flags("tables", {"z": -3.5})
