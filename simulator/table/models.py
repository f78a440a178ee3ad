"""The table's tables: a game people play (against each other, against bots, or both), move by
move; the people in its seats; what they say at it."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class TableGame(models.Model):
    """A game at the table (issues #16 and #26): people's seats and bots' seats, move by move.

    `record` is the truth: the engine's game record (header, every decision and chance outcome),
    from which the live state is rebuilt by replaying (simulator/table/services.py). `seed` and
    the record are never served while the game is on. `seats` holds, per seat, its label, its
    bot (None: a person plays it, `TableSeat` says who), the bot's budget, the deck's source and
    the engine seat (deck included); `move` counts the decisions applied, and a client must
    name it to act (a stale move is refused). `version` counts every change anyone may see
    (moves, seats, table talk): the push channel and the polling fallback announce it.

    A table with seats still to fill is `waiting` (no record yet: the engine starts when the
    host starts it); `owner` is its host.
    """

    class Status(models.TextChoices):
        WAITING = "waiting"
        PLAYING = "playing"
        OVER = "over"

    class Pace(models.TextChoices):
        LIVE = "live"
        CORRESPONDENCE = "correspondence"

    class OnTimeout(models.TextChoices):
        BOT = "bot"  # the seat's stand-in bot plays it until its person takes it back
        FORFEIT = "forfeit"  # the seat is out of the game

    class OnResign(models.TextChoices):
        OUT = "out"
        BOT = "bot"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_games"
    )
    game = models.CharField(max_length=40)
    seats = models.JSONField()
    rules = models.JSONField(default=dict)
    format = models.CharField(max_length=100, blank=True)
    variants = models.JSONField(default=list, blank=True)
    quick_start = models.BooleanField(default=False, db_default=False)
    seed = models.BigIntegerField()
    catalogue_version = models.PositiveIntegerField(null=True, blank=True)
    record = models.JSONField(null=True, blank=True)
    move = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=0, db_default=0)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    result = models.JSONField(null=True, blank=True)
    # --- a table people share (issue #26) ---
    pace = models.CharField(
        max_length=14, choices=Pace.choices, default=Pace.LIVE, db_default=Pace.LIVE
    )
    #: Seconds a person has for a decision (None: no clock, as at a table of one person).
    clock_seconds = models.PositiveIntegerField(null=True, blank=True)
    #: Seconds a live player who left keeps the seat before the stand-in bot plays it.
    grace_seconds = models.PositiveIntegerField(default=60, db_default=60)
    on_timeout = models.CharField(
        max_length=8, choices=OnTimeout.choices, default=OnTimeout.BOT, db_default=OnTimeout.BOT
    )
    on_resign = models.CharField(
        max_length=8, choices=OnResign.choices, default=OnResign.OUT, db_default=OnResign.OUT
    )
    listed = models.BooleanField(
        default=False, db_default=False, help_text="Shown in the lobby while waiting."
    )
    spectators = models.BooleanField(default=False, db_default=False)
    spectators_talk = models.BooleanField(default=False, db_default=False)
    invite_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    #: The seat to act while a person's seat is to act (None: a bot's, or not playing).
    to_act = models.SmallIntegerField(null=True, blank=True)
    #: When the person to act runs out of time (None: no clock).
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    #: The decisions a bot made for a person: [{"move", "seat", "bot", "why"}].
    stand_in_moves = models.JSONField(default=list, null=True, blank=True)
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    started_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [
            models.Index(fields=["owner", "status", "-updated_at"]),
            models.Index(fields=["status", "listed", "-created_at"]),
        ]

    def __str__(self) -> str:
        return f"table game {self.pk} ({self.game}, move {self.move}, {self.status})"

    @property
    def is_over(self) -> bool:
        return self.status == self.Status.OVER

    @property
    def is_waiting(self) -> bool:
        return self.status == self.Status.WAITING


class TableSeat(models.Model):
    """A person's seat at a table: who holds it (None: open to anyone with the invitation, or
    in the lobby), the deck they brought, the bot that stands in for them, and whether they are
    here. A bot's seat has no row (`TableGame.seats` says its bot)."""

    class State(models.TextChoices):
        OPEN = "open"  # anyone invited may take it
        INVITED = "invited"  # kept for `user`, who has not sat down yet
        SEATED = "seated"
        OUT = "out"  # resigned or forfeited

    table = models.ForeignKey(TableGame, on_delete=models.CASCADE, related_name="people")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="table_seats",
    )
    state = models.CharField(max_length=8, choices=State.choices, default=State.OPEN)
    #: The deck brought ("deck:12", "starter:HSD-S1", "public:slug"; "" for fixed components).
    source = models.CharField(max_length=64, blank=True)
    #: The checked player (label, engine seat) once seated: what the engine gets at the start.
    player = models.JSONField(null=True, blank=True)
    stand_in = models.CharField(max_length=40, default="heuristic")
    stand_in_budget = models.PositiveIntegerField(null=True, blank=True)
    #: The stand-in bot plays the seat now (the person left, ran out of time or resigned).
    standing_in = models.BooleanField(default=False)
    why = models.CharField(max_length=16, blank=True)  # why the stand-in plays: away, clock...
    last_seen = models.DateTimeField(null=True, blank=True)
    #: When the person counts as gone (last seen + the table's grace): the clock's index.
    away_at = models.DateTimeField(null=True, blank=True, db_index=True)
    joined_at = models.DateTimeField(null=True, blank=True)
    notified_move = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="one_person_a_seat"),
        ]
        indexes = [models.Index(fields=["user", "state"])]

    def __str__(self) -> str:
        return f"seat {self.index} of table {self.table_id} ({self.state})"


class TableMessage(models.Model):
    """A line of table talk: what a seated player (or a spectator, where the host allows it)
    said, or a line the table itself says ("demo sat down"). Kept with the game; the host may
    remove one; each reader may hide the ones they do not want to read."""

    table = models.ForeignKey(TableGame, on_delete=models.CASCADE, related_name="talk")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    seat = models.SmallIntegerField(null=True, blank=True)  # None: a spectator or the table
    text = models.CharField(max_length=300)
    system = models.BooleanField(default=False)
    removed = models.BooleanField(default=False)
    hidden_by = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "id"]
        indexes = [models.Index(fields=["table", "author", "-created_at"])]

    def __str__(self) -> str:
        return f"message {self.pk} at table {self.table_id}"
