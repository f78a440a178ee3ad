from django.contrib import admin

from collecting.models import CardScan, Collection, CollectionEntry, WishlistEntry


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
