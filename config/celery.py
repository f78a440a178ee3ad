"""The Celery app. Settings come from Django settings (CELERY_* names).

Every worker process also lowers its CPU priority (SIMULATION_WORKER_NICE), so that on a
machine it shares with the web server a page is served before a game is played, and
reconciles the active simulation runs on a timer of its own (simulator.runs.tasks.ReconcileTimer).
"""

import os

from celery import Celery
from celery.signals import worker_init
from kombu.transport import TRANSPORT_ALIASES

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# The embedded broker writes each message whole before a worker can see it (config/fs_broker.py).
TRANSPORT_ALIASES["filesystem"] = "config.fs_broker:Transport"

app = Celery("drifter")
app.config_from_object("django.conf:settings", namespace="CELERY")
# The simulator keeps its tasks in its runs' room (simulator/runs/tasks.py).
app.autodiscover_tasks(["simulator.runs"])
app.steps["worker"].add("simulator.runs.tasks:ReconcileTimer")


@worker_init.connect
def yield_the_cpu_to_the_web(**kwargs) -> None:
    """Raise the worker's niceness to SIMULATION_WORKER_NICE (its pool processes inherit it)."""
    # lazy: Django's settings are not ready when Celery imports this module
    from simulator.common import conf

    wanted, current = conf.get("SIMULATION_WORKER_NICE"), os.nice(0)
    if wanted > current:
        os.nice(wanted - current)
