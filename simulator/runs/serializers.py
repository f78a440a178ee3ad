"""Simulation API shapes. Input is checked here for type; the rules are checked by services."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.api import absolute
from config.schema import StrictJSON
from simulator.runs.followers import Part
from simulator.runs.headlines import VERDICTS, BotUsed, measured_with
from simulator.runs.models import GameSample, SimulationRun


class QtyMapField(serializers.DictField):
    """{card code: quantity}."""

    child = serializers.IntegerField(min_value=1, max_value=999)


class PlayerInputSerializer(StrictJSON, serializers.Serializer):
    """One player: a deck (yours or public, by id), a public deck by slug, a starter deck by
    code, or nothing for a game with fixed components; its bot; a what-if change."""

    deck = serializers.IntegerField(required=False, min_value=1)
    public_deck = serializers.CharField(required=False, max_length=32)
    starter = serializers.CharField(required=False, max_length=16)
    bot = serializers.CharField(required=False, max_length=40)
    label = serializers.CharField(required=False, max_length=100)  # type: ignore[assignment]  # a field named like Field.label/.source
    budget = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text=(
            "The bot's budget per decision, for a bot that has one: the search bot's rollouts "
            "(High Stakes Drifter: 1 to 400, 24 by default) or the ismcts bot's iterations (1 "
            "to 2,000 in High Stakes Drifter, to 300-1,000 in the other games). More plays "
            "stronger and slower."
        ),
    )
    add = QtyMapField(required=False)
    remove = QtyMapField(required=False)


class RunCreateSerializer(StrictJSON, serializers.Serializer):
    game = serializers.CharField(max_length=40, default="drifter")
    kind = serializers.ChoiceField(choices=SimulationRun.Kind.choices, default="match")
    format = serializers.CharField(max_length=100, required=False, default="", allow_blank=True)
    variants = serializers.ListField(
        child=serializers.CharField(max_length=40), required=False, default=list, max_length=20
    )
    games = serializers.IntegerField(min_value=1, max_value=1_000_000)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**53 - 1)
    players = PlayerInputSerializer(many=True, min_length=2, max_length=8)  # type: ignore[call-arg]  # many=True passes these to ListSerializer


class RunCheckSerializer(StrictJSON, serializers.Serializer):
    """Check a finished run's headline with stronger bots: every seat played by `bot`."""

    bot = serializers.CharField(
        required=False,
        max_length=40,
        help_text="The bot in every seat; by default the next one up the game's order of "
        "strength from the run's strongest (High Stakes Drifter: random, heuristic, sharp, "
        "search, ismcts).",
    )
    budget = serializers.IntegerField(
        required=False, min_value=1, help_text="The bot's budget (default: the bot's own)."
    )
    games = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=1_000_000,
        help_text="Games of each matchup, at most the run's own; by default what the stronger "
        "bots play in a few minutes.",
    )


class BotUsedSerializer(serializers.Serializer):
    bot = serializers.CharField()
    budget = serializers.IntegerField(
        allow_null=True, help_text="Its budget per decision (null: the bot's default)."
    )


class ShareSerializer(serializers.Serializer):
    """The leader's share with its 95% interval (null without games)."""

    rate = serializers.FloatField(allow_null=True)
    low = serializers.FloatField(allow_null=True)
    high = serializers.FloatField(allow_null=True)


class HeadlineSerializer(serializers.Serializer):
    """What a run says: who is ahead (`leader`, an index into `players`) and whether it is more
    than chance. A what-if says whether the change helps: `leader` 1 (the changed deck) or 0
    (deck A), `share` what the change adds to (or takes from) the win rate."""

    kind = serializers.ChoiceField(choices=["leader", "change"])
    leader = serializers.IntegerField(allow_null=True)
    label = serializers.CharField(allow_null=True, help_text="The leader's label.")  # type: ignore[assignment]  # a field named like Field.label/.source
    runner_up = serializers.IntegerField(allow_null=True)
    share = ShareSerializer(help_text="The leader's win rate (what-if: its advantage).")
    significant = serializers.BooleanField(
        help_text="The leader's interval is above every other player's (what-if: p < 0.05)."
    )
    games = serializers.IntegerField()


