"""A start refused because a device cannot be opened (exit 4, which systemd restarts every 5 s) is
an orderly stop: each attempt's log says why the table did not start and closes with its signed
shutdown checkpoint, so review of the log verifies and finds no unclean shutdown."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablectl.cli import EXIT_DEVICE, main
from tablectl.eventlog import iter_events, save_keypair

PRODUCTION = Path(__file__).resolve().parents[2] / "config" / "production.toml"


@pytest.fixture
def unplugged() -> Iterator[str]:
    """A TCP address nobody listens on (bound, never listening: a connection is refused), kept
    so for the whole test."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        yield f"socket://127.0.0.1:{s.getsockname()[1]}"


def _config(tmp_path: Path, address: str) -> tuple[Path, Path]:
    """The production config with its shoe at ``address``, its key and log in ``tmp_path``; the
    config and the public key."""
    keys = save_keypair(tmp_path / "keys")
    text = (PRODUCTION.read_text()
            .replace('"/dev/tablectl/shoe-SN0042"', f'"{address}"')
            .replace('"/etc/tablectl/ocp-1/table.key"', f'"{keys.private}"')
            .replace('"/var/lib/tablectl/ocp-1"', f'"{tmp_path / "logs"}"')
            .replace("allow_no_supervisors = false", "allow_no_supervisors = true"))
    config = tmp_path / "table.toml"
    config.write_text(text)
    return config, keys.public


def test_a_start_refused_for_an_unplugged_shoe_leaves_a_log_that_verifies_clean(tmp_path: Path, unplugged: str) -> None:
    config, public = _config(tmp_path, unplugged)

    runs = [CliRunner().invoke(main, ["run", str(config), "--headless"]) for _ in range(3)]

    assert [r.exit_code for r in runs] == [EXIT_DEVICE] * 3, runs[-1].output
    assert all(f"{unplugged}: connection refused" in r.output for r in runs)
    review = CliRunner().invoke(main, ["review", str(tmp_path / "logs"), "--key", str(public)])
    assert review.exit_code == 0, review.output
    assert "verification: OK" in review.output and "unclean" not in review.output


def test_each_refused_start_logs_why_and_closes_with_a_signed_shutdown_checkpoint(tmp_path: Path, unplugged: str) -> None:
    config, _ = _config(tmp_path, unplugged)

    for _ in range(2):
        assert CliRunner().invoke(main, ["run", str(config), "--headless"]).exit_code == EXIT_DEVICE

    lines = [(r["event"], r.get("reason"), r.get("detail")) for r in iter_events([tmp_path / "logs"])]
    session = [("log_opened", None, None), ("table_stopped", "start_failed", f"{unplugged}: connection refused"),
               ("checkpoint", "shutdown", None)]
    assert lines == session * 2
