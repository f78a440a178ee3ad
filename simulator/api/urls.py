from django.urls import path
from rest_framework.routers import SimpleRouter

from simulator.api.doctor import DoctorViewSet
from simulator.api.drafts import DraftSimulateViewSet
from simulator.api.table import GameViewSet
from simulator.api.views import SimulationGamesView, SimulationViewSet

router = SimpleRouter()
router.register("simulations", SimulationViewSet, basename="simulation")
# POST drafts/{id}/simulate/ only: the decks API serves the rest of drafts/ (decks/api/urls.py)
router.register("games", GameViewSet, basename="game")
router.register("doctor", DoctorViewSet, basename="doctor")
router.register("drafts", DraftSimulateViewSet, basename="draftpod")
urlpatterns = [
    path("simulation-games/", SimulationGamesView.as_view(), name="simulation-games"),
    *router.urls,
]
