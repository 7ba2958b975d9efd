"""``tablectl run ... --publish URL`` (or ``[publish]`` in the table config): the table's publisher
alongside the table (``tablectl.live.publish``).

:func:`with_publisher` adds the option to the ``run`` command and runs the publisher on its own
thread for as long as the table runs, then lets it send what is left for up to ``[publish]
drain`` seconds (5) while the broker can take them: a broker that never answered in this run, or
has not for ``drain`` seconds, is not waited for (the table stops within 2 s of SIGTERM or Ctrl-C),
one whose link dropped a moment ago is; the next run sends the rest. The table never waits for
it: it only reads the log files the table writes. Its state goes to the log as a warning while it
is behind and the broker does not answer, which the dealer's display shows in its status line.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import click

from tablectl.cli import EXIT_USAGE, CommandError


def with_publisher(command: click.Command) -> click.Command:
    """``command`` (``tablectl run``) with ``--publish URL`` and the publisher around its callback."""
    command.params.append(click.Option(
        ["--publish", "publish_url"], metavar="URL", default=None,
        help="Publish the log to the floor's NATS broker as it is written (nats://HOST:PORT, comma-separated for "
             "a cluster; overrides [publish] url in the config). Dealing never waits for it."))
    inner = command.callback
    assert inner is not None

    @functools.wraps(inner)
    def callback(*args: Any, publish_url: str | None = None, **kwargs: Any) -> Any:
        publisher = _start(kwargs.get("config_path"), kwargs.get("log_dir"), publish_url)
        if publisher is None:
            return inner(*args, **kwargs)
        started, drain = publisher
        try:
            return inner(*args, **kwargs)
        finally:
            started.stop(drain=drain)

    command.callback = callback
    return command


def _start(config_path: Path | None, log_dir: Path | None, url: str | None) -> tuple[Any, float] | None:
    """The publisher started, and its drain time; None when nothing is to be published (or the
    config does not load: the table reports that itself)."""
    from tablectl.config import ConfigError, load_config

    if config_path is None:
        return None
    try:
        config = load_config(config_path)
    except ConfigError:
        return None  # the table says what is wrong with its config (exit 2), before it publishes anything
    publish = config.publish
    url = url or (publish.url if publish is not None else None)
    if url is None:
        return None
    from tablectl.connection import ConnectError, servers
    from tablectl.live.publish import Publisher

    where = Path(log_dir or config.log.dir)
    credentials = publish.credentials if publish is not None else None
    try:
        servers(url)
        if credentials is not None:
            credentials.check([where])
    except ConnectError as e:
        raise CommandError(f"--publish: {e}" if publish is None else f"{config.source}: publish: {e}", EXIT_USAGE) from None
    drain = publish.drain if publish is not None else 5.0
    return Publisher(url, where, config.table, credentials).start(), drain


__all__ = ["with_publisher"]
