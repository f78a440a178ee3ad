"""Simulation API shapes. Input is checked here for type; the rules are checked by services."""

from __future__ import annotations

from django.urls import reverse
from rest_framework import serializers

from simulator.models import GameSample, SimulationRun


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    detail = serializers.CharField()
    attr = serializers.CharField(allow_null=True)


class ErrorsSerializer(serializers.Serializer):
    errors = ErrorSerializer(many=True)


class QtyMapField(serializers.DictField):
    """{card code: quantity}."""

    child = serializers.IntegerField(min_value=1, max_value=999)


class PlayerInputSerializer(serializers.Serializer):
    """One player: a deck (yours or public, by id), a public deck by slug, a starter deck by
    code, or nothing for a game with fixed components; its bot; a what-if change."""

    deck = serializers.IntegerField(required=False, min_value=1)
    public_deck = serializers.CharField(required=False, max_length=32)
    starter = serializers.CharField(required=False, max_length=16)
    bot = serializers.CharField(required=False, max_length=40)
    label = serializers.CharField(required=False, max_length=100)
    add = QtyMapField(required=False)
    remove = QtyMapField(required=False)


class RunCreateSerializer(serializers.Serializer):
    game = serializers.CharField(max_length=40, default="drifter")
    # A plain string (checked by the service) keeps the schema's enum names free of collisions.
    kind = serializers.CharField(
        default="match", max_length=12,
        help_text="match, gauntlet, round_robin or what_if.",
    )  # fmt: skip
    format = serializers.CharField(max_length=100, required=False, default="", allow_blank=True)
    variants = serializers.ListField(
        child=serializers.CharField(max_length=40), required=False, default=list, max_length=20
    )
    games = serializers.IntegerField(min_value=1, max_value=1_000_000)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**53 - 1)
    players = PlayerInputSerializer(many=True, min_length=2, max_length=8)


class RunSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    results_url = serializers.SerializerMethodField()
    progress = serializers.FloatField(read_only=True)
    kind = serializers.CharField(read_only=True)
    status = serializers.CharField(
        read_only=True, help_text="queued, running, done, failed or cancelled."
    )
    players = serializers.SerializerMethodField()
    matchups = serializers.SerializerMethodField()

    class Meta:
        model = SimulationRun
        fields = [
            "id", "url", "results_url", "kind", "game", "format", "variants", "games",
            "total_games", "seed", "status", "games_done", "progress", "chunk_size",
            "chunk_count", "chunks_done", "chunks_failed", "players", "matchups", "error",
            "created_at", "started_at", "finished_at",
        ]  # fmt: skip
        read_only_fields = fields

    def get_url(self, run: SimulationRun) -> str:
        return self._abs(reverse("api:simulation-detail", args=[run.pk]))

    def get_results_url(self, run: SimulationRun) -> str:
        return self._abs(reverse("api:simulation-results", args=[run.pk]))

    def _abs(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path

    def get_players(self, run: SimulationRun) -> list[dict]:
        return [
            {"label": p["label"], "bot": p["bot"], "source": p.get("source")}
            for p in run.plan["players"]
        ]

    def get_matchups(self, run: SimulationRun) -> list[list[int]]:
        return run.plan["matchups"]


class GameSampleSerializer(serializers.ModelSerializer):
    class Meta:
        model = GameSample
        fields = ["id", "matchup", "index", "seats", "final"]


class GameSampleDetailSerializer(serializers.ModelSerializer):
    class Meta:
        model = GameSample
        fields = ["id", "matchup", "index", "seats", "final", "record"]


class GameInfoSerializer(serializers.Serializer):
    name = serializers.CharField()
    title = serializers.CharField()
    bots = serializers.ListField(child=serializers.CharField())
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    needs_decks = serializers.BooleanField()
