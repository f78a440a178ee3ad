"""The bots' ladder API: `GET /api/v1/bots/ladder/` (every ladder, newest first; `?game=`) and
`GET /api/v1/bots/ladder/{id}/`. Read-only and public: bots are nobody's data. A ladder is
built by `manage.py bots_ladder` (docs/bots.md)."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import permissions, serializers, viewsets

from cards.filtersets import ChoiceFilter, FilterSet
from config.api import absolute
from simulator.engine.core.registry import games
from simulator.ladder import selectors
from simulator.ladder.models import BotLadder


class EntrantSerializer(serializers.Serializer):
    bot = serializers.CharField(help_text="The bot's name in the game's registry.")
    budget = serializers.IntegerField(
        allow_null=True, help_text="The bot's budget (null: its default, as runs play it)."
    )
    label = serializers.CharField(help_text="What people call it.")  # type: ignore[assignment]  # a field named like Field.label


class RankedEntrantSerializer(EntrantSerializer):
    rank = serializers.IntegerField(help_text="1 for the highest rating.")
    entrant = serializers.IntegerField(help_text="Its index in the ladder's `entrants`.")
    rating = serializers.FloatField(help_text="Bradley–Terry, on the Elo scale (mean 1500).")
    low = serializers.FloatField(help_text="95% bootstrap interval of the rating.")
    high = serializers.FloatField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    ties = serializers.IntegerField()
    ms_per_decision = serializers.FloatField(
        allow_null=True, help_text="Milliseconds its bot took a decision in the timing pass."
    )
    decisions_timed = serializers.IntegerField()


class TimingSerializer(serializers.Serializer):
    games = serializers.IntegerField(help_text="Games the timing pass played.")
    seconds = serializers.FloatField()
    how = serializers.CharField()


class MatrixField(serializers.ListField):
    """Rows and columns in rank order; null on the diagonal."""

    child = serializers.ListField(child=serializers.FloatField(allow_null=True))


class LadderResultSerializer(serializers.Serializer):
    method = serializers.CharField(help_text="How the ratings and intervals were computed.")
    games = serializers.IntegerField(help_text="The games the ratings rest on.")
    decks = serializers.ListField(
        child=serializers.CharField(), help_text="The decks every bot played (none: no decks)."
    )
    runs = serializers.ListField(child=serializers.IntegerField(), help_text="Its runs.")
    entrants = RankedEntrantSerializer(many=True, help_text="Best first.")
    superiority = MatrixField(
        help_text="The share of bootstrap refits in which the row's bot is rated above the "
        "column's: the chance it is the stronger."
    )
    win_chance = MatrixField(help_text="The row's chance to beat the column, by the model.")
    timing = TimingSerializer()


class LadderSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    status = serializers.ChoiceField(choices=BotLadder.Status.choices, read_only=True)
    entrants = EntrantSerializer(many=True, read_only=True)
    result = serializers.SerializerMethodField()
    runs = serializers.SerializerMethodField()

    class Meta:
        model = BotLadder
        fields = [
            "id", "url", "game", "games", "seed", "status", "entrants", "runs", "result",
            "error", "created_at", "finished_at",
        ]  # fmt: skip
        read_only_fields = fields

    def get_url(self, ladder: BotLadder) -> str:
        return absolute(
            self.context.get("request"), reverse("api:botladder-detail", args=[ladder.pk])
        )

    @extend_schema_field(LadderResultSerializer(allow_null=True))
    def get_result(self, ladder: BotLadder) -> dict | None:
        return ladder.result

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_runs(self, ladder: BotLadder) -> list[int]:
        return [run.pk for run in ladder.runs.all()]


class LadderFilterSet(FilterSet):
    game = ChoiceFilter(choices=[(name, spec.title) for name, spec in games().items()])

    class Meta:
        model = BotLadder
        fields = ["game"]


class BotLadderViewSet(viewsets.ReadOnlyModelViewSet):
    """The bots' ladders of every game: ratings with intervals, newest first."""

    permission_classes = [permissions.AllowAny]
    serializer_class = LadderSerializer
    filterset_class = LadderFilterSet
    lookup_value_regex = r"\d+"

    def get_queryset(self):
        return selectors.ladder_list()

    def get_object(self):
        return selectors.ladder_get(pk=self.kwargs["pk"])
