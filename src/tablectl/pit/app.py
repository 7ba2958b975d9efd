"""The pit page's web app (Starlette): the floor view, a table's view, the floor report view, the
live feed (Server-Sent Events) and, where a login is configured, the login. Read-only: no route
changes anything at a table or on the stream.

``build(config)`` gives the app; its lifespan starts the stream feed (``feed.Feed``), the fan-out
(``feed.Hub``) and the floor report's refresh, and stops them.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

import orjson
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from tablectl.analytics.floor import plots
from tablectl.pit.auth import COOKIE, Login
from tablectl.pit.feed import Feed, Hub
from tablectl.pit.floorview import FloorFindings
from tablectl.pit.rounds import RoundBook
from tablectl.pit.state import SILENT_AFTER, Edges, Floor
from tablectl.pit.views import Views

#: a table id as the log allows it (docs/events.md)
TABLE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")
STATIC = Path(__file__).parent / "static"
TICK = 1.0  # how often an open live stream checks that its session and the page server are still there
PING = 15.0  # a keep-alive comment on a stream with nothing to say for this long
WAIT_EVERY = 0.25  # how often a stream waiting for a table not heard from yet looks for it
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


@dataclass
class PitConfig:
    """What the page is started with."""

    url: str  # the broker
    users: dict[str, str] | None = None  # a login (user -> password hash); None: none (loopback only)
    silent_after: float = SILENT_AFTER
    dataset: Path | None = None  # the floor report's dataset
    floor_every: float = 300.0
    secure_cookie: bool = False  # behind a TLS proxy: the session cookie only over HTTPS
    interval: float = 0.1  # the fan-out's flush interval
    credentials: Any = None  # tablectl.connection.Credentials for the broker (None: none)


class Pit:
    """The running page's parts (kept on ``app.state.pit``)."""

    def __init__(self, config: PitConfig, edges: Edges | None = None, findings: FloorFindings | None = None) -> None:
        self.config = config
        self.floor = Floor()
        self.rounds = RoundBook()
        if edges is None:
            from tablectl.pit.expected import EdgeBook

            edges = EdgeBook()
        self.edges = edges
        self.login = Login(config.users) if config.users else None
        self.views = Views(self.floor, self.rounds, edges, silent_after=config.silent_after, login=self.login is not None)
        self.hub = Hub(self.views, config.interval)
        self.feed = Feed(config.url, self.floor, self.rounds, self.hub.changed, self.hub.feed_status, config.credentials)
        self.findings = findings or FloorFindings(config.dataset, config.floor_every)
        self.stop = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []


def _html(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status, headers=HEADERS)


async def floor_page(request: Request) -> Response:
    pit: Pit = request.app.state.pit
    return _html(pit.views.floor_page(pit.hub.feed_text))


async def table_page(request: Request) -> Response:
    pit: Pit = request.app.state.pit
    table = request.path_params["table"]
    if not TABLE_ID.fullmatch(table) or table not in pit.floor.tables:
        return _html(pit.views.page("missing.html", table=table), 404)
    return _html(pit.views.table_page(table, pit.hub.feed_text))


async def report_page(request: Request) -> Response:
    pit: Pit = request.app.state.pit
    f = pit.findings
    curves = {name: list(t.day.hold_curve) for name, t in pit.floor.tables.items() if t.day is not None}
    latest = f.latest
    at = datetime.fromtimestamp(f.at, UTC).strftime("%Y-%m-%d %H:%M:%S") if f.at else ""
    return _html(pit.views.page("report.html", live_plot=plots.hold_through_day(curves), dataset=str(f.dataset or ""),
                                f=latest, error=f.error, at=at,
                                theo_plot=plots.theo_against_actual(latest.tables) if latest else ""))


async def events(request: Request) -> Response:
    """Server-Sent Events: every fragment the page shows, then each change. A table not heard from
    yet (a page server started again while the broker is down) is waited for: the page is told so,
    and sent the table's fragments once its lines arrive. The stream ends when the page server
    stops, or when the session it was opened with ends (logged out, expired)."""
    pit: Pit = request.app.state.pit
    table = request.query_params.get("table") or None
    if table is not None and not TABLE_ID.fullmatch(table):
        return Response("no such table", 404)
    token = request.cookies.get(COOKIE)

    def ended() -> bool:
        return pit.stop.is_set() or (pit.login is not None and pit.login.sessions.user(token) is None)

    async def wait_for_table(name: str) -> AsyncIterator[bytes]:
        yield _sse("waiting", _json(text=f"waiting for table {name}: not heard from since the page server started"))
        feed = None
        while name not in pit.floor.tables and not ended():
            if pit.hub.feed_text != feed:
                feed = pit.hub.feed_text
                yield _sse("feed", _json(text=feed))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(pit.stop.wait(), WAIT_EVERY)

    async def stream() -> AsyncIterator[bytes]:
        yield b"retry: 1000\n\n"
        if table is not None and table not in pit.floor.tables:
            async for chunk in wait_for_table(table):
                yield chunk
        if ended():
            return
        client = pit.hub.join(table)
        try:
            quiet = 0.0
            while not ended():
                try:
                    item = await asyncio.wait_for(client.queue.get(), TICK)
                except TimeoutError:
                    quiet += TICK
                    if quiet >= PING:
                        quiet = 0.0
                        yield b": ping\n\n"
                    continue
                quiet = 0.0
                chunks = []
                while item is not None:
                    event, data = item
                    chunks.append(_sse(event, data))
                    try:
                        item = client.queue.get_nowait()
                    except asyncio.QueueEmpty:
                        break
                if chunks:
                    yield b"".join(chunks)
                if item is None:
                    return
        finally:
            pit.hub.leave(client)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _sse(event: str, data: bytes) -> bytes:
    return b"event: " + event.encode() + b"\ndata: " + data + b"\n\n"


