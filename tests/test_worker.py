"""The worker round trip: a real Celery worker process takes a task from the configured broker
(filesystem:// by default, Redis when CELERY_BROKER_URL says so) and writes to our tables."""

from __future__ import annotations

import os
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from simulator.models import WorkerPing
from simulator.runs.services import worker_ping_send
from tests.workers import (  # noqa: F401 (the celery_worker fixture)
    celery_worker,
    niceness,
    start_worker,
    stop_at_once,
    wait_for,
)

pytestmark = pytest.mark.worker


def test_ping_is_answered_by_a_real_worker_process(celery_worker):  # noqa: F811
    ping = worker_ping_send()
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        ping.refresh_from_db()
        if ping.answered_at is not None:
            break
        assert celery_worker.poll() is None, "the worker process died"
        time.sleep(0.1)
    assert ping.answered_at is not None, "no worker answered the ping"
    assert ping.hostname.startswith("pytest-")
    assert ping.answered_at >= ping.created_at


@pytest.mark.django_db(transaction=True)
def test_a_worker_process_yields_the_cpu_to_the_web():
    """A worker process runs at nice SIMULATION_WORKER_NICE, below the web server on the same
    machine (started at 0), so a page is served before a game is played."""
    assert os.nice(0) < 7
    worker = start_worker(extra_env={"SIMULATION_WORKER_NICE": "7"})
    try:
        wait_for(lambda: niceness(worker.pid) == 7, timeout=60)
    finally:
        stop_at_once(worker)


def test_home_page_speaks_of_the_worker_only_when_it_is_late(client, db):
    response = client.get("/")
    assert response.status_code == 200
    ping = WorkerPing.objects.get()
    assert b'hx-trigger="every 2s"' in response.content  # asks again while unanswered
    assert b"Simulations are paused" not in response.content  # a new ping may be answered yet
    WorkerPing.objects.filter(pk=ping.pk).update(created_at=ping.created_at - timedelta(seconds=6))
    late = client.get(f"/worker/{ping.pk}/").content
    assert b"Simulations are paused just now" in late and b'hx-trigger="every 2s"' in late
    assert b"make run" not in late and b"ping #" not in late  # a user's words, not ours
    WorkerPing.objects.filter(pk=ping.pk).update(answered_at=timezone.now(), hostname="w1@box")
    answered = client.get(f"/worker/{ping.pk}/").content
    assert b"Simulations are paused" not in answered and b"w1@box" not in answered
    assert b"hx-trigger" not in answered  # polling stops once answered
    # What `.ci/run`'s service-mode check waits for (`make run`'s worker answered), with no words.
    assert b'data-worker="ok"' in answered and b'data-worker="waiting"' in late
