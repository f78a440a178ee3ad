"""The deck doctor API (#18): `POST /api/v1/doctor/` starts a search for better swaps of one of
your decks (202 + Location), `GET /api/v1/doctor/{id}/` is its progress and, once done, its
ranked suggestions; `.../cancel/` stops it, `.../apply/` makes a suggestion a new version of
the deck. Owner-scoped like simulation runs: another user's doctor run is a 404."""

from __future__ import annotations

from django.http import Http404
from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from config.api import absolute
from config.schema import ERRORS, StrictJSON, errors
from simulator.doctor import selectors
from simulator.doctor import services as doctors
from simulator.doctor.models import DoctorRun
from simulator.runs import serializers as run_serializers
from simulator.runs.api import IDEMPOTENCY, LOCATION
from simulator.runs.headlines import BotUsed
from simulator.runs.selectors import checks_of


class OpponentSerializer(StrictJSON, serializers.Serializer):
    """One opponent of the gauntlet: a deck (yours or public, by id), a public deck by slug or
    a starter deck by code, and the bot that plays it."""

    deck = serializers.IntegerField(required=False, min_value=1)
    public_deck = serializers.CharField(required=False, max_length=32)
    starter = serializers.CharField(required=False, max_length=16)
    bot = serializers.CharField(
        required=False, max_length=40, help_text="Its bot (default: the game's default bot)."
    )
    budget = serializers.IntegerField(
        required=False, min_value=1,
        help_text="Its bot's budget: the search bot's rollouts or the tree search bot's "
        "iterations a decision (default: the bot's own; up to the game's maximum).",
    )  # fmt: skip


class DoctorCreateSerializer(StrictJSON, serializers.Serializer):
    deck = serializers.IntegerField(min_value=1, help_text="The deck of yours to improve.")
    format = serializers.CharField(
        max_length=100, required=False, default="", allow_blank=True,
        help_text="The format to play (default: the deck's).",
    )  # fmt: skip
    gauntlet = OpponentSerializer(  # type: ignore[call-arg]  # many=True passes these to ListSerializer
        many=True, required=False, min_length=1, max_length=doctors.MAX_OPPONENTS,
        help_text="The opponents, weighed alike. Give this or `field`, not both.",
    )  # fmt: skip
    field = serializers.IntegerField(
        required=False, min_value=1,
        help_text="A field to play against instead of a gauntlet (one of yours or a public one, "
        "in the doctor's format, at most 16 decks): its decks are the opponents, each weighted "
        "by its share. Give this or `gauntlet`, not both.",
    )  # fmt: skip
    source = serializers.ChoiceField(  # type: ignore[assignment]  # a field named like Field.source
        choices=DoctorRun.Source.choices, default=DoctorRun.Source.FORMAT,
        help_text="Where added cards may come from.",
    )  # fmt: skip
    budget = serializers.IntegerField(
        min_value=doctors.MIN_BUDGET, max_value=doctors.MAX_BUDGET,
        help_text="Games the whole search may play.",
    )  # fmt: skip
    bot = serializers.CharField(
        max_length=40, required=False, help_text="Your deck's bot (default: the game's default)."
    )
    bot_budget = serializers.IntegerField(
        required=False, min_value=1, help_text="Your deck's bot's budget, as an opponent's."
    )
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**53 - 1)
    chain = serializers.BooleanField(
        default=True,
        help_text="After a proven swap, make it and search again with what is left of the "
        "budget (up to 3 swaps in all).",
    )


class FieldOpponentSerializer(serializers.Serializer):
    label = serializers.CharField(help_text="The deck as the runs name it.")  # type: ignore[assignment]  # a field named like Field.label
    share = serializers.FloatField(help_text="Its share of the field: the weight of its games.")
    place = serializers.IntegerField(help_text="Its place among the field's decks, from 1.")


