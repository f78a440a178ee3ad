from django.apps import AppConfig

# How often `celery beat` runs the reconciler (the poll and a command run it too).
RECONCILE_EVERY_SECONDS = 60.0


class SimulatorConfig(AppConfig):
    """The simulator: the rules engine (simulator.engine) and the rooms built on it (runs, the
    deck doctor, the table, draft test runs); docs/architecture.md draws the house."""

    name = "simulator"

    def ready(self) -> None:
        # Each import here waits for the app registry: these modules define or import models.
        from django.db.models.signals import post_delete
        from rest_framework.authtoken.models import Token

        from config.celery import app  # app registry first: Celery's Django fix-up reads it
        from simulator.followers import FOLLOWERS  # the rooms' services: models, after the registry
        from simulator.runs import tasks  # noqa: F401  models; registers the tasks sent by name
        from simulator.runs.followers import follow  # models (QuerySet typing): after the registry
        from simulator.runs.status_polls import forget_token  # models: after the registry

        post_delete.connect(forget_token, sender=Token, dispatch_uid="simulator-forget-token")
        for follower in FOLLOWERS:
            follow(follower)  # the features built on runs hear when one ends (runs/followers.py)

        # A periodic re-send of lost chunks for deployments that run `celery beat` (or -B).
        schedule = dict(app.conf.beat_schedule or {})
        schedule.setdefault(
            "simulator-reconcile",
            {"task": "simulator.reconcile", "schedule": RECONCILE_EVERY_SECONDS},
        )
        app.conf.beat_schedule = schedule
