"""The collection pages (collecting/views.py); their paths are those they had under cards."""

from django.urls import path, register_converter

from collecting import card_page
from collecting import views as collection_views


class ScanFileConverter:
    regex = "image|thumbnail"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ScanFileConverter, "scanfile")

app_name = "collecting"
urlpatterns = [
    path("collections/", collection_views.collection_list, name="collections"),
    path("collections/wishlist/", collection_views.wishlist, name="wishlist"),
    path("collections/trades/", collection_views.trades, name="trades"),
    path("collections/add-card/<str:code>/", card_page.add_card, name="add-card"),
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
