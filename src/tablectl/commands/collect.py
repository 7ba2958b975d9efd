"""``tablectl collect URL --to DIR [--until-idle SECONDS]``: every table's log from the floor's
broker into verified copies, ``DIR/<table>/`` (``tablectl.live.collect``, docs/live.md).

Each table's lines are written byte for byte under the table's own file names once a signature
the keyring trusts covers them; anything the chain or a signature refuses (a gap, a fork, an
injected, changed, replayed or reordered line, a table the keyring does not know) is reported on
``tablectl.<table>.alarm`` and in ``DIR/.collect/collector.jsonl``, never written. It resumes
after a restart or ``kill -9`` with nothing lost or doubled. SIGTERM or Ctrl-C: it finishes the
batch in hand (written, fsynced, acknowledged) and exits.

Each copy folder reads the stream through a durable consumer of its own (``--durable``): two
collectors on one consumer would split the stream's lines between them, and both copies stall.

Exit codes: 0 done (idle, see ``--until-idle``), nothing refused; 1 something was refused
(see the collector's log); 2 bad input (a bad URL, credentials, another collector in DIR);
4 the broker did not answer when ``--until-idle`` ran out (never reached, or lost); 5 the copy
could not be written (disk full, I/O error); 130 stopped by SIGTERM or Ctrl-C.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Sequence
from pathlib import Path

import click
import orjson

from tablectl.cli import (
    EXIT_DEVICE,
    EXIT_FINDINGS,
    EXIT_INTERRUPTED,
    EXIT_STORAGE,
    EXIT_USAGE,
    CommandError,
)
from tablectl.commands.options import keyring_option

_file = click.Path(path_type=Path, dir_okay=False)


@click.command("collect")
@click.argument("url")
@click.option("--to", "to", type=click.Path(path_type=Path, file_okay=False), required=True, metavar="DIR",
              help="Where the copies go: DIR/<table>/, the table's file names.")
@click.option("--until-idle", type=click.FloatRange(min=0.1), default=None, metavar="SECONDS",
              help="Exit once no line has come for this long (default: run until stopped); exit 4 if the "
                   "broker did not answer then (never reached, or lost).")
@keyring_option
@click.option("--durable", default=None, metavar="NAME",
              help="The durable consumer's name, one per copy folder (default: the folder's own, kept in "
                   "DIR/.collect/durable: collector-<12 hex digits made from DIR's resolved path> when the folder "
                   "is new, 'collector' for a folder an earlier tablectl collected into).")
@click.option("--replicas", type=click.IntRange(1, 5), default=1, show_default=True,
              help="Replicas of the log stream if this collector makes it (3 on a site's cluster).")
@click.option("--ack-wait", type=click.FloatRange(min=0.5), default=10.0, show_default=True, metavar="SECONDS",
              help="A line not acknowledged for this long is delivered again (after a crash).")
@click.option("--creds", type=_file, default=None, help="NATS user credentials file.")
@click.option("--nkey", type=_file, default=None, help="NATS nkey seed file.")
@click.option("--user", default=None, help="NATS user (with --password-file).")
@click.option("--password-file", type=_file, default=None)
@click.option("--tls-ca", type=_file, default=None)
@click.option("--tls-cert", type=_file, default=None)
@click.option("--tls-key", type=_file, default=None)
@click.option("--stats", "stats_path", type=_file, default=None, metavar="FILE",
              help="At exit, write what the run did as JSON (counts, CPU seconds, latency percentiles from a line's "
                   "ts to its arrival and to its write into the copy).")
def command(url: str, to: Path, until_idle: float | None, keyring_dir: Path | None, durable: str | None, replicas: int,
            ack_wait: float, creds: Path | None, nkey: Path | None, user: str | None, password_file: Path | None,
            tls_ca: Path | None, tls_cert: Path | None, tls_key: Path | None, stats_path: Path | None) -> None:
    """Collect every table's log from the broker into verified copies."""
    from tablectl.connection import ConnectError, Credentials, servers
    from tablectl.eventlog import keyring
    from tablectl.live.collect import Collector, CollectorBusy
    from tablectl.live.copy import CopyError
    from tablectl.live.stream import StreamSettings

    credentials = Credentials(creds, nkey, user, password_file, tls_ca, tls_cert, tls_key)
    try:
        servers(url)
        credentials.check([to])
    except ConnectError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    collector = Collector(url, to, keyring=keyring_dir or keyring.default_dir(), credentials=credentials,
                          durable=durable, settings=StreamSettings(replicas=replicas), ack_wait=ack_wait,
                          latency_sample=8 if stats_path else 0)  # every 8th line: the sampling costs little CPU
    try:
        collector.open()
    except CollectorBusy as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    except (CopyError, OSError) as e:
        raise CommandError(f"{to}: {e}", EXIT_STORAGE if isinstance(e, OSError) else EXIT_USAGE) from None
    click.echo(f"collect: {url} -> {to} (consumer {collector.durable}); Ctrl-C stops", err=True)
    signalled: list[int] = []

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()

        def on_signal(signum: int) -> None:
            signalled.append(signum)
            stop.set()

        for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            loop.add_signal_handler(s, on_signal, s)
        await collector.run(stop, until_idle)

    try:
        asyncio.run(main())
    except OSError as e:
        raise CommandError(f"{to}: the copy could not be written: {e.strerror or e}", EXIT_STORAGE) from None
    stats = collector.stats
    click.echo(f"collect: {stats.received:,} messages, {stats.written:,} lines written, {stats.repeats:,} repeats, "
               f"{sum(stats.refused.values()):,} refused, {stats.held:,} held", err=True)
    if stats_path is not None:
        from tablectl.files import atomic_write

        data = orjson.dumps({**stats.to_dict(), "cpu_s": collector.cpu_seconds(), "latency": _percentiles(stats.latencies),
                             "arrival": _percentiles(stats.arrivals)}, option=orjson.OPT_INDENT_2)
        try:  # whole, under a random O_EXCL temporary name, never through a link
            atomic_write(stats_path, data, 0o644, what="collector's stats")
        except OSError as e:
            raise CommandError(f"{stats_path}: cannot write the stats: {e.strerror or e}", EXIT_STORAGE) from None
    if signalled:
        raise SystemExit(EXIT_INTERRUPTED)
    if stats.refused:
        raise SystemExit(EXIT_FINDINGS)
    if collector.outage.down:  # only --until-idle ends on its own
        said = "was never reached" if not collector.outage.reached else "did not answer at the end"
        click.echo(f"collect: the broker at {url} {said}: nothing more was collected", err=True)
        raise SystemExit(EXIT_DEVICE)


def _percentiles(values: Sequence[float]) -> dict[str, float | int | None]:
    if not values:
        return {"n": 0, "p50": None, "p99": None, "max": None}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 6)

    return {"n": len(ordered), "p50": at(0.50), "p99": at(0.99), "max": round(ordered[-1], 6)}
