"""The OpenAPI schema and its offline Swagger UI."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_schema_lists_the_catalogue_endpoints(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in (
        "/api/v1/cards/",
        "/api/v1/cards/{code}/",
        "/api/v1/sets/",
        "/api/v1/kicker-chips/",
    ):
        assert path in paths


def test_swagger_ui_is_served_without_any_cdn(client):
    html = client.get("/api/docs/").content.decode()
    assert "swagger-ui" in html
    for cdn in ("cdn.jsdelivr", "unpkg.com", "cdnjs", "googleapis"):
        assert cdn not in html
    assert "/static/drf_spectacular_sidecar/" in html
