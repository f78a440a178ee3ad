"""Simulation service tables. The worker round trip (`WorkerPing`) lives here with the runs."""

from django.db import models


class WorkerPing(models.Model):
    """A ping sent to the Celery workers; a worker stamps it when it runs the `ping` task."""

    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    hostname = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"ping {self.pk} ({'answered' if self.answered_at else 'waiting'})"

    @property
    def round_trip_seconds(self) -> float | None:
        if self.answered_at is None:
            return None
        return (self.answered_at - self.created_at).total_seconds()
