from django.apps import AppConfig


class SimulatorConfig(AppConfig):
    """Simulation runs on Celery workers over the pure rules engine in simulator.engine."""

    name = "simulator"
