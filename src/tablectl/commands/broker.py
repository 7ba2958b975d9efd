"""``tablectl broker --store DIR [--listen HOST:PORT]``: the floor's NATS broker with JetStream.

Runs the ``nats-server`` that ``pip install`` brought (``tablectl.live.broker``) with its store,
config file and log in ``DIR``, restarts it if it dies, and stops it cleanly on SIGTERM or Ctrl-C
(JetStream flushes its store). Without ``--permissions`` it also makes the log stream (and the
alarms' stream), so a floor on one machine needs nothing else; with them, the collector (which
the permissions allow to) makes them. ``--cluster-*`` and ``--route`` make it one node of a
cluster (docs/operations.md). ``--check`` only writes the config and has nats-server test it.

A server that exits on its own is started again, the line saying why (the last error in its log);
after 5 exits in a row each within 30 s of its start the command gives up. An address another
process listens on (a second broker, a nats-server left running) is refused before the server
runs; the server ends with this command, even one killed with SIGKILL (Linux).

Exit codes: 0 stopped cleanly or config good; 2 bad input (a bad address, no nats-server, a
config the server refuses, a port in use, a server that keeps exiting at its start); 130 stopped
by SIGTERM or Ctrl-C.
"""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import click

from tablectl.cli import EXIT_INTERRUPTED, EXIT_USAGE, CommandError


@click.command("broker")
@click.option("--store", type=click.Path(path_type=Path, file_okay=False), required=True, metavar="DIR",
              help="JetStream's store, the server's config file and log.")
@click.option("--listen", default="127.0.0.1:4222", show_default=True, metavar="HOST:PORT", help="Where clients connect.")
@click.option("--monitor", default="127.0.0.1:8222", show_default=True, metavar="HOST:PORT",
              help="The server's HTTP monitoring (/varz, /healthz); 'off' for none.")
@click.option("--server-name", default=None, help="This node's name (a cluster's nodes each need one).")
@click.option("--permissions", type=click.Path(path_type=Path, dir_okay=False, exists=True), default=None,
              metavar="FILE", help="An authorization file included in the config (config/nats/floor-permissions.conf).")
@click.option("--tls-cert", type=click.Path(path_type=Path, dir_okay=False, exists=True), default=None)
@click.option("--tls-key", type=click.Path(path_type=Path, dir_okay=False, exists=True), default=None)
@click.option("--tls-ca", type=click.Path(path_type=Path, dir_okay=False, exists=True), default=None,
              help="With --tls-verify: clients must show a certificate this CA signed.")
@click.option("--tls-verify", is_flag=True, help="Require client certificates.")
@click.option("--cluster-name", default=None, help="Join a cluster of this name (with --cluster-listen and --route).")
@click.option("--cluster-listen", default=None, metavar="HOST:PORT", help="Where the other nodes connect.")
@click.option("--route", "routes", multiple=True, metavar="URL", help="Another node's cluster URL, nats://HOST:PORT (repeat).")
@click.option("--replicas", type=click.IntRange(1, 5), default=1, show_default=True,
              help="Replicas of the log stream when this command makes it (3 on a 3-node cluster).")
@click.option("--sync-always", is_flag=True, help="fsync every stored message (a single node that must survive power loss).")
@click.option("--check", is_flag=True, help="Write the config, have nats-server test it, and exit.")
def command(store: Path, listen: str, monitor: str, server_name: str | None, permissions: Path | None,
            tls_cert: Path | None, tls_key: Path | None, tls_ca: Path | None, tls_verify: bool,
            cluster_name: str | None, cluster_listen: str | None, routes: tuple[str, ...], replicas: int,
            sync_always: bool, check: bool) -> None:
    """Run the floor's NATS broker with JetStream (nats-server)."""
    from tablectl.live.broker import (
        Broker,
        BrokerConfig,
        BrokerError,
        ClusterConfig,
        TlsConfig,
        parse_listen,
    )

    for name, value in (("--listen", listen), ("--monitor", None if monitor == "off" else monitor),
                        ("--cluster-listen", cluster_listen)):
        if value is not None:
            try:
                parse_listen(value)
            except ValueError as e:
                raise CommandError(f"{name}: {e}", EXIT_USAGE) from None
    if (tls_cert is None) != (tls_key is None):
        raise CommandError("--tls-cert and --tls-key go together", EXIT_USAGE)
    if (cluster_name is None) != (cluster_listen is None) or (routes and cluster_name is None):
        raise CommandError("--cluster-name and --cluster-listen go together (and --route needs them)", EXIT_USAGE)
    config = BrokerConfig(
        listen=listen, monitor=None if monitor == "off" else monitor, server_name=server_name,
        cluster=ClusterConfig(cluster_name, cluster_listen, routes) if cluster_name and cluster_listen else None,
        authorization=permissions, sync_always=sync_always,
        tls=TlsConfig(tls_cert, tls_key, tls_ca, tls_verify) if tls_cert and tls_key else None,
    )
    try:
        broker = Broker(store, config=config)
        if check:
            broker.check_config()
            click.echo(f"{broker.config_file}: good")
            return
        stop = threading.Event()
        signalled: list[int] = []

        def on_signal(signum: int, frame: object) -> None:
            signalled.append(signum)
            stop.set()

        previous = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
        try:
            broker.start()
            click.echo(f"broker: {broker.url} (JetStream in {store}; log {store / 'nats-server.log'}); Ctrl-C stops",
                       err=True)
            if permissions is None:
                _make_streams(broker.url, replicas)
            broker.supervise(stop, on_exit=_say_exit)
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)
    except BrokerError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    except OSError as e:
        raise CommandError(f"{store}: {e.strerror or e}", EXIT_USAGE) from None
    if signalled:
        raise SystemExit(EXIT_INTERRUPTED)


def _say_exit(why: str) -> None:
    """One line for a nats-server that stopped on its own (or could not be started again)."""
    click.echo(f"broker: {why}; starting it again", err=True)


def _make_streams(url: str, replicas: int) -> None:
    """The log and alarm streams, made if missing (a warning if the server does not take them)."""
    import asyncio

    from tablectl.live import stream
    from tablectl.live.connect import connect

    async def make() -> None:
        nc = await connect(url, name="tablectl-broker")
        try:
            js = nc.jetstream(timeout=5.0)
            await stream.ensure_stream(js, stream.StreamSettings(replicas=replicas))
            await stream.ensure_alarm_stream(js, replicas)
        finally:
            await nc.close()

    try:
        asyncio.run(asyncio.wait_for(make(), 15.0))
    except Exception as e:  # noqa: BLE001 - the collector makes them too
        click.echo(f"broker: WARNING: could not make the log stream yet ({e!r}); the collector makes it", err=True)
