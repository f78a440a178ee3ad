"""Serializers for collections: thin shapes; every write goes through collection_services."""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from cards.models import Card, KickerChip, StarterDeck
from collecting.models import (
    MAX_QUANTITY,
    CardScan,
    Collection,
    CollectionChip,
    CollectionEntry,
    Condition,
    ProductOpening,
    WishlistEntry,
)
from config.api import absolute
from config.schema import StrictJSON

CARD_CODE = serializers.SlugRelatedField  # cards and chips are named by their printed code


class CollectionSerializer(StrictJSON, serializers.ModelSerializer):
    card_count = serializers.IntegerField(read_only=True, default=0)
    chip_count = serializers.IntegerField(read_only=True, default=0)
    owner = serializers.CharField(source="owner.username", read_only=True)

    class Meta:
        model = Collection
        fields = [
            "id",
            "name",
            "owner",
            "trade_list_public",
            "created_at",
            "card_count",
            "chip_count",
        ]
        read_only_fields = ["id", "created_at"]


class CollectionEntrySerializer(StrictJSON, serializers.ModelSerializer):
    card = CARD_CODE(slug_field="code", queryset=Card.objects.all())
    name = serializers.CharField(source="card.name", read_only=True)
    quantity = serializers.IntegerField(min_value=1, max_value=MAX_QUANTITY)

    class Meta:
        model = CollectionEntry
        fields = ["id", "card", "name", "condition", "quantity", "notes", "acquired_on"]


class CollectionEntryUpdateSerializer(StrictJSON, serializers.Serializer):
    """A PATCH: quantity 0 deletes the entry."""

    quantity = serializers.IntegerField(min_value=0, max_value=MAX_QUANTITY, required=False)
    notes = serializers.CharField(max_length=500, allow_blank=True, required=False)
    acquired_on = serializers.DateField(required=False)


class CollectionChipSerializer(StrictJSON, serializers.ModelSerializer):
    kicker_chip = CARD_CODE(slug_field="code", queryset=KickerChip.objects.all())
    quantity = serializers.IntegerField(min_value=1, max_value=MAX_QUANTITY)

    class Meta:
        model = CollectionChip
        fields = ["id", "kicker_chip", "quantity", "notes"]


class CollectionChipUpdateSerializer(StrictJSON, serializers.Serializer):
    quantity = serializers.IntegerField(min_value=0, max_value=MAX_QUANTITY, required=False)
    notes = serializers.CharField(max_length=500, allow_blank=True, required=False)


@extend_schema_field(
    {
        "type": "integer",
        "minimum": -MAX_QUANTITY,
        "maximum": MAX_QUANTITY,
        "not": {"enum": [0]},
        "description": "Copies to add (more than 0) or take out (less than 0); never 0.",
    }
)
class DeltaField(serializers.IntegerField):
    def __init__(self, **kwargs):
        super().__init__(min_value=-MAX_QUANTITY, max_value=MAX_QUANTITY, **kwargs)


class CollectionAdjustSerializer(StrictJSON, serializers.Serializer):
    """One click: add (delta > 0) or take out (delta < 0) copies of a card or a chip."""

    card = CARD_CODE(slug_field="code", queryset=Card.objects.all(), required=False)
    kicker_chip = CARD_CODE(slug_field="code", queryset=KickerChip.objects.all(), required=False)
    condition = serializers.ChoiceField(choices=Condition.choices, default=Condition.NEAR_MINT)
    delta = DeltaField()

    def validate(self, attrs):
        if ("card" in attrs) == ("kicker_chip" in attrs):
            raise serializers.ValidationError("Give a card or a kicker_chip.")
        if attrs["delta"] == 0:
            raise serializers.ValidationError({"delta": "delta may not be 0."})
        return attrs