class ComparisonSerializer(serializers.Serializer):
    """A run and the run checking its headline with stronger bots, side by side."""

    original = serializers.IntegerField(allow_null=True, help_text="The run checked.")
    run = serializers.IntegerField(help_text="The check: a run with a stronger bot in every seat.")
    bot = serializers.CharField(help_text="The check's bot.")
    budget = serializers.IntegerField(allow_null=True)
    games = serializers.IntegerField(help_text="The check's games of each matchup.")
    status = serializers.ChoiceField(choices=SimulationRun.Status.choices)
    verdict = serializers.ChoiceField(
        choices=list(VERDICTS),
        help_text="holds: the same side ahead, significant with the stronger bots; weaker: not "
        "significant any more, or the lead shrank beyond the intervals; reverses: the stronger "
        "bots significantly favour another side; unclear: the check is not done, or neither "
        "run is significant.",
    )
    original_bots = BotUsedSerializer(many=True)
    original_headline = HeadlineSerializer(allow_null=True)
    check_headline = HeadlineSerializer(allow_null=True)


class RunPlayerSerializer(serializers.Serializer):
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label/.source
    bot = serializers.CharField()
    budget = serializers.IntegerField(allow_null=True, help_text="null: the bot's default.")
    source = serializers.CharField(  # type: ignore[assignment]  # a field named like Field.label/.source
        allow_null=True, help_text="Where the deck came from (`deck:4`, `starter:HSD-S1`, ...)."
    )


class PartOfSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=[("field_run", "a field run"), ("doctor_run", "a deck doctor run")],
        help_text="What the run is a round of.",
    )
    id = serializers.IntegerField(help_text="The field run's or the deck doctor run's id.")
    round = serializers.IntegerField(help_text="Which of its rounds (1: the first).")
    description = serializers.CharField(source="words")
    url = serializers.SerializerMethodField(help_text="The field run or deck doctor run.")

    def get_url(self, part: Part) -> str:
        return absolute(self.context.get("request"), part.api)


class RunSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    results_url = serializers.SerializerMethodField()
    progress = serializers.FloatField(read_only=True)
    kind = serializers.ChoiceField(choices=SimulationRun.Kind.choices, read_only=True)
    status = serializers.ChoiceField(
        choices=SimulationRun.Status.choices,
        read_only=True,
        help_text="Poll until done, failed or cancelled.",
    )
    variants = serializers.ListField(child=serializers.CharField(), read_only=True)
    players = serializers.SerializerMethodField()
    matchups = serializers.SerializerMethodField()
    measured_with = serializers.SerializerMethodField()
    checks = serializers.IntegerField(
        source="checks_id",
        read_only=True,
        allow_null=True,
        help_text="The run whose headline this run checks with stronger bots (null: none).",
    )

    class Meta:
        model = SimulationRun
        fields = [
            "id", "url", "results_url", "kind", "game", "format", "variants", "games",
            "total_games", "seed", "status", "games_done", "progress", "chunk_size",
            "chunk_count", "chunks_done", "chunks_failed", "players", "matchups",
            "measured_with", "checks", "error", "created_at", "started_at", "finished_at",
        ]  # fmt: skip
        read_only_fields = fields

    def get_url(self, run: SimulationRun) -> str:
        return self._abs(reverse("api:simulation-detail", args=[run.pk]))

    def get_results_url(self, run: SimulationRun) -> str:
        return self._abs(reverse("api:simulation-results", args=[run.pk]))

    def _abs(self, path: str) -> str:
        return absolute(self.context.get("request"), path)

    @extend_schema_field(RunPlayerSerializer(many=True))
    def get_players(self, run: SimulationRun) -> list[dict]:
        return [
            {"label": p["label"], "bot": p["bot"], "budget": p.get("budget"),
             "source": p.get("source")}
            for p in run.plan["players"]
        ]  # fmt: skip

    @extend_schema_field(
        BotUsedSerializer(many=True, help_text="The bots its results were measured with.")
    )
    def get_measured_with(self, run: SimulationRun) -> list[BotUsed]:
        return measured_with(run.plan["players"])

    @extend_schema_field(
        serializers.ListField(
            child=serializers.ListField(child=serializers.IntegerField()),
            help_text="Each matchup: the players (indexes into `players`) at its table.",
        )
    )
    def get_matchups(self, run: SimulationRun) -> list[list[int]]:
        return run.plan["matchups"]


