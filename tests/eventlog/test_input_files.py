"""Bad input files to ``tablectl review`` and ``tablectl keygen``, and the log's name patterns:
a FIFO or ``/dev/zero`` as a key, an anchor or a config is refused at once in one line (exit 2),
never waited on or read to the end of memory; names with a trailing newline are not names; what
``keygen`` and ``review --html`` create is never group- or world-writable, whatever the umask.
The commands run as real processes with timeouts, so a regression that hangs fails instead."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tablectl.eventlog import EventLog, save_keypair
from tablectl.eventlog import logformat as fmt
from tablectl.files import FileTooLargeError, NotRegularFileError, read_regular

TIMEOUT = 20  # seconds: far above a refusal's, far below a hang's


def tablectl(*args: str, umask: int = -1) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablectl", *args], capture_output=True, text=True,
                          timeout=TIMEOUT, stdin=subprocess.DEVNULL, umask=umask)


def one_line_refusal(proc: subprocess.CompletedProcess[str], path: str) -> str:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"tablectl: {path}: "), lines[0]
    return lines[0]


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


@pytest.fixture
def pub(tmp_path: Path, key) -> Path:  # type: ignore[no-untyped-def]
    return save_keypair(tmp_path / "keys", key).public


def test_review_refuses_a_fifo_as_key_at_once(signed_log: Path, fifo: Path) -> None:
    line = one_line_refusal(tablectl("review", str(signed_log), "--key", str(fifo)), str(fifo))
    assert "FIFO" in line


def test_review_refuses_dev_zero_as_key_at_once(signed_log: Path) -> None:
    line = one_line_refusal(tablectl("review", str(signed_log), "--key", "/dev/zero"), "/dev/zero")
    assert "character device" in line


def test_review_refuses_a_fifo_as_anchor_at_once(signed_log: Path, pub: Path, fifo: Path) -> None:
    line = one_line_refusal(tablectl("review", str(signed_log), "--key", str(pub), "--anchor", str(fifo)), str(fifo))
    assert "FIFO" in line


def test_review_refuses_dev_zero_as_anchor_at_once(signed_log: Path, pub: Path) -> None:
    one_line_refusal(tablectl("review", str(signed_log), "--key", str(pub), "--anchor", "/dev/zero"), "/dev/zero")


def test_review_refuses_a_fifo_as_config_at_once(signed_log: Path, fifo: Path) -> None:
    line = one_line_refusal(tablectl("review", str(signed_log), "--config", str(fifo)), str(fifo))
    assert "FIFO" in line


def test_review_refuses_a_fifo_as_html_report_at_once(signed_log: Path, fifo: Path) -> None:
    line = one_line_refusal(tablectl("review", str(signed_log), "--html", str(fifo)), str(fifo))
    assert "not a regular file" in line


def test_a_key_file_over_the_size_limit_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    big = tmp_path / "big.pub"
    with open(big, "wb") as f:
        f.truncate(64 * 1024 * 1024)  # sparse: 64 MiB that cost nothing
    with pytest.raises(FileTooLargeError, match="larger than"):
        read_regular(big, "public key file", 1024 * 1024)


def test_read_regular_refuses_a_fifo_before_opening_it(fifo: Path) -> None:
    with pytest.raises(NotRegularFileError, match="a FIFO, not a regular file"):
        read_regular(fifo, "config", 1024)


def test_read_regular_told_not_to_follow_links_refuses_a_link_to_a_regular_file(tmp_path: Path) -> None:
    target = tmp_path / "genuine.json"
    target.write_bytes(b"{}")
    (tmp_path / "link.json").symlink_to(target)
    with pytest.raises(NotRegularFileError, match="a link, not a regular file"):
        read_regular(tmp_path / "link.json", "manifest", 1024, follow_links=False)


def test_review_refuses_a_log_folder_where_a_log_file_is_a_fifo_naming_it(signed_log: Path, pub: Path) -> None:
    planted = signed_log / fmt.file_name("T1", 99)
    os.mkfifo(planted)
    line = one_line_refusal(tablectl("review", str(signed_log), "--key", str(pub)), str(planted))
    assert "not a regular file" in line


def test_review_html_report_is_0640_under_umask_0(tmp_path: Path, signed_log: Path, pub: Path) -> None:
    html = tmp_path / "report.html"
    proc = tablectl("review", str(signed_log), "--key", str(pub), "--html", str(html), umask=0)
    assert proc.returncode in (0, 1), proc.stderr
    assert stat.S_IMODE(html.stat().st_mode) == 0o640


def test_keygen_folders_are_not_world_writable_under_umask_0(tmp_path: Path) -> None:
    target = tmp_path / "new" / "keys"
    proc = tablectl("keygen", str(target), umask=0)
    assert proc.returncode == 0, proc.stderr
    for folder in (tmp_path / "new", target):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o755, folder
    assert stat.S_IMODE((target / "table.key").stat().st_mode) == 0o600
    assert stat.S_IMODE((target / "table.pub").stat().st_mode) == 0o644


@pytest.mark.parametrize(
    ("pattern", "name"),
    [
        (fmt.TABLE_NAME_RE, "ocp-1\n"),
        (fmt.EVENT_NAME_RE, "card_dealt\n"),
        (fmt.FILE_NAME_RE, "tablectl-ocp-1-000001.jsonl\n"),
    ],
)
def test_a_name_with_a_trailing_newline_does_not_match(pattern, name: str) -> None:  # type: ignore[no-untyped-def]
    assert pattern.match(name) is None
    assert pattern.match(name.rstrip("\n")) is not None


def test_a_log_file_name_with_a_trailing_newline_is_not_a_log_file() -> None:
    assert fmt.parse_file_name("tablectl-ocp-1-000001.jsonl\n") is None
    assert fmt.parse_file_name("tablectl-ocp-1-000001.jsonl") == ("ocp-1", 1)


def test_the_log_refuses_a_table_name_with_a_trailing_newline(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="table name"):
        EventLog(tmp_path / "log", "ocp-1\n", signing_key=None)
    assert not list(tmp_path.rglob("tablectl-*"))


def test_the_log_refuses_an_event_name_with_a_trailing_newline(tmp_path: Path) -> None:
    with EventLog(tmp_path / "log", "T1", signing_key=None) as log, pytest.raises(ValueError, match="event name"):
        log.append("card_dealt\n", card="QH")


def test_keygen_into_a_dangling_symlink_says_so_in_one_line(tmp_path: Path) -> None:
    dangling = tmp_path / "keys"
    dangling.symlink_to(tmp_path / "nowhere")
    line = one_line_refusal(tablectl("keygen", str(dangling)), str(dangling))
    assert "symbolic link" in line and "overwrite" not in line


def test_keygen_under_a_file_names_the_file_that_is_not_a_directory(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    line = one_line_refusal(tablectl("keygen", str(tmp_path / "notes.txt" / "keys")), str(tmp_path / "notes.txt"))
    assert "not a directory" in line and "overwrite" not in line
    assert (tmp_path / "notes.txt").read_text() == "hello\n"


def test_keygen_twice_into_one_folder_refuses_to_overwrite_the_key(tmp_path: Path) -> None:
    assert tablectl("keygen", str(tmp_path / "keys")).returncode == 0
    line = one_line_refusal(tablectl("keygen", str(tmp_path / "keys")), str(tmp_path / "keys" / "table.key"))
    assert "refusing to overwrite a key" in line
