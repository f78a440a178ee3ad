"""Runs on real Celery worker processes, on the configured broker (filesystem:// by default,
Redis when CELERY_BROKER_URL says so) and database (SQLite or PostgreSQL).

Each test sends its chunks to a queue of its own and starts the workers that listen to it, so
no other worker (another test process, a developer's `make run`) takes them. Nobody but the
workers reconciles: the tests read a run's status as a client polls it, and that only reads.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
import uuid

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from simulator.models import ChunkResult, SimulationChunk, SimulationRun, WorkerPing
from simulator.runs import services
from simulator.runs.tasks import ping
from tests.factories import UserFactory
from tests.workers import (
    BASE_DIR,
    start_worker,
    start_workers,
    stop_at_once,
    wait_for,
    worker_pids,
)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

REDIS = os.environ.get("CELERY_BROKER_URL", "").startswith("redis://")
# The workers' reconciler, quick enough for a test: it looks every half second and re-sends a
# chunk queued for 6 s or whose 6 s lease ran out (the workers read these from their
# environment).
QUICK_RECONCILER = {
    "SIMULATION_RECONCILE_SECONDS": "1",
    "SIMULATION_QUEUED_STALE_SECONDS": "6",
    "SIMULATION_LEASE_SECONDS": "6",
}


@pytest.fixture
def queue(settings):
    """A queue of this test's own."""
    name = f"sim-test-{uuid.uuid4().hex[:8]}"
    settings.SIMULATION_QUEUE = name
    settings.SIMULATION_DISPATCH_WINDOW = 3
    return name


@pytest.fixture
def client(db):
    client = APIClient()
    client.force_authenticate(UserFactory())
    return client


@pytest.fixture
def workers():
    """Start the worker layout of `make run` (`layout=True`) or one bare worker on a queue."""
    started = []

    def start(queue: str, *, layout: bool = False, env: dict[str, str] | None = None, **kwargs):
        spawn = start_workers if layout else start_worker
        proc = spawn(queues=queue, extra_env={**QUICK_RECONCILER, **(env or {})}, **kwargs)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        stop_at_once(proc)


def quickdraw(games: int) -> dict:
    return {
        "game": "quickdraw",
        "games": games,
        "seed": 2026,
        "players": [{"bot": "heuristic"}, {"bot": "random"}],
    }


def poll_until(client, run_id: int, statuses: set[str], timeout: float = 120, every=0.1):
    """Read the run's status as a client polls it until it reaches one of `statuses`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = client.get(f"/api/v1/simulations/{run_id}/").json()
        if body["status"] in statuses:
            return body
        time.sleep(every)
    raise AssertionError(f"run {run_id} still {body['status']} after {timeout}s: {body}")


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
    workers(queue, layout=True)
    # 300 games: 7 to 12 chunks of 0.05 s (by the cores, up to the dispatch window of 3), so
    # that chunks are sent as others finish.
    response = client.post("/api/v1/simulations/", quickdraw(300), format="json")
    assert response.status_code == 202
    run_id = response.json()["id"]
    assert SimulationRun.objects.get(pk=run_id).chunk_count > 4
    poll_until(client, run_id, {"done", "failed"})
    assert_counted_exactly_once(run_id, 300)
    workers_used = set(ChunkResult.objects.filter(run_id=run_id).values_list("worker", flat=True))
    assert all(w.startswith("pytest-") for w in workers_used)


def _start_run(client, settings, games: int) -> int:
    settings.SIMULATION_CHUNK_SECONDS = 0.4
    run_id = client.post("/api/v1/simulations/", quickdraw(games), format="json").json()["id"]
    assert SimulationRun.objects.get(pk=run_id).chunk_count >= 8
    return run_id


def _hostnames_answering(queue: str, count: int, timeout: float = 60) -> set[str]:
    """Ping `queue` until `count` different workers have answered: each is then up and idle,
    waiting for its next task."""
    deadline = time.monotonic() + timeout
    pings = []
    while time.monotonic() < deadline:
        record = WorkerPing.objects.create()
        ping.apply_async(args=[record.pk], queue=queue)
        pings.append(record.pk)
        answered = WorkerPing.objects.filter(pk__in=pings, answered_at__isnull=False)
        hostnames = {h.split("@")[0] for h in answered.values_list("hostname", flat=True)}
        if len(hostnames) >= count:
            return hostnames
        time.sleep(0.3)
    raise AssertionError(f"fewer than {count} workers answered in {timeout} s")


def test_worker_processes_killed_idle_and_busy_are_replaced_and_the_run_counts_every_game_once(
    client, queue, workers, settings
):
    """The embedded default's trap, walked into on purpose: prefork pool processes killed
    while idle took the shared pipe's lock with them and the worker took no more tasks. Each
    worker process of the layout is on its own: kill -9 every one while idle and then one
    playing a chunk, each is started again under its name, and the run counts every game once.

    The leases here outlast the test: the chunk the busy worker was playing can only come back
    from its supervisor, which re-sends it the moment it sees the worker die."""
    layout = workers(queue, layout=True, env={"SIMULATION_LEASE_SECONDS": "3600"})
    idle = _hostnames_answering(queue, 2)
    before = worker_pids(layout)
    assert set(before) == idle
    for pid in before.values():
        os.kill(pid, signal.SIGKILL)

    def started_again() -> bool:
        # SIGKILL lands when the process is next scheduled: until then its old pid still reads
        # as a live worker, so "every name back" alone can pass before anything was replaced.
        now = worker_pids(layout)
        return set(now) == idle and set(now.values()).isdisjoint(before.values())

    wait_for(started_again, timeout=30)

    run_id = _start_run(client, settings, 3000)
    wait_for(lambda: ChunkResult.objects.filter(run_id=run_id).exists(), timeout=90)
    playing = SimulationChunk.objects.filter(run_id=run_id, status="running")
    wait_for(playing.exists)
    chunk = playing.first()
    lost = chunk.worker
    busy = lost.split("@")[0]
    pid = worker_pids(layout)[busy]
    os.kill(pid, signal.SIGKILL)  # mid-chunk: no warm shutdown, no ack
    killed_at = timezone.now()
    wait_for(lambda: worker_pids(layout).get(busy) not in (None, pid), timeout=30)

    poll_until(client, run_id, {"done", "failed"}, timeout=180)
    assert_counted_exactly_once(run_id, 3000)
    assert layout.poll() is None and len(worker_pids(layout)) == 2
    chunk.refresh_from_db()
    if ChunkResult.objects.get(run_id=run_id, chunk_index=chunk.index).created_at > killed_at:
        # It died with its worker, and its supervisor sent it again with a new send number.
        assert chunk.sends > 1
        assert (
            f"{lost}'s chunks: 1 re-sent" in (BASE_DIR / "var" / f"{layout.name}.log").read_text()
        )


def _lose_the_first_message(monkeypatch) -> None:
    """The broker loses chunk 0's first message: it is claimed and marked sent, never queued."""
    send = services._send
    lost: list[int] = []

    def unreliable(chunk_id: int, send_no: int, queue: str) -> None:
        if not lost and SimulationChunk.objects.filter(pk=chunk_id, index=0).exists():
            lost.append(chunk_id)
            return
        send(chunk_id, send_no, queue)

    monkeypatch.setattr(services, "_send", unreliable)


