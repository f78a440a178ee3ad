"""Celery tasks: thin, take ids, load, call a service, persist.

Late acks, reject-on-worker-lost, prefetch 1 and time limits come from the settings
(config/settings.py); a chunk is sized to run for about a second, far below all of them.
"""

import logging
from typing import Any

from celery import bootsteps, shared_task
from celery.signals import task_postrun, task_prerun, task_received, worker_ready
from django.db import close_old_connections
from django.utils import timezone

from simulator.common import conf
from simulator.runs.models import WorkerPing
from simulator.runs.services import (
    chunk_execute,
    chunk_received,
    run_reconcile,
    runs_reconcile_due,
    worker_warm,
)

log = logging.getLogger(__name__)


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
    return chunk_execute(
        chunk_id=chunk_id, send_no=send_no, worker=simulate_chunk.request.hostname or ""
    )


@task_received.connect
def note_a_chunk_taken(sender: Any = None, request: Any = None, **kwargs: Any) -> None:
    """As a worker takes a chunk's message, before it plays or even claims it: note which, so
    that its supervisor can send it again at once if the worker dies now (services.
    chunk_received). A note that cannot be written only leaves the slower recovery."""
    if request is None or request.name != simulate_chunk.name:
        return
    try:
        chunk_id, send_no = request.args
        chunk_received(worker=request.hostname or "", chunk_id=chunk_id, send_no=send_no)
    except (OSError, TypeError, ValueError):
        log.warning("could not note the chunk message taken", exc_info=True)


@shared_task(name="simulator.reconcile", ignore_result=True)
def reconcile() -> dict:
    """Re-send every active run's lost chunks now (for `celery beat`; the workers' own timer,
    ReconcileTimer, does it every few seconds, and `manage.py simulation_reconcile` on demand)."""
    return run_reconcile()


class ReconcileTimer(bootsteps.StartStopStep):
    """A timer in every worker that reconciles the active runs (config/celery.py adds it).

    It looks every half SIMULATION_RECONCILE_SECONDS and claims the runs due
    (services.runs_reconcile_due), so a run is reconciled at most once a period however many
    workers there are, and by whichever is alive: nobody has to poll, and no beat process has
    to run. With the filesystem broker the timer is a thread of its own; with Redis it runs in
    the worker's event loop between tasks.
    """

    requires = ("celery.worker.components:Timer",)

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.tref: Any = None

    def start(self, parent: Any) -> None:
        every = conf.get("SIMULATION_RECONCILE_SECONDS") / 2
        self.tref = parent.timer.call_repeatedly(every, reconcile_due)

    def stop(self, parent: Any) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None


def reconcile_due() -> None:
    """One tick of ReconcileTimer; an error is logged and the next tick tries again."""
    close_old_connections()
    try:
        runs_reconcile_due()
    except Exception:
        log.exception("reconciling the active simulation runs failed")
    finally:
        close_old_connections()


@task_prerun.connect
@task_postrun.connect
def close_old_database_connections(task: Any = None, **kwargs: Any) -> None:
    """Before and after every task, what Django does around a request: close this thread's
    connections that are past CONN_MAX_AGE, broken or left mid-transaction, and have the next
    use check the one kept (CONN_HEALTH_CHECKS). In place of Celery's own closing of every
    connection (CELERY_DB_REUSE_MAX, config/settings.py). A task run eagerly (inside a test's
    transaction) leaves them alone, as Celery does."""
    if task is not None and getattr(task.request, "is_eager", False):
        return
    close_old_connections()


@worker_ready.connect
def load_the_catalogue_before_the_first_chunk(**kwargs: Any) -> None:
    """Each game's card catalogue, loaded once as the worker starts rather than in its first
    chunk (which would make a run's first chunks about 0.1 s slower on every worker)."""
    worker_warm()
