"""A test run of your deck from a draft: `POST /api/v1/drafts/{id}/simulate/`.

The path is a draft pod's (the decks API's), the code the simulator's: the apps form layers
(docs/collections.md) and decks, below simulator, do not start runs. The router in
simulator/api_urls.py adds only this action under `drafts/`, so the URL, its name
(`api:draftpod-simulate`) and the operation are what they were.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from config.schema import ERRORS, StrictJSON
from decks import selectors as deck_selectors
from simulator.drafts import services as simulations
from simulator.drafts.services import DRAFT_RUN_GAMES
from simulator.runs.api import IDEMPOTENCY, LOCATION
from simulator.runs.serializers import RunSerializer


class DraftSimulateSerializer(StrictJSON, serializers.Serializer):
    """Test your deck from the pod against every bot's deck (a Draw gauntlet)."""

    games = serializers.IntegerField(
        min_value=1, max_value=1_000_000, default=DRAFT_RUN_GAMES, help_text="Games per bot deck."
    )
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**53 - 1)
    bot = serializers.CharField(
        max_length=40, required=False,
        help_text="The bot that plays every deck (default: the game's default bot).",
    )  # fmt: skip


class DraftSimulateViewSet(viewsets.GenericViewSet):
    """The draft pods the user may see (as `DraftPodViewSet`), with one action: simulate."""

    permission_classes = [permissions.IsAuthenticated]
    lookup_value_regex = r"\d+"
    # What OPTIONS describes (DRF's metadata asks the view for its serializer).
    serializer_class = DraftSimulateSerializer

    def get_queryset(self):
        return deck_selectors.pod_list(user=self.request.user)

    @extend_schema(
        request=DraftSimulateSerializer,
        parameters=[IDEMPOTENCY, LOCATION],
        responses={
            202: OpenApiResponse(RunSerializer, description="Accepted: the run, queued."),
            400: ERRORS,
        },
    )
    @action(detail=True, methods=["post"])
    def simulate(self, request, pk=None):
        """Test your deck from this draft against every bot's deck: a Draw gauntlet run.

        Answers 202 like `POST /api/v1/simulations/`, with the run and its URL in `Location`.
        Only once the draft is over, and only for people seated at the pod.
        """
        pod = self.get_object()
        ser = DraftSimulateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        run, _created = simulations.draft_run_create(
            owner=request.user,
            pod=pod,
            games=d["games"],
            seed=d.get("seed"),
            bot=d.get("bot", ""),
            idempotency_key=request.headers.get("Idempotency-Key") or None,
        )
        body = RunSerializer(run, context={"request": request}).data
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})
