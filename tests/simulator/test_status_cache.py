"""Watching a run: an active run's status answer is kept for `SIMULATION_STATUS_CACHE_SECONDS`
by each web process, so fifty clients polling one run read it once a second (issue #13,
section 6); never shown to anyone but its owner, never older than that, and a cancel is seen at
once."""

from __future__ import annotations

import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from simulator.models import SimulationRun

QUICKDRAW = {
    "game": "quickdraw",
    "games": 40,
    "seed": 11,
    "players": [{"bot": "heuristic"}, {"bot": "random"}],
}


def run_table_reads(queries) -> list[str]:
    return [q["sql"] for q in queries if 'FROM "simulator_simulationrun"' in q["sql"]]


@pytest.fixture
def run(user_client) -> dict:
    return user_client.post("/api/v1/simulations/", QUICKDRAW, format="json").json()


def test_polls_of_an_active_run_read_it_once_per_period(user_client, run):
    with CaptureQueriesContext(connection) as queries:
        first = user_client.get(run["url"]).json()
        again = [user_client.get(run["url"]).json() for _ in range(5)]
    assert len(run_table_reads(queries.captured_queries)) == 1
    assert again == [first] * 5
    assert first["status"] == "queued"


def test_a_kept_answer_is_never_older_than_the_period(user_client, run, settings):
    settings.SIMULATION_STATUS_CACHE_SECONDS = 0.2
    assert user_client.get(run["url"]).json()["games_done"] == 0
    SimulationRun.objects.filter(pk=run["id"]).update(status="running", games_done=17)
    assert user_client.get(run["url"]).json()["games_done"] == 0  # kept: within the period
    time.sleep(0.3)
    body = user_client.get(run["url"]).json()
    assert (body["status"], body["games_done"]) == ("running", 17)


def test_with_no_period_every_poll_reads_the_run(user_client, run, settings):
    settings.SIMULATION_STATUS_CACHE_SECONDS = 0
    user_client.get(run["url"])
    SimulationRun.objects.filter(pk=run["id"]).update(games_done=9)
    assert user_client.get(run["url"]).json()["games_done"] == 9


def test_another_user_never_gets_a_kept_answer(user_client, run, other_user):
    assert user_client.get(run["url"]).status_code == 200  # kept now
    stranger = APIClient()
    stranger.force_authenticate(other_user)
    response = stranger.get(run["url"])
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"
    assert APIClient().get(run["url"]).status_code == 401


def test_a_cancel_is_seen_by_the_next_poll(user_client, run):
    assert user_client.get(run["url"]).json()["status"] == "queued"
    assert user_client.post(f"{run['url']}cancel/").json()["status"] == "cancelled"
    assert user_client.get(run["url"]).json()["status"] == "cancelled"


def test_a_finished_run_is_read_every_time(user_client, run):
    SimulationRun.objects.filter(pk=run["id"]).update(status="done", games_done=40)
    assert user_client.get(run["url"]).json()["status"] == "done"
    SimulationRun.objects.filter(pk=run["id"]).update(games_done=39)  # not that it would change
    assert user_client.get(run["url"]).json()["games_done"] == 39
