"""The simulator's API routes under /api/v1/, one router over the rooms' viewsets (in the order
the OpenAPI schema lists them)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from simulator.doctor.api import DoctorViewSet
from simulator.drafts.api import DraftSimulateViewSet
from simulator.ladder.api import BotLadderViewSet
from simulator.metagame.api import FieldRunViewSet, FieldViewSet
from simulator.runs.api import SimulationGamesView, SimulationViewSet
from simulator.table.api import GameViewSet

router = SimpleRouter()
router.register("simulations", SimulationViewSet, basename="simulation")
# POST drafts/{id}/simulate/ only: the decks API serves the rest of drafts/ (decks/api/urls.py)
router.register("games", GameViewSet, basename="game")
router.register("doctor", DoctorViewSet, basename="doctor")
router.register("fields", FieldViewSet, basename="field")
router.register("field-runs", FieldRunViewSet, basename="field-run")
router.register("drafts", DraftSimulateViewSet, basename="draftpod")
router.register("bots/ladder", BotLadderViewSet, basename="botladder")
urlpatterns = [
    path("simulation-games/", SimulationGamesView.as_view(), name="simulation-games"),
    *router.urls,
]
