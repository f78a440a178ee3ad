"""Simulation API: start a run (202 + Location), poll it, read its results and sampled game
records, cancel it. Runs are owner-scoped: another user's run is a 404."""

from __future__ import annotations

from functools import cached_property

from django.core.cache import cache
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.filtersets import true_or_false
from config.schema import ERRORS, errors
from simulator.engine.core import games
from simulator.runs import selectors, services
from simulator.runs import serializers as s
from simulator.runs.status_polls import StatusAnswer, status_cache_key

LOCATION = OpenApiParameter(
    "Location",
    OpenApiTypes.URI,
    OpenApiParameter.HEADER,
    response=[202],
    description="The run's URL: poll it.",
)
IDEMPOTENCY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="Repeat a POST safely: the same key (per user) returns the same run.",
)


STAGES = OpenApiParameter(
    "stages",
    OpenApiTypes.BOOL,
    description="Also list the runs that field runs and deck doctor runs played as their rounds "
    "(left out by default: each is listed with its field run or doctor run).",
)


class SimulationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Your simulation runs. Polling a run only reads it: the workers re-send lost chunks."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = s.RunSerializer
    lookup_value_regex = r"\d+"
    ordering_fields = ["created_at"]

    def get_queryset(self):
        # only `list` reads the queryset: every other action finds its run with run_get
        return selectors.run_list(owner=self.request.user, stages=self.stages)

    @cached_property
    def stages(self) -> bool:
        """`?stages=`: whether the list holds the runs features played as their rounds."""
        return bool(true_or_false(self.request, "stages"))

    @extend_schema(
        parameters=[STAGES], responses={200: s.RunListSerializer(many=True), 400: ERRORS}
    )
    def list(self, request, *args, **kwargs):
        # ListModelMixin's list, with what each round's run is part of read for the whole page
        runs = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(runs)
        rows = list(runs) if page is None else page
        # only stage runs are part of something: without ?stages= no follower is asked
        parts = selectors.parts_of([run.pk for run in rows]) if self.stages else {}
        context = {**self.get_serializer_context(), "parts": parts}
        data = s.RunListSerializer(rows, many=True, context=context).data
        return Response(data) if page is None else self.get_paginated_response(data)

    def get_object(self):
        run = selectors.run_get(owner=self.request.user, pk=self.kwargs["pk"])
        self.check_object_permissions(self.request, run)
        return run

    @extend_schema(
        request=s.RunCreateSerializer,
        parameters=[IDEMPOTENCY, LOCATION],
        responses={
            202: OpenApiResponse(s.RunSerializer, description="Accepted: the run, queued."),
            400: ERRORS,
        },
        description="Start a run. Answers 202 Accepted with the run and its URL in `Location`; "
        "poll that URL until `status` is done, failed or cancelled.",
    )
    def create(self, request):
        data = s.RunCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        run, _created = services.run_create(
            owner=request.user,
            game=v["game"],
            kind=v["kind"],
            format=v["format"],
            variants=v["variants"],
            games=v["games"],
            seed=v.get("seed"),
            players=[dict(p) for p in v["players"]],
            idempotency_key=request.headers.get("Idempotency-Key") or None,
        )
        body = s.RunSerializer(run, context={"request": request}).data
        location = request.build_absolute_uri(reverse("api:simulation-detail", args=[run.pk]))
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": location})

    @extend_schema(responses={200: s.RunDetailSerializer})
    def retrieve(self, request, *args, **kwargs):
        """A run's status and progress: poll it until `status` is done, failed or cancelled.

        While a run is active, the answer may be up to a second old."""
        # Many clients watching one run (a progress bar each) cost one read of it a second per
        # web process: an active run's answer is kept that long and sent again, to its owner
        # only, before this view runs (status_polls.py; docs/operations.md, "Watching a run").
        # Otherwise one query, which leaves the results unread; re-sending lost chunks is the
        # workers' job, never a poll's.
        run = selectors.run_get(owner=request.user, pk=kwargs["pk"], with_results=False)
        context = {"request": request, "checks": selectors.run_checks(run)}
        body = s.RunDetailSerializer(run, context=context).data
        return StatusAnswer(body, owner_id=run.owner_id if run.is_active else None)

    @extend_schema(
        request=s.RunCheckSerializer,
        parameters=[IDEMPOTENCY, LOCATION],
        responses={
            202: OpenApiResponse(s.RunSerializer, description="Accepted: the check, queued."),
            400: ERRORS,
            409: errors(
                "`not_finished`: the run is not done yet; `catalogue_changed`: its cards "
                "changed since, so its decks cannot be played again as they were."
            ),
        },
    )
    @action(detail=True, methods=["post"])
    def check(self, request, pk=None):
        """Check the run's headline with stronger bots: a new run of the same question (game,
        format, variants, players and their decks, seed) with `bot` in every seat, linked to
        this one (`checks`). Poll it; the comparison and its verdict are the `check` of the
        new run and one of this run's `checked_by`."""
        data = s.RunCheckSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        run, _created = services.run_check(
            run=self.get_object(),
            bot=v.get("bot"),
            budget=v.get("budget"),
            games=v.get("games"),
            idempotency_key=request.headers.get("Idempotency-Key") or None,
        )
        body = s.RunSerializer(run, context={"request": request}).data
        location = request.build_absolute_uri(reverse("api:simulation-detail", args=[run.pk]))
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": location})

    @extend_schema(request=None, responses={200: s.RunSerializer})
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        """Cancel a queued or running run (a finished one is left as it is)."""
        run = services.run_cancel(run=self.get_object())
        if key := status_cache_key(run.pk, request):
            cache.delete(key)
        return Response(self.get_serializer(run).data)

    @extend_schema(responses={200: s.RunResultsSerializer})
    @action(detail=True, methods=["get"])
    def results(self, request, pk=None):
        """The report so far: per player, per card, game length, matchups, what-if."""
        run = self.get_object()
        body = {
            "status": run.status,
            "games_done": run.games_done,
            **selectors.run_report(run),
            "headline": selectors.run_headline(run),
            "measured_with": selectors.run_bots(run),
        }
        return Response(body)

    @extend_schema(responses={200: s.GameSampleSerializer(many=True)})
    @action(detail=True, methods=["get"], pagination_class=None)  # a few samples: not paged
    def records(self, request, pk=None):
        """The sampled games of the run (their full records at records/{id}/)."""
        run = self.get_object()
        return Response(s.GameSampleSerializer(run.samples.all(), many=True).data)

    @extend_schema(responses={200: s.GameSampleDetailSerializer})
    @action(detail=True, methods=["get"], url_path=r"records/(?P<sample_id>\d+)")
    def record(self, request, pk=None, sample_id=None):
        """One sampled game's complete record (replays exactly with the engine)."""
        sample = selectors.sample_get(run=self.get_object(), pk=sample_id)
        return Response(s.GameSampleDetailSerializer(sample).data)


class SimulationGamesView(APIView):
    """The games a run can play, with their bots and player counts."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: s.GameInfoSerializer(many=True)})
    def get(self, request):
        rows = [
            {
                "name": spec.name,
                "title": spec.title,
                "bots": sorted(spec.bots),
                "min_players": spec.min_players,
                "max_players": spec.max_players,
                "needs_decks": spec.needs_decks,
            }
            for spec in games().values()
        ]
        return Response(s.GameInfoSerializer(rows, many=True).data)
