"""The collections API (collecting/api/views.py), at the paths it had under cards."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from collecting.api import views as collection_views

router = SimpleRouter()
router.register("collections", collection_views.CollectionViewSet, basename="collection")
router.register(
    r"collections/(?P<collection_pk>[0-9]+)/entries",
    collection_views.EntryViewSet,
    basename="collection-entry",
)
router.register(
    r"collections/(?P<collection_pk>[0-9]+)/chips",
    collection_views.ChipViewSet,
    basename="collection-chip",
)
router.register(
    r"collections/(?P<collection_pk>[0-9]+)/scans",
    collection_views.ScanViewSet,
    basename="collection-scan",
)
router.register("wishlist", collection_views.WishlistViewSet, basename="wishlist")
urlpatterns = [
    *router.urls,
    path("trade-matches/", collection_views.TradeMatchView.as_view(), name="trade-matches"),
    path(
        "practice-boosters/",
        collection_views.PracticeBoosterView.as_view(),
        name="practice-booster",
    ),
]
