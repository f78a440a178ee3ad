"""Throttles and the log-in lockout (issue #13): past a rate, the API answers 429 with
`Retry-After` in the one error shape; after too many wrong passwords for a username from one
address, that pair is refused even with the right password, on the log-in page and the token
endpoint alike.

The suite runs with both off (tests/conftest.py); the tests here turn them on, the throttles at
small rates. Throttle counts live in the cache, which every test starts empty; the lockout's in
the database, which every test starts empty too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.settings import BASE_DIR
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "saddle-up-partner-1"  # tests.factories.UserFactory's


@pytest.fixture
def throttled(settings):
    """Throttles on, at rates a test reaches in a few requests (per hour, so that no slow
    moment of the machine lets a count expire in between)."""
    settings.THROTTLE_ENABLED = True
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            "anon": "3/hour",
            "user": "6/hour",
            "tokens": "2/hour",
            "signup": "2/hour",
            "simulations": "2/hour",
            "table_games": "2/hour",
        },
    }


@pytest.fixture
def lockout(settings):
    """The log-in lockout on, at its shipped numbers whatever the environment says."""
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 5
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)


def assert_throttled(response) -> None:
    assert response.status_code == 429, response.content[:300]
    assert response["Content-Type"] == "application/json"
    assert int(response["Retry-After"]) > 0
    [error] = response.json()["errors"]
    assert error["code"] == "throttled" and error["attr"] is None and error["detail"]


def validate(client: APIClient):
    return client.post(reverse("api:deck-validate-stateless"), {"cards": []}, format="json")


def test_anonymous_requests_past_the_rate_are_429_with_retry_after(throttled, catalogue):
    client = APIClient()
    assert [validate(client).status_code for _ in range(3)] == [200, 200, 200]
    assert_throttled(validate(client))


def test_each_address_has_its_own_anonymous_count(throttled, catalogue):
    for _ in range(3):
        validate(APIClient(REMOTE_ADDR="10.0.0.1"))
    assert_throttled(validate(APIClient(REMOTE_ADDR="10.0.0.1")))
    assert validate(APIClient(REMOTE_ADDR="10.0.0.2")).status_code == 200


def test_a_forwarded_for_header_does_not_pick_a_fresh_address(throttled, catalogue):
    for n in range(3):
        validate(APIClient(HTTP_X_FORWARDED_FOR=f"10.9.9.{n}"))
    assert_throttled(validate(APIClient(HTTP_X_FORWARDED_FOR="10.9.9.99")))


def test_signed_in_requests_past_the_user_rate_are_429(throttled, user_client):
    for _ in range(6):
        assert user_client.get(reverse("api:deck-list")).status_code == 200
    assert_throttled(user_client.get(reverse("api:deck-list")))


def test_token_creation_has_its_own_stricter_rate(throttled, user):
    client = APIClient()
    body = {"username": user.username, "password": PASSWORD}
    for _ in range(2):
        assert client.post(reverse("api:token-create"), body, format="json").status_code == 201
    assert_throttled(client.post(reverse("api:token-create"), body, format="json"))


def test_starting_simulation_runs_has_its_own_rate_but_polling_does_not_count(
    throttled, user_client
):
    # A refused body counts as much as a run: the throttle answers before the body is read.
    for _ in range(2):
        assert user_client.post(reverse("api:simulation-list"), {}).status_code == 400
    # A draft pod's test run is a simulation run too.
    assert_throttled(
        user_client.post(reverse("api:draftpod-simulate", kwargs={"pk": 1}), {}, format="json")
    )
    assert user_client.get(reverse("api:simulation-list")).status_code == 200


def test_sitting_down_at_new_games_has_its_own_rate_but_playing_does_not_count(
    throttled, user_client, catalogue
):
    body = {"game": "quickdraw", "seats": [{}, {"bot": "random"}]}
    game = user_client.post(reverse("api:game-list"), body, format="json").json()
    assert user_client.post(reverse("api:game-list"), {}, format="json").status_code == 400
    assert_throttled(user_client.post(reverse("api:game-list"), body, format="json"))
    action = {"move": game["move"], "action": game["legal_actions"][0]["action"]}
    assert user_client.post(game["url"] + "actions/", action, format="json").status_code == 200


def test_sign_up_past_the_rate_is_429_and_creates_no_account(throttled, client):
    for n in range(2):
        form = {"username": f"rider{n}", "password1": "deadwood-1876-x", "password2": "nope"}
        assert client.post(reverse("signup"), form).status_code == 200
    form = {"username": "rider9", "password1": "deadwood-1876-x", "password2": "deadwood-1876-x"}
    response = client.post(reverse("signup"), form)
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert "Too many sign-ups from here." in response.content.decode()
    assert not get_user_model().objects.filter(username="rider9").exists()


def test_throttles_are_off_when_not_enabled(throttled, settings, catalogue):
    settings.THROTTLE_ENABLED = False
    client = APIClient()
    assert {validate(client).status_code for _ in range(10)} == {200}


def test_rates_come_from_the_environment():
    env = {
        **os.environ,
        "THROTTLE_ANON": "7/min",
        "THROTTLE_USER": "8/min",
        "THROTTLE_TOKENS": "9/hour",
        "THROTTLE_SIGNUP": "10/day",
        "THROTTLE_SIMULATIONS": "11/hour",
        "THROTTLE_TABLE_GAMES": "14/hour",
        "THROTTLE_ENABLED": "false",
        "LOGIN_FAILURE_LIMIT": "12",
        "LOGIN_COOLOFF_MINUTES": "13",
    }
    script = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES'], s.THROTTLE_ENABLED, "
        "s.AXES_FAILURE_LIMIT, s.AXES_COOLOFF_TIME.total_seconds())"
    )
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=BASE_DIR, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == (
        "{'anon': '7/min', 'user': '8/min', 'tokens': '9/hour', 'signup': '10/day', "
        "'simulations': '11/hour', 'table_games': '14/hour'} False 12 780.0"
    )


# --- The log-in lockout ------------------------------------------------------------------------


def log_in(client, username: str, password: str):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_twelve_wrong_passwords_and_then_the_right_one_is_refused(lockout, client, user):
    for _ in range(12):
        log_in(client, user.username, "wrong-password")
    response = log_in(client, user.username, PASSWORD)
    assert response.status_code == 429
    assert int(response["Retry-After"]) == 15 * 60
    page = response.content.decode()
    assert '<p class="error" role="alert" id="locked-out">' in page
    assert "Too many failed log-ins for this username from here. Try again in 15 minutes." in page
    assert "_auth_user_id" not in client.session


def test_the_lockout_begins_at_the_failure_limit(lockout, client, user):
    for _ in range(4):
        assert log_in(client, user.username, "wrong-password").status_code == 200
    assert log_in(client, user.username, "wrong-password").status_code == 429


def test_the_lockout_holds_one_username_at_one_address(lockout, user):
    other = UserFactory()
    here = Client(REMOTE_ADDR="10.0.0.1")
    for _ in range(5):
        log_in(here, user.username, "wrong-password")
    assert log_in(here, user.username, PASSWORD).status_code == 429
    assert log_in(here, other.username, PASSWORD).status_code == 302
    assert log_in(Client(REMOTE_ADDR="10.0.0.2"), user.username, PASSWORD).status_code == 302


def test_a_successful_log_in_clears_the_failures(lockout, client, user):
    for _ in range(2):
        for _ in range(4):
            log_in(client, user.username, "wrong-password")
        assert log_in(client, user.username, PASSWORD).status_code == 302


def test_wrong_passwords_for_a_token_count_towards_the_lockout(lockout, client, user):
    api = APIClient()
    wrong = {"username": user.username, "password": "wrong-password"}
    for _ in range(4):
        assert api.post(reverse("api:token-create"), wrong, format="json").status_code == 400
    right = {"username": user.username, "password": PASSWORD}
    log_in(client, user.username, "wrong-password")  # the fifth, on the log-in page
    response = api.post(reverse("api:token-create"), right, format="json")
    assert_throttled(response)
    assert response.json()["errors"][0]["detail"].startswith("Too many failed log-ins")
    assert not Token.objects.exists()
    assert log_in(client, user.username, PASSWORD).status_code == 429


def test_the_test_clients_log_in_helpers_still_work(lockout, client, user):
    assert client.login(username=user.username, password=PASSWORD)
    assert client.get(reverse("tokens")).status_code == 200
    client.logout()
    client.force_login(user)
    assert client.get(reverse("tokens")).status_code == 200