def test_a_lost_chunk_is_sent_again_by_the_workers_with_nobody_polling(
    user, queue, workers, settings, monkeypatch
):
    settings.SIMULATION_CHUNK_SECONDS = 0.05
    _lose_the_first_message(monkeypatch)
    workers(queue)
    run, _ = services.run_create(owner=user, game="quickdraw", **_plan(300))
    # Nobody reads the run through the API or its page: the workers must notice on their own.
    wait_for(lambda: not SimulationRun.objects.get(pk=run.pk).is_active, timeout=120)
    assert_counted_exactly_once(run.pk, 300)
    assert SimulationChunk.objects.get(run=run, index=0).sends == 2


def _plan(games: int) -> dict:
    plan = quickdraw(games)
    del plan["game"]
    return plan


@pytest.mark.skipif(
    not REDIS or os.environ.get("DATABASE_URL", "").split(":")[0] not in ("postgres", "postgresql"),
    reason="scaling out: Redis and PostgreSQL (CELERY_BROKER_URL, DATABASE_URL)",
)
def test_two_workers_on_two_hosts_share_one_run_and_count_every_game_once(
    user, queue, workers, settings, monkeypatch
):
    """Two separate worker processes, as on two machines (hostnames of their own), on one
    Redis and one PostgreSQL: the run's chunks are split between them, the chunk whose message
    was lost is re-sent once though both reconcile, and every game counts once."""
    assert connection.vendor == "postgresql"
    settings.SIMULATION_CHUNK_SECONDS = 0.05
    _lose_the_first_message(monkeypatch)
    workers(queue, name=f"host-a-{queue}")
    workers(queue, name=f"host-b-{queue}")
    run, _ = services.run_create(owner=user, game="quickdraw", **_plan(3000))
    assert run.chunk_count >= 8
    wait_for(lambda: not SimulationRun.objects.get(pk=run.pk).is_active, timeout=120)
    assert_counted_exactly_once(run.pk, 3000)
    played_by = {w.split("@")[0] for w in ChunkResult.objects.filter(run=run).values_list(
        "worker", flat=True
    )}  # fmt: skip
    assert played_by == {f"host-a-{queue}", f"host-b-{queue}"}
    assert SimulationChunk.objects.get(run=run, index=0).sends == 2


@pytest.mark.skipif(not REDIS, reason="only when the broker is Redis (CELERY_BROKER_URL)")
@pytest.mark.redis_restart
def test_redis_restarted_mid_run_the_run_still_finishes(client, queue, workers, settings):
    run_id = _start_run(client, settings, 12_000)
    workers(queue)
    wait_for(lambda: ChunkResult.objects.filter(run_id=run_id).count() >= 2)
    assert SimulationRun.objects.get(pk=run_id).is_active  # Redis goes away mid-run
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
    assert_counted_exactly_once(run_id, 12_000)


def test_cancel_stops_a_running_run(client, queue, workers, settings):
    run_id = _start_run(client, settings, 60_000)
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
