from rest_framework.routers import SimpleRouter

from cards.api.views import CardSetViewSet, CardViewSet, KickerChipViewSet

router = SimpleRouter()
router.register("cards", CardViewSet, basename="card")
router.register("sets", CardSetViewSet, basename="set")
router.register("kicker-chips", KickerChipViewSet, basename="kickerchip")
urlpatterns = router.urls
