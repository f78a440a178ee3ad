"""The runs' tables: a simulation run, its chunks, their results and sampled games, and the
worker round trip (`WorkerPing`) the home page shows."""

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
    # The run whose headline this one checks with stronger bots (services.run_check): the same
    # question, a stronger bot in every seat. Kept if that run is deleted, as a run of its own.
    checks = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="check_runs"
    )

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
    `lease_until`: while it plays, its worker renews this every third of
    SIMULATION_LEASE_SECONDS; a running chunk whose lease ran out lost its worker.
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
    lease_until = models.DateTimeField(null=True, blank=True)
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