def _json(**data: Any) -> bytes:
    return orjson.dumps(data)


def end_streams(app: Starlette) -> None:
    """The page server is stopping: end every open live stream now (uvicorn waits for open
    responses before the app's own shutdown). Call it on the app's event loop."""
    pit: Pit | None = getattr(app.state, "pit", None)
    if pit is None:
        return
    pit.stop.set()
    for c in list(pit.hub.clients):
        c.put("end", b"{}")
        with contextlib.suppress(asyncio.QueueFull):
            c.queue.put_nowait(None)


async def health(request: Request) -> Response:
    pit: Pit = request.app.state.pit
    return JSONResponse({"tables": len(pit.floor.tables), "lines": pit.feed.lines, "refused": pit.feed.refused,
                         "clients": len(pit.hub.clients), "feed": pit.hub.feed_text, "broker": pit.feed.connected})


async def login_page(request: Request) -> Response:
    pit: Pit = request.app.state.pit
    if pit.login is None:
        return RedirectResponse("/", 303)
    error = ""
    nxt = request.query_params.get("next", "/")
    if request.method == "POST":
        form = parse_qs((await request.body())[:4096].decode("utf-8", "replace"))
        user = (form.get("user") or [""])[0][:64]
        password = (form.get("password") or [""])[0][:256]
        nxt = (form.get("next") or ["/"])[0]
        token = await asyncio.to_thread(pit.login.check, user, password)
        if token is not None:
            response = RedirectResponse(_local(nxt), 303)
            response.set_cookie(COOKIE, token, httponly=True, samesite="strict", secure=pit.config.secure_cookie,
                                max_age=int(pit.login.sessions.seconds))
            return response
        error = "Wrong user or password (or too many tries: wait a minute)."
    return _html(pit.views.page("login.html", error=error, next=_local(nxt)), 401 if error else 200)


async def logout(request: Request) -> Response:
    pit: Pit = request.app.state.pit
    if pit.login is not None:
        pit.login.sessions.end(request.cookies.get(COOKIE))
    response = RedirectResponse("/login" if pit.login else "/", 303)
    response.delete_cookie(COOKIE)
    return response


def _local(path: str) -> str:
    """Only a path on this site (never another host) to go to after the login."""
    return path if path.startswith("/") and not path.startswith("//") and "\\" not in path else "/"


class LoginRequired:
    """With a login configured, everything but the login page and the static files needs a session
    (a plain ASGI middleware: the live feed's stream passes through untouched)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        pit: Pit = request.app.state.pit
        path = request.url.path
        if (pit.login is None or path in ("/login", "/healthz") or path.startswith("/static/")
                or pit.login.sessions.user(request.cookies.get(COOKIE)) is not None):
            await self.app(scope, receive, send)
            return
        response: Response = (Response("login required", 401) if path == "/events"
                              else RedirectResponse("/login?next=" + quote(path), 303))
        await response(scope, receive, send)


def build(config: PitConfig, *, edges: Edges | None = None, findings: FloorFindings | None = None) -> Starlette:
    """The app for ``config``."""
    pit: Pit | None = None

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        nonlocal pit
        pit = app.state.pit = Pit(config, edges, findings)
        pit.tasks = [asyncio.create_task(pit.feed.run(pit.stop)), asyncio.create_task(pit.hub.run(pit.stop))]
        pit.findings.start()
        try:
            yield
        finally:
            end_streams(app)
            pit.findings.stop()
            _, pending = await asyncio.wait(pit.tasks, timeout=2.0)
            for task in pending:  # a connect to a broker that is not there: given up
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            close = getattr(pit.edges, "close", None)
            if close is not None:
                close()

    routes = [
        Route("/", floor_page),
        Route("/table/{table}", table_page),
        Route("/report", report_page),
        Route("/events", events),
        Route("/healthz", health),
        Route("/login", login_page, methods=["GET", "POST"]),
        Route("/logout", logout),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(LoginRequired)])


__all__ = ["PitConfig", "build"]
