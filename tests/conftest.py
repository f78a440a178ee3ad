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
def user_client(user):
    client = APIClient()
    client.force_authenticate(user)
    return client
