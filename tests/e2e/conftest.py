"""Browser tests: Playwright driving Debian's Chromium against Django's live server.

Skipped (with the reason) only where no Chromium is installed; `.ci/run` installs it.
"""

from __future__ import annotations

import os
import shutil

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# around it are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("DRIFTER_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(
            f"no Chromium at {CHROMIUM}: install Debian's chromium (apt-get install chromium)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server, transactional_db, catalogue):
    """A fresh browser page; `page.base_url` is the live server."""
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.base_url = live_server.url
    yield page
    context.close()
    _wait_for_the_live_server_to_finish()


def _wait_for_the_live_server_to_finish(seconds: float = 15.0) -> None:
    """A page closed mid-load leaves the live server's threads answering its last requests
    (a chart's data, a poll). On PostgreSQL the test's flush (TRUNCATE, table by table) can
    then deadlock with such a request's query, and the flush fails, leaving this test's rows
    to the next test. So the teardown waits until no other connection to the test database
    is busy. SQLite's flush deletes and waits on its busy timeout instead."""
    import time

    from django.db import connection

    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + seconds
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
                " AND state <> 'idle'"
            )
            if cursor.fetchone()[0] == 0:
                return
            time.sleep(0.05)


@pytest.fixture
def signed_up_page(page):
    """A page whose browser has signed up (and so is logged in) as `cowpoke`."""
    page.goto("/accounts/signup/")
    page.fill("#id_username", "cowpoke")
    page.fill("#id_password1", "saddle-up-partner-1")
    page.fill("#id_password2", "saddle-up-partner-1")
    page.click("button[type=submit]")
    page.wait_for_url("**/")
    return page
