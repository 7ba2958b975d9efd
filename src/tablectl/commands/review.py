"""``tablectl review PATH... [--key PUB] [--json] [--round ID] [--html FILE]``: verify a card event
log, rebuild every round, list the anomalies and judge the shuffles.

The work is in ``tablectl.review.engine`` (verification in ``tablectl.eventlog.verify``); this
module parses options, prints and picks the exit code. See ``docs/review.md``.

The keys come from the keyring (``tablectl keyring``; ``--keyring DIR``), bound to the table the
log's lines name, or from ``--key``; a key that lies in the folder under review vouches for nothing
(a ``key_beside_log`` anomaly). Exit codes: 0 verified and clean; 1 verified, with
anomalies to review (violations, holds, device faults, unclean shutdowns, event-number gaps,
settlement or procedure mismatches, no trusted key, a key beside the log, ...); 3 integrity failure (the first one, with file and line, on stderr); 2 bad input (a path that does not exist, a
directory without logs, a file that is not a log, a missing or unreadable key or config, an
unknown round, an HTML file that cannot be written) as a one-line error; 5 ``--json`` on a full
disk: the temporary directory (``$TMPDIR``, else ``/tmp``) cannot hold its rounds, or stdout cannot
take the report, as a one-line error.

On a terminal, stderr shows the review's progress through the log (lines, %, rate, ETA) on one
redrawn line, wiped when the log is read; ``--progress``/``--no-progress`` force it on or off.

The review keeps one round at a time (``tablectl.review.engine``): with ``--json`` each round's
JSON is spooled to a temporary file as it is checked and copied out after the report's head, so
that neither the rounds nor their JSON are ever in memory together.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click
import orjson

from tablectl.cli import EXIT_FINDINGS, EXIT_INTEGRITY, EXIT_STORAGE, EXIT_USAGE, CommandError, drop_stdout
from tablectl.commands.options import keyring_option, log_progress, progress_option, trust_for
from tablectl.commands.reports import check_path, write_report
from tablectl.text import escaped

if TYPE_CHECKING:
    from tablectl.review.model import RoundRecord


@click.command("review")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--key", "keys", multiple=True, type=click.Path(path_type=Path), metavar="PUB",
              help="Trust this Ed25519 public key (PEM) instead of the keyring; repeat for a table whose key was "
                   "replaced. A key in the folder under review vouches for nothing.")
@keyring_option
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (every round in full).")
@click.option("--round", "round_id", metavar="ID", default=None,
              help="Show this round in full: N, or S.N (session S) when round numbers repeat.")
@click.option("--html", "html_path", type=click.Path(path_type=Path, dir_okay=False), metavar="FILE", default=None,
              help="Also write a self-contained HTML report with plots to FILE.")
@click.option("--config", "config_path", type=click.Path(path_type=Path, dir_okay=False), metavar="TOML", default=None,
              help="The table config whose house rules and pay tables were in force (for logs that do not record them).")
@click.option("--partial", is_flag=True, help="The paths are a slice of a longer log (need not start at seq 1).")
@click.option("--anchor", "anchor_path", type=click.Path(path_type=Path), metavar="FILE|DATASET", default=None,
              help="An anchor file (tablectl anchor), or a dataset (tablectl export): the log must still hold the last "
                   "checkpoint head it knows.")
@click.option("--seat", type=click.IntRange(min=1), metavar="N", default=None,
              help="List seat N's judged decisions: those only the dealer's cards explain, and the costliest.")
@click.option("--top", type=click.IntRange(min=1), metavar="K", default=10, show_default=True,
              help="With --seat: how many of the costliest decisions to list.")
@progress_option
def command(paths: tuple[Path, ...], keys: tuple[Path, ...], keyring_dir: Path | None, as_json: bool,
            round_id: str | None, html_path: Path | None, config_path: Path | None, partial: bool,
            anchor_path: Path | None, seat: int | None, top: int, progress: bool | None) -> None:
    """Verify the log in PATH... (log files, or a directory of them) with the table's keys from the
    keyring, rebuild every round and settle it again with the rules engine, list the anomalies
    and judge the shuffles. With no trusted key only the chain is checked."""
    from tablectl.commands.interrupt import exit_on_interrupt

    exit_on_interrupt()
    if seat is not None and as_json:
        raise CommandError("--seat: a section of the text report; not with --json", EXIT_USAGE)
    _review(paths, keys, keyring_dir, as_json, round_id, html_path, config_path, partial, anchor_path, progress,
            seat, top)


def _review(paths: tuple[Path, ...], keys: tuple[Path, ...], keyring_dir: Path | None, as_json: bool,
            round_id: str | None, html_path: Path | None, config_path: Path | None, partial: bool,
            anchor_path: Path | None, progress: bool | None = None, seat: int | None = None, top: int = 10) -> None:
    from tablectl.eventlog.anchor import read_anchors
    from tablectl.eventlog.errors import LogInputError
    from tablectl.eventlog.verify import resolve_paths
    from tablectl.review.engine import review, round_matcher
    from tablectl.review.model import TableSetup

    if html_path is not None:
        check_path(html_path)  # a link, a FIFO or a device: refused before the review's work
    setup = None
    if config_path is not None:
        from tablectl.config import ConfigError, load_config

        try:
            setup = TableSetup.from_config(load_config(config_path), f"config {config_path}")
        except ConfigError as e:
            raise CommandError(str(e), EXIT_USAGE) from None
    try:
        files = resolve_paths(paths)
        trust = trust_for(files, keys, keyring_dir)
        anchors = None
        if anchor_path is not None and anchor_path.is_dir():
            from tablectl.analytics.dataset.queries import check_dataset
            from tablectl.analytics.dataset.store import DatasetError
            from tablectl.analytics.dataset.store import anchors as dataset_anchors

            try:
                check_dataset(anchor_path)
                anchors = dataset_anchors(anchor_path)
            except DatasetError as e:
                raise CommandError(str(e), EXIT_USAGE) from None
        elif anchor_path is not None:
            anchors = read_anchors(anchor_path)
            for offset in anchors.torn:
                click.echo(f"tablectl: warning: {anchors.files[-1]}: byte {offset}: a torn anchor line (a write cut "
                           "short); set aside", err=True)
        chosen: list[RoundRecord] = []
        spool = _JsonRounds() if as_json and round_id is None else None
        if round_id is not None:
            wanted = round_matcher(round_id)
            sink = (lambda rnd: chosen.append(rnd) if wanted(rnd) else None)
        else:
            sink = spool if spool is not None else (lambda rnd: None)
        judged = None
        if seat is not None:
            from tablectl.progress import Told, wanted
            from tablectl.review.seat_decisions import SeatDecisions

            sink = judged = SeatDecisions(seat, top, then=sink, told=Told(sys.stderr, wanted(progress, sys.stderr)))
        shown = log_progress("review", files, progress)
        try:
            report = review(files, trust or (), partial=partial, setup=setup, anchors=anchors, rounds=sink,
                            progress=shown.advance if shown is not None else None)
        finally:
            if shown is not None:
                shown.close()
    except LogInputError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None
    games = {s.game for s in report.recon.sessions if s.game}
    if setup is not None and games and setup.game not in games:
        raise CommandError(f"{config_path}: a {setup.game} table; the log is of {', '.join(sorted(games))}", EXIT_USAGE)
    if round_id is not None and not chosen:
        raise CommandError(f"no round {round_id!r} in the log ({report.tally.rounds} round(s); ids: N, or S.N)", EXIT_USAGE)
    if html_path is not None:
        from tablectl.review.report import html as report_html

        # whole or not at all, 0640 whatever the umask, never through a link; a full disk: exit 5
        write_report(html_path, escaped(report_html.render(report, rounds=chosen)).encode("utf-8"))
    if spool is not None:
        spool.write_report(report.head(), report.timings)
    elif as_json:
        _write_stdout(lambda out: out.write(_json(report.to_dict(rounds=chosen)) + b"\n"))
    else:
        from tablectl.review.report import text as report_text

        report_text.render(report, _echo, rounds=chosen)
        if judged is not None:
            from tablectl.review.seat_decisions import lines

            for line in lines(judged):
                _echo(line)
    if not report.ok:
        first = report.verification.integrity_failures[0]
        raise CommandError(f"integrity failure: {first}", EXIT_INTEGRITY)
    if report.anomalies:
        click.get_current_context().exit(EXIT_FINDINGS)


def _utf8(value: Any) -> Any:
    """*value* (a str, or lists and dicts of them) with every byte of a file name that is not UTF-8
    written as a backslash escape (``tablectl.text.escaped``); the rest as it was."""
    if isinstance(value, str):
        return escaped(value)
    if isinstance(value, dict):
        return {_utf8(k): _utf8(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_utf8(v) for v in value]
    return value


def _echo(line: str) -> None:
    """A line of the text report on stdout, its file names escaped as in the others."""
    click.echo(escaped(line))


def _json(value: Any) -> bytes:
    """*value* as indented JSON, its file names of bytes that are not UTF-8 escaped (:func:`_utf8`)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2)
    except TypeError:  # a str orjson refuses: a surrogate escape (else refused again below)
        return orjson.dumps(_utf8(value), option=orjson.OPT_INDENT_2)


