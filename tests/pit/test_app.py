"""The pit's web app over real HTTP, served in this process (``serving.Served``: uvicorn in a
thread, urllib for the browser), its floor fed plain log lines (``test_state.Log``): the pages, the
headers every page carries, the live stream, the floor report view and the login."""

from __future__ import annotations

import re
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from tablectl.pit.app import PitConfig, build
from tablectl.pit.floorview import FloorFindings, findings
from tablectl.supervisor import hash_credential

from .plainfloor import DEALER, report
from .serving import Served
from .test_state import Log, a_round, started

NO_BROKER = "http://127.0.0.1:9"  # no NATS broker there: the page serves what it has, and says so
PAYLOAD = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
PASSWORD = "tall-green-ledger-42"


def edges(game: str, decks: int | None, rules: dict[str, Any] | None) -> dict[str, float]:
    return {"primary": 0.0, "tie": 0.15}


@pytest.fixture(scope="module")
def page() -> Iterator[Served]:
    """The page without a login: tables A (a round played, the house won $4 of $16), B and X (its
    dealer's id an HTML payload)."""
    served = Served(build(PitConfig(url=NO_BROKER, interval=0.05), edges=edges, findings=FloorFindings(None)))
    a, b, x = Log("A"), Log("B"), Log("X")
    served.take(started(a) + a_round(a, 1, net=-400) + started(b) + started(x) + [x("dealer_change", dealer=PAYLOAD, burns_due=0)])
    served.a_log = a  # type: ignore[attr-defined]
    yield served
    served.stop()


@pytest.fixture(scope="module")
def guarded() -> Iterator[Served]:
    """The page with a login (user pit-anna), behind a TLS proxy (the cookie only over HTTPS), with
    the approved math's own edges."""
    users = {"pit-anna": hash_credential(PASSWORD, n=2**12)}
    served = Served(build(PitConfig(url=NO_BROKER, users=users, secure_cookie=True)))
    yield served
    served.stop()


class Stream:
    """An open ``/events`` stream, read event by event."""

    def __init__(self, page: Served, query: str = "") -> None:
        self.r = urllib.request.urlopen(page.url + "/events" + query, timeout=5)
        self.first = self.r.readline().decode()

    def next(self) -> tuple[str, dict[str, Any]]:
        event = ""
        while True:
            line = self.r.readline().decode()
            assert line, "the stream ended"
            if line.startswith("event: "):
                event = line[7:].strip()
            elif line.startswith("data: "):
                return event, orjson.loads(line[6:])

    def close(self) -> None:
        self.r.close()


@pytest.fixture
def stream(page: Served) -> Iterator[Any]:
    opened: list[Stream] = []

    def open_(query: str = "") -> Stream:
        opened.append(Stream(page, query))
        return opened[-1]

    yield open_
    for s in opened:
        s.close()


def csp(reply: Any) -> dict[str, str]:
    """The Content-Security-Policy's directives: name -> sources."""
    parts = [p.strip().split(" ", 1) for p in reply.header("Content-Security-Policy").split(";") if p.strip()]
    return {p[0]: p[1] if len(p) > 1 else "" for p in parts}


def form(**fields: str) -> bytes:
    return urllib.parse.urlencode(fields).encode()


# ---------------------------------------------------------------- the pages


def test_the_floor_page_shows_a_tile_for_every_table_heard_from(page: Served) -> None:
    r = page.get("/")
    assert r.status == 200 and r.header("Content-Type").startswith("text/html")
    assert re.findall(r'class="tile [^"]*" data-table="([^"]+)"', r.body) == ["A", "B", "X"]


@pytest.mark.parametrize("path", ["/", "/table/A", "/report", "/table/nowhere"])
def test_every_page_carries_the_strict_content_security_policy_and_is_never_framed_or_cached(page: Served, path: str) -> None:
    r = page.get(path)
    policy = csp(r)
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'"  # no inline script, no eval, no other site
    assert (policy["frame-ancestors"], policy["base-uri"], policy["form-action"]) == ("'none'", "'none'", "'self'")
    assert r.header("X-Frame-Options") == "DENY"
    assert r.header("X-Content-Type-Options") == "nosniff"
    assert r.header("Referrer-Policy") == "no-referrer"
    assert r.header("Cache-Control") == "no-store"


def test_the_pages_scripts_are_files_of_the_site_as_the_policy_demands(page: Served) -> None:
    body = page.get("/").body
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", body, re.DOTALL)
    assert scripts == [(' src="/static/pit.js" defer', "")]
    js = page.get("/static/pit.js")
    assert js.status == 200 and "javascript" in js.header("Content-Type")


