"""``tablectl run`` given a bad log directory or config file, or run under umask 000: one line
and exit 2 for a symbolic link loop, a dangling symbolic link or a FIFO, never a traceback or a
hang; what a simulated run creates (its key in ``$XDG_STATE_HOME/tablectl``, the keyring) is never
group- or world-writable. Real processes with timeouts, so a regression that hangs fails."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

CONFIG = Path(__file__).resolve().parents[2] / "config" / "tables" / "one-card-poker.toml"
TIMEOUT = 60


def run(*args: str, env: dict[str, str] | None = None, umask: int = -1) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablectl", "run", *args], capture_output=True, text=True,
                          timeout=TIMEOUT, stdin=subprocess.DEVNULL, env=env, umask=umask)


def simulated(config: Path, log_dir: Path, **kwargs) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    return run(str(config), "--simulate", "--headless", "--autoplay", "1", "--seed", "1", "--log-dir", str(log_dir), **kwargs)


def one_line_refusal(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


def private_state(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "TABLECTL_KEYRING": str(tmp_path / "keyring")}


def test_a_log_dir_in_a_symlink_loop_is_one_line_and_exit_2(tmp_path: Path) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    line = one_line_refusal(simulated(CONFIG, loop, env=private_state(tmp_path)))
    assert line == f"tablectl: --log-dir: {loop}: a symbolic link loop"


def test_a_dangling_symlink_as_log_dir_is_one_line_and_exit_2(tmp_path: Path) -> None:
    dangling = tmp_path / "logs"
    dangling.symlink_to(tmp_path / "nowhere")
    line = one_line_refusal(simulated(CONFIG, dangling, env=private_state(tmp_path)))
    assert line.startswith(f"tablectl: --log-dir: {dangling}: a symbolic link to nothing")
    assert "File exists" not in line


def test_a_dangling_symlink_above_the_log_dir_is_named_in_one_line(tmp_path: Path) -> None:
    dangling = tmp_path / "logs"
    dangling.symlink_to(tmp_path / "nowhere")
    line = one_line_refusal(simulated(CONFIG, dangling / "ocp-1", env=private_state(tmp_path)))
    assert line.startswith(f"tablectl: --log-dir: {dangling / 'ocp-1'}: {dangling}: a symbolic link to nothing")


def test_run_refuses_a_fifo_as_config_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "table.toml"
    os.mkfifo(fifo)
    line = one_line_refusal(simulated(fifo, tmp_path / "log", env=private_state(tmp_path)))
    assert line.startswith(f"tablectl: {fifo}: ") and "FIFO" in line


def test_run_refuses_a_table_id_with_a_trailing_newline_before_naming_a_file(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text(CONFIG.read_text().replace('table = "ocp-1"', 'table = "ocp-1\\n"'))
    line = one_line_refusal(simulated(config, tmp_path / "log", env=private_state(tmp_path)))
    assert line.startswith(f"tablectl: {config}: table: ")
    assert not list(tmp_path.rglob("tablectl-*"))


def test_a_simulated_run_under_umask_0_creates_nothing_group_or_world_writable(tmp_path: Path) -> None:
    log_dir = tmp_path / "new" / "log"
    proc = simulated(CONFIG, log_dir, env=private_state(tmp_path), umask=0)
    assert proc.returncode == 0, proc.stderr
    made = [tmp_path / "state", tmp_path / "state" / "tablectl", tmp_path / "state" / "tablectl" / "session-keys",
            tmp_path / "new", log_dir, tmp_path / "keyring", tmp_path / "keyring" / "ocp-1.toml"]
    made += list((tmp_path / "state" / "tablectl" / "session-keys").iterdir())
    for path in made:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert not mode & (stat.S_IWGRP | stat.S_IWOTH), f"{path}: {mode:o}"
    assert stat.S_IMODE((tmp_path / "keyring" / "ocp-1.toml").stat().st_mode) == 0o644


def test_a_link_planted_at_the_mistakes_log_is_refused_before_the_table_starts(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep\n")
    (tmp_path / "mistakes.jsonl").symlink_to(victim)
    proc = run(str(CONFIG), "--simulate", "--headless", "--autoplay", "1", "--log-dir", str(tmp_path / "logs"),
               "--mistakes", "0.5", "--mistakes-log", str(tmp_path / "mistakes.jsonl"))
    assert "mistakes.jsonl" in one_line_refusal(proc)
    assert victim.read_text() == "keep\n" and not (tmp_path / "logs").exists()
