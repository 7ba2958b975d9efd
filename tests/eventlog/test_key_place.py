"""Where a key file given by hand lies against the log it would vouch for
(``tablectl.eventlog.keyplace``): real folders, files and links, nothing stood in for."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablectl.eventlog.keyplace import beside_log


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """(the log folder ``floor/logs/ocp-1`` with a log file, a folder apart ``vault``)."""
    logs = tmp_path / "floor" / "logs" / "ocp-1"
    logs.mkdir(parents=True)
    (logs / "tablectl-ocp-1-000001.jsonl").write_bytes(b"")
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "ocp-1.pub").write_bytes(b"key")
    return logs, vault


def test_a_key_in_a_folder_apart_is_not_beside_the_log(layout: tuple[Path, Path]) -> None:
    logs, vault = layout
    assert not beside_log(vault / "ocp-1.pub", [logs])


@pytest.mark.parametrize("where", [".", "sub", "..", "../.."])
def test_a_key_in_inside_or_above_the_log_folder_is_beside_it(where: str, layout: tuple[Path, Path]) -> None:
    logs, vault = layout
    folder = (logs / where).resolve()
    folder.mkdir(exist_ok=True)
    (folder / "evil.pub").write_bytes(b"key")
    assert beside_log(folder / "evil.pub", [logs])


def test_a_key_given_by_one_of_the_log_files_is_judged_by_that_files_folder(layout: tuple[Path, Path]) -> None:
    logs, vault = layout
    (logs / "evil.pub").write_bytes(b"key")
    assert beside_log(logs / "evil.pub", [logs / "tablectl-ocp-1-000001.jsonl"])


def test_a_chain_of_links_through_the_log_folder_to_a_key_apart_is_beside_it(layout: tuple[Path, Path]) -> None:
    logs, vault = layout
    (logs / "hop.pub").symlink_to(vault / "ocp-1.pub")
    (vault / "first.pub").symlink_to(logs / "hop.pub")
    assert beside_log(vault / "first.pub", [logs])


def test_a_key_apart_given_through_a_linked_folder_inside_the_log_folder_is_beside_it(layout: tuple[Path, Path]) -> None:
    logs, vault = layout
    (logs / "out").symlink_to(vault)
    assert beside_log(logs / "out" / "ocp-1.pub", [logs])


def test_a_log_folder_reached_through_a_link_is_judged_where_it_leads_too(layout: tuple[Path, Path]) -> None:
    logs, vault = layout
    (vault / "logs").symlink_to(logs)
    (logs / "evil.pub").write_bytes(b"key")
    assert beside_log(logs / "evil.pub", [vault / "logs"])
