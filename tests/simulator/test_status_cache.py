"""Watching a run: an active run's status answer is kept for `SIMULATION_STATUS_CACHE_SECONDS`
by each web process and sent again before the view runs, so that fifty clients polling one run
read it once a second and cost next to nothing (issue #13, section 6); never shown to anyone but
its owner, never older than that, byte for byte the view's answer, and a cancel is seen at once.

The clients here authenticate as real ones do (a token header, a session cookie), so every
request passes through the middleware that answers from the kept status."""

from __future__ import annotations

import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from simulator.models import SimulationRun

QUICKDRAW = {
    "game": "quickdraw",
    "games": 40,
    "seed": 11,
    "players": [{"bot": "heuristic"}, {"bot": "random"}],
}


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def run_table_reads(queries) -> list[str]:
    return [q["sql"] for q in queries if 'FROM "simulator_simulationrun"' in q["sql"]]


def assert_not_found(response) -> None:
    assert response.status_code == 404, response.content[:300]
    assert response.json() == {
        "errors": [{"code": "not_found", "detail": "Not found.", "attr": None}]
    }


@pytest.fixture
def owner(user):
    return token_client(user)


@pytest.fixture
def run(owner) -> dict:
    return owner.post("/api/v1/simulations/", QUICKDRAW, format="json").json()


def test_polls_of_an_active_run_read_it_once_per_period(owner, run):
    with CaptureQueriesContext(connection) as queries:
        first = owner.get(run["url"]).json()
        again = [owner.get(run["url"]).json() for _ in range(5)]
    assert len(run_table_reads(queries.captured_queries)) == 1
    assert again == [first] * 5
    assert first["status"] == "queued"


def test_a_kept_answer_is_the_views_answer_byte_for_byte(owner, run, settings):
    read = owner.get(run["url"])  # the view's answer, now kept
    with CaptureQueriesContext(connection) as queries:
        kept = owner.get(run["url"])
        owner.get(run["url"])
    assert run_table_reads(queries.captured_queries) == []
    assert len(queries.captured_queries) == 1  # the token, once a period
    assert kept.content == read.content
    assert dict(kept.headers) == dict(read.headers)
    assert kept["Content-Type"] == "application/json"
    assert kept["X-Frame-Options"] == "DENY"
    settings.SIMULATION_STATUS_CACHE_SECONDS = 0  # every poll read by the view from now on
    fresh = owner.get(run["url"])
    assert fresh.content == read.content
    assert dict(fresh.headers) == dict(read.headers)


def test_a_kept_answer_is_never_older_than_the_period(owner, run, settings):
    settings.SIMULATION_STATUS_CACHE_SECONDS = 0.2
    assert owner.get(run["url"]).json()["games_done"] == 0
    SimulationRun.objects.filter(pk=run["id"]).update(status="running", games_done=17)
    assert owner.get(run["url"]).json()["games_done"] == 0  # kept: within the period
    time.sleep(0.3)
    body = owner.get(run["url"]).json()
    assert (body["status"], body["games_done"]) == ("running", 17)


def test_with_no_period_every_poll_reads_the_run(owner, run, settings):
    settings.SIMULATION_STATUS_CACHE_SECONDS = 0
    owner.get(run["url"])
    SimulationRun.objects.filter(pk=run["id"]).update(games_done=9)
    assert owner.get(run["url"]).json()["games_done"] == 9


def test_another_users_token_gets_the_404_not_the_kept_answer(owner, run, other_user):
    assert owner.get(run["url"]).status_code == 200  # kept now
    assert_not_found(token_client(other_user).get(run["url"]))
    assert owner.get(run["url"]).status_code == 200  # and still kept for its owner


def test_another_users_session_gets_the_404_not_the_kept_answer(owner, run, other_user):
    assert owner.get(run["url"]).status_code == 200
    stranger = APIClient()
    stranger.force_login(other_user)
    assert_not_found(stranger.get(run["url"]))


