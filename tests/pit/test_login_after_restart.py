"""With a login, an open page whose session the page server no longer knows (it was started again;
the sessions live in its memory) goes to the login, and back where it was after it. ``tablectl pit
--users`` in its own process, started again on its port, and a real Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Error

from tablectl.supervisor import hash_credential

from .conftest import isolated_env, start_page, until

PASSWORD = "tall-green-ledger-42"


def where(p: Any) -> str:
    """The tab's address now (Playwright's ``page.url`` is only brought up to date by its own calls)."""
    try:
        return str(p.evaluate("location.href"))
    except Error:  # between two documents
        return ""


def log_in(p: Any) -> None:
    p.fill("input[name=user]", "pit-anna")
    p.fill("input[name=password]", PASSWORD)
    p.click("button[type=submit]")


def test_an_open_page_goes_to_the_login_after_the_page_server_restarts_and_back_after_it(browser: Any,
                                                                                       tmp_path: Path) -> None:
    users = tmp_path / "users.toml"
    users.write_text(f'[users]\n"pit-anna" = "{hash_credential(PASSWORD, n=2**12)}"\n', encoding="utf-8")
    args, env = ["nats://127.0.0.1:9", "--users", str(users)], isolated_env(tmp_path)
    page = start_page(args, env)
    context = browser.new_context()
    try:
        tab = context.new_page()
        tab.goto(page.url + "report")
        log_in(tab)
        until(lambda: where(tab) == page.url + "report" and tab.inner_text("#live") == "live", 10.0,
              "the report view, live, after the login")
        page.stop()
        page = start_page(args, env, listen=page.url.removeprefix("http://").rstrip("/"))
        until(lambda: where(tab) == page.url + "login?next=%2Freport", 10.0,
              lambda: f"the tab at the login (it is at {where(tab)})")
        log_in(tab)
        until(lambda: where(tab) == page.url + "report" and tab.inner_text("#live") == "live", 10.0,
              lambda: f"the report view again, live (at {where(tab)})")
    finally:
        context.close()
        page.stop()
