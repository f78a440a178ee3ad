"""Shared by the simulation benchmarks: a throwaway database and broker, the worker layouts,
and a run played through them.

Layouts (`--layout`):
  solo     `manage.py simulation_workers --processes N`: N single-process workers, each started
           again if it dies (what the Procfile runs since issue #13)
  prefork  one `celery worker --pool=prefork --concurrency=N` (the Procfile's layout before)
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
LAYOUTS = ("solo", "prefork")
QUIET = ["--loglevel=WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat"]


def prepare(*, postgres: bool, name: str) -> Path:
    """Point this process at a throwaway database and broker, migrate, load the catalogue and
    set Django up; the temporary folder (worker logs go there too)."""
    if postgres:
        sys.path.insert(0, str(BASE_DIR / "benchmarks"))
        from harness import bench_database_url

        os.environ["DATABASE_URL"] = bench_database_url(name)
    tmp = Path(tempfile.mkdtemp(prefix=f"drifter-{name}-"))
    os.environ.setdefault("DRIFTER_VAR_DIR", str(tmp))
    os.environ.setdefault("CELERY_FS_BROKER_DIR", str(tmp / "broker"))
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    sys.path.insert(0, str(BASE_DIR))
    manage = [sys.executable, str(BASE_DIR / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], check=True, cwd=BASE_DIR)
    subprocess.run([*manage, "load_catalogue"], check=True, cwd=BASE_DIR, stdout=subprocess.DEVNULL)
    import django

    django.setup()
    return tmp


def bench_settings(games: int, workers: int) -> tuple[str, dict[str, str], object]:
    """This process set up to submit a benchmark's runs to `workers` worker processes: a queue
    of its own, room for `games`, a dispatch window of 4 chunks a worker and runs cut for that
    many workers. (queue, the workers' environment, the runs' owner)."""
    import uuid

    from django.conf import settings
    from django.contrib.auth import get_user_model

    queue = f"bench-{uuid.uuid4().hex[:8]}"
    settings.SIMULATION_QUEUE = queue
    settings.SIMULATION_MAX_GAMES_PER_RUN = max(games, 1_000_000)
    settings.SIMULATION_DISPATCH_WINDOW = 4 * workers
    settings.SIMULATION_WORKERS = workers
    owner, _ = get_user_model().objects.get_or_create(username="bench")
    return queue, {"SIMULATION_DISPATCH_WINDOW": str(4 * workers)}, owner


def start_workers(
    layout: str, processes: int, queue: str, logs: Path, env: dict[str, str] | None = None
) -> subprocess.Popen:
    """Start a worker layout on `queue`; its log goes to `logs`/workers-<queue>.log."""
    if layout == "solo":
        command = [
            sys.executable, "manage.py", "simulation_workers", f"--processes={processes}",
            f"--name=bench-{queue}", "--", f"--queues={queue}", *QUIET,
        ]  # fmt: skip
    elif layout == "prefork":
        command = [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=prefork",
            f"--concurrency={processes}", f"--hostname=bench-{queue}@%h", f"--queues={queue}",
            *QUIET,
        ]  # fmt: skip
    else:
        raise ValueError(f"layout is one of {LAYOUTS}")
    log = open(logs / f"workers-{queue}.log", "w")  # noqa: SIM115 (closed in stop_workers)
    proc = subprocess.Popen(
        command, cwd=BASE_DIR, env={**os.environ, **(env or {})}, stdout=log,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    proc.log = log
    return proc


def stop_workers(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(timeout=60)
    proc.log.close()


def children(pid: int) -> list[int] | None:
    """A process's live children (Linux /proc); None if it is gone."""
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except (FileNotFoundError, ProcessLookupError):
        return None


def tree_pids(pid: int) -> list[int]:
    """A process and its live descendants (Linux /proc)."""
    kids = children(pid)
    if kids is None:
        return []
    return [pid] + [p for child in kids for p in tree_pids(child)]


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and its live descendants so far (Linux /proc)."""
    total = 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total + sum(tree_cpu_seconds(int(child)) for child in children)


def wait_until_ready(queue: str, hostnames: int, timeout: float = 120) -> None:
    """Until `hostnames` distinct workers have answered pings on `queue` (the solo layout has
    one per process, a prefork worker one for all its pool)."""
    from simulator.models import WorkerPing
    from simulator.runs.tasks import ping

    deadline = time.monotonic() + timeout
    sent: list[int] = []
    while time.monotonic() < deadline:
        record = WorkerPing.objects.create()
        ping.apply_async(args=[record.pk], queue=queue)
        sent.append(record.pk)
        answered = WorkerPing.objects.filter(pk__in=sent, answered_at__isnull=False)
        if len(set(answered.values_list("hostname", flat=True))) >= hostnames:
            return
        time.sleep(0.5)
    raise RuntimeError(f"fewer than {hostnames} workers answered on {queue} in {timeout} s")


def play_run(owner, players: list[dict], games: int, seed: int = 1, watch=None):
    """Create a run (it is dispatched at once) and wait until it ends; (run, wall seconds).
    `watch(run)`, a context manager, is entered while the run plays (clients polling it)."""
    from simulator.runs.services import run_create

    began = time.perf_counter()
    run, _ = run_create(owner=owner, game="drifter", players=players, games=games, seed=seed)
    with watch(run) if watch else contextlib.nullcontext():
        while True:
            run.refresh_from_db()
            if not run.is_active:
                break
            time.sleep(0.02)  # the wall time to within 20 ms
    wall = time.perf_counter() - began
    if run.status != "done":
        sys.exit(f"the run ended {run.status}: {run.error}")
    return run, wall
