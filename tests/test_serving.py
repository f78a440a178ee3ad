"""`make run` serves as production does: uvicorn (ASGI), DEBUG off, WhiteNoise, styled error
pages."""

from __future__ import annotations

import contextlib
import gzip
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.error import HTTPError
from urllib.parse import urlencode, urlsplit
from urllib.request import HTTPCookieProcessor, HTTPRedirectHandler, Request, build_opener

import psycopg
import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.test import Client
from django.urls import path

from config import urls as site_urls
from tests import workers
from tests.factories import UserFactory

BASE_DIR = Path(__file__).resolve().parent.parent
UNSET = (
    "DJANGO_DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DRIFTER_HTTPS",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)


def _raise_server_error(request):
    raise RuntimeError("a bug")


def _raise_permission_denied(request):
    raise PermissionDenied


def _raise_suspicious(request):
    raise SuspiciousOperation("a malformed request")


# The site's own URLs plus views that fail, so the error handlers run through the whole stack.
urlpatterns = [
    path("test-errors/500/", _raise_server_error),
    path("test-errors/403/", _raise_permission_denied),
    path("test-errors/400/", _raise_suspicious),
    *site_urls.urlpatterns,
]


def _in_site_look(html: str) -> bool:
    """The page is dressed as every other page: the site's stylesheet, favicon and header."""
    return all(
        piece in html
        for piece in ("drifter/site.css", "drifter/favicon.svg", 'class="site"', 'class="brand"')
    )


@pytest.mark.django_db
def test_unknown_card_answers_the_styled_404_without_the_url_list(client, catalogue):
    response = client.get("/cards/NOPE-999/")

    html = response.content.decode()
    assert response.status_code == 404
    assert _in_site_look(html)
    assert "Nothing out here" in html and "/cards/NOPE-999/" in html
    assert "URLconf" not in html and "Traceback" not in html


@pytest.mark.urls(__name__)
def test_a_server_error_answers_the_styled_500_page_without_touching_the_database():
    # No django_db mark: a query while rendering the page would fail this test.
    response = Client(raise_request_exception=False).get("/test-errors/500/")

    html = response.content.decode()
    assert response.status_code == 500
    assert _in_site_look(html)
    assert "Something broke on our side" in html
    assert "a bug" not in html and "Traceback" not in html


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_a_forbidden_page_answers_the_styled_403_offering_a_log_in(client):
    response = client.get("/test-errors/403/")

    html = response.content.decode()
    assert response.status_code == 403
    assert _in_site_look(html)
    assert "Not yours to see" in html and 'href="/accounts/login/"' in html


@pytest.mark.django_db
def test_a_form_sent_without_its_csrf_token_answers_the_styled_403():
    response = Client(enforce_csrf_checks=True).post(
        "/accounts/login/", {"username": "demo", "password": "x"}
    )

    html = response.content.decode()
    assert response.status_code == 403
    assert _in_site_look(html)
    assert "That form went stale" in html


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_a_malformed_request_answers_the_styled_400(client):
    response = client.get("/test-errors/400/")

    html = response.content.decode()
    assert response.status_code == 400
    assert _in_site_look(html)
    assert "a malformed request" not in html


def test_favicon_ico_is_served_at_the_site_root(client):
    response = client.get("/favicon.ico")

    assert response.status_code == 200
    assert b"".join(response.streaming_content)[:4] == b"\x00\x00\x01\x00"  # an ICO header


def test_make_dev_swaps_in_the_development_server_and_keeps_the_procfiles_other_processes():
    made = subprocess.run(
        ["make", "--no-print-directory", "--always-make", "var/Procfile.dev"],
        cwd=BASE_DIR, capture_output=True, text=True, timeout=60,
    )  # fmt: skip

    def processes(procfile: Path) -> dict[str, str]:
        lines = procfile.read_text().splitlines()
        return dict(line.split(":", 1) for line in lines if line.strip())

    assert made.returncode == 0, made.stderr
    run, dev = processes(BASE_DIR / "Procfile"), processes(BASE_DIR / "var" / "Procfile.dev")
    dev_web, run_web = dev.pop("web"), run.pop("web")
    assert "uvicorn config.asgi:application" in dev_web and "--reload" in dev_web
    assert "uvicorn config.asgi:application" in run_web and "--reload" not in run_web
    assert dev == run


