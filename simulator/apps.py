from django.apps import AppConfig

# How often `celery beat` runs the reconciler (the poll and a command run it too).
RECONCILE_EVERY_SECONDS = 60.0


class SimulatorConfig(AppConfig):
    """Simulation runs on Celery workers over the pure rules engine in simulator.engine."""

    name = "simulator"

    def ready(self) -> None:
        from django.db.models.signals import post_delete
        from rest_framework.authtoken.models import Token

        from config.celery import app
        from simulator.api.status_polls import forget_token

        post_delete.connect(forget_token, sender=Token, dispatch_uid="simulator-forget-token")

        # A periodic re-send of lost chunks for deployments that run `celery beat` (or -B).
        schedule = dict(app.conf.beat_schedule or {})
        schedule.setdefault(
            "simulator-reconcile",
            {"task": "simulator.reconcile", "schedule": RECONCILE_EVERY_SECONDS},
        )
        app.conf.beat_schedule = schedule
