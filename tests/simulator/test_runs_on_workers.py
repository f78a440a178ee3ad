"""Runs on real Celery worker processes, on the configured broker (filesystem:// by default,
Redis when CELERY_BROKER_URL says so) and database (SQLite or PostgreSQL).

Each test sends its chunks to a queue of its own and starts the workers that listen to it, so
no other worker (another test process, a developer's `make run`) takes them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
import uuid

import pytest
from rest_framework.test import APIClient

from simulator.models import ChunkResult, SimulationChunk, SimulationRun, WorkerPing
from simulator.tasks import ping
from tests.factories import UserFactory
from tests.workers import playing_pool_child, pool_children, start_worker, stop_worker

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

REDIS = os.environ.get("CELERY_BROKER_URL", "").startswith("redis://")


@pytest.fixture
def queue(settings):
    """A queue of this test's own, and a reconciler quick enough for a test."""
    name = f"sim-test-{uuid.uuid4().hex[:8]}"
    settings.SIMULATION_QUEUE = name
    settings.SIMULATION_QUEUED_STALE_SECONDS = 6
    settings.SIMULATION_RUNNING_STALE_SECONDS = 6
    settings.SIMULATION_DISPATCH_WINDOW = 3
    return name


@pytest.fixture
def client(db):
    client = APIClient()
    client.force_authenticate(UserFactory())
    return client


@pytest.fixture
def workers():
    started = []

    def start(queue: str, **kwargs):
        proc = start_worker(queues=queue, **kwargs)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        stop_worker(proc)


def quickdraw(games: int) -> dict:
    return {
        "game": "quickdraw",
        "games": games,
        "seed": 2026,
        "players": [{"bot": "heuristic"}, {"bot": "random"}],
    }


