from rest_framework.routers import SimpleRouter

from decks.api.views import DeckViewSet, DraftPodViewSet, PoolViewSet

router = SimpleRouter()
router.register("decks", DeckViewSet, basename="deck")
router.register("pools", PoolViewSet, basename="pool")
router.register("drafts", DraftPodViewSet, basename="draftpod")
urlpatterns = router.urls
