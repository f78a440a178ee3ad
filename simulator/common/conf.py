"""The simulation service's settings, each with a default.

Any may be set in Django settings or, for the worker processes an operator starts without
editing settings, in the environment under the same name (`SIMULATION_WORKER_NICE=0`).
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings

DEFAULTS: dict[str, Any] = {
    # Games one run may ask for in all (games per matchup times matchups).
    "SIMULATION_MAX_GAMES_PER_RUN": 1_000_000,
    # Runs a user may have queued or running at once.
    "SIMULATION_MAX_ACTIVE_RUNS": 3,
    # The work one chunk (one Celery task) is sized for: long enough that the per-task
    # overhead is small, short enough to stay far below time limits and visibility timeouts.
    "SIMULATION_CHUNK_SECONDS": 1.0,
    # A ceiling on chunks per run (bigger chunks beyond it), so huge runs stay manageable.
    "SIMULATION_MAX_CHUNKS": 5000,
    # Chunks of one run in the broker at once: cancel stops quickly, one run cannot flood it.
    # A run keeps at most this many worker processes busy: scaling out, raise it with them.
    "SIMULATION_DISPATCH_WINDOW": 8,
    # The worker processes that play runs at once (0: this machine's cores, as `make run`
    # starts them): a run is cut into a multiple of this many chunks, so that they end together.
    "SIMULATION_WORKERS": 0,
    # Task starts before a chunk is failed (a chunk that keeps killing its worker).
    "SIMULATION_MAX_ATTEMPTS": 4,
    # Messages sent for one chunk (first send + re-sends) before it is failed.
    "SIMULATION_MAX_SENDS": 8,
    # The reconciler re-sends a chunk queued this long without starting...
    "SIMULATION_QUEUED_STALE_SECONDS": 120,
    # A playing chunk's lease: its worker renews it every third of this while it plays, and
    # the reconciler re-sends a chunk whose lease ran out (its worker died, or its machine).
    # The worker supervisor (`simulation_workers`) re-sends a dead worker's chunk at once.
    "SIMULATION_LEASE_SECONDS": 10.0,
    # How often an active run is reconciled, at most: every worker's timer looks twice as
    # often and the first to claim a run does it, however many workers there are.
    "SIMULATION_RECONCILE_SECONDS": 5.0,
    # How much the worker processes lower their CPU priority (nice), so that on a machine
    # shared with the web server a page is served before a game is played.
    "SIMULATION_WORKER_NICE": 10,
    # The Celery queue chunks go to (tests use their own, so no other worker takes them).
    "SIMULATION_QUEUE": "celery",
    # How long a web process keeps an active run's status answer: many clients polling one
    # run then cost one read of it per process and period (0: every poll reads the run).
    "SIMULATION_STATUS_CACHE_SECONDS": 1.0,
    # The work a check of a headline with stronger bots is sized for by default (its games:
    # what its bots play in this many seconds on one core, at most the checked run's games):
    # two workers finish it in about two minutes.
    "SIMULATION_CHECK_SECONDS": 240.0,
    # Complete game records kept per run for replay.
    "SIMULATION_SAMPLE_RECORDS": 20,
}


def get(name: str) -> Any:
    """A simulation setting: Django settings first, then the environment, else the default."""
    if hasattr(settings, name):
        return getattr(settings, name)
    default = DEFAULTS[name]
    raw = os.environ.get(name)
    return default if raw is None else type(default)(raw)


def cores() -> int:
    """The cores this process may run on (a container's CPU set, not the host's count)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