def test_a_tables_page_shows_its_tile_its_layout_and_its_rounds(page: Served) -> None:
    r = page.get("/table/A")
    assert r.status == 200
    assert "<h1>Table A</h1>" in r.body
    assert re.search(r'data-table="A" data-round="[0-9]+"', r.body)  # the tile, at the round in play
    assert 'id="layout"' in r.body and 'id="rounds"' in r.body


def test_a_table_never_heard_from_is_not_found(page: Served) -> None:
    r = page.get("/table/Z9")
    assert r.status == 404
    assert "No such table" in r.body and "“Z9”" in r.body


def test_html_in_an_address_is_shown_as_text_on_the_not_found_page(page: Served) -> None:
    r = page.get("/table/" + urllib.parse.quote("<img src=x onerror=alert(1)>"))
    assert r.status == 404
    assert "<img src=x" not in r.body
    assert "&lt;img src=x onerror=alert(1)&gt;" in r.body


@pytest.mark.parametrize("path", ["/", "/table/X"])
def test_html_in_a_dealer_id_is_shown_as_text(page: Served, path: str) -> None:
    body = page.get(path).body
    assert PAYLOAD not in body and "onerror=\"alert" not in body
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in body


def test_health_counts_the_tables_the_lines_and_the_lines_refused(page: Served) -> None:
    before = orjson.loads(page.get("/healthz").body)
    assert (before["tables"], before["broker"]) == (3, False)
    assert "broker unreachable" in before["feed"]
    record = Log("B")("dealer_change", dealer="d", burns_due=0)
    page.on_loop(lambda: page.pit.feed.take("tablectl.A.log", orjson.dumps(record)))  # B's line on A's subject
    after = orjson.loads(page.get("/healthz").body)
    assert (after["refused"], after["lines"], after["tables"]) == (before["refused"] + 1, before["lines"], 3)


def test_without_a_login_there_is_no_login_page_and_logging_out_goes_to_the_floor(page: Served) -> None:
    r = page.get("/login")
    assert (r.status, r.header("Location")) == (303, "/")
    r = page.get("/logout")
    assert (r.status, r.header("Location")) == (303, "/")
    assert "Log out" not in page.get("/").body


# ---------------------------------------------------------------- the live stream


def test_the_floor_stream_starts_with_the_feed_state_then_every_tile_then_the_alarms(page: Served, stream: Any) -> None:
    s = stream()
    assert s.first == "retry: 1000\n"
    got = [s.next() for _ in range(3)]
    assert [e for e, _ in got] == ["feed", "tiles", "alarms"]
    assert "broker unreachable" in got[0][1]["text"]
    tiles = got[1][1]["tiles"]
    assert [name for name, _ in tiles] == ["A", "B", "X"]
    assert all(f'data-table="{name}"' in html for name, html in tiles)


def test_a_tables_stream_gives_its_tile_layout_and_rounds(page: Served, stream: Any) -> None:
    s = stream("?table=A")
    got = [s.next() for _ in range(4)]
    assert [e for e, _ in got] == ["feed", "tile", "layout", "rounds"]
    assert got[1][1]["table"] == "A" and 'data-table="A"' in got[1][1]["html"]


def test_a_round_dealt_while_a_table_page_is_open_reaches_it(page: Served, stream: Any) -> None:
    s = stream("?table=A")
    for _ in range(4):
        s.next()
    a = page.a_log  # type: ignore[attr-defined]
    page.take(a_round(a, 2)[:3])
    event, data = s.next()
    while event == "feed":  # the stream's state may be told again first
        event, data = s.next()
    assert event == "tile" and 'data-round="2"' in data["html"]


# ---------------------------------------------------------------- the floor report view


def test_without_a_dataset_the_report_says_how_to_get_one_beside_the_live_days_plot(page: Served) -> None:
    r = page.get("/report")
    assert r.status == 200
    assert "No dataset: start the page with <code>--floor DATASET</code>" in r.body
    assert "Hold through the day, per table" in r.body
    assert "A: 25.0%" in r.body  # table A: $4 won of $16 wagered