class AdjustCardSerializer(StrictJSON, serializers.Serializer):
    """Copies of a card, in one condition."""

    card = CARD_CODE(slug_field="code", queryset=Card.objects.all())
    condition = serializers.ChoiceField(choices=Condition.choices, default=Condition.NEAR_MINT)
    delta = DeltaField()


class AdjustChipSerializer(StrictJSON, serializers.Serializer):
    """Copies of a kicker chip."""

    kicker_chip = CARD_CODE(slug_field="code", queryset=KickerChip.objects.all())
    delta = DeltaField()


# What the schema says `adjust` takes: a card or a kicker chip, never both (oneOf).
COLLECTION_ADJUST_REQUEST = PolymorphicProxySerializer(
    component_name="CollectionAdjust",
    serializers=[AdjustCardSerializer, AdjustChipSerializer],
    resource_type_field_name=None,
)


class CollectionAdjustResultSerializer(serializers.Serializer):
    item = serializers.CharField()
    condition = serializers.CharField(allow_null=True)
    quantity = serializers.IntegerField()
    owned = serializers.IntegerField(
        help_text="Copies of the item in the collection, any condition."
    )


class RarityCompletionSerializer(serializers.Serializer):
    code = serializers.CharField()
    name = serializers.CharField()
    total = serializers.IntegerField(help_text="Distinct cards.")
    owned = serializers.IntegerField(help_text="Distinct cards with at least one copy.")
    missing = serializers.IntegerField()
    copies = serializers.IntegerField(help_text="Copies owned, all conditions.")
    percent = serializers.FloatField()
    playset_owned = serializers.IntegerField(help_text="Copies counted up to a playset per card.")
    playset_total = serializers.IntegerField()
    playset_percent = serializers.FloatField()


class SetCompletionSerializer(RarityCompletionSerializer):
    rarities = RarityCompletionSerializer(many=True)


class CollectionMissingCardSerializer(serializers.ModelSerializer):
    set = serializers.CharField(source="card_set.code")
    owned = serializers.IntegerField()
    limit = serializers.IntegerField(help_text="A playset of this card.")
    missing = serializers.IntegerField(help_text="Copies still needed.")

    class Meta:
        model = Card
        fields = ["code", "set", "number", "name", "rarity", "owned", "limit", "missing"]


class TradelistCardSerializer(serializers.ModelSerializer):
    set = serializers.CharField(source="card_set.code")
    owned = serializers.IntegerField()
    keep = serializers.IntegerField()
    keep_overridden = serializers.BooleanField()
    tradeable = serializers.IntegerField()

    class Meta:
        model = Card
        fields = [
            "code",
            "set",
            "number",
            "name",
            "rarity",
            "owned",
            "keep",
            "keep_overridden",
            "tradeable",
        ]


class TradeKeepSerializer(StrictJSON, serializers.Serializer):
    card = CARD_CODE(slug_field="code", queryset=Card.objects.all())
    keep = serializers.IntegerField(
        min_value=0,
        max_value=MAX_QUANTITY,
        allow_null=True,
        help_text="Copies to keep off the trade list; null restores the default.",
    )


class CollectionImportSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="A collection CSV (docs/collections.md), at most 5 MB.")
    mode = serializers.ChoiceField(choices=["add", "replace"], default="add")


class CollectionImportResultSerializer(serializers.Serializer):
    rows = serializers.IntegerField()
    card_copies = serializers.IntegerField()
    chip_copies = serializers.IntegerField()
    entries = serializers.IntegerField()
    chips = serializers.IntegerField()
    mode = serializers.CharField()


class OpenedContentsSerializer(serializers.Serializer):
    cards = serializers.DictField(child=serializers.IntegerField(), help_text="{code: copies}.")
    kicker_chips = serializers.DictField(
        child=serializers.IntegerField(), help_text="{code: copies}."
    )
    condition = serializers.ChoiceField(choices=Condition.choices)


