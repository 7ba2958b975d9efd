"""Logging out ends the live streams the session opened: another tab of the same browser stops
receiving the floor within a few seconds and goes to the login. ``tablectl pit`` with a login in
its own process, a real Chromium and plain HTTP."""

from __future__ import annotations

import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tablectl.supervisor import hash_credential

from .conftest import Page, isolated_env, start_page, until

PASSWORD = "tall-green-ledger-42"

@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    root = tmp_path_factory.mktemp("pit-logout")
    users = root / "users.toml"
    users.write_text(f'[users]\n"pit-anna" = "{hash_credential(PASSWORD, n=2**12)}"\n', encoding="utf-8")
    page = start_page(["nats://127.0.0.1:9", "--users", str(users)], isolated_env(root))
    yield page
    page.stop()

def log_in(p: Any, url: str) -> None:
    p.goto(url)
    p.fill("input[name=user]", "pit-anna")
    p.fill("input[name=password]", PASSWORD)
    p.click("button[type=submit]")
    until(lambda: p.query_selector("#tiles") and p.inner_text("#live") == "live", 10.0, "the floor, live, after the login")

def where(p: Any) -> str:
    """The tab's address now (Playwright's ``page.url`` is only brought up to date by its own calls)."""
    from playwright.sync_api import Error

    try:
        return str(p.evaluate("location.href"))
    except Error:  # between two documents
        return ""


def test_logging_out_in_one_tab_sends_the_other_open_tab_to_the_login(browser: Any, guarded: Page) -> None:
    context = browser.new_context()
    first = context.new_page()
    log_in(first, guarded.url)
    second = context.new_page()
    second.goto(guarded.url)
    until(lambda: second.inner_text("#live") == "live", 10.0, "the second tab live")
    second.click("text=Log out")
    second.wait_for_url("**/login", timeout=5000)
    until(lambda: "/login" in where(first), 6.0, lambda: f"the first tab at the login (it is at {where(first)})")
    assert where(first) == guarded.url + "login?next=%2F"
    context.close()

def test_a_stream_opened_before_the_logout_ends_within_a_few_seconds_of_it(guarded: Page) -> None:
    login = urllib.request.Request(guarded.url + "login", data=urllib.parse.urlencode(
        {"user": "pit-anna", "password": PASSWORD, "next": "/"}).encode())

    class Keep(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    opener = urllib.request.build_opener(Keep)
    try:
        opener.open(login, timeout=10)
    except urllib.error.HTTPError as e:
        cookie = e.headers["Set-Cookie"].split(";")[0]
    stream = urllib.request.urlopen(urllib.request.Request(guarded.url + "events", headers={"Cookie": cookie}), timeout=10)
    assert stream.readline() == b"retry: 1000\n"
    try:
        opener.open(urllib.request.Request(guarded.url + "logout", headers={"Cookie": cookie}), timeout=10)
    except urllib.error.HTTPError as e:
        assert e.code == 303
    at = time.monotonic()
    while stream.readline():  # the fragments sent before the logout, then the end of the stream
        assert time.monotonic() - at < 4.0, "the stream still open 4 s after the logout"
    assert time.monotonic() - at < 4.0
    stream.close()

