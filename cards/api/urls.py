from rest_framework.routers import SimpleRouter

from cards.api.views import CardSetViewSet, CardViewSet, KickerChipViewSet

router = SimpleRouter()
router.register("cards", CardViewSet, basename="card")
router.register("sets", CardSetViewSet, basename="set")
router.register("kicker-chips", KickerChipViewSet, basename="kickerchip")
urlpatterns = router.urls

# --- Collections (cards/api/collection_views.py) ---
from django.urls import path  # noqa: E402

from cards.api import collection_views  # noqa: E402

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
