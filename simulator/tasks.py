"""Celery tasks: thin, take ids, load, call a service, persist."""

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
