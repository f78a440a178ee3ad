from django.contrib import admin

from cards.models import (
    Card,
    CardScan,
    CardSet,
    Collection,
    CollectionEntry,
    KickerChip,
    StarterDeck,
    WishlistEntry,
)


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


class CollectionEntryInline(admin.TabularInline):
    model = CollectionEntry
    raw_id_fields = ["card"]
    extra = 0


@admin.register(Collection)
class CollectionAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "trade_list_public", "created_at"]
    list_filter = ["trade_list_public"]
    search_fields = ["name", "owner__username"]
    inlines = [CollectionEntryInline]


@admin.register(WishlistEntry)
class WishlistEntryAdmin(admin.ModelAdmin):
    list_display = ["owner", "card", "kicker_chip", "quantity"]
    raw_id_fields = ["card", "kicker_chip"]


@admin.register(CardScan)
class CardScanAdmin(admin.ModelAdmin):
    list_display = ["owner", "card", "content_type", "width", "height", "created_at"]
    raw_id_fields = ["card", "entry"]
