"""Shared fixtures: the real catalogue loaded once per test database, users, API clients."""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from tests.factories import UserFactory


def _pin_this_test_process_broker() -> None:
    """Under pytest-xdist the settings gave this test process (gw0, gw1, ...) a broker of its
    own: a folder of the filesystem broker, or a Redis database (config/settings.py,
    TEST_WORKER). Written into the environment, so that every process a test starts (Celery
    workers, the web server, manage.py) inherits it as it is, and its test database by
    DATABASE_URL (tests/workers.py)."""
    if not settings.TEST_WORKER:
        return
    os.environ["CELERY_FS_BROKER_DIR"] = str(settings.BROKER_DIR)
    if "CELERY_BROKER_URL" in os.environ:
        os.environ["CELERY_BROKER_URL"] = settings.CELERY_BROKER_URL
    os.environ["DRIFTER_TEST_BROKER_PINNED"] = "true"


_pin_this_test_process_broker()
PARALLEL_ON_REDIS = bool(os.environ.get("PYTEST_XDIST_WORKER")) and (
    settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://"))
)


@contextlib.contextmanager
def _redis_server_lock(exclusive: bool):
    """Shared by every test, exclusive for a test that restarts the one Redis server the test
    processes share. A turnstile first, so that the tests of the other processes, each taking
    the shared lock in turn, cannot keep the restarting test waiting for ever."""
    var = Path(settings.VAR_DIR)
    with (
        open(var / "test-redis.turnstile", "a") as turnstile,
        open(var / "test-redis.lock", "a") as lock,
    ):
        fcntl.flock(turnstile, fcntl.LOCK_EX)
        if not exclusive:
            fcntl.flock(turnstile, fcntl.LOCK_UN)
        fcntl.flock(lock, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield  # both released as the files close


@pytest.fixture(autouse=True)
def _one_redis_server(request):
    """A test marked `redis_restart` runs, in parallel runs on Redis, while no test of another
    test process runs (each has a database of its own on the one server, tests/conftest.py)."""
    if not PARALLEL_ON_REDIS:
        yield
        return
    with _redis_server_lock(exclusive=request.node.get_closest_marker("redis_restart") is not None):
        yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Load the shipped card sets into the test database once for the whole run."""
    from cards.services import catalogue_load

    with django_db_blocker.unblock():
        catalogue_load()


@pytest.fixture(scope="session", autouse=True)
def _no_throttling():
    """The suite makes many requests, and its API fuzzing guesses passwords: the throttles and
    the log-in lockout stay off, except where tests/test_throttling.py turns them on."""
    from django.test import override_settings

    with override_settings(THROTTLE_ENABLED=False, AXES_ENABLED=False):
        yield


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache (cached API answers must not leak across tests)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def catalogue(db):
    """The shipped catalogue; reloaded if a transactional test flushed it."""
    from cards.models import Card
    from cards.services import catalogue_load

    if not Card.objects.exists():
        catalogue_load()
    return Card.objects


@pytest.fixture
def user(db):
    return UserFactory()


@pytest.fixture
def other_user(db):
    return UserFactory()


@pytest.fixture
def api_client():
    return APIClient()


@pytest.fixture
def web(user):
    """A browser's client (sessions, CSRF as a browser sends it) signed in as `user`."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def user_client(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def wsgi_in_test_transaction():
    """Let a raw WSGI client (schemathesis) call the app inside the test's transaction.

    Django closes the connection at the end of every request; its test client switches that
    off per request, and so does this fixture for the whole test.
    """
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def asgi_server(transactional_db, catalogue, settings):
    """uvicorn serving the site on the test database (tests/asgi.py): HTTP and the table's
    push channel, its clock ticking every 0.2 s; `.url`, `.ws_url`."""
    from tests import asgi

    settings.TABLE_CLOCK_SECONDS = 0.2
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
    server = asgi.start()
    yield server
    server.stop()
