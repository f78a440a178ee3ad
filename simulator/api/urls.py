from django.urls import path
from rest_framework.routers import SimpleRouter

from simulator.api.views import SimulationGamesView, SimulationViewSet

router = SimpleRouter()
router.register("simulations", SimulationViewSet, basename="simulation")
urlpatterns = [
    path("simulation-games/", SimulationGamesView.as_view(), name="simulation-games"),
    *router.urls,
]
