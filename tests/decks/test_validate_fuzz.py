"""Schemathesis drives the stateless deck validator from the OpenAPI schema: whatever the body,
the answer is a 200 or a 4xx in the documented shape, never a 5xx."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from config.wsgi import application

# Schemathesis' WSGI transport says it accepts gzip (requests' default headers) but reads the
# body as it comes; the site gzips what a client accepts, so these calls accept it plain.
PLAIN = {"Accept-Encoding": "identity"}

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application).include(
    path_regex=r"^/api/v1/decks/validate/$", method="POST"
)


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_stateless_validator_never_fails_on_generated_input(
    case, catalogue, wsgi_in_test_transaction
):
    response = case.call(headers=PLAIN)
    assert response.status_code < 500, response.text
    if response.status_code == 200 and case.method == "POST":
        assert set(response.json()) == {"legal", "format", "errors"}
    elif response.status_code >= 400:
        assert "errors" in response.json()


every_deck_endpoint = schemathesis.openapi.from_wsgi(
    "/api/schema/?format=json", application
).include(path_regex=r"^/api/v1/(decks|pools|drafts)/")


@pytest.mark.slow  # every deck, pool and draft operation (PDFs, drafts): ~15 min; make test-slow
@pytest.mark.django_db
@every_deck_endpoint.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_deck_api_never_fails_on_generated_input(case, catalogue, wsgi_in_test_transaction):
    from rest_framework.authtoken.models import Token

    from tests.factories import UserFactory

    token, _ = Token.objects.get_or_create(user=UserFactory(username="fuzzer"))
    response = case.call(headers={"Authorization": f"Token {token.key}", **PLAIN})
    assert response.status_code < 500, response.text
