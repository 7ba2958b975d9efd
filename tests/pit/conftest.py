"""Fixtures of the pit's browser tests: Debian's Chromium driven by Playwright, the page started as
``tablectl pit`` in its own process, a real ``nats-server`` (LocalBroker) and demo tables.

Every wait is on a condition with a deadline (:func:`until`)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
T = TypeVar("T")


def until(what: Callable[[], T], timeout: float, message: str | Callable[[], str], every: float = 0.05) -> T:
    """``what()`` once it is truthy; fails the test with ``message`` (or what it returns, then)
    after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        found = what()
        if found:
            return found
        if time.monotonic() > deadline:
            pytest.fail(f"{message() if callable(message) else message} (within {timeout} s)")
        time.sleep(every)


def run_apart(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end in a thread of its own (Playwright's sync API holds this one's loop)."""
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(asyncio.run(coro))
        except BaseException as e:  # noqa: BLE001 - handed back to the test, which raises it
            out.append(e)

    t = threading.Thread(target=run)
    t.start()
    t.join(30)
    if not out:
        pytest.fail("the coroutine did not finish in 30 s")
    if isinstance(out[0], BaseException):
        raise out[0]
    return out[0]  # type: ignore[no-any-return]


def isolated_env(root: Path) -> dict[str, str]:
    """This environment with the keyring and session keys under ``root`` (a simulated table enrols its key)."""
    return {**os.environ, "XDG_CONFIG_HOME": str(root / "config"), "XDG_STATE_HOME": str(root / "state"),
            "TABLECTL_KEYRING": str(root / "keyring")}


@dataclass
class Page:
    """A running ``tablectl pit`` process and its address."""

    proc: subprocess.Popen[str]
    url: str
    broker: str | None = None  # with --demo: the demo's broker

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def health(page: Page) -> str:
    """The page server's ``/healthz`` (what it has taken from the stream), for a failure's message."""
    import urllib.request

    try:
        with urllib.request.urlopen(page.url + "healthz", timeout=5) as r:
            return r.read().decode()
    except OSError as e:
        return f"healthz: {e}"


def start_page(args: list[str], env: dict[str, str], timeout: float = 30.0, listen: str = "127.0.0.1:0") -> Page:
    """``tablectl pit ARGS`` on a free loopback port (or ``listen``: the port of a page started
    again); its address once it prints it."""
    proc = subprocess.Popen([sys.executable, "-m", "tablectl", "pit", *args, "--listen", listen], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL)
    url = broker = None
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    while url is None:
        line = proc.stdout.readline()
        if not line:
            pytest.fail(f"tablectl pit exited ({proc.wait()}) before serving")
        m = re.search(r"broker (nats://\S+);", line)
        if m:
            broker = m.group(1)
        m = re.search(r"serving (http://\S+/)", line)
        if m:
            url = m.group(1)
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail("tablectl pit did not serve in time")
    return Page(proc, url, broker)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Any]:
    """A ``nats-server`` with JetStream of the test's own (``tablectl.pit.nats.LocalBroker``)."""
    from tablectl.pit.nats import LocalBroker

    b = LocalBroker(tmp_path / "broker").start()
    yield b
    b.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless (skipped where it is not installed). One per test file: while
    Playwright's sync API runs it holds an event loop in this thread, and a later file's
    ``asyncio.run`` in the same worker would be refused."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium): the pit's browser tests need it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def tiles(page: Any) -> dict[str, dict[str, str]]:
    """Each tile on a page: table -> its data-round, data-kind and text."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.tile')].map(t =>
        [t.dataset.table, {round: t.dataset.round, kind: t.dataset.kind, text: t.innerText}]))""")


#: records, in each page, the first time each round number is seen on a tile and on the layout
WATCH_ROUNDS = """() => {
  window.__seen = {};
  const tile = t => {
    const k = 'tile:' + t.dataset.table + ':' + t.dataset.round;
    if (!(k in window.__seen)) window.__seen[k] = Date.now();
  };
  const layout = p => {
    const k = 'layout:' + p.dataset.round;
    if (!(k in window.__seen)) window.__seen[k] = Date.now();
  };
  const look = node => {
    if (node.nodeType !== 1) return;
    if (node.matches('.tile[data-table]')) tile(node);
    if (node.matches('#layout [data-round]')) layout(node);
    node.querySelectorAll('#layout [data-round]').forEach(layout);
  };
  // a tile is updated in place (its data-round changes), the layout's content replaced
  new MutationObserver(records => records.forEach(r => r.type === 'attributes' ? look(r.target) : r.addedNodes.forEach(look)))
    .observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-round']});
  document.querySelectorAll('.tile[data-table]').forEach(tile);
  document.querySelectorAll('#layout [data-round]').forEach(layout);
}"""
