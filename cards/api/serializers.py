from django.urls import reverse
from rest_framework import serializers

from cards.models import Card, CardSet, KickerChip, StarterDeck

PLACEHOLDER = "XXX-000"


class CardSerializer(serializers.ModelSerializer):
    set = serializers.CharField(source="card_set.code", read_only=True)
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
            paths = {
                "url": reverse("api:card-detail", args=[PLACEHOLDER]),
                "full": reverse("cards:card-image", args=[PLACEHOLDER, "full"]),
                "thumb": reverse("cards:card-image", args=[PLACEHOLDER, "thumb"]),
            }
            urls = {k: request.build_absolute_uri(v) if request else v for k, v in paths.items()}
            self.context["_card_urls"] = urls
        return urls


class StarterDeckSerializer(serializers.ModelSerializer):
    class Meta:
        model = StarterDeck
        fields = ["code", "name", "cards", "kicker_chips"]


class CardSetSerializer(serializers.ModelSerializer):
    card_count = serializers.IntegerField(read_only=True)
    starters = StarterDeckSerializer(many=True, read_only=True)

    class Meta:
        model = CardSet
        fields = ["code", "name", "kind", "released", "card_count", "booster_layout", "starters"]


class KickerChipSerializer(serializers.ModelSerializer):
    set = serializers.CharField(source="card_set.code", read_only=True)
    sides = serializers.SerializerMethodField()
    image_urls = serializers.SerializerMethodField()

    class Meta:
        model = KickerChip
        fields = ["code", "set", "color", "value", "sides", "image_urls"]

    def get_sides(self, chip: KickerChip) -> list[dict]:
        return [{"stat": stat, "amount": amount} for stat, amount in chip.sides]

    def get_image_urls(self, chip: KickerChip) -> list[str]:
        request = self.context.get("request")
        paths = [reverse("cards:chip-image", args=[chip.code, side]) for side in (0, 1)]
        return [request.build_absolute_uri(p) if request else p for p in paths]