def _spool_dir() -> str:
    """Where ``--json`` spools the rounds: ``$TMPDIR``, else ``/tmp`` — never another directory
    in its place (``tempfile`` would silently take the next one that has room)."""
    return os.environ.get("TMPDIR") or "/tmp"


def _write_stdout(write: Callable[[IO[bytes]], object]) -> None:
    """Run *write* on stdout's bytes and flush them; stdout failing (a full disk, a closed pipe) is
    a one-line error, exit 5, and what stdout still buffers is dropped so that nothing else is
    tried (nor reported) at exit."""
    out = sys.stdout.buffer
    try:
        sys.stdout.flush()
        write(out)
        out.flush()
    except OSError as e:
        drop_stdout()
        raise CommandError(f"stdout: cannot write the JSON report, which is incomplete: {e.strerror or e}",
                           EXIT_STORAGE) from None


class _JsonRounds:
    """Each round's JSON, as ``to_dict`` indents it in the report, spooled to a temporary file in
    :func:`_spool_dir` as the review checks the round; :meth:`write_report` puts it after the
    report's head. The spool failing is a one-line error, exit 5, before anything is on stdout."""

    def __init__(self) -> None:
        self.dir = _spool_dir()
        try:
            self.file = tempfile.TemporaryFile(dir=self.dir)
        except OSError as e:
            raise self._failed(e) from None
        self.count = 0

    def _failed(self, e: OSError) -> CommandError:
        return CommandError(f"{self.dir}: cannot hold the rounds of the JSON report: {e.strerror or e}", EXIT_STORAGE)

    def __call__(self, rnd: RoundRecord) -> None:
        text = _json(rnd.to_dict())
        try:
            self.file.write((b",\n    " if self.count else b"    ") + text.replace(b"\n", b"\n    "))
        except OSError as e:  # a full disk under the temporary directory: the review stops here
            raise self._failed(e) from None
        self.count += 1

    def write_report(self, head: dict[str, Any], timings: dict[str, float]) -> None:
        """The report on stdout, as ``orjson.dumps(report.to_dict(), option=OPT_INDENT_2)`` writes it."""
        try:
            self.file.flush()
            self.file.seek(0)
        except OSError as e:
            raise self._failed(e) from None
        _write_stdout(lambda out: self._copy(head, timings, out))
        self.file.close()

    def _copy(self, head: dict[str, Any], timings: dict[str, float], out: IO[bytes]) -> None:
        out.write(_json(head)[:-2])
        if self.count:
            out.write(b',\n  "rounds": [\n')
            shutil.copyfileobj(self.file, out, 1 << 20)
            out.write(b"\n  ],\n")
        else:
            out.write(b',\n  "rounds": [],\n')
        out.write(b'  "timings": ' + orjson.dumps(timings, option=orjson.OPT_INDENT_2).replace(b"\n", b"\n  ") + b"\n}\n")