class RunListSerializer(RunSerializer):
    """A run in the list of runs, with what it is part of when it is a field run's or a deck
    doctor run's round (the list's context `parts`: `selectors.parts_of`, read for the whole
    page at once; a run's own poll stays one query and leaves it out)."""

    part_of = serializers.SerializerMethodField()

    class Meta(RunSerializer.Meta):
        fields = [*RunSerializer.Meta.fields, "part_of"]
        read_only_fields = fields

    @extend_schema_field(
        PartOfSerializer(
            allow_null=True,
            help_text="The field run or deck doctor run that played this run as one of its "
            "rounds (null: a run started by itself).",
        )
    )
    def get_part_of(self, run: SimulationRun) -> dict | None:
        # the view reads what its runs are part of in one go (context `parts`: selectors.parts_of)
        part = (self.context.get("parts") or {}).get(run.pk)
        return None if part is None else PartOfSerializer(part, context=self.context).data


class RunDetailSerializer(RunSerializer):
    """A run, with the comparisons of its headline checked with stronger bots: `check` when it
    is itself a check, `checked_by` its checks (newest first). Its context's `checks` holds
    them (`selectors.run_checks`)."""

    check = serializers.SerializerMethodField()
    checked_by = serializers.SerializerMethodField()

    class Meta(RunSerializer.Meta):
        fields = [*RunSerializer.Meta.fields, "check", "checked_by"]
        read_only_fields = fields

    @extend_schema_field(ComparisonSerializer(allow_null=True))
    def get_check(self, run: SimulationRun) -> dict | None:
        check = (self.context.get("checks") or {}).get("check")
        return None if check is None else ComparisonSerializer(check).data

    @extend_schema_field(ComparisonSerializer(many=True))
    def get_checked_by(self, run: SimulationRun) -> list[dict]:
        rows = (self.context.get("checks") or {}).get("checked_by") or []
        return list(ComparisonSerializer(rows, many=True).data)


class GameSampleSerializer(serializers.ModelSerializer):
    seats = serializers.ListField(
        child=serializers.IntegerField(),
        read_only=True,
        help_text="The player (an index into the run's `players`) in each seat.",
    )

    class Meta:
        model = GameSample
        fields = ["id", "matchup", "index", "seats", "final"]


class GameSampleDetailSerializer(GameSampleSerializer):
    class Meta(GameSampleSerializer.Meta):
        fields = [*GameSampleSerializer.Meta.fields, "record"]


# --- The results report (`simulator.runs.selectors.run_report`) ---


class RateSerializer(serializers.Serializer):
    """A proportion with its 95% Wilson interval: `k` of `n`, `rate` between `low` and `high`."""

    n = serializers.FloatField(help_text="Games (or shootouts) counted.")
    k = serializers.FloatField(help_text="Of them, won.")
    rate = serializers.FloatField(allow_null=True, help_text="k / n; null when n is 0.")
    low = serializers.FloatField()
    high = serializers.FloatField()
    enough = serializers.BooleanField(help_text="Whether n is big enough to read it as a finding.")


class MeanIntervalSerializer(serializers.Serializer):
    """A mean with its 95% normal interval (null bounds below two samples)."""

    n = serializers.FloatField()
    mean = serializers.FloatField(allow_null=True)
    low = serializers.FloatField(allow_null=True)
    high = serializers.FloatField(allow_null=True)
    enough = serializers.BooleanField()