class DoctorFieldSerializer(serializers.Serializer):
    """The field a doctor plays against: its decks are the gauntlet, weighted by their shares."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    against = serializers.CharField(help_text='"against the field X, weighted by its shares"')
    opponents = FieldOpponentSerializer(
        many=True, help_text="The gauntlet's opponents in order (a deck of share 0 is left out)."
    )


class SwapSerializer(serializers.Serializer):
    cut = serializers.CharField()
    cut_name = serializers.CharField()
    add = serializers.CharField()
    add_name = serializers.CharField()
    change = serializers.FloatField(
        allow_null=True,
        help_text="Win-rate change against the gauntlet (0.03: +3 points); against a field the "
        "share-weighted mean of its change against each of the field's decks.",
    )
    low = serializers.FloatField(allow_null=True, help_text="95% interval of the change.")
    high = serializers.FloatField(allow_null=True)
    p = serializers.FloatField(
        help_text="One-sided p-value of no gain (paired test of all the swap's games)."
    )
    p_adjusted = serializers.FloatField(
        help_text="Holm over the swaps tried, the 5% shared among the looks: better when < 0.05."
    )
    significant = serializers.BooleanField()
    games = serializers.IntegerField(help_text="All the swap's games, every round it played.")
    looks = serializers.IntegerField(help_text="The rounds the swap played.")
    runs = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Its what-if runs, one a round (against a field: one a round per deck of it).",
    )
    run = serializers.IntegerField(
        help_text="Its last what-if run: the evidence (against a field: the last round's run "
        "against the deck of the largest share)."
    )


class StepSerializer(serializers.Serializer):
    """One step of a chained search: the swaps tried on the deck with the steps before made."""

    step = serializers.IntegerField(help_text="1 for the deck as it is.")
    method = serializers.CharField(help_text="The step's test and its error control, in words.")
    improved = serializers.BooleanField(help_text="False: no significant improvement.")
    stopped_early = serializers.BooleanField()
    looks = serializers.IntegerField()
    looked = serializers.IntegerField()
    games = serializers.IntegerField(help_text="Games the step played, its round 0 included.")
    swaps = SwapSerializer(many=True, help_text="Significant suggestions first, best first.")


class DoctorResultSerializer(serializers.Serializer):
    """The first step's verdict (swaps of the deck as it is) and, chained, every step."""

    method = serializers.CharField(help_text="The test and its error control, in words.")
    improved = serializers.BooleanField(help_text="False: no significant improvement.")
    stopped_early = serializers.BooleanField(
        help_text="A swap was proven before the last look: the rest of the budget was not spent."
    )
    looks = serializers.IntegerField(help_text="The looks planned before round 1.")
    looked = serializers.IntegerField(help_text="The looks taken.")
    games_spent = serializers.IntegerField()
    budget_left = serializers.IntegerField(help_text="Games of the budget not spent.")
    swaps = SwapSerializer(many=True, help_text="Significant suggestions first, best first.")
    field = DoctorFieldSerializer(
        required=False, help_text="Against a field: the field (absent for a gauntlet)."
    )
    steps = StepSerializer(
        many=True,
        help_text="Every step in order; a step after the first searches the deck with the best "
        "swap of each step before it made.",
    )


class DoctorSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    progress = serializers.FloatField(read_only=True)
    status = serializers.ChoiceField(choices=DoctorRun.Status.choices, read_only=True)
    source = serializers.ChoiceField(choices=DoctorRun.Source.choices, read_only=True)  # type: ignore[assignment]  # a field named like Field.source
    result = serializers.SerializerMethodField()
    stage_runs = serializers.SerializerMethodField()
    measured_with = serializers.SerializerMethodField()
    field = serializers.SerializerMethodField()

    class Meta:
        model = DoctorRun
        fields = [
            "id", "url", "deck", "format", "gauntlet", "field", "source", "bot", "bot_budget",
            "budget", "chain", "seed",
            "status", "round", "games_spent", "progress", "result", "stage_runs", "measured_with",
            "error", "created_at", "finished_at",
        ]  # fmt: skip
        read_only_fields = fields

    def get_url(self, doctor: DoctorRun) -> str:
        return absolute(self.context.get("request"), reverse("api:doctor-detail", args=[doctor.pk]))

    @extend_schema_field(
        DoctorFieldSerializer(
            allow_null=True, help_text="The field played against; null for a gauntlet."
        )
    )
    def get_field(self, doctor: DoctorRun) -> dict | None:
        return doctors.doctor_field(doctor)

    @extend_schema_field(DoctorResultSerializer(allow_null=True))
    def get_result(self, doctor: DoctorRun) -> dict | None:
        return doctor.result

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_stage_runs(self, doctor: DoctorRun) -> list[int]:
        return [stage.run_id for stage in doctor.stages.all()]

    @extend_schema_field(
        run_serializers.BotUsedSerializer(
            many=True,
            help_text="The bots its swaps were measured with: your deck's, then the "
            "gauntlet's, each once.",
        )
    )
    def get_measured_with(self, doctor: DoctorRun) -> list[BotUsed]:
        return selectors.doctor_bots(doctor)


class DoctorDetailSerializer(DoctorSerializer):
    """A doctor run with `checks`: the checks with stronger bots of its proven swaps, newest
    first, each's `original` the swap's `run` (its evidence)."""

    checks = serializers.SerializerMethodField()

    class Meta(DoctorSerializer.Meta):
        fields = [*DoctorSerializer.Meta.fields, "checks"]
        read_only_fields = fields

    @extend_schema_field(run_serializers.ComparisonSerializer(many=True))
    def get_checks(self, doctor: DoctorRun) -> list[dict]:
        if doctor.status != DoctorRun.Status.DONE:
            return []
        found = checks_of(selectors.doctor_swap_runs(doctor))
        rows = sorted((c for cs in found.values() for c in cs), key=lambda c: -c["run"])
        return list(run_serializers.ComparisonSerializer(rows, many=True).data)


