"""Shared fixtures: the real catalogue loaded once per test database, users, API clients."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory


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
