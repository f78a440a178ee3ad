import functools
from typing import Any

from django.conf import settings
from django.db.models import F, QuerySet
from django.urls import get_script_prefix, get_urlconf, reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cards.models import Card, CardSet, KickerChip, StarterDeck
from simulator.engine.drifter import cards as rules

PLACEHOLDER = "XXX-000"
# The Card columns CardSerializer shows as they are (it adds the set's code and the URLs).
ROW_FIELDS = (
    "code", "number", "name", "type", "is_copy", "faction", "rarity", "cost", "smarts", "skill",
    "luck", "kicker_limit", "text", "flavor", "abilities",
)  # fmt: skip


def _row(card: Card) -> dict[str, Any]:
    row = {name: getattr(card, name) for name in ROW_FIELDS}
    row["set_code"] = card.card_set.code
    return row


def _choices(values) -> list[str]:
    return sorted(values)


class AbilityConditionSerializer(serializers.Serializer):
    """When an ability works: every key given must hold (docs/rules/abilities.md)."""

    contested = serializers.ChoiceField(choices=KickerChip.Stat.choices, required=False)
    contested_not = serializers.ChoiceField(choices=KickerChip.Stat.choices, required=False)
    in_street = serializers.BooleanField(required=False)
    challenger = serializers.BooleanField(required=False)
    opponents_at_least = serializers.IntegerField(min_value=1, required=False)
    gear_at_least = serializers.IntegerField(min_value=1, required=False)
    kicker_chips_at_least = serializers.IntegerField(min_value=1, required=False)
    all_in = serializers.BooleanField(required=False)
    opponent_faction = serializers.CharField(required=False)
    stake_at_most = serializers.IntegerField(min_value=0, required=False)


class AbilityEffectSerializer(serializers.Serializer):
    """One effect of an ability: its `kind` says which of the other fields it has."""

    kind = serializers.ChoiceField(choices=_choices(rules.EFFECTS))
    stat = serializers.ChoiceField(
        choices=_choices({*rules.STAT_REFS, "choose"}),
        required=False,
        help_text="`contested`: the shootout's contested stat; `choose`: the player chooses.",
    )
    stats = serializers.ListField(
        child=serializers.ChoiceField(choices=KickerChip.Stat.choices),
        min_length=2,
        max_length=2,
        required=False,
    )
    amount = serializers.IntegerField(required=False)
    value = serializers.IntegerField(min_value=0, required=False)
    count = serializers.IntegerField(min_value=1, required=False)
    target = serializers.ChoiceField(choices=_choices(rules.TARGETS), required=False)
    per = serializers.ChoiceField(
        choices=["fortune", "gear", "kicker_chip", "opponent"], required=False
    )
    card_type = serializers.ChoiceField(choices=["dude", "gear"], required=False)
    of = serializers.ChoiceField(choices=["any", "dude", "fortune", "gear"], required=False)
    duration = serializers.ChoiceField(choices=_choices(rules.DURATIONS), required=False)


class AbilitySerializer(serializers.Serializer):
    """One ability of a card, as the engine runs it (docs/rules/abilities.md)."""

    timing = serializers.ChoiceField(choices=_choices(rules.TIMINGS))
    concealed = serializers.BooleanField(required=False, default=False)
    condition = AbilityConditionSerializer(required=False)
    effects = AbilityEffectSerializer(many=True, min_length=1)  # type: ignore[call-arg]
    once = serializers.ChoiceField(choices=_choices(rules.ONCE), required=False)


@extend_schema_field(AbilitySerializer(many=True))
class AbilitiesField(serializers.JSONField):
    """A card's abilities as the set files hold them (and the schema types them)."""


