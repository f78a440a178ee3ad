"""Celery tasks: thin, take ids, load, call a service, persist.

Late acks, reject-on-worker-lost, prefetch 1 and time limits come from the settings
(config/settings.py); a chunk is sized to run for about a second, far below all of them.
"""

from celery import shared_task
from django.utils import timezone

from simulator.models import WorkerPing


@shared_task(name="simulator.ping", acks_late=True, ignore_result=True)
def ping(ping_id: int) -> None:
    """Stamp a WorkerPing: proof that a worker process took a task from the broker."""
    hostname = ping.request.hostname or ""
    WorkerPing.objects.filter(pk=ping_id, answered_at__isnull=True).update(
        answered_at=timezone.now(), hostname=hostname
    )


@shared_task(
    name="simulator.simulate_chunk", acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def simulate_chunk(chunk_id: int, send_no: int) -> str:
    """Play one chunk of a run (idempotent: a chunk counts once however often it runs)."""
    from simulator.services import chunk_execute

    return chunk_execute(
        chunk_id=chunk_id, send_no=send_no, worker=simulate_chunk.request.hostname or ""
    )


@shared_task(name="simulator.reconcile", ignore_result=True)
def reconcile() -> dict:
    """Periodic: re-send chunks that went missing (also run by the poll and a command)."""
    from simulator.services import run_reconcile

    return run_reconcile()
