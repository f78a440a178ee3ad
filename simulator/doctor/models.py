"""The deck doctor's tables: a search and the simulation runs that are its stages."""

from django.conf import settings
from django.db import models

from simulator.runs.models import SimulationRun


class DoctorRun(models.Model):
    """The deck doctor (#18): a search for the swaps (cut one card, add one) that make a deck
    win more against a gauntlet, by a sequence of ordinary simulation runs (its stages).

    `state` holds the search as it stands (the cut and add candidates, the swaps alive, the
    games each round gives a swap); `result` the final ranking once it is done. Both are
    reproducible from `seed`: every stage run's seed is derived from it.
    """

    Status = SimulationRun.Status  # a doctor run lives and ends as its stage runs do

    class Source(models.TextChoices):
        COLLECTION = "collection", "My collection"
        FORMAT = "format", "The format's whole card pool"
        POOL = "pool", "The deck's Stud or Draw pool"

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="doctor_runs"
    )
    deck = models.ForeignKey("decks.Deck", on_delete=models.CASCADE, related_name="doctor_runs")
    format = models.CharField(max_length=100)
    gauntlet = models.JSONField(help_text="The opponents: run players (deck and bot).")
    source = models.CharField(max_length=10, choices=Source.choices)
    bot = models.CharField(max_length=40)
    bot_budget = models.PositiveIntegerField(
        null=True, blank=True, help_text="Your deck's bot's budget (null: the bot's default)."
    )
    budget = models.PositiveIntegerField(help_text="Games the whole search may play.")
    chain = models.BooleanField(
        default=True,
        help_text="After a proven swap, make it and search again with what is left of the budget.",
    )
    seed = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    round = models.PositiveSmallIntegerField(default=0, help_text="0: ranking the cuts.")
    games_spent = models.PositiveIntegerField(default=0)
    state = models.JSONField(default=dict)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    idempotency_key = models.CharField(max_length=200, null=True, blank=True)  # noqa: DJ001
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="doctor_run_idempotency_key_per_owner",
            )
        ]

    def __str__(self) -> str:
        return f"deck doctor {self.pk} (deck {self.deck_id}, {self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE

    @property
    def progress(self) -> float:
        """Games played as a fraction of the budget."""
        return min(1.0, self.games_spent / self.budget) if self.budget else 1.0


class DoctorStage(models.Model):
    """One simulation run of a deck doctor: round 0 ranks the cuts (a gauntlet of the deck),
    each later round plays one swap as a what-if against the gauntlet."""

    doctor = models.ForeignKey(DoctorRun, on_delete=models.CASCADE, related_name="stages")
    run = models.OneToOneField(SimulationRun, on_delete=models.CASCADE, related_name="doctor")
    round = models.PositiveSmallIntegerField()
    swap = models.JSONField(null=True, blank=True, help_text='{"cut": code, "add": code}')

    class Meta:
        ordering = ["doctor", "round", "id"]

    def __str__(self) -> str:
        return f"doctor {self.doctor_id} round {self.round} run {self.run_id}"