# --- ensure_database: `make run` on PostgreSQL creates the database it is pointed at.


def _postgres_url(name: str) -> str:
    """A URL for database `name` on the suite's PostgreSQL server (the local one on SQLite)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        url = "postgres://postgres@127.0.0.1:5432/postgres"
    return urlsplit(url)._replace(path=f"/{name}").geturl()


def _manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if k not in UNSET} | env
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR, env=full, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


@pytest.fixture
def throwaway_database():
    name = f"drifter_ensure_{uuid.uuid4().hex[:10]}"
    try:
        server = psycopg.connect(_postgres_url("postgres"), autocommit=True)
    except psycopg.OperationalError as exc:
        pytest.skip(f"no PostgreSQL server to create a database on: {exc}")

    def exists() -> bool:
        return bool(
            server.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        )

    yield name, exists
    server.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    server.close()


def test_ensure_database_creates_a_missing_postgres_database_once(throwaway_database):
    name, exists = throwaway_database
    assert not exists()

    first = _manage("ensure_database", env={"DATABASE_URL": _postgres_url(name)})
    again = _manage("ensure_database", env={"DATABASE_URL": _postgres_url(name)})

    assert first.returncode == 0, first.stderr
    assert exists()
    assert f"Database {name} created." in first.stdout
    assert again.returncode == 0, again.stderr
    assert f"Database {name} exists." in again.stdout


def test_ensure_database_leaves_sqlite_to_create_its_own_file(tmp_path):
    url = f"sqlite:///{tmp_path / 'drifter.sqlite3'}"

    out = _manage("ensure_database", env={"DATABASE_URL": url, "DRIFTER_VAR_DIR": str(tmp_path)})

    assert out.returncode == 0, out.stderr
    assert "nothing to do" in out.stdout
    assert not (tmp_path / "drifter.sqlite3").exists()


# --- The Procfile's web process itself, as `make run` starts it.


class _NoRedirects(HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class _Browser:
    """Plain HTTP with cookies, redirects not followed, every status answered (no raising)."""

    def __init__(self, base: str):
        self.base = base
        self.cookies = CookieJar()
        self.opener = build_opener(HTTPCookieProcessor(self.cookies), _NoRedirects)

    def get(self, path: str, **headers: str):
        return self._send(Request(self.base + path, headers=headers))

    def post(self, path: str, data: dict[str, str]):
        return self._send(Request(self.base + path, data=urlencode(data).encode()))

    def _send(self, request: Request):
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.headers, response.read()
        except HTTPError as error:
            return error.code, error.headers, error.read()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _healthz(browser: _Browser) -> int | None:
    try:
        return browser.get("/healthz")[0]
    except OSError:  # not listening yet
        return None


@pytest.fixture(scope="module")
def make_run_web(django_db_setup, tmp_path_factory):
    """The `web` line of the Procfile on the test database, with nothing in the environment
    beyond that (no DJANGO_DEBUG, no SECRET_KEY) and static files collected as `make run` does.

    Its tests use `transactional_db`: what they write is committed, so the server sees it, and
    no test transaction holds SQLite's write lock while the server logs someone in.
    """
    env = {"DATABASE_URL": workers.test_database_url()}
    var = tmp_path_factory.mktemp("make-run-var")
    env["DRIFTER_VAR_DIR"] = str(var)
    collected = _manage("collectstatic", "--noinput", env=env)
    assert collected.returncode == 0, collected.stderr
    web = next(
        line.removeprefix("web:")
        for line in (BASE_DIR / "Procfile").read_text().splitlines()
        if line.startswith("web:")
    )
    port = _free_port()
    log_path = var / "web.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            ["sh", "-c", f"exec {web}"], cwd=BASE_DIR, start_new_session=True,
            env={k: v for k, v in os.environ.items() if k not in UNSET} | env | {"PORT": str(port)},
            stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    browser = _Browser(f"http://127.0.0.1:{port}")
    deadline = time.monotonic() + 60  # a bound on start-up, not a measure of it
    while _healthz(browser) != 200:
        if proc.poll() is not None or time.monotonic() > deadline:
            _stop(proc, signal.SIGKILL)
            pytest.fail(f"the web process did not serve:\n{log_path.read_text()}")
        time.sleep(0.2)
    yield browser
    _stop(proc, signal.SIGTERM)


def _stop(proc: subprocess.Popen, sig: signal.Signals) -> None:
    """Signal the server's whole process group (uvicorn and its workers), then reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, sig)
    proc.wait(timeout=30)


