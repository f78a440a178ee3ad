"""Accounts: sign-up, log-in, log-out, API tokens; session and token auth on the API."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_sign_up_creates_the_account_and_logs_in(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "calamity", "password1": "deadwood-1876-x", "password2": "deadwood-1876-x"},
    )
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="calamity").exists()
    assert "calamity" in client.get("/").content.decode()


def test_sign_up_with_mismatched_passwords_writes_nothing(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "calamity", "password1": "deadwood-1876-x", "password2": "other-pass-99"},
    )
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="calamity").exists()


def test_log_in_and_log_out(client, user):
    response = client.post(
        "/accounts/login/", {"username": user.username, "password": "saddle-up-partner-1"}
    )
    assert response.status_code == 302
    assert "_auth_user_id" in client.session
    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session


def test_token_page_creates_and_replaces_a_token(client, user):
    client.force_login(user)
    client.post("/accounts/tokens/new/")
    first = Token.objects.get(user=user).key
    page = client.get("/accounts/tokens/").content.decode()
    assert first in page
    assert "Your API token was created." in page and "old one" not in page  # there was none
    client.post("/accounts/tokens/new/")
    assert Token.objects.get(user=user).key != first
    assert "the old one no longer works" in client.get("/accounts/tokens/").content.decode()


def test_token_endpoint_needs_credentials_or_a_logged_in_user(api_client):
    response = api_client.post("/api/v1/tokens/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["errors"][0]["code"] == "not_authenticated"
    assert Token.objects.count() == 0


def test_token_endpoint_returns_a_working_token(user_client, user):
    response = user_client.post("/api/v1/tokens/")
    assert response.status_code == 201
    key = response.json()["token"]
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert other.post("/api/v1/tokens/").status_code == 201  # token auth works


def test_a_wrong_token_is_a_401_in_the_error_shape(api_client, db):
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = api_client.get("/api/v1/cards/")
    assert response.status_code == 401
    assert response.json()["errors"][0]["code"] == "authentication_failed"


def test_a_username_and_password_get_a_working_token(api_client, user):
    response = api_client.post(
        "/api/v1/tokens/",
        {"username": user.username, "password": "saddle-up-partner-1"},
        format="json",
    )
    assert response.status_code == 201
    key = response.json()["token"]
    assert Token.objects.get(user=user).key == key
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert other.get("/api/v1/decks/").status_code == 200


def test_a_new_token_by_password_replaces_the_old_one(api_client, user):
    body = {"username": user.username, "password": "saddle-up-partner-1"}
    first = api_client.post("/api/v1/tokens/", body, format="json").json()["token"]
    second = api_client.post("/api/v1/tokens/", body, format="json").json()["token"]
    assert first != second
    old = APIClient()
    old.credentials(HTTP_AUTHORIZATION=f"Token {first}")
    assert old.get("/api/v1/decks/").status_code == 401


def test_an_inactive_user_gets_no_token(api_client, user):
    user.is_active = False
    user.save()
    body = {"username": user.username, "password": "saddle-up-partner-1"}
    response = api_client.post("/api/v1/tokens/", body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "invalid_credentials"
    assert not Token.objects.exists()


def test_a_player_sets_changes_and_clears_the_email_their_turns_are_sent_to(web, user):
    page = web.get("/accounts/tokens/")
    assert page.status_code == 200 and 'id="id_email"' in page.content.decode()
    assert web.post("/accounts/tokens/", {"email": "ann@example.com"}).status_code == 302
    user.refresh_from_db()
    assert user.email == "ann@example.com"
    refused = web.post("/accounts/tokens/", {"email": "not an email"})
    assert refused.status_code == 400 and "valid email" in refused.content.decode()
    user.refresh_from_db()
    assert user.email == "ann@example.com"  # nothing written
    assert web.post("/accounts/tokens/", {"email": ""}).status_code == 302
    user.refresh_from_db()
    assert user.email == ""


def test_the_account_page_is_for_the_signed_in_only(client):
    assert client.post("/accounts/tokens/", {"email": "x@example.com"}).status_code == 302
    assert client.get("/accounts/tokens/")["Location"].startswith("/accounts/login/")
