"""Who reconciles a run, and how often: the workers' timer does, at most once a period per run
however many workers look; a status read (the API, the run page's progress bar) never does."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from simulator.models import SimulationChunk, SimulationRun
from simulator.runs.services import run_create, runs_reconcile_due

PLAYERS = [{"bot": "heuristic"}, {"bot": "random"}]


@pytest.fixture
def sent(monkeypatch):
    """What would go to the broker, recorded instead."""
    messages: list[tuple[int, int, str]] = []
    monkeypatch.setattr("simulator.runs.services._send", lambda c, s, q: messages.append((c, s, q)))
    return messages


@pytest.fixture
def lost_run(user, settings, sent, django_capture_on_commit_callbacks) -> SimulationRun:
    """A run whose first chunk was sent and never heard of again (stale at once)."""
    settings.SIMULATION_QUEUED_STALE_SECONDS = 0
    settings.SIMULATION_DISPATCH_WINDOW = 1
    with django_capture_on_commit_callbacks(execute=True):
        run, _ = run_create(owner=user, game="quickdraw", players=PLAYERS, games=20, seed=3)
    assert len(sent) == 1
    return run


def test_a_run_is_reconciled_at_most_once_a_period_however_many_workers_look(
    lost_run, sent, settings, django_capture_on_commit_callbacks
):
    settings.SIMULATION_RECONCILE_SECONDS = 5
    with django_capture_on_commit_callbacks(execute=True):
        first = [runs_reconcile_due() for _worker in range(3)]
    assert [counts["resent"] for counts in first] == [1, 0, 0]
    chunk = SimulationChunk.objects.get(run=lost_run, index=0)
    assert sent[1:] == [(chunk.pk, 2, lost_run.plan["queue"])] and chunk.sends == 2
    # The period has passed: the next worker to look reconciles the run again.
    SimulationRun.objects.filter(pk=lost_run.pk).update(
        reconciled_at=timezone.now() - timedelta(seconds=5)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert runs_reconcile_due()["resent"] == 1
    assert len(sent) == 3


def test_with_no_active_run_a_timer_tick_is_one_query(lost_run, django_assert_num_queries):
    SimulationRun.objects.filter(pk=lost_run.pk).update(status="cancelled")
    with django_assert_num_queries(1):
        runs_reconcile_due()


def test_the_run_pages_progress_bar_only_reads_the_run(
    client, lost_run, sent, django_assert_max_num_queries
):
    client.force_login(lost_run.owner)
    before = list(SimulationChunk.objects.filter(run=lost_run).values_list("status", "sends"))
    with django_assert_max_num_queries(3) as queries:  # the session, the user, the run
        response = client.get(f"/simulations/{lost_run.pk}/progress/")
    assert not any('"aggregate"' in query["sql"] for query in queries.captured_queries)
    assert response.status_code == 200 and 'data-status="queued"' in response.content.decode()
    assert len(sent) == 1
    after = list(SimulationChunk.objects.filter(run=lost_run).values_list("status", "sends"))
    assert after == before


@pytest.fixture
def follower(monkeypatch):
    """A feature that follows runs, as the deck doctor does, recording what it hears; due: the
    runs of the quickdraw game (standing in for its own objects)."""
    from simulator.runs import followers

    heard: dict[str, list[int]] = {"ended": [], "advanced": []}

    def advance(pk: int) -> int:
        heard["advanced"].append(pk)
        return 1

    probe = followers.Follower(
        name="probe",
        run_ended=heard["ended"].append,
        due=lambda: SimulationRun.objects.filter(game="quickdraw", status="done"),
        advance=advance,
    )
    monkeypatch.setattr(followers, "_FOLLOWERS", {**followers._FOLLOWERS, "probe": probe})
    return heard


def test_a_follower_hears_a_run_end_and_the_ticks_due_without_the_run_service_naming_it(
    user, follower, django_capture_on_commit_callbacks
):
    from simulator.runs.services import run_execute_locally

    with django_capture_on_commit_callbacks(execute=True):
        run, _ = run_create(owner=user, game="quickdraw", players=PLAYERS, games=6, seed=3)
        run_execute_locally(run=run)
    assert follower["ended"] == [run.pk]
    counts = runs_reconcile_due()
    assert (follower["advanced"], counts["probes"], counts["doctors"]) == ([run.pk], 1, 0)


def test_with_followers_an_idle_tick_is_still_one_query(
    lost_run, follower, django_assert_num_queries
):
    SimulationRun.objects.filter(pk=lost_run.pk).update(status="cancelled")
    with django_assert_num_queries(1):
        assert runs_reconcile_due()["probes"] == 0