def poll_until(client, run_id: int, statuses: set[str], timeout: float = 120, every=0.3):
    """Poll the run like a client does (each poll also reconciles) until it reaches a status."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = client.get(f"/api/v1/simulations/{run_id}/").json()
        if body["status"] in statuses:
            return body
        time.sleep(every)
    raise AssertionError(f"run {run_id} still {body['status']} after {timeout}s: {body}")


def wait_for(predicate, timeout: float = 60, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(every)
    raise AssertionError("timed out")


def assert_counted_exactly_once(run_id: int, games: int) -> None:
    run = SimulationRun.objects.get(pk=run_id)
    assert run.status == "done", run.error
    assert run.games_done == games
    results = ChunkResult.objects.filter(run=run)
    assert results.count() == run.chunk_count
    assert sorted(results.values_list("chunk_index", flat=True)) == list(range(run.chunk_count))
    assert sum(results.values_list("games", flat=True)) == games
    assert run.aggregate["games"] == games
    assert run.aggregate["matchups"][0]["positions"][0]["games"] == games
    assert run.chunks_done == run.chunk_count and run.chunks_failed == 0


def test_a_run_finishes_with_exactly_the_games_asked(client, queue, workers, settings):
    settings.SIMULATION_CHUNK_SECONDS = 0.05
    workers(queue, pool="prefork", concurrency=2)
    response = client.post("/api/v1/simulations/", quickdraw(3000), format="json")
    assert response.status_code == 202
    run_id = response.json()["id"]
    assert SimulationRun.objects.get(pk=run_id).chunk_count > 4
    poll_until(client, run_id, {"done", "failed"})
    assert_counted_exactly_once(run_id, 3000)
    workers_used = set(ChunkResult.objects.filter(run_id=run_id).values_list("worker", flat=True))
    assert all(w.startswith("pytest-") for w in workers_used)


def _run_until_some_chunks_done(client, queue, settings, games: int) -> int:
    settings.SIMULATION_CHUNK_SECONDS = 0.4
    run_id = client.post("/api/v1/simulations/", quickdraw(games), format="json").json()["id"]
    assert SimulationRun.objects.get(pk=run_id).chunk_count >= 8
    return run_id


def test_a_solo_worker_killed_mid_run_the_run_still_counts_every_game_once(
    client, queue, workers, settings
):
    run_id = _run_until_some_chunks_done(client, queue, settings, 24_000)
    first = workers(queue)
    wait_for(lambda: ChunkResult.objects.filter(run_id=run_id).count() >= 2)
    wait_for(lambda: SimulationChunk.objects.filter(run_id=run_id, status="running").exists())
    os.kill(first.pid, signal.SIGKILL)  # mid-chunk: no warm shutdown, no ack
    first.wait(timeout=10)
    workers(queue)
    poll_until(client, run_id, {"done", "failed"}, timeout=180)
    assert_counted_exactly_once(run_id, 24_000)
    assert SimulationChunk.objects.filter(run_id=run_id, attempts__gt=1).exists() or (
        SimulationChunk.objects.filter(run_id=run_id, sends__gt=1).exists()
    )


def test_a_pool_process_killed_mid_run_the_run_still_counts_every_game_once(
    client, queue, workers, settings
):
    run_id = _run_until_some_chunks_done(client, queue, settings, 24_000)
    worker = workers(queue, pool="prefork", concurrency=2)
    wait_for(lambda: ChunkResult.objects.filter(run_id=run_id).count() >= 2)
    wait_for(lambda: SimulationChunk.objects.filter(run_id=run_id, status="running").exists())
    # The process playing a chunk, not an idle one: on the filesystem broker Celery feeds its
    # pool through one shared pipe, and an idle pool process waits on it holding the pipe's
    # read lock, so killing that one stalls the worker (see the next test; docs/operations.md).
    playing = playing_pool_child(worker)
    assert playing, "a pool process plays the run's chunks"
    os.kill(playing, signal.SIGKILL)
    poll_until(client, run_id, {"done", "failed"}, timeout=180)
    assert_counted_exactly_once(run_id, 24_000)
    assert SimulationChunk.objects.filter(run_id=run_id, attempts__gt=1).exists() or (
        SimulationChunk.objects.filter(run_id=run_id, sends__gt=1).exists()
    )  # the chunk it was playing was played again


@pytest.mark.skipif(not REDIS, reason="only when the broker is Redis (CELERY_BROKER_URL)")
def test_an_idle_pool_process_killed_is_replaced_and_the_worker_goes_on(workers, queue):
    """With Redis, Celery's event loop gives each pool process a pipe of its own: an idle one
    killed is replaced at once. (On the filesystem broker the pool shares one pipe, and a
    process killed while waiting on it leaves its read lock held: the worker takes no more
    tasks until it is restarted. Measured: three pings, none answered in 20 s each.)"""
    worker = workers(queue, pool="prefork", concurrency=2)
    assert _answered(_ping(queue), 60)
    idle = pool_children(worker)
    assert len(idle) == 2
    for pid in idle:
        os.kill(pid, signal.SIGKILL)
    wait_for(lambda: len(set(pool_children(worker)) - set(idle)) == 2, timeout=20)
    assert all(_answered(_ping(queue), 30) for _ in range(3))


def _ping(queue: str) -> WorkerPing:
    record = WorkerPing.objects.create()
    ping.apply_async(args=[record.pk], queue=queue)
    return record


def _answered(record: WorkerPing, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        record.refresh_from_db()
        if record.answered_at is not None:
            return True
        time.sleep(0.2)
    return False


@pytest.mark.skipif(not REDIS, reason="only when the broker is Redis (CELERY_BROKER_URL)")
def test_redis_restarted_mid_run_the_run_still_finishes(client, queue, workers, settings):
    run_id = _run_until_some_chunks_done(client, queue, settings, 24_000)
    workers(queue)
    wait_for(lambda: ChunkResult.objects.filter(run_id=run_id).count() >= 2)
    subprocess.run(["redis-cli", "-h", "127.0.0.1", "shutdown", "nosave"], check=False)
    time.sleep(1)
    subprocess.run(
        ["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port", "6379",
         "--save", "", "--appendonly", "no"],
        check=True,
    )  # fmt: skip
    wait_for(
        lambda: (
            subprocess.run(
                ["redis-cli", "-h", "127.0.0.1", "ping"], capture_output=True
            ).stdout.strip()
            == b"PONG"
        ),
        timeout=20,
    )
    poll_until(client, run_id, {"done", "failed"}, timeout=240)
    assert_counted_exactly_once(run_id, 24_000)


def test_cancel_stops_a_running_run(client, queue, workers, settings):
    run_id = _run_until_some_chunks_done(client, queue, settings, 60_000)
    workers(queue)
    wait_for(lambda: ChunkResult.objects.filter(run_id=run_id).exists())
    body = client.post(f"/api/v1/simulations/{run_id}/cancel/").json()
    assert body["status"] == "cancelled"
    time.sleep(2.5)  # whatever was in flight drains; nothing new is sent
    run = SimulationRun.objects.get(pk=run_id)
    done = run.games_done
    time.sleep(2)
    run.refresh_from_db()
    assert run.status == "cancelled"
    assert run.games_done == done < 60_000
    chunks = SimulationChunk.objects.filter(run_id=run_id)
    assert chunks.filter(status="skipped").exists()
    assert not chunks.filter(status="pending").exists()
