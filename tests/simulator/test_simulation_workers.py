"""`manage.py simulation_workers` starts a worker that died again: at once after a long life or
a kill from outside, and later and later while it keeps dying as soon as it starts (a broken
setting); and it re-sends at once the chunks a dead worker was playing. The workers themselves
being killed, idle and busy, is tested on real processes in test_runs_on_workers."""

from __future__ import annotations

import io
import signal
import sys
import time

import pytest

from simulator.management.commands.simulation_workers import Command, Worker
from simulator.models import SimulationChunk
from simulator.runs.services import _claim, run_create

pytestmark = pytest.mark.django_db  # a dead worker's chunks are looked up


def _dies_at_once(code: str = "raise SystemExit(3)") -> Worker:
    worker = Worker(hostname="w-1@a", command=[sys.executable, "-c", code])
    worker.start()
    worker.proc.wait()
    return worker


def _notice_and_restart(command: Command, worker: Worker) -> float:
    command._look_after(worker)  # notices the exit and sets a delay
    delay = worker.delay
    worker.restart_at = time.monotonic() - 0.01  # as if the delay had passed
    command._look_after(worker)  # starts it again
    worker.proc.wait()
    return delay


def test_a_worker_that_keeps_dying_at_start_waits_twice_as_long_each_time():
    out = io.StringIO()
    command, worker = Command(stdout=out), _dies_at_once()
    assert [_notice_and_restart(command, worker) for _ in range(8)] == [1, 2, 4, 8, 16, 32, 60, 60]
    assert "w-1@a exited 3; starting it again in 1 s" in out.getvalue()
    assert "w-1@a started again (pid " in out.getvalue()


def test_a_worker_that_lived_long_is_started_again_at_once():
    command, worker = Command(stdout=io.StringIO()), _dies_at_once()
    for _ in range(4):
        _notice_and_restart(command, worker)
    worker.started -= 3600  # it had been playing chunks for an hour when it died
    assert _notice_and_restart(command, worker) == 0


def test_a_worker_killed_from_outside_is_started_again_at_once_unless_it_dies_at_start():
    out = io.StringIO()
    command = Command(stdout=out)
    worker = _dies_at_once("import os, signal; os.kill(os.getpid(), signal.SIGKILL)")
    assert _notice_and_restart(command, worker) == 1  # killed as it started: a crash loop?
    worker.started -= 5  # killed after five seconds of work (kill -9, the OOM killer)
    assert _notice_and_restart(command, worker) == 0
    assert f"w-1@a was killed by {signal.SIGKILL.name}; starting it again in 0 s" in out.getvalue()


def test_the_chunks_a_dead_worker_was_playing_are_sent_again_at_once(
    user, monkeypatch, django_capture_on_commit_callbacks
):
    sent: list[tuple[int, int, str]] = []
    monkeypatch.setattr("simulator.runs.services._send", lambda c, s, q: sent.append((c, s, q)))
    with django_capture_on_commit_callbacks(execute=True):  # its first chunk sent
        run, _ = run_create(
            owner=user, game="quickdraw", players=[{"bot": "random"}] * 2, games=20, seed=1
        )
    sent.clear()
    chunk = SimulationChunk.objects.get(run=run, index=0)
    assert _claim(chunk.pk, chunk.sends, "w-1@a") is not None  # w-1 plays it...
    out = io.StringIO()
    command, worker = Command(stdout=out), _dies_at_once()  # ... and dies
    with django_capture_on_commit_callbacks(execute=True):
        command._look_after(worker)
    chunk.refresh_from_db()
    assert (chunk.status, chunk.sends) == ("queued", 2)
    assert sent == [(chunk.pk, 2, run.plan["queue"])]
    assert "w-1@a's chunks: 1 re-sent, 0 failed" in out.getvalue()


def test_workers_keep_their_database_connection_unless_told_otherwise(monkeypatch):
    from simulator.management.commands.simulation_workers import worker_environment

    monkeypatch.delenv("CONN_MAX_AGE", raising=False)
    assert worker_environment()["CONN_MAX_AGE"] == "600"
    monkeypatch.setenv("CONN_MAX_AGE", "0")
    assert worker_environment()["CONN_MAX_AGE"] == "0"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("max_age", [600, 0])
def test_between_tasks_a_connection_is_kept_or_closed_as_conn_max_age_says(max_age):
    """Celery's own fixup no longer closes every connection around every task
    (CELERY_DB_REUSE_MAX); ours closes by CONN_MAX_AGE, as Django does between requests."""
    from types import SimpleNamespace

    from celery.fixups.django import DjangoWorkerFixup
    from django.db import connection

    from config.celery import app
    from simulator.runs.tasks import close_old_database_connections

    task = SimpleNamespace(request=SimpleNamespace(is_eager=False))
    saved = connection.settings_dict["CONN_MAX_AGE"]
    connection.close()
    connection.settings_dict["CONN_MAX_AGE"] = max_age
    try:
        connection.ensure_connection()
        opened = connection.connection
        DjangoWorkerFixup(app).close_database()  # what Celery runs before and after a task
        assert connection.connection is opened
        close_old_database_connections(task=task)
        assert (connection.connection is opened) == (max_age > 0)
    finally:
        connection.close()
        connection.settings_dict["CONN_MAX_AGE"] = saved
