"""The catalogue: sets, cards, kicker chips and starter decks, loaded from fixtures/sets."""

from __future__ import annotations

from django.db import models
from django.db.models.functions import Upper
from django.urls import reverse


class CardSet(models.Model):
    """A printed set, with its booster layout (rarity sheets and weights) as data."""

    class Kind(models.TextChoices):
        BASE = "base", "Base set"
        EXPANSION = "expansion", "Expansion"

    code = models.CharField(max_length=8, unique=True)
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.BASE)
    released = models.DateField(null=True, blank=True)
    order = models.PositiveSmallIntegerField(default=1)
    booster_layout = models.JSONField(
        default=dict, help_text='{"slots": [{"count", "weights": {rarity: weight}}], ...}'
    )

    class Meta:
        ordering = ["order", "code"]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def get_absolute_url(self) -> str:
        return reverse("cards:set-detail", args=[self.code])


class Card(models.Model):
    """A printed card. Stats and kicker limit are set for dudes only (NULL otherwise)."""

    class Type(models.TextChoices):
        DUDE = "dude", "Dude"
        GEAR = "gear", "Gear"
        FORTUNE = "fortune", "Fortune"

    class Rarity(models.TextChoices):
        COMMON = "common", "Common"
        UNCOMMON = "uncommon", "Uncommon"
        RARE = "rare", "Rare"
        FIXED = "fixed", "Fixed"
        PROMO = "promo", "Promotional"

    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="cards")
    # The set's `order`, copied here so collector order (set order, number) is one indexed
    # column pair instead of a join and a sort of every match; kept by catalogue_load.
    set_order = models.PositiveSmallIntegerField(default=1)
    number = models.PositiveSmallIntegerField()
    code = models.CharField(max_length=16, unique=True)
    name = models.CharField(max_length=100, db_index=True)
    type = models.CharField(max_length=8, choices=Type.choices, db_index=True)
    is_copy = models.BooleanField(default=False)
    faction = models.CharField(max_length=40, blank=True, db_index=True)
    rarity = models.CharField(max_length=10, choices=Rarity.choices, db_index=True)
    cost = models.PositiveSmallIntegerField(db_index=True)
    smarts = models.PositiveSmallIntegerField(null=True, blank=True)
    skill = models.PositiveSmallIntegerField(null=True, blank=True)
    luck = models.PositiveSmallIntegerField(null=True, blank=True)
    kicker_limit = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.TextField(blank=True)
    flavor = models.TextField(blank=True)
    abilities = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["set_order", "number"]
        constraints = [
            models.UniqueConstraint(fields=["card_set", "number"], name="card_unique_number"),
        ]
        indexes = [
            models.Index(Upper("name"), name="card_name_upper"),
            models.Index(fields=["set_order", "number"], name="card_collector_order"),
            # `sort:cost` and `sort:-cost` order by cost, then name and code (cards.query). In
            # these orders a page is the first `limit` matching index entries; with the cost
            # index alone PostgreSQL read and sorted every match of the first cost value (the
            # page of `f:outlaws cost<=4 sort:-cost`: benchmarks/catalogue.py, docs/search.md).
            models.Index(fields=["cost", "name", "code"], name="card_cost_order"),
            models.Index(fields=["-cost", "name", "code"], name="card_cost_desc_order"),
        ]

    def __str__(self) -> str:
        return f"{self.name} [{self.code}]"

    def get_absolute_url(self) -> str:
        return reverse("cards:card-detail", args=[self.code])


class KickerChip(models.Model):
    """A kicker chip: colour (and so value) and two sides, each a modifier to one stat."""

    class Color(models.TextChoices):
        WHITE = "white", "White ($1)"
        RED = "red", "Red ($5)"
        BLUE = "blue", "Blue ($10)"
        GREEN = "green", "Green ($25)"

    class Stat(models.TextChoices):
        SMARTS = "smarts", "Smarts"
        SKILL = "skill", "Skill"
        LUCK = "luck", "Luck"

    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="kicker_chips")
    code = models.CharField(max_length=16, unique=True)
    color = models.CharField(max_length=8, choices=Color.choices)
    value = models.PositiveSmallIntegerField()
    side_a_stat = models.CharField(max_length=8, choices=Stat.choices)
    side_a_amount = models.SmallIntegerField()
    side_b_stat = models.CharField(max_length=8, choices=Stat.choices)
    side_b_amount = models.SmallIntegerField()

    class Meta:
        ordering = ["card_set__order", "code"]

    def __str__(self) -> str:
        return f"{self.code} ({self.color})"

    def get_absolute_url(self) -> str:
        return reverse("cards:chip-detail", args=[self.code])

    @property
    def sides(self) -> list[tuple[str, int]]:
        return [(self.side_a_stat, self.side_a_amount), (self.side_b_stat, self.side_b_amount)]


class StarterDeck(models.Model):
    """A starter set's fixed deck: `cards` is [{"code", "qty"}], `kicker_chips` a list of codes."""

    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="starters")
    code = models.CharField(max_length=16, unique=True)
    name = models.CharField(max_length=100)
    cards = models.JSONField(default=list)
    kicker_chips = models.JSONField(default=list)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return self.name


class CatalogueVersion(models.Model):
    """The catalogue's version: one row, bumped by `catalogue_load` whenever the set files it
    loads differ from the last ones loaded (`digest`). The engine catalogue is cached by it
    (decks/engine_catalogue.py) and a simulation run pins it in its plan, so a worker never plays a
    run with cards other than those it was planned with (docs/simulations.md)."""

    version = models.PositiveIntegerField(default=0)
    digest = models.CharField(max_length=64, blank=True, help_text="sha256 of the set files")
    loaded_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"catalogue version {self.version}"
