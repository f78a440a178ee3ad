"""Decks with their history, sealed/drafted pools and draft pods."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse

from cards.models import Card, KickerChip
from simulator.engine.drifter.formats import format_label


def new_slug() -> str:
    """An unguessable link for sharing a public deck (96 random bits)."""
    return secrets.token_urlsafe(12)


class Pool(models.Model):
    """Cards and kicker chips a Stud or Draw deck must be built from, owned by one person."""

    class Kind(models.TextChoices):
        STUD = "stud", "Stud (sealed)"
        DRAW = "draw", "Draw (draft)"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pools"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    name = models.CharField(max_length=100, blank=True)
    seed = models.BigIntegerField()
    set_codes = models.JSONField(default=list, help_text="The set of each booster opened.")
    boosters = models.JSONField(default=list, help_text="Each booster as opened (Stud).")
    cards = models.JSONField(default=dict, help_text="{card code: quantity}")
    kicker_chips = models.JSONField(default=dict, help_text="{kicker chip code: quantity}")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return self.name or f"{self.get_kind_display()} pool #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("decks:pool-detail", args=[self.pk])


class Deck(models.Model):
    """A deck: 54 cards plus kicker chips, in a format (standard or variants joined by +)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks"
    )
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True, max_length=5000)
    format = models.CharField(max_length=100, default="standard")
    pool = models.ForeignKey(
        Pool, null=True, blank=True, on_delete=models.PROTECT, related_name="decks"
    )
    is_public = models.BooleanField(default=False)
    # Public by link is not listed: its link is unguessable until the owner also lists it.
    listed = models.BooleanField(
        default=False, help_text="Shown in the public deck list (only while public)."
    )
    slug = models.CharField(max_length=32, unique=True, default=new_slug, editable=False)
    version = models.PositiveIntegerField(default=0)
    unsaved_changes = models.BooleanField(
        default=False,
        help_text="The builder changed the deck since its latest version was saved.",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated", "-id"]
        indexes = [
            models.Index(fields=["owner", "-updated"]),
            models.Index(
                fields=["-updated"],
                name="deck_listed_recent",
                condition=models.Q(is_public=True, listed=True),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("decks:detail", args=[self.pk])

    def get_public_url(self) -> str:
        """The deck's public page, by its link's slug: what anyone but its owner may open
        (its `get_absolute_url` is the owner's page, a 404 for anyone else)."""
        return reverse("decks:shared", args=[self.slug])

    @property
    def format_label(self) -> str:
        """The format by its human name, e.g. "Stud (sealed) + On Your Lonesome"."""
        return format_label(self.format)


class DeckCard(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="entries")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="+")
    qty = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["deck", "card"], name="deckcard_unique")]

    def __str__(self) -> str:
        return f"{self.qty} x {self.card_id}"


class DeckKickerChip(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="chip_entries")
    kicker_chip = models.ForeignKey(KickerChip, on_delete=models.PROTECT, related_name="+")
    qty = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["deck", "kicker_chip"], name="deckchip_unique")
        ]

    def __str__(self) -> str:
        return f"{self.qty} x {self.kicker_chip_id}"


class DeckVersion(models.Model):
    """A snapshot of the deck as saved: name, format, description, cards and chips by code.

    A version is a save: every write through the API, and "Save version" in the builder (whose
    one-click edits change the deck itself but make no version until then); docs/decks.md.
    """

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    note = models.CharField(max_length=200, blank=True)
    snapshot = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["deck", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "number"], name="deckversion_unique")
        ]

    def __str__(self) -> str:
        return f"{self.deck_id} v{self.number}"


class DraftPod(models.Model):
    """A Draw pod: 2-8 seats, people and bots; `state` is the engine's draft (sealed.Draft)."""

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        DRAFTING = "drafting", "Drafting"
        DONE = "done", "Done"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=100, blank=True)
    seats = models.PositiveSmallIntegerField()
    set_codes = models.JSONField(default=list)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    state = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return self.name or f"Draft pod #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("decks:draft-detail", args=[self.pk])


class DraftSeat(models.Model):
    """A seat at the pod: a person, or a bot when `user` is empty once the draft starts.

    When the draft ends a person's seat gets a `pool` and a `deck` of their own; a bot's seat
    keeps its deck here, in `bot_deck` (no one owns it; the pod's people may see and play it).
    """

    pod = models.ForeignKey(DraftPod, on_delete=models.CASCADE, related_name="seat_set")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    pool = models.OneToOneField(Pool, null=True, blank=True, on_delete=models.SET_NULL)
    deck = models.ForeignKey(
        Deck, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    bot_deck = models.JSONField(
        null=True,
        blank=True,
        help_text="A bot seat's Draw deck, built when the draft ends: "
        "{cards: {card code: quantity}, kicker_chips: {kicker chip code: quantity}}.",
    )

    class Meta:
        ordering = ["pod", "number"]
        constraints = [
            models.UniqueConstraint(fields=["pod", "number"], name="draftseat_unique"),
            models.UniqueConstraint(
                fields=["pod", "user"],
                name="draftseat_one_per_user",
                condition=models.Q(user__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pod_id} seat {self.number + 1}"


class DraftPick(models.Model):
    """Every pick made at a pod, in order: booster round, pick number, seat and card."""

    pod = models.ForeignKey(DraftPod, on_delete=models.CASCADE, related_name="picks")
    round = models.PositiveSmallIntegerField()
    pick_no = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="+")
    by_bot = models.BooleanField(default=False)

    class Meta:
        ordering = ["pod", "round", "pick_no", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["pod", "round", "pick_no", "seat"], name="draftpick_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.pod_id} r{self.round} p{self.pick_no} seat {self.seat}: {self.card_id}"
