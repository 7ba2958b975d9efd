"""``tablectl pit URL`` serves the pit page over every table publishing to the broker at URL;
``tablectl pit --demo N`` starts a whole floor on this machine first (the embedded broker, N
simulated tables, the collector) and serves the page over it. docs/pit.md.

The page listens on 127.0.0.1:8080 by default; any other address needs ``--users FILE`` (a
login) or the page refuses to start (exit 2). It prints its address and runs until Ctrl-C or
SIGTERM, which stop everything it started.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import click

from tablectl.cli import EXIT_INTERRUPTED, EXIT_USAGE, CommandError

_file = click.Path(path_type=Path, dir_okay=False)


@click.command("pit")
@click.argument("url", required=False)
@click.option("--listen", default="127.0.0.1:8080", show_default=True, metavar="HOST:PORT", help="Where the page listens (port 0: any free port).")
@click.option("--users", type=click.Path(path_type=Path, dir_okay=False), default=None, metavar="FILE", help="A login: [users] name = password hash (tablectl config hash-credential). Needed on any address but loopback.")
@click.option("--floor", "dataset", type=click.Path(path_type=Path, file_okay=False), default=None, metavar="DATASET", help="The exported dataset whose floor report the report view shows.")
@click.option("--floor-every", type=click.FloatRange(min=10), default=300.0, show_default=True, metavar="SECONDS", help="How often the floor report is worked out again.")
@click.option("--silent-after", type=click.FloatRange(min=1), default=30.0, show_default=True, metavar="SECONDS", help="A table heard nothing from for this long turns red (silent).")
@click.option("--secure-cookie", is_flag=True, help="Send the login cookie over HTTPS only (behind a TLS proxy).")
@click.option("--creds", type=_file, default=None, help="NATS user credentials file (the broker's, for the pit's user).")
@click.option("--nkey", type=_file, default=None, help="NATS nkey seed file.")
@click.option("--user", default=None, help="NATS user (with --password-file).")
@click.option("--password-file", type=_file, default=None)
@click.option("--tls-ca", type=_file, default=None, help="The broker's CA (tls:// URLs).")
@click.option("--tls-cert", type=_file, default=None)
@click.option("--tls-key", type=_file, default=None)
@click.option("--demo", "demo", type=click.IntRange(min=1, max=200), default=None, metavar="N", help="Start the broker, N simulated tables and the collector, and serve the page over them.")
@click.option("--demo-dir", type=click.Path(path_type=Path, file_okay=False), default=None, metavar="DIR", help="With --demo: keep the broker's store, the logs and the dataset here (default: a temporary folder).")
@click.option("--demo-pace", type=click.FloatRange(min=0, max=5), default=0.1, show_default=True, metavar="SECONDS", help="With --demo: the virtual dealers' pause at each step.")
@click.option("--demo-mistakes", type=click.FloatRange(min=0, max=1), default=0.05, show_default=True, metavar="RATE", help="With --demo: the share of rounds with a planted procedure mistake.")
def command(url: str | None, listen: str, users: Path | None, dataset: Path | None, floor_every: float, silent_after: float,
            secure_cookie: bool, creds: Path | None, nkey: Path | None, user: str | None, password_file: Path | None,
            tls_ca: Path | None, tls_cert: Path | None, tls_key: Path | None, demo: int | None, demo_dir: Path | None,
            demo_pace: float, demo_mistakes: float) -> None:
    """Serve the live pit page over every table of a floor."""
    from tablectl.pit.auth import AuthError, check_bind, load_users, parse_listen

    if (url is None) == (demo is None):
        raise CommandError("pit: give the broker's URL, or --demo N", EXIT_USAGE)
    try:
        host, port = parse_listen(listen)
        logins = load_users(users) if users is not None else None
        check_bind(host, logins)
    except AuthError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(1024)  # connections wait in the backlog from now on, before the server takes them
    except OSError as e:
        raise CommandError(f"pit: cannot listen on {listen}: {e.strerror or e}", EXIT_USAGE) from None
    from tablectl.connection import ConnectError, Credentials, servers

    credentials = Credentials(creds, nkey, user, password_file, tls_ca, tls_cert, tls_key)
    try:
        if url is not None:
            servers(url)
        credentials.check([])
    except ConnectError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    if demo is None:
        _serve(_config(url or "", logins, silent_after, dataset, floor_every, secure_cookie, credentials), sock)
        return
    from tablectl.pit.demo import Demo

    # the tables start first: they take the longest to deal their first cards
    with Demo(demo, demo_dir, pace=demo_pace, mistakes=demo_mistakes) as floor:
        click.echo(f"pit: demo floor of {demo} table(s); broker {floor.url}; logs in {floor.logs}")
        from tablectl.pit.floorview import FloorFindings

        config = _config(floor.url, logins, silent_after, dataset, floor_every, secure_cookie, credentials)
        if dataset is not None:  # a dataset of its own for the floor report view
            findings = FloorFindings(dataset, floor_every)
        else:  # the demo's tables' logs, exported as they close
            config.dataset = floor.dataset
            findings = FloorFindings(floor.dataset, min(floor_every, 120.0), before=floor.export)
        _serve(config, sock, findings)


def _config(url: str, logins: dict[str, str] | None, silent_after: float, dataset: Path | None, floor_every: float,
            secure_cookie: bool, credentials: object) -> Any:
    from tablectl.pit.app import PitConfig

    return PitConfig(url, logins, silent_after, dataset, floor_every, secure_cookie, credentials=credentials)


def _serve(config: object, sock: socket.socket, findings: object = None) -> None:
    import uvicorn

    from tablectl.pit.app import build, end_streams

    app = build(config, findings=findings)  # type: ignore[arg-type]
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"pit: serving http://{shown}:{port}/ (read-only; Ctrl-C stops)")

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            end_streams(app)  # the open pages' streams end now: uvicorn waits for them before the app's shutdown
            await super().shutdown(sockets)

    server = Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1, lifespan="on"))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn raises the signal again once it has shut down
        pass
    if server.should_exit:
        raise SystemExit(EXIT_INTERRUPTED)  # stopped by Ctrl-C or SIGTERM, as every tablectl command