class CardSerializer(serializers.ModelSerializer):
    set = serializers.CharField(source="card_set.code", read_only=True)
    abilities = AbilitiesField(read_only=True)
    url = serializers.SerializerMethodField()
    image_url = serializers.SerializerMethodField()
    thumb_url = serializers.SerializerMethodField()

    class Meta:
        model = Card
        fields = [
            "code", "url", "set", "number", "name", "type", "is_copy", "faction", "rarity",
            "cost", "smarts", "skill", "luck", "kicker_limit", "text", "flavor", "abilities",
            "image_url", "thumb_url",
        ]  # fmt: skip

    @staticmethod
    def rows(cards: QuerySet[Card]) -> QuerySet:
        """The cards as plain rows (dicts of ROW_FIELDS and `set_code`), which
        `to_representation` reads without building a Card and a CardSet for each: the list's
        page is read this way. Of the set only its code is selected, not its booster layout."""
        return cards.values(*ROW_FIELDS, set_code=F("card_set__code"))

    def to_representation(self, card: Card | dict[str, Any]) -> dict[str, Any]:
        """The fields above, in `Meta.fields` order, from a Card or a row of `rows()`.

        The same JSON as ModelSerializer's generic path (a test compares the two for every
        shipped card) for a fraction of the cost: that path builds the 19 fields from the model
        once per response and then runs each field's get_attribute and to_representation for
        every card, which dominated serializing a page. The values are already what the JSON
        holds: ints, strings, None for a non-dude's stats, the abilities list.
        """
        row = card if isinstance(card, dict) else _row(card)
        urls = self._urls()
        code = row["code"]
        derived = {
            "url": urls["url"].replace(PLACEHOLDER, code),
            "set": row["set_code"],
            "image_url": urls["full"].replace(PLACEHOLDER, code),
            "thumb_url": urls["thumb"].replace(PLACEHOLDER, code),
        }
        return {f: derived[f] if f in derived else row[f] for f in self.Meta.fields}

    def get_url(self, card: Card) -> str:
        return self._urls()["url"].replace(PLACEHOLDER, card.code)

    def get_image_url(self, card: Card) -> str:
        return self._urls()["full"].replace(PLACEHOLDER, card.code)

    def get_thumb_url(self, card: Card) -> str:
        return self._urls()["thumb"].replace(PLACEHOLDER, card.code)

    def _urls(self) -> dict[str, str]:
        """URL templates, reversed once per response (the list shares its context), not three
        times per card: reversing dominated the cost of serializing a page of cards."""
        urls = self.context.get("_card_urls")
        if urls is None:
            request = self.context.get("request")
            paths = _url_paths(get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)
            urls = {k: request.build_absolute_uri(v) if request else v for k, v in paths.items()}
            self.context["_card_urls"] = urls  # type: ignore[index]  # a dict
        return urls


@functools.cache
def _url_paths(script_prefix: str, urlconf: str) -> dict[str, str]:
    """The paths of a card's URLs with PLACEHOLDER for its code, reversed once per process (per
    script prefix and URLconf, which is all they depend on) instead of thrice per response."""
    return {
        "url": reverse("api:card-detail", args=[PLACEHOLDER]),
        "full": reverse("cards:card-image", args=[PLACEHOLDER, "full"]),
        "thumb": reverse("cards:card-image", args=[PLACEHOLDER, "thumb"]),
    }


class StarterCardSerializer(serializers.Serializer):
    code = serializers.CharField()
    qty = serializers.IntegerField()


class StarterDeckSerializer(serializers.ModelSerializer):
    cards = StarterCardSerializer(many=True, read_only=True)
    kicker_chips = serializers.ListField(
        child=serializers.CharField(), read_only=True, help_text="Kicker chip codes."
    )

    class Meta:
        model = StarterDeck
        fields = ["code", "name", "cards", "kicker_chips"]


class BoosterSlotSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="Cards this slot adds to a booster.")
    weights = serializers.DictField(
        child=serializers.FloatField(), help_text="{rarity: weight}: how each card is drawn."
    )


class BoosterLayoutSerializer(serializers.Serializer):
    cards = serializers.IntegerField(help_text="Cards in a booster.")
    kicker_chips = serializers.IntegerField(help_text="Kicker chips in a booster.")
    slots = BoosterSlotSerializer(many=True)


class CardSetSerializer(serializers.ModelSerializer):
    card_count = serializers.IntegerField(read_only=True)
    booster_layout = BoosterLayoutSerializer(read_only=True)
    starters = StarterDeckSerializer(many=True, read_only=True)

    class Meta:
        model = CardSet
        fields = ["code", "name", "kind", "released", "card_count", "booster_layout", "starters"]


class ChipSideSerializer(serializers.Serializer):
    """One side of a kicker chip: the stat it changes and by how much."""

    stat = serializers.ChoiceField(choices=KickerChip.Stat.choices)
    amount = serializers.IntegerField()


class KickerChipSerializer(serializers.ModelSerializer):
    set = serializers.CharField(source="card_set.code", read_only=True)
    sides = serializers.SerializerMethodField()
    image_urls = serializers.SerializerMethodField()

    class Meta:
        model = KickerChip
        fields = ["code", "set", "color", "value", "sides", "image_urls"]

    @extend_schema_field(ChipSideSerializer(many=True))
    def get_sides(self, chip: KickerChip) -> list[dict]:
        return [{"stat": stat, "amount": amount} for stat, amount in chip.sides]

    def get_image_urls(self, chip: KickerChip) -> list[str]:
        request = self.context.get("request")
        paths = [reverse("cards:chip-image", args=[chip.code, side]) for side in (0, 1)]
        return [request.build_absolute_uri(p) if request else p for p in paths]
