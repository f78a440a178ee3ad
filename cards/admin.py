from django.contrib import admin

from cards.models import Card, CardSet, KickerChip, StarterDeck


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "kind", "released", "order"]


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "type", "faction", "rarity", "cost", "smarts", "skill", "luck"]
    list_filter = ["card_set", "type", "rarity", "faction"]
    search_fields = ["code", "name", "text"]


@admin.register(KickerChip)
class KickerChipAdmin(admin.ModelAdmin):
    list_display = ["code", "color", "value", "side_a_stat", "side_a_amount", "side_b_stat"]
    list_filter = ["card_set", "color"]


@admin.register(StarterDeck)
class StarterDeckAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "card_set"]
