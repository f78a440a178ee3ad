"""`manage.py simulation_workers`: the Celery workers of one machine, one process per core.

    manage.py simulation_workers                         # one worker per core: drifter-1@host, ...
    manage.py simulation_workers --processes 4 --name sims -- --queues=celery --loglevel=INFO

Each worker is a `celery worker --pool=solo`: a single process with a hostname of its own and
its own broker connection, playing one chunk at a time. They share nothing, so one that dies
(the OOM killer, a crash, `kill -9`) stops nothing else, and this command starts it again.

Why not one prefork worker: on the embedded `filesystem://` broker Celery has no event loop and
feeds a prefork pool through one shared pipe; an idle pool process waits on it holding the
pipe's read lock, and killed there it takes the lock with it, so the worker takes no more tasks
until it is restarted (docs/operations.md, "Worker processes"). One layout for every broker.

SIGTERM or SIGINT stops every worker warmly (each finishes the chunk it is playing) and then
this command exits. Whatever follows `--` is passed to every `celery worker`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

from celery.utils.nodenames import host_format
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, close_old_connections, connection

from simulator.common.conf import cores
from simulator.runs import services

# A worker that lived this long is started again at once, as is one killed by a signal (kill -9,
# the OOM killer) after KILLED_HEALTHY_SECONDS; one that keeps dying sooner (a broken setting,
# a crash at start) waits twice as long each time, up to MAX_DELAY seconds.
HEALTHY_SECONDS = 30.0
KILLED_HEALTHY_SECONDS = 3.0
MAX_DELAY = 60.0


#: How long a worker process keeps its database connection (CONN_MAX_AGE) unless the
#: environment says otherwise. Around every task a connection whose age is up is closed
#: (simulator.runs.tasks), and with the default (0) each chunk opened one (SQLite runs its
#: PRAGMAs on every open; PostgreSQL forks a backend): a few milliseconds of a worker's time
#: between every two chunks. A solo worker is one long-lived process on one thread, so keeping
#: it is safe; CONN_HEALTH_CHECKS replaces one the database dropped.
WORKER_CONN_MAX_AGE = "600"


def worker_environment() -> dict[str, str]:
    """The environment a worker process starts with: this one's, CONN_MAX_AGE defaulted."""
    return {"CONN_MAX_AGE": WORKER_CONN_MAX_AGE, **os.environ}


@dataclass
class Worker:
    """One `celery worker --pool=solo` process and when to start it again if it died."""

    hostname: str  # as the chunks it plays record it: NAME-1@host
    command: list[str]
    proc: subprocess.Popen | None = None
    started: float = 0.0
    delay: float = 0.0
    restart_at: float = 0.0

    def start(self) -> None:
        self.proc = subprocess.Popen(self.command, cwd=settings.BASE_DIR, env=worker_environment())
        self.started = time.monotonic()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


class Command(BaseCommand):
    help = (
        "Run the Celery workers of this machine: one single-process worker per core, each "
        "started again if it dies. Options after -- go to every `celery worker`."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--processes",
            type=int,
            default=cores(),
            help="Worker processes (default: one per core of this machine).",
        )
        parser.add_argument(
            "--name",
            default="drifter",
            help="Hostnames are NAME-1@host, NAME-2@host, ... (distinct across machines too).",
        )
        parser.add_argument("celery_args", nargs="*", help="Options for `celery worker`.")

    def handle(self, *args, processes: int, name: str, celery_args: list[str], **options):
        if processes < 1:
            raise CommandError("--processes is at least 1.")
        stopping: list[int] = []
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda signum, frame: stopping.append(signum))
        workers = []
        for i in range(1, processes + 1):
            hostname = host_format(f"{name}-{i}@%h")
            # --concurrency=1: a solo worker's prefetch is concurrency x multiplier (one per
            # core by default), and a message prefetched behind the chunk being played waits
            # for it, and is lost with it on the filesystem broker.
            command = [
                sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
                "--concurrency=1", f"--hostname={hostname}", *celery_args,
            ]  # fmt: skip
            workers.append(Worker(hostname=hostname, command=command))
        for worker in workers:
            worker.start()
        self._say(f"started {processes} worker processes: {', '.join(w.hostname for w in workers)}")
        while not stopping:
            for worker in workers:
                self._look_after(worker)
            time.sleep(0.2)
        for worker in workers:
            if worker.running and worker.proc is not None:
                worker.proc.send_signal(signal.SIGTERM)
        for worker in workers:
            if worker.proc is not None:
                worker.proc.wait()
        self._say("every worker process has stopped")

    def _look_after(self, worker: Worker) -> None:
        """Start a worker again once it has died and its delay has passed."""
        if worker.running or worker.proc is None:
            return
        now = time.monotonic()
        if not worker.restart_at:
            code = worker.proc.returncode
            how = f"was killed by {signal.Signals(-code).name}" if code < 0 else f"exited {code}"
            lived = now - worker.started
            healthy = lived >= (KILLED_HEALTHY_SECONDS if code < 0 else HEALTHY_SECONDS)
            worker.delay = 0.0 if healthy else min(MAX_DELAY, 2 * worker.delay or 1)
            worker.restart_at = now + worker.delay
            self._say(f"{worker.hostname} {how}; starting it again in {worker.delay:g} s")
            self._release(worker)
        elif now >= worker.restart_at:
            worker.restart_at = 0.0
            worker.start()
            pid = worker.proc.pid if worker.proc is not None else "?"
            self._say(f"{worker.hostname} started again (pid {pid})")

    def _release(self, worker: Worker) -> None:
        """Re-send at once what the dead worker was playing (instead of after its lease)."""
        if not connection.in_atomic_block:  # (a test's transaction)
            close_old_connections()  # a death is rare: never reuse a connection gone stale
        try:
            counts = services.chunks_of_lost_worker(worker=worker.hostname)
        except DatabaseError as exc:  # the leases still run out: the reconciler re-sends
            self._say(f"could not re-send {worker.hostname}'s chunks now: {exc}")
            return
        if counts["resent"] or counts["failed"]:
            self._say(
                f"{worker.hostname}'s chunks: {counts['resent']} re-sent, {counts['failed']} failed"
            )

    def _say(self, message: str) -> None:
        self.stdout.write(f"simulation_workers: {message}")
        self.stdout.flush()
