from django.urls import reverse
from rest_framework import serializers

from cards.models import Card, CardSet, KickerChip, StarterDeck


class CardSerializer(serializers.ModelSerializer):
    set = serializers.CharField(source="card_set.code", read_only=True)
    image_url = serializers.SerializerMethodField()
    thumb_url = serializers.SerializerMethodField()
    url = serializers.HyperlinkedIdentityField(
        view_name="api:card-detail", lookup_field="code", read_only=True
    )

    class Meta:
        model = Card
        fields = [
            "code", "url", "set", "number", "name", "type", "is_copy", "faction", "rarity",
            "cost", "smarts", "skill", "luck", "kicker_limit", "text", "flavor", "abilities",
            "image_url", "thumb_url",
        ]  # fmt: skip

    def get_image_url(self, card: Card) -> str:
        return self._abs(reverse("cards:card-image", args=[card.code, "full"]))

    def get_thumb_url(self, card: Card) -> str:
        return self._abs(reverse("cards:card-image", args=[card.code, "thumb"]))

    def _abs(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path


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
