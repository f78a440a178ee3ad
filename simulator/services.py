"""Writes of the simulation service."""

from django.db import transaction

from simulator.models import WorkerPing


def worker_ping_send() -> WorkerPing:
    """Create a ping and enqueue it for a worker once the row is committed."""
    from simulator.tasks import ping

    with transaction.atomic():
        record = WorkerPing.objects.create()
        transaction.on_commit(lambda: ping.delay(record.pk))
    return record