def test_the_latest_findings_are_shown_with_when_the_flagged_rows_and_the_tables_named(page: Served) -> None:
    f = page.pit.findings

    def show() -> None:
        f.dataset, f.latest, f.at, f.error = Path("ds-plain"), findings(report()), 1777701600.0, None

    page.on_loop(show)
    try:
        body = page.get("/report").body
    finally:
        page.on_loop(lambda: setattr(f, "dataset", None) or setattr(f, "latest", None) or setattr(f, "at", None))
    assert "Latest floor report over ds-plain, worked out at 2026-05-02 06:00:00 UTC" in body
    assert "1 flagged row(s)" in body
    assert re.search(r'<tr class="flag"><td>T-low</td>', body) and re.search(r'<tr class=""><td>T-fair</td>', body)
    assert "Theoretical win against actual win, per table" in body
    assert ">T-low</text>" in body and ">T-fair</text>" in body  # each table named on the plot
    assert DEALER not in body and "&lt;b onclick=x&gt;D-7&lt;/b&gt;" in body


def test_a_report_that_could_not_be_worked_out_says_why(page: Served) -> None:
    f = page.pit.findings
    page.on_loop(lambda: setattr(f, "dataset", Path("ds-x")) or setattr(f, "error", "DatasetError: <not ready>"))
    try:
        body = page.get("/report").body
    finally:
        page.on_loop(lambda: setattr(f, "dataset", None) or setattr(f, "error", None))
    assert '<p class="error">DatasetError: &lt;not ready&gt;</p>' in body


# ---------------------------------------------------------------- the login


def log_in(guarded: Served, password: str = PASSWORD, nxt: str = "/") -> Any:
    return guarded.get("/login", data=form(user="pit-anna", password=password, next=nxt))


def session_of(reply: Any) -> str:
    m = re.match(r"pit_session=([^;]+)", reply.header("Set-Cookie"))
    assert m, reply.headers
    return f"pit_session={m.group(1)}"


@pytest.mark.parametrize(("path", "to"), [("/", "/login?next=/"), ("/table/A", "/login?next=/table/A"),
                                          ("/report", "/login?next=/report")])
def test_with_a_login_a_page_without_a_session_goes_to_the_login_and_back(guarded: Served, path: str, to: str) -> None:
    r = guarded.get(path)
    assert (r.status, r.header("Location")) == (303, to)


def test_with_a_login_the_live_stream_without_a_session_is_refused(guarded: Served) -> None:
    r = guarded.get("/events")
    assert (r.status, r.body) == (401, "login required")


def test_with_a_login_health_and_the_static_files_need_no_session(guarded: Served) -> None:
    assert guarded.get("/healthz").status == 200
    assert guarded.get("/static/pit.css").status == 200


def test_the_login_page_is_served_with_its_form_and_the_strict_policy(guarded: Served) -> None:
    r = guarded.get("/login?next=/table/A")
    assert r.status == 200
    assert '<form method="post" action="/login">' in r.body
    assert 'name="password" type="password"' in r.body
    assert '<input type="hidden" name="next" value="/table/A">' in r.body
    assert "<script" not in r.body
    assert csp(r)["form-action"] == "'self'"


def test_a_wrong_password_is_refused_with_401_and_no_session(guarded: Served) -> None:
    r = log_in(guarded, "not-the-password")
    assert r.status == 401
    assert '<p class="error">Wrong user or password' in r.body
    assert r.header("Set-Cookie") == ""
    assert guarded.get("/", cookie="pit_session=guessed").status == 303


def test_the_right_password_opens_the_page_asked_for_with_a_strict_session_cookie(guarded: Served) -> None:
    r = log_in(guarded, nxt="/report")
    assert (r.status, r.header("Location")) == (303, "/report")
    cookie = r.header("Set-Cookie")
    attributes = {a.strip().split("=")[0].lower() for a in cookie.split(";")[1:]}
    assert {"httponly", "secure", "samesite", "max-age"} <= attributes
    assert "samesite=strict" in cookie.lower() and "max-age=43200" in cookie.lower()  # one shift: 12 h
    floor = guarded.get("/", cookie=session_of(r))
    assert floor.status == 200 and '<a href="/logout">Log out</a>' in floor.body


@pytest.mark.parametrize("elsewhere", ["//evil.example/x", "https://evil.example/", "/\\evil.example", "report"])
def test_after_the_login_the_page_never_goes_to_another_site(guarded: Served, elsewhere: str) -> None:
    r = log_in(guarded, nxt=elsewhere)
    assert (r.status, r.header("Location")) == (303, "/")


def test_logging_out_ends_the_session(guarded: Served) -> None:
    cookie = session_of(log_in(guarded))
    assert guarded.get("/", cookie=cookie).status == 200
    r = guarded.get("/logout", cookie=cookie)
    assert (r.status, r.header("Location")) == (303, "/login")
    assert re.match(r'pit_session=("")?;', r.header("Set-Cookie"))  # the browser's copy is cleared too
    assert guarded.get("/", cookie=cookie).status == 303