class PairedDifferenceSerializer(MeanIntervalSerializer):
    """B's score minus A's on the same seeds, with the paired t test and McNemar's test."""

    t = serializers.FloatField(allow_null=True)
    p = serializers.FloatField(allow_null=True)
    mcnemar_chi2 = serializers.FloatField()
    mcnemar_p = serializers.FloatField()
    a_only = serializers.FloatField(help_text="Games only A won.")
    b_only = serializers.FloatField(help_text="Games only B won.")
    significant = serializers.BooleanField(help_text="p < 0.05.")


class HistogramBinSerializer(serializers.Serializer):
    low = serializers.IntegerField()
    high = serializers.IntegerField()
    count = serializers.IntegerField()


class StakesSerializer(serializers.Serializer):
    mean = serializers.FloatField(allow_null=True)
    histogram = HistogramBinSerializer(many=True)


class LengthSerializer(serializers.Serializer):
    mean = serializers.FloatField(allow_null=True)
    median = serializers.FloatField(allow_null=True)
    p90 = serializers.FloatField(allow_null=True, help_text="90% of games are this long or less.")
    histogram = HistogramBinSerializer(many=True)


class CardImpactSerializer(serializers.Serializer):
    """One card of a player's deck: the win rate in games it was played and in the others."""

    code = serializers.CharField()
    name = serializers.CharField()
    played = RateSerializer()
    not_played = RateSerializer()
    delta = serializers.FloatField(allow_null=True, help_text="played.rate - not_played.rate")
    enough = serializers.BooleanField()
    chips_per_shootout = MeanIntervalSerializer()


class PlayerReportSerializer(serializers.Serializer):
    """One player of the run. A player with no games yet has only the first five keys."""

    index = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label/.source
    bot = serializers.CharField()
    source = serializers.CharField(allow_null=True)  # type: ignore[assignment]  # a field named like Field.label/.source
    games = serializers.IntegerField()
    wins = serializers.IntegerField(required=False)
    losses = serializers.IntegerField(required=False)
    ties = serializers.IntegerField(required=False)
    win_rate = RateSerializer(required=False)
    first = RateSerializer(required=False, help_text="The win rate when seated first.")
    other = RateSerializer(required=False, help_text="The win rate in the other seats.")
    stakes = StakesSerializer(required=False, allow_null=True)
    shootouts_by_stat = serializers.DictField(
        child=RateSerializer(), required=False, help_text="{contested stat: shootouts won}."
    )
    cards = CardImpactSerializer(many=True, required=False)


class MatchupReportSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    players = serializers.ListField(child=serializers.IntegerField())
    labels = serializers.ListField(child=serializers.CharField())
    games = serializers.IntegerField()
    draws = serializers.IntegerField()
    win_rates = RateSerializer(many=True, help_text="Each seat's, in the order of `players`.")


class WhatIfSerializer(serializers.Serializer):
    opponent = serializers.CharField()
    a = RateSerializer(help_text="Deck A's win rate.")
    b = RateSerializer(help_text="The changed deck's win rate.")
    difference = PairedDifferenceSerializer()


class RunResultsSerializer(serializers.Serializer):
    """The report so far (it grows while the run plays)."""

    status = serializers.ChoiceField(choices=SimulationRun.Status.choices)
    games_done = serializers.IntegerField()
    games = serializers.IntegerField()
    players = PlayerReportSerializer(many=True)
    turns = LengthSerializer(allow_null=True)
    shootouts = LengthSerializer(allow_null=True)
    matchups = MatchupReportSerializer(many=True)
    matrix = serializers.ListField(
        child=serializers.ListField(child=RateSerializer(allow_null=True)),
        allow_null=True,
        help_text="Gauntlets and round robins: the row player's win rate against the column's.",
    )
    what_if = WhatIfSerializer(many=True)
    headline = HeadlineSerializer(help_text="Who is ahead, and whether it is more than chance.")
    measured_with = BotUsedSerializer(
        many=True, help_text="The bots the results were measured with."
    )


class GameInfoSerializer(serializers.Serializer):
    name = serializers.CharField()
    title = serializers.CharField()
    bots = serializers.ListField(child=serializers.CharField())
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    needs_decks = serializers.BooleanField()
