"""The metagame lab's tables (#28): a field of decks, its runs, and the simulation runs that are
their stages."""

from django.conf import settings
from django.db import models

from simulator.runs.models import SimulationRun


class Target(models.TextChoices):
    """What a field run sets out to find, and so where its games go (sampler.plan_round)."""

    BEST = "best", "The best deck to bring against the field"
    SUPPORT = "support", "The decks of the field's equilibrium"


class Field(models.Model):
    """A saved field: the decks a format's players bring, each with its share of them, and how
    a field run of it plays (bot, budget, confidence, target).

    `entries` is a list of run players as `run_create` takes them (`{"deck": id}`,
    `{"public_deck": slug}` or `{"starter": code}`, optionally `bot` and `budget`), each with
    its `share`. A blank `format` is the game's default format, a blank `bot` its default bot.
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="metagame_fields"
    )
    name = models.CharField(max_length=100)
    format = models.CharField(max_length=100, blank=True)
    bot = models.CharField(max_length=40, blank=True)
    entries = models.JSONField(help_text="The decks, each a run player with its share.")
    budget = models.PositiveIntegerField(help_text="Games a field run may play.")
    confidence = models.FloatField(default=0.95)
    target = models.CharField(max_length=10, choices=Target.choices, default=Target.BEST)
    table_size = models.PositiveSmallIntegerField(
        default=2, help_text="Seats at a table: 2 (heads-up) or 3 to 8 where the game seats more."
    )
    public = models.BooleanField(default=False, help_text="Anyone may read and copy it.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return f"field {self.pk} ({self.name})"


class FieldRun(models.Model):
    """A field run: the field's heads-up matchups played in rounds of ordinary simulation runs
    (its stages), each round's games placed by the sampler, until its rule stops or the budget
    is spent; then `result` answers which deck to bring (analysis.analyse).

    The field as it was at the start is kept (`entries`, with each deck's `label`, and the
    rest), so editing the field never changes a run. `counts` holds every game so far:
    `wins[i][j]` deck i's wins against deck j (a tie half a win to each), `games[i][j]`.
    """

    Status = SimulationRun.Status  # a field run lives and ends as its stage runs do
    ACTIVE = (Status.QUEUED, Status.RUNNING)

    field = models.ForeignKey(Field, on_delete=models.CASCADE, related_name="runs")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="field_runs"
    )
    entries = models.JSONField(help_text="The field's decks at the start, each with its label.")
    format = models.CharField(max_length=100)
    bot = models.CharField(max_length=40)
    budget = models.PositiveIntegerField()
    confidence = models.FloatField()
    target = models.CharField(max_length=10, choices=Target.choices)
    table_size = models.PositiveSmallIntegerField(default=2)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    round = models.PositiveSmallIntegerField(default=0)
    games_spent = models.PositiveIntegerField(default=0)
    counts = models.JSONField(default=dict, help_text='{"wins": N×N, "games": N×N}')
    rounds = models.JSONField(default=list, help_text="Each round's games per cell and reasons.")
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
                name="field_run_idempotency_key_per_owner",
            )
        ]

    def __str__(self) -> str:
        return f"field run {self.pk} (field {self.field_id}, {self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE

    @property
    def progress(self) -> float:
        """Games played as a fraction of the budget."""
        return min(1.0, self.games_spent / self.budget) if self.budget else 1.0


class FieldStage(models.Model):
    """One simulation run of a field run, in one round: decks i and j heads-up (a match run of
    the two, their seats alternating game by game); or, at a table of more seats, the table's
    composition in `seats` (deck indices, sorted; a deck may hold several seats), i and j then
    its first two decks."""

    field_run = models.ForeignKey(FieldRun, on_delete=models.CASCADE, related_name="stages")
    run = models.OneToOneField(SimulationRun, on_delete=models.CASCADE, related_name="field_stage")
    round = models.PositiveSmallIntegerField()
    i = models.PositiveSmallIntegerField()
    j = models.PositiveSmallIntegerField()
    seats = models.JSONField(
        null=True, blank=True, default=None,
        help_text="A table of more than two seats: the deck in each seat (None: heads-up).",
    )  # fmt: skip

    class Meta:
        ordering = ["field_run", "round", "i", "j", "id"]

    def __str__(self) -> str:
        return f"field run {self.field_run_id} round {self.round} ({self.i}, {self.j})"
