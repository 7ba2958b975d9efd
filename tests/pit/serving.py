"""The pit's Starlette app served in this process (uvicorn in a thread, a free loopback port) and
asked over real HTTP with urllib: what a browser sees, without a browser or a ``tablectl pit``
process. Lines reach its state on the app's own event loop, as the stream's would."""

from __future__ import annotations

import asyncio
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
import uvicorn
from starlette.applications import Starlette


@dataclass
class Reply:
    """One HTTP answer: status, headers (names lower-cased; Set-Cookie kept whole) and body."""

    status: int
    headers: dict[str, str]
    body: str

    def header(self, name: str) -> str:
        return self.headers.get(name.lower(), "")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # the redirect itself is the answer a test looks at


_OPENER = urllib.request.build_opener(_NoRedirect)


class Served:
    """``app`` on 127.0.0.1, a port of its own, until :meth:`stop`."""

    def __init__(self, app: Starlette) -> None:
        self.app = app
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error", lifespan="on",
                                                    timeout_graceful_shutdown=2))
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self.server.serve(),),
                                       name="pit-under-test", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the pit app did not start serving")
            time.sleep(0.01)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"

    @property
    def pit(self) -> Any:
        return self.app.state.pit

    def on_loop(self, fn: Callable[[], Any]) -> Any:
        """``fn()`` run on the app's event loop (where the feed runs); its result."""

        async def call() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(call(), self.loop).result(5)

    def take(self, records: list[dict[str, Any]]) -> None:
        """Log lines as the stream delivers them (each on its table's subject)."""

        def take_all() -> None:
            for r in records:
                self.pit.feed.take(f"tablectl.{r['table']}.log", orjson.dumps(r))

        self.on_loop(take_all)

    def get(self, path: str, *, cookie: str | None = None, data: bytes | None = None) -> Reply:
        """``path`` asked (POSTed with ``data``); a redirect is returned, not followed."""
        req = urllib.request.Request(self.url + path, data=data)
        if cookie:
            req.add_header("Cookie", cookie)
        try:
            with _OPENER.open(req, timeout=10) as r:
                return Reply(r.status, _headers(r.headers), r.read().decode())
        except urllib.error.HTTPError as e:
            with e:
                return Reply(e.code, _headers(e.headers), e.read().decode())

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)
        self.loop.close()


def _headers(msg: Any) -> dict[str, str]:
    return {k.lower(): ", ".join(msg.get_all(k)) for k in set(msg.keys())}
