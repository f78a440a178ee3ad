"""Schemathesis drives the public read API from its own OpenAPI schema: whatever the input,
the answer is never a 5xx and always matches the documented schema."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from config.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application).include(
    path_regex=r"^/api/v1/(cards|sets|kicker-chips)/", method="GET"
)


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_catalogue_api_never_fails_on_generated_input(case, catalogue, wsgi_in_test_transaction):
    case.call_and_validate(
        checks=[schemathesis.checks.not_a_server_error],
    )
