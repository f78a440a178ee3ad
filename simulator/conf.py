"""The simulation service's settings, each with a default (override any in Django settings)."""

from __future__ import annotations

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
    "SIMULATION_DISPATCH_WINDOW": 8,
    # Task starts before a chunk is failed (a chunk that keeps killing its worker).
    "SIMULATION_MAX_ATTEMPTS": 4,
    # Messages sent for one chunk (first send + re-sends) before it is failed.
    "SIMULATION_MAX_SENDS": 8,
    # The reconciler re-sends a chunk queued this long without starting...
    "SIMULATION_QUEUED_STALE_SECONDS": 120,
    # ... or started this long ago without a result (its worker died).
    "SIMULATION_RUNNING_STALE_SECONDS": 120,
    # The Celery queue chunks go to (tests use their own, so no other worker takes them).
    "SIMULATION_QUEUE": "celery",
    # Complete game records kept per run for replay.
    "SIMULATION_SAMPLE_RECORDS": 20,
}


def get(name: str) -> Any:
    """A simulation setting: Django settings first, else the default above."""
    return getattr(settings, name, DEFAULTS[name])