def test_anonymous_and_bad_tokens_get_the_401(owner, run):
    assert owner.get(run["url"]).status_code == 200
    anonymous = APIClient().get(run["url"])
    assert anonymous.status_code == 401
    assert anonymous["WWW-Authenticate"] == "Token"
    assert anonymous.json()["errors"][0]["code"] == "not_authenticated"
    for header in ["Token not-a-real-token", "Token", "Token two parts"]:
        response = APIClient().get(run["url"], HTTP_AUTHORIZATION=header)
        assert response.status_code == 401, header
        assert response.json()["errors"][0]["code"] == "authentication_failed"
    other_scheme = APIClient().get(run["url"], HTTP_AUTHORIZATION="Bearer abc")
    assert other_scheme.status_code == 401
    assert other_scheme.json()["errors"][0]["code"] == "not_authenticated"


def test_the_owners_session_gets_the_kept_answer(user, run):
    browser = APIClient()
    browser.force_login(user)
    first = browser.get(run["url"])
    SimulationRun.objects.filter(pk=run["id"]).update(games_done=5)
    assert browser.get(run["url"]).content == first.content  # kept


def test_a_deleted_token_is_refused_at_once(user, owner, run):
    assert owner.get(run["url"]).status_code == 200
    assert owner.get(run["url"]).status_code == 200  # the token's owner is known now
    Token.objects.filter(user=user).delete()
    assert owner.get(run["url"]).status_code == 401


def test_a_deactivated_users_token_is_refused_once_the_period_is_over(user, owner, run, settings):
    settings.SIMULATION_STATUS_CACHE_SECONDS = 0.2
    assert owner.get(run["url"]).status_code == 200
    type(user).objects.filter(pk=user.pk).update(is_active=False)
    time.sleep(0.3)
    assert owner.get(run["url"]).status_code == 401


def test_a_cancel_is_seen_by_the_next_poll(owner, run):
    assert owner.get(run["url"]).json()["status"] == "queued"
    assert owner.post(f"{run['url']}cancel/").json()["status"] == "cancelled"
    assert owner.get(run["url"]).json()["status"] == "cancelled"


def test_a_finished_run_is_read_every_time(owner, run):
    SimulationRun.objects.filter(pk=run["id"]).update(status="done", games_done=40)
    assert owner.get(run["url"]).json()["status"] == "done"
    SimulationRun.objects.filter(pk=run["id"]).update(games_done=39)  # not that it would change
    assert owner.get(run["url"]).json()["games_done"] == 39


def test_the_browsable_api_is_not_answered_with_kept_json(owner, run):
    assert owner.get(run["url"]).status_code == 200
    page = owner.get(run["url"], HTTP_ACCEPT="text/html")
    assert page["Content-Type"].startswith("text/html")
    assert owner.get(run["url"], {"format": "api"})["Content-Type"].startswith("text/html")


def test_kept_answers_count_against_the_user_rate(owner, run, settings):
    settings.THROTTLE_ENABLED = True
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "user": "4/hour",
        },
    }
    assert [owner.get(run["url"]).status_code for _ in range(4)] == [200] * 4
    refused = owner.get(run["url"])
    assert refused.status_code == 429
    assert refused.json()["errors"][0]["code"] == "throttled"


def test_the_kept_answer_is_per_host(owner, run, settings):
    settings.ALLOWED_HOSTS = ["testserver", "drifter.example.com"]
    assert owner.get(run["url"]).json()["url"].startswith("http://testserver/")
    other = owner.get(run["url"], HTTP_HOST="drifter.example.com").json()
    assert other["url"].startswith("http://drifter.example.com/")


@pytest.mark.parametrize("pk", ["9" * 19, "9" * 5000, "\u0669" * 6])
def test_ids_no_run_can_have_are_a_404(owner, run, pk):
    response = owner.get(f"/api/v1/simulations/{pk}/")
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"
