"""The table's one table: a game someone plays against bots, move by move."""

from django.conf import settings
from django.db import models


class TableGame(models.Model):
    """A game someone plays at the table (issue #16): their seats against bots, move by move.

    `record` is the truth: the engine's game record (header, every decision and chance outcome),
    from which the live state is rebuilt by replaying (simulator/table.py). `seed` and the
    record are never served while the game is on. `seats` holds, per seat, its label, its bot
    (None: the owner plays it), the bot's budget and the engine seat (deck included); `move`
    counts the decisions applied, and a client must name it to act (a stale move is refused).
    """

    class Status(models.TextChoices):
        PLAYING = "playing"
        OVER = "over"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_games"
    )
    game = models.CharField(max_length=40)
    seats = models.JSONField()
    rules = models.JSONField(default=dict)
    format = models.CharField(max_length=100, blank=True)
    variants = models.JSONField(default=list, blank=True)
    seed = models.BigIntegerField()
    catalogue_version = models.PositiveIntegerField(null=True, blank=True)
    record = models.JSONField()
    move = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    result = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["owner", "status", "-updated_at"])]

    def __str__(self) -> str:
        return f"table game {self.pk} ({self.game}, move {self.move}, {self.status})"

    @property
    def is_over(self) -> bool:
        return self.status == self.Status.OVER
