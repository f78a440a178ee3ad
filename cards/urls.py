from django.urls import path, register_converter

from cards import collection_views, views


class SizeConverter:
    regex = "full|thumb"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class SideConverter:
    regex = "[01]"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class ScanFileConverter:
    regex = "image|thumbnail"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ScanFileConverter, "scanfile")
register_converter(SizeConverter, "size")
register_converter(SideConverter, "side")

app_name = "cards"
urlpatterns = [
    path("cards/", views.card_grid, name="card-grid"),
    path("cards/<str:code>/", views.card_detail, name="card-detail"),
    path("cards/<str:code>/<size:size>.png", views.card_image, name="card-image"),
    path("sets/", views.set_list, name="set-list"),
    path("sets/<str:code>/", views.set_detail, name="set-detail"),
    path("kicker-chips/<str:code>/", views.chip_detail, name="chip-detail"),
    path("kicker-chips/<str:code>/<side:side>.png", views.chip_image, name="chip-image"),
    # --- Collections (cards/collection_views.py) ---
    path("collections/", collection_views.collection_list, name="collections"),
    path("collections/wishlist/", collection_views.wishlist, name="wishlist"),
    path("collections/trades/", collection_views.trades, name="trades"),
    path("collections/practice-booster/", collection_views.practice, name="practice-booster"),
    path("collections/<int:pk>/", collection_views.collection_detail, name="collection-detail"),
    path(
        "collections/<int:pk>/delete/", collection_views.collection_delete, name="collection-delete"
    ),
    path("collections/<int:pk>/cards/", collection_views.collection_cards, name="collection-cards"),
    path(
        "collections/<int:pk>/cards/<str:code>/",
        collection_views.collection_card,
        name="collection-card",
    ),
    path(
        "collections/<int:pk>/cards/<str:code>/adjust/",
        collection_views.collection_adjust,
        name="collection-adjust",
    ),
    path(
        "collections/<int:pk>/missing/",
        collection_views.collection_missing,
        name="collection-missing",
    ),
    path(
        "collections/<int:pk>/import/", collection_views.collection_import, name="collection-import"
    ),
    path(
        "collections/<int:pk>/export.csv",
        collection_views.collection_export,
        name="collection-export",
    ),
    path("collections/<int:pk>/open/", collection_views.collection_open, name="collection-open"),
    path(
        "collections/<int:pk>/tradelist/",
        collection_views.collection_tradelist,
        name="collection-tradelist",
    ),
    path(
        "collections/scans/<int:pk>/<scanfile:which>/",
        collection_views.scan_file,
        name="scan-file",
    ),
    path("collections/scans/<int:pk>/delete/", collection_views.scan_delete, name="scan-delete"),
]
