"""``tablectl pit`` stops within 2 s of SIGTERM while pages are open: their live streams end at once
instead of holding the server until its graceful-shutdown timeout. A real process, a real broker
(``nats-server``) and a real Chromium."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path
from typing import Any

from .conftest import isolated_env, start_page, until


def test_the_page_server_stops_within_two_seconds_of_sigterm_with_pages_open(browser: Any, broker: Any,
                                                                            tmp_path: Path) -> None:
    page = start_page([broker.url], isolated_env(tmp_path))
    context = browser.new_context()
    try:
        tabs = [context.new_page() for _ in range(2)]
        for p, path in zip(tabs, ["", "report"], strict=True):
            p.goto(page.url + path)
            until(lambda p=p: p.inner_text("#live") == "live", 10.0, f"the page {path or '/'} live")
        at = time.monotonic()
        page.proc.send_signal(signal.SIGTERM)
        try:
            code = page.proc.wait(10)
        except subprocess.TimeoutExpired:
            code = None
        took = time.monotonic() - at
        assert took < 2.0, f"tablectl pit took {took:.2f} s to stop on SIGTERM (exit {code})"
        assert code == 130
    finally:
        context.close()
        page.stop()
