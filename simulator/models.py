"""Simulation service tables. The worker round trip (`WorkerPing`) lives here with the runs."""

from django.conf import settings
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


class SimulationRun(models.Model):
    """A batch of bot games between decks (or players of a fixed-component game).

    `plan` is everything a chunk needs to play (see simulator/runner.py): the game, its rules,
    the players with their engine seats and bots, the matchups and the seed. The run's state
    lives here, not in a Celery result backend: status, progress and the merged aggregate.
    """

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"
        CANCELLED = "cancelled"

    class Kind(models.TextChoices):
        MATCH = "match", "Match (everyone at one table)"
        GAUNTLET = "gauntlet", "Gauntlet (the first deck against each other deck)"
        ROUND_ROBIN = "round_robin", "Round robin (every pair of decks)"
        WHAT_IF = "what_if", "What-if (deck A against deck A with one change)"

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="simulation_runs"
    )
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.MATCH)
    game = models.CharField(max_length=40)
    format = models.CharField(max_length=100, blank=True)
    variants = models.JSONField(default=list, blank=True)
    games = models.PositiveIntegerField(help_text="Games of each matchup.")
    total_games = models.PositiveIntegerField(help_text="Games of all matchups together.")
    seed = models.BigIntegerField()
    chunk_size = models.PositiveIntegerField(help_text="Game indices per chunk.")
    chunk_count = models.PositiveIntegerField()
    plan = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    games_done = models.PositiveIntegerField(default=0)
    chunks_done = models.PositiveIntegerField(default=0)
    chunks_failed = models.PositiveIntegerField(default=0)
    aggregate = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    # NULL, not "": a run without a key must not collide with other keyless runs.
    idempotency_key = models.CharField(max_length=200, null=True, blank=True)  # noqa: DJ001
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When a worker's timer last claimed the run to reconcile it (services.runs_reconcile_due).
    reconciled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="simulation_run_idempotency_key_per_owner",
            )
        ]
        indexes = [models.Index(fields=["owner", "status"])]

    def __str__(self) -> str:
        return f"run {self.pk} ({self.game}, {self.total_games} games, {self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE

    @property
    def progress(self) -> float:
        """Finished games as a fraction of the games asked for."""
        return self.games_done / self.total_games if self.total_games else 1.0


class SimulationChunk(models.Model):
    """A slice of a run's game indices [start, end), played for every matchup by one task.

    `attempts` counts task starts (a chunk that keeps killing its worker is failed after a few),
    `sends` counts messages sent (first dispatch and every re-send by the reconciler).
    """

    class Status(models.TextChoices):
        PENDING = "pending"  # not sent yet (dispatch keeps a window of chunks in flight)
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"
        SKIPPED = "skipped"  # the run was cancelled before it ran

    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    sends = models.PositiveSmallIntegerField(default=0)
    sent_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=200, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["run", "index"]
        constraints = [
            models.UniqueConstraint(fields=["run", "index"], name="simulation_chunk_once_per_run")
        ]
        indexes = [models.Index(fields=["run", "status"])]

    def __str__(self) -> str:
        return f"run {self.run_id} chunk {self.index} [{self.start}, {self.end}) {self.status}"


class ChunkResult(models.Model):
    """The aggregate of one chunk. Unique per (run, chunk): a chunk that ran twice counts once."""

    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="results")
    chunk_index = models.PositiveIntegerField()
    games = models.PositiveIntegerField()
    seconds = models.FloatField()
    aggregate = models.JSONField()
    worker = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["run", "chunk_index"]
        constraints = [
            models.UniqueConstraint(
                fields=["run", "chunk_index"], name="simulation_result_once_per_chunk"
            )
        ]

    def __str__(self) -> str:
        return f"run {self.run_id} chunk {self.chunk_index}: {self.games} games"


class GameSample(models.Model):
    """A complete game record kept for replay (a few per run, spread over its games)."""

    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="samples")
    matchup = models.PositiveSmallIntegerField()
    index = models.PositiveIntegerField()
    seats = models.JSONField(help_text="The player (index into the plan) in each seat.")
    final = models.JSONField()
    record = models.JSONField()

    class Meta:
        ordering = ["run", "matchup", "index"]
        constraints = [
            models.UniqueConstraint(
                fields=["run", "matchup", "index"], name="simulation_sample_once"
            )
        ]

    def __str__(self) -> str:
        return f"run {self.run_id} matchup {self.matchup} game {self.index}"


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
