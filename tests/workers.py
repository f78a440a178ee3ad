"""A real Celery worker process for tests, on the same broker and the test database."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection

BASE_DIR = Path(__file__).resolve().parent.parent


def test_database_url() -> str:
    """The URL of the database the tests are using right now (pytest-django's test DB)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{Path(db['NAME']).resolve()}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def start_worker(
    *,
    concurrency: int = 1,
    pool: str = "solo",
    name: str | None = None,
    queues: str | None = None,
    extra_env: dict[str, str] | None = None,
):
    """Start `celery worker` as a child process pointed at the test database.

    `queues` (comma-separated) limits it to those queues, so a test's tasks reach only the
    workers it started; `extra_env` adds environment variables (settings) for the worker.
    """
    env = os.environ.copy()
    env["DATABASE_URL"] = test_database_url()
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update(extra_env or {})
    name = name or f"pytest-{uuid.uuid4().hex[:8]}"
    log = open(BASE_DIR / "var" / f"{name}.log", "w")  # noqa: SIM115 (closed in stop_worker)
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", f"--pool={pool}",
         f"--concurrency={concurrency}", "--loglevel=INFO", "--without-gossip",
         "--without-mingle", "--without-heartbeat", "-n", f"{name}@%h",
         *([f"--queues={queues}"] if queues else [])],
        cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    proc.log = log
    return proc


def pool_children(proc) -> list[int]:
    """The process ids of a prefork worker's pool processes (Linux /proc)."""
    path = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
    try:
        return [int(pid) for pid in path.read_text().split()]
    except (FileNotFoundError, ProcessLookupError):
        return []


def playing_pool_child(proc, timeout: float = 30.0) -> int | None:
    """A pool process of a prefork worker caught running on a CPU (Linux /proc state R): one
    playing a chunk. An idle one sleeps on the pool's task pipe. None if none ran in time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for pid in pool_children(proc):
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except (FileNotFoundError, ProcessLookupError):
                continue
            if state == "R":
                return pid
        time.sleep(0.002)
    return None


def stop_worker(proc) -> None:
    """Stop a worker (warm shutdown, then kill); safe on one that is already dead."""
    if proc.poll() is not None:
        proc.log.close()
        return
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    proc.log.close()


@pytest.fixture
def celery_worker(transactional_db):
    proc = start_worker()
    yield proc
    stop_worker(proc)
