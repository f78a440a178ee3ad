"""Real Celery worker processes for tests, on the same broker and the test database.

`start_workers` runs the worker layout `make run` runs (`manage.py simulation_workers`: one
single-process worker per slot, each started again if it dies); `start_worker` runs one bare
`celery worker` process, as an operator would start one on another machine.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection

BASE_DIR = Path(__file__).resolve().parent.parent
# What every test worker leaves out: it starts faster and talks to nobody but the broker.
QUIET = ["--loglevel=INFO", "--without-gossip", "--without-mingle", "--without-heartbeat"]


def test_database_url() -> str:
    """The URL of the database the tests are using right now (pytest-django's test DB)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{Path(db['NAME']).resolve()}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _spawn(command: list[str], name: str, extra_env: dict[str, str] | None):
    # This test process's environment: in a parallel run it names this process's own broker
    # (tests/conftest.py), and DATABASE_URL its own test database.
    env = os.environ.copy()
    env["DATABASE_URL"] = test_database_url()
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    # At nice 0, as the test process is: at the default nice 10 a test's workers starve behind
    # the other tests on a loaded machine (tests/test_worker.py tests the niceness itself).
    env["SIMULATION_WORKER_NICE"] = "0"
    env.update(extra_env or {})
    log = open(BASE_DIR / "var" / f"{name}.log", "w")  # noqa: SIM115 (closed in stop_at_once)
    proc = subprocess.Popen(command, cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT)
    proc.log = log
    proc.name = name
    return proc


def start_workers(
    *,
    processes: int = 2,
    name: str | None = None,
    queues: str | None = None,
    extra_env: dict[str, str] | None = None,
):
    """Start `manage.py simulation_workers` (the Procfile's worker layout) as a child process:
    `processes` workers named NAME-1@host, NAME-2@host, ... (see `worker_pids`).

    `queues` (comma-separated) limits them to those queues, so a test's tasks reach only the
    workers it started; `extra_env` adds environment variables (settings) for the workers.
    """
    name = name or f"pytest-{uuid.uuid4().hex[:8]}"
    command = [
        sys.executable, "manage.py", "simulation_workers", f"--processes={processes}",
        f"--name={name}", "--", *QUIET, *([f"--queues={queues}"] if queues else []),
    ]  # fmt: skip
    return _spawn(command, name, extra_env)


def start_worker(
    *,
    concurrency: int = 1,
    pool: str = "solo",
    name: str | None = None,
    queues: str | None = None,
    extra_env: dict[str, str] | None = None,
):
    """Start one bare `celery worker` process, hostname NAME@host (arguments as above)."""
    name = name or f"pytest-{uuid.uuid4().hex[:8]}"
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker", f"--pool={pool}",
        f"--concurrency={concurrency}", "-n", f"{name}@%h", *QUIET,
        *([f"--queues={queues}"] if queues else []),
    ]  # fmt: skip
    return _spawn(command, name, extra_env)


def worker_pids(proc) -> dict[str, int]:
    """The worker processes `start_workers` runs right now, by hostname (NAME-1, ...), from
    Linux /proc: the children of the `simulation_workers` process and their command lines."""
    found = {}
    try:
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    except (FileNotFoundError, ProcessLookupError):
        return found
    for pid in map(int, children):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
        except (FileNotFoundError, ProcessLookupError):
            continue
        for arg in argv:
            if arg.startswith("--hostname="):
                found[arg.removeprefix("--hostname=").split("@")[0]] = pid
    return found


def wait_for(predicate, timeout: float = 60, every: float = 0.1) -> None:
    """Wait until `predicate()` is true; fail the test after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout} s")


def niceness(pid: int) -> int:
    """A process's nice value (Linux /proc): higher is a lower CPU priority."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def stop_at_once(proc) -> None:
    """Stop a worker (`start_worker`) or the worker layout (`start_workers`) when the test no
    longer needs it, without a warm stop (3-4 s for an idle worker):
    nothing is asserted about how it stops. A bare worker is killed. The layout's supervisor is
    told to stop (SIGTERM: it starts no worker again) and its workers are killed, so that it
    reaps them and exits: no process is left behind. Safe on a dead one."""
    if proc.poll() is None:
        if "simulation_workers" in proc.args:
            proc.terminate()
            _kill_workers(proc)
        else:
            proc.kill()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            _kill_workers(proc)
            proc.kill()
            proc.wait()
    proc.log.close()


def _kill_workers(proc) -> None:
    """SIGKILL the worker processes of the layout `proc` (none for a bare worker)."""
    for pid in worker_pids(proc).values():
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def celery_worker(transactional_db):
    """The worker layout `make run` starts, with two worker processes; stopped at once."""
    proc = start_workers()
    yield proc
    stop_at_once(proc)
