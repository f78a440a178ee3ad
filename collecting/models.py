"""What collectors own: named collections of cards and kicker chips, wishlists, trade-list
adjustments, recorded openings and photos of their own copies (scans).

Quantities only ever change through `collecting.services`, which updates them with F()
expressions so that two quick clicks never lose an update.

These models were the cards app's until they moved here; each keeps the table it had there
(`db_table`), so the move copied no data (docs/collections.md).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from cards.models.catalogue import Card, CardSet, KickerChip, StarterDeck

# The most copies one entry (or one wishlist line) may hold: generous for a hoarder, small
# enough that a typo such as 10000000 is refused instead of stored.
MAX_QUANTITY = 9999


class Condition(models.TextChoices):
    """Card grading, best first."""

    MINT = "mint", "Mint"
    NEAR_MINT = "near_mint", "Near Mint"
    EXCELLENT = "excellent", "Excellent"
    GOOD = "good", "Good"
    LIGHT_PLAYED = "light_played", "Light Played"
    PLAYED = "played", "Played"
    POOR = "poor", "Poor"


class Collection(models.Model):
    """A named pile of cards one user owns ("Binder", "Trade box")."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="card_collections"
    )
    name = models.CharField(max_length=100)
    trade_list_public = models.BooleanField(
        default=False, help_text="Other users may see (read-only) this collection's trade list."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "cards_collection"
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="collection_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("collecting:collection-detail", args=[self.pk])


class CollectionEntry(models.Model):
    """Copies of one card in one condition in one collection."""

    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="entries")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="collection_entries")
    condition = models.CharField(
        max_length=12, choices=Condition.choices, default=Condition.NEAR_MINT
    )
    quantity = models.PositiveIntegerField(default=0)
    notes = models.TextField(blank=True, max_length=500)
    acquired_on = models.DateField(null=True, blank=True)

    class Meta:
        db_table = "cards_collectionentry"
        ordering = ["card__card_set__order", "card__number", "condition"]
        constraints = [
            models.UniqueConstraint(
                fields=["collection", "card", "condition"], name="entry_unique_card_condition"
            ),
            models.CheckConstraint(
                condition=Q(quantity__gte=0, quantity__lte=MAX_QUANTITY),
                name="entry_quantity_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.quantity} x {self.card.code} ({self.condition})"


class CollectionChip(models.Model):
    """Copies of one kicker chip in one collection (chips are not graded)."""

    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="chips")
    kicker_chip = models.ForeignKey(
        KickerChip, on_delete=models.PROTECT, related_name="collection_chips"
    )
    quantity = models.PositiveIntegerField(default=0)
    notes = models.TextField(blank=True, max_length=500)

    class Meta:
        db_table = "cards_collectionchip"
        ordering = ["kicker_chip__card_set__order", "kicker_chip__code"]
        constraints = [
            models.UniqueConstraint(fields=["collection", "kicker_chip"], name="chip_unique"),
            models.CheckConstraint(
                condition=Q(quantity__gte=0, quantity__lte=MAX_QUANTITY),
                name="chip_quantity_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.quantity} x {self.kicker_chip.code}"


class WishlistEntry(models.Model):
    """A card or a kicker chip (exactly one) that a user wants, and how many."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="wishlist"
    )
    card = models.ForeignKey(
        Card, null=True, blank=True, on_delete=models.CASCADE, related_name="wishlist_entries"
    )
    kicker_chip = models.ForeignKey(
        KickerChip,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="wishlist_entries",
    )
    quantity = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "cards_wishlistentry"
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(card__isnull=False, kicker_chip__isnull=True)
                | Q(card__isnull=True, kicker_chip__isnull=False),
                name="wish_card_xor_chip",
            ),
            models.CheckConstraint(
                condition=Q(quantity__gte=1, quantity__lte=MAX_QUANTITY),
                name="wish_quantity_range",
            ),
            models.UniqueConstraint(
                fields=["owner", "card"], condition=Q(card__isnull=False), name="wish_unique_card"
            ),
            models.UniqueConstraint(
                fields=["owner", "kicker_chip"],
                condition=Q(kicker_chip__isnull=False),
                name="wish_unique_chip",
            ),
        ]

    def __str__(self) -> str:
        if self.card_id:
            assert self.card is not None
            item = self.card.code
        else:
            assert self.kicker_chip is not None  # wish_card_xor_chip: a card or a chip
            item = self.kicker_chip.code
        return f"{self.owner} wants {self.quantity} x {item}"


class TradeKeep(models.Model):
    """The owner's adjustment to a collection's trade list: keep exactly `keep` copies of a card
    (all conditions together) instead of the default (a playset, or what the decks use)."""

    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="trade_keeps")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="+")
    keep = models.PositiveIntegerField()

    class Meta:
        db_table = "cards_tradekeep"
        constraints = [
            models.UniqueConstraint(fields=["collection", "card"], name="trade_keep_unique"),
            models.CheckConstraint(condition=Q(keep__lte=MAX_QUANTITY), name="trade_keep_range"),
        ]

    def __str__(self) -> str:
        return f"keep {self.keep} x {self.card.code}"


class ProductOpening(models.Model):
    """A booster or starter the owner opened and added to a collection (a history line)."""

    class Kind(models.TextChoices):
        BOOSTER = "booster", "Booster"
        STARTER = "starter", "Starter"

    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="openings")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="+")
    starter = models.ForeignKey(
        StarterDeck, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    contents = models.JSONField(
        default=dict, help_text='{"cards": {code: qty}, "kicker_chips": {}}'
    )
    opened_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "cards_productopening"
        ordering = ["-opened_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} of {self.card_set.code}"


def _scan_path(instance: CardScan, filename: str) -> str:
    # Never the uploader's file name: a random one, with the extension of the re-encoded format.
    return f"scans/{instance.owner_id}/{uuid.uuid4().hex}{filename[filename.rfind('.') :]}"


class CardScan(models.Model):
    """A photo of the owner's own copy of a card, re-encoded and thumbnailed on upload."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="card_scans"
    )
    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="scans")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="scans")
    entry = models.ForeignKey(
        CollectionEntry, null=True, blank=True, on_delete=models.SET_NULL, related_name="scans"
    )
    image = models.FileField(upload_to=_scan_path)
    thumbnail = models.FileField(upload_to=_scan_path)
    content_type = models.CharField(max_length=20)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "cards_cardscan"
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"scan of {self.card.code}"

    @property
    def extension(self) -> str:
        return {"image/png": "png", "image/jpeg": "jpg", "image/webp": "webp"}[self.content_type]