class ProductOpeningSerializer(serializers.ModelSerializer):
    kind = serializers.CharField(read_only=True, help_text="booster or starter")
    contents = OpenedContentsSerializer(read_only=True)
    set = serializers.CharField(source="card_set.code", read_only=True)
    starter = serializers.CharField(source="starter.code", read_only=True, allow_null=True)

    class Meta:
        model = ProductOpening
        fields = ["id", "kind", "set", "starter", "contents", "opened_at"]


class ProductOpeningCreateSerializer(StrictJSON, serializers.Serializer):
    """A starter (contents from the catalogue) or a booster of `set` with what was in it."""

    starter = CARD_CODE(slug_field="code", queryset=StarterDeck.objects.all(), required=False)
    set = serializers.CharField(required=False, help_text="Set code, for a booster.")
    cards = serializers.DictField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_QUANTITY),
        required=False,
        help_text="Booster contents: {card code: copies}.",
    )
    kicker_chips = serializers.DictField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_QUANTITY), required=False
    )
    condition = serializers.ChoiceField(choices=Condition.choices, default=Condition.NEAR_MINT)


class WishlistSerializer(StrictJSON, serializers.ModelSerializer):
    card = CARD_CODE(
        slug_field="code", queryset=Card.objects.all(), required=False, allow_null=True
    )
    kicker_chip = CARD_CODE(
        slug_field="code", queryset=KickerChip.objects.all(), required=False, allow_null=True
    )
    quantity = serializers.IntegerField(min_value=1, max_value=MAX_QUANTITY)
    owned = serializers.IntegerField(read_only=True, default=0)
    needed = serializers.IntegerField(read_only=True, default=0)

    class Meta:
        model = WishlistEntry
        fields = ["id", "card", "kicker_chip", "quantity", "owned", "needed", "created_at"]
        read_only_fields = ["id", "created_at"]


class WishlistUpdateSerializer(StrictJSON, serializers.Serializer):
    quantity = serializers.IntegerField(min_value=1, max_value=MAX_QUANTITY)


class TradeMatchItemSerializer(serializers.Serializer):
    card = serializers.CharField(source="card.code")
    name = serializers.CharField(source="card.name")
    quantity = serializers.IntegerField(help_text="Copies that could change hands.")
    wanted = serializers.IntegerField()
    spare = serializers.IntegerField()


class TradeMatchSerializer(serializers.Serializer):
    user = serializers.CharField()
    they_have_i_want = TradeMatchItemSerializer(many=True)
    i_have_they_want = TradeMatchItemSerializer(many=True)


class CardScanSerializer(serializers.ModelSerializer):
    card = serializers.CharField(source="card.code", read_only=True)
    image_url = serializers.SerializerMethodField()
    thumbnail_url = serializers.SerializerMethodField()

    class Meta:
        model = CardScan
        fields = [
            "id",
            "card",
            "content_type",
            "width",
            "height",
            "created_at",
            "image_url",
            "thumbnail_url",
        ]

    @extend_schema_field(serializers.URLField())
    def get_image_url(self, scan: CardScan) -> str:
        return self._url(scan, "image")

    @extend_schema_field(serializers.URLField())
    def get_thumbnail_url(self, scan: CardScan) -> str:
        return self._url(scan, "thumbnail")

    def _url(self, scan: CardScan, which: str) -> str:
        from django.urls import reverse

        path = reverse("collecting:scan-file", args=[scan.pk, which])
        return absolute(self.context.get("request"), path)


class CardScanCreateSerializer(serializers.Serializer):
    card = CARD_CODE(slug_field="code", queryset=Card.objects.all())
    image = serializers.FileField(help_text="PNG, JPEG or WebP; at most 8 MB and 40 megapixels.")


class PracticeBoosterSerializer(serializers.Serializer):
    set = serializers.CharField()
    seed = serializers.IntegerField()
    cards = serializers.ListField(child=serializers.CharField())
    kicker_chips = serializers.ListField(child=serializers.CharField())