class DoctorCheckSerializer(run_serializers.RunCheckSerializer):
    """Check a proven swap with stronger bots: the run that proved it, every seat `bot`."""

    step = serializers.IntegerField(
        required=False, default=1, min_value=1, help_text="The step (1: the deck as it is)."
    )
    swap = serializers.IntegerField(
        required=False, default=0, min_value=0,
        help_text="Index of a proven (significant) swap of the step, best first (0: the top).",
    )  # fmt: skip


class ApplySerializer(StrictJSON, serializers.Serializer):
    """Either `swap` or `steps`."""

    swap = serializers.IntegerField(
        required=False, min_value=0, help_text="Index of a significant suggestion of step 1."
    )
    steps = serializers.IntegerField(
        required=False, min_value=1, help_text="Make the chain's first swaps, this many."
    )


class DoctorViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Your deck doctor runs."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = DoctorSerializer
    queryset = DoctorRun.objects.none()  # the schema's model; get_queryset scopes to the user
    lookup_value_regex = r"\d+"

    def get_queryset(self):
        return DoctorRun.objects.filter(owner=self.request.user).prefetch_related("stages")

    def get_object(self):
        doctor = self.get_queryset().filter(pk=self.kwargs["pk"]).first()
        if doctor is None:
            raise Http404("No such deck doctor run.")
        return doctor

    @extend_schema(
        request=DoctorCreateSerializer,
        parameters=[IDEMPOTENCY, LOCATION],
        responses={
            202: OpenApiResponse(DoctorSerializer, description="Accepted: the search, queued."),
            400: ERRORS,
        },
        description="Start the deck doctor on one of your decks. Answers 202 Accepted with its "
        "URL in `Location`; poll it until `status` is done, failed or cancelled.",
    )
    def create(self, request):
        data = DoctorCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        doctor, _created = doctors.doctor_create(
            owner=request.user,
            deck_id=v["deck"],
            format=v["format"],
            gauntlet=[dict(g) for g in v["gauntlet"]] if "gauntlet" in v else None,
            field_id=v.get("field"),
            source=v["source"],
            budget=v["budget"],
            bot=v.get("bot", ""),
            bot_budget=v.get("bot_budget"),
            seed=v.get("seed"),
            chain=v["chain"],
            idempotency_key=request.headers.get("Idempotency-Key") or None,
        )
        body = DoctorSerializer(doctor, context={"request": request}).data
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})

    @extend_schema(responses={200: DoctorDetailSerializer})
    def retrieve(self, request, *args, **kwargs):
        """A doctor run's progress and, once done, its suggestions and their checks."""
        doctor = self.get_object()
        return Response(DoctorDetailSerializer(doctor, context={"request": request}).data)

    @extend_schema(
        request=DoctorCheckSerializer,
        parameters=[IDEMPOTENCY, LOCATION],
        responses={
            202: OpenApiResponse(
                run_serializers.RunSerializer, description="Accepted: the check, queued."
            ),
            400: ERRORS,
            409: errors(
                "`not_finished`: the search is not done yet; `evidence_gone`: the run that "
                "proved the swap was deleted; `catalogue_changed`: its cards changed since."
            ),
        },
    )
    @action(detail=True, methods=["post"])
    def check(self, request, pk=None):
        """Check a proven swap with stronger bots: the swap's evidence (its last what-if run,
        `run`) played again with `bot` in every seat, linked to it (`checks`), exactly as
        `POST /api/v1/simulations/{id}/check/` does. Poll the new run; the comparison and its
        verdict are in this doctor run's `checks`."""
        doctor = self.get_object()
        data = DoctorCheckSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        run, _created = doctors.doctor_check(
            doctor=doctor, step=v["step"], swap=v["swap"], bot=v.get("bot"),
            budget=v.get("budget"), games=v.get("games"),
            idempotency_key=request.headers.get("Idempotency-Key") or None,
        )  # fmt: skip
        body = run_serializers.RunSerializer(run, context={"request": request}).data
        location = request.build_absolute_uri(reverse("api:simulation-detail", args=[run.pk]))
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": location})

    @extend_schema(request=None, responses={200: DoctorSerializer})
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        """Cancel the search and its runs (a finished one is left as it is)."""
        doctor = doctors.doctor_cancel(doctor=self.get_object())
        return Response(self.get_serializer(doctor).data)

    @extend_schema(
        request=ApplySerializer,
        responses={201: OpenApiResponse(description="The deck's new version."), 400: ERRORS},
    )
    @action(detail=True, methods=["post"])
    def apply(self, request, pk=None):
        """Make a significant suggestion (`swap`) or the chain's first swaps (`steps`) on the
        deck, saved as a new version with a note naming every swap."""
        doctor = self.get_object()
        data = ApplySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        version = doctors.doctor_apply(
            doctor=doctor, index=data.validated_data.get("swap"),
            steps=data.validated_data.get("steps"),
        )  # fmt: skip
        return Response(
            {"deck": doctor.deck_id, "version": version.number, "note": version.note},
            status=status.HTTP_201_CREATED,
        )