def test_make_run_serves_with_uvicorn_and_debug_off(make_run_web, transactional_db, catalogue):
    status, headers, body = make_run_web.get("/cards/NOPE-999/")

    assert status == 404
    assert headers["Server"].startswith("uvicorn")
    assert "Nothing out here" in body.decode() and "URLconf" not in body.decode()
    assert make_run_web.get("/cards/HSD-001/")[0] == 200


def test_make_run_serves_collected_static_files_gzipped(make_run_web, transactional_db):
    status, headers, body = make_run_web.get(
        "/static/drifter/site.css", **{"Accept-Encoding": "gzip"}
    )

    assert status == 200
    assert headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(body) == (BASE_DIR / "config/static/drifter/site.css").read_bytes()
    assert make_run_web.get("/favicon.ico")[0] == 200


def test_make_run_gzips_pages_and_links_hashed_stylesheets_kept_for_a_year(
    make_run_web, transactional_db, catalogue
):
    status, headers, body = make_run_web.get("/cards/", **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    page = gzip.decompress(body).decode()
    assert "Vary" in headers and "Accept-Encoding" in headers["Vary"]
    # Its stylesheets under content-hashed names, served as long-lived and immutable...
    sheets = re.findall(r'<link rel="stylesheet" href="(/static/[^"]+)"', page)
    assert sheets and all(re.search(r"\.[0-9a-f]{12}\.css$", sheet) for sheet in sheets)
    for sheet in sheets:
        status, headers, _ = make_run_web.get(sheet)
        assert status == 200 and "immutable" in headers["Cache-Control"], sheet
        assert "max-age=315360000" in headers["Cache-Control"]
    # ... while a plain name, which nothing links, is revalidated within a minute.
    assert make_run_web.get("/static/drifter/site.css")[1]["Cache-Control"] == "max-age=60, public"
    # A client that does not accept gzip gets the page as it is.
    status, headers, plain = make_run_web.get("/cards/")
    assert status == 200 and "Content-Encoding" not in headers
    assert plain.startswith(b"<!doctype html>") and len(plain) > 3 * len(body)


def test_make_run_serves_the_swagger_ui_with_its_assets(make_run_web, transactional_db):
    status, _, body = make_run_web.get("/api/docs/")

    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', body.decode())
    assert status == 200
    assert any("swagger-ui-bundle" in asset for asset in assets)
    assert all(make_run_web.get(asset)[0] == 200 for asset in assets)


def test_make_run_logs_in_over_plain_http(make_run_web, transactional_db):
    user = UserFactory(password="saddle-up-partner-1")
    body = make_run_web.get("/accounts/login/")[2].decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)[1]

    status, headers, _ = make_run_web.post(
        "/accounts/login/",
        {
            "username": user.username,
            "password": "saddle-up-partner-1",
            "csrfmiddlewaretoken": token,
        },
    )
    tokens_page = make_run_web.get("/accounts/tokens/")

    assert (status, headers["Location"]) == (302, "/")
    assert {cookie.name for cookie in make_run_web.cookies} >= {"sessionid", "csrftoken"}
    assert not any(cookie.secure for cookie in make_run_web.cookies)
    assert tokens_page[0] == 200 and user.username in tokens_page[2].decode()
