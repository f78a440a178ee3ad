"""The bots' ladder: per game, a round robin of its bots (and budgets) and their ratings."""

from django.db import models

from simulator.runs.models import SimulationRun


class BotLadder(models.Model):
    """A ladder of one game's bots (issue #25 §5): its entrants (each registered bot, and the
    budget levels of a bot that has one) in round-robin runs, one per deck the game's ladder
    seats them with, and once the runs are done the ratings (`result`).

    The runs are ordinary runs (played by chunks on the workers, counted once); the ladder
    follows them (runs/followers.py) and rates itself when the last one ends.
    """

    Status = SimulationRun.Status  # a ladder lives and ends as its runs do
    ACTIVE = (Status.QUEUED, Status.RUNNING)

    game = models.CharField(max_length=40)
    games = models.PositiveIntegerField(help_text="Games of each pair of bots, on each deck.")
    seed = models.BigIntegerField()
    entrants = models.JSONField(help_text="[{bot, budget, label}], in the runs' player order.")
    runs = models.ManyToManyField(SimulationRun, related_name="ladders")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["game", "status"])]

    def __str__(self) -> str:
        return f"bots' ladder {self.pk} ({self.game}, {self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE
