"""The metagame lab API's shapes: a field's input and answer, a field run with its progress and
its result (typed down to each pair and deck, so that a generated client reads it), and the
export."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.api import absolute
from config.schema import StrictJSON
from simulator.metagame import services as metagame
from simulator.metagame.models import Field, FieldRun, Target
from simulator.metagame.services import MAX_DECKS, MIN_DECKS

# --- input ------------------------------------------------------------------------------------


class FieldEntrySerializer(StrictJSON, serializers.Serializer):
    """One deck of the field: one of yours or a public one by id, a public deck by its link's
    slug, or a starter deck by code; its bot (and the bot's budget); its share of the players."""

    deck = serializers.IntegerField(required=False, min_value=1, help_text="A deck's id.")
    public_deck = serializers.CharField(
        required=False, max_length=32, help_text="A public deck's slug."
    )
    starter = serializers.CharField(required=False, max_length=16, help_text="e.g. HSD-S1.")
    bot = serializers.CharField(
        required=False, max_length=40, help_text="Its bot (default: the field's)."
    )
    budget = serializers.IntegerField(
        required=False, min_value=1,
        help_text="Its bot's budget: the search bot's rollouts or the tree search bot's "
        "iterations a decision (default: the bot's own).",
    )  # fmt: skip
    share = serializers.FloatField(
        min_value=0,
        help_text="How much of the field plays it: any numbers (counts or percentages), "
        "zero or more, summing above zero.",
    )


class FieldWriteSerializer(StrictJSON, serializers.Serializer):
    name = serializers.CharField(max_length=100)
    format = serializers.CharField(
        max_length=100, required=False, default="", allow_blank=True,
        help_text="The format the decks play (blank: the game's default, standard).",
    )  # fmt: skip
    bot = serializers.CharField(
        max_length=40, required=False, default="", allow_blank=True,
        help_text="The bot of every deck that names none (blank: the game's default).",
    )  # fmt: skip
    entries = FieldEntrySerializer(many=True, min_length=MIN_DECKS, max_length=MAX_DECKS)  # type: ignore[call-arg]  # many=True passes these to ListSerializer
    budget = serializers.IntegerField(
        min_value=metagame.MIN_BUDGET, max_value=metagame.MAX_BUDGET,
        help_text="Games a field run may play in all (at least 10 a pair of decks).",
    )  # fmt: skip
    confidence = serializers.FloatField(
        min_value=metagame.MIN_CONFIDENCE, max_value=metagame.MAX_CONFIDENCE, default=0.95,
        help_text="How sure the answer must be to stop early: above 0.5, at most 0.999.",
    )  # fmt: skip
    target = serializers.ChoiceField(
        choices=Target.choices, default=Target.BEST,
        help_text="best: which deck to bring; support: which decks make the mix nobody can "
        "exploit (the equilibrium's support).",
    )  # fmt: skip
    public = serializers.BooleanField(default=False, help_text="Anyone may read and copy it.")
    table_size = serializers.IntegerField(
        min_value=2, max_value=metagame.MAX_TABLE, default=2,
        help_text="Seats at a table: 2 (heads-up: every pair of decks) or 3 to 8 where the game "
        "seats more (tables drawn from the field by the shares; target best only).",
    )  # fmt: skip


class FieldCopySerializer(StrictJSON, serializers.Serializer):
    name = serializers.CharField(
        max_length=100, required=False, help_text="The copy's name (default: '<name> (copy)')."
    )


class FieldRunStartSerializer(StrictJSON, serializers.Serializer):
    seed = serializers.IntegerField(
        required=False, min_value=0, max_value=2**53 - 1,
        help_text="The same seed plays the same games (default: a new one).",
    )  # fmt: skip
    reuse = serializers.BooleanField(
        required=False, default=True,
        help_text=(
            "Take the games your latest finished run of this field played with the same decks, "
            "format, bot and card catalogue, and play only the pairs left (false: play every "
            "pair again)."
        ),
    )  # fmt: skip


# --- a field ----------------------------------------------------------------------------------


class FieldSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    runs_url = serializers.SerializerMethodField()
    owner = serializers.CharField(source="owner.username", read_only=True)
    mine = serializers.SerializerMethodField()
    entries = FieldEntrySerializer(many=True, read_only=True)
    target = serializers.ChoiceField(choices=Target.choices, read_only=True)

    class Meta:
        model = Field
        fields = [
            "id", "url", "runs_url", "owner", "mine", "name", "format", "bot", "entries",
            "budget", "confidence", "target", "table_size", "public", "created_at", "updated_at",
        ]  # fmt: skip
        read_only_fields = fields

    def get_url(self, field: Field) -> str:
        return absolute(self.context.get("request"), reverse("api:field-detail", args=[field.pk]))

    def get_runs_url(self, field: Field) -> str:
        return absolute(self.context.get("request"), reverse("api:field-runs", args=[field.pk]))

    def get_mine(self, field: Field) -> bool:
        request = self.context.get("request")
        return request is not None and field.owner_id == request.user.pk


# --- a field run ------------------------------------------------------------------------------


class FieldRunEntrySerializer(FieldEntrySerializer):
    """A deck of the field as the run plays it (its bot filled in), with its label."""

    label = serializers.CharField(help_text="What the answers call it.")  # type: ignore[assignment]  # a field named like Field.label


class ReusedSerializer(serializers.Serializer):
    reused_from = serializers.IntegerField(help_text="The earlier field run the games came from.")
    reused_from_date = serializers.CharField(help_text="When that run was started.")
    reused_games = serializers.IntegerField(help_text="Games taken from it (not in games_spent).")
    reused_pairs = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="The pairs [i, j] whose games were taken.",
    )
    new_decks = serializers.ListField(
        child=serializers.IntegerField(), help_text="The decks that run did not play as now."
    )
    catalogue_version = serializers.IntegerField(
        allow_null=True, help_text="The card catalogue both runs played with."
    )


class TableCountsSerializer(serializers.Serializer):
    """A table field run's counts so far, per deck (by index) and per composition."""

    seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="Seat-games each deck played."
    )
    wins = serializers.ListField(
        child=serializers.FloatField(),
        help_text="Its wins among them: finishing first, a win shared by t seats 1/t.",
    )
    place_sum = serializers.ListField(child=serializers.FloatField(), help_text="Σ places.")
    place_sq = serializers.ListField(child=serializers.FloatField(), help_text="Σ places².")
    placed = serializers.ListField(
        child=serializers.IntegerField(), help_text="Seat-games with a place (0: no places)."
    )
    compositions = serializers.DictField(
        child=serializers.IntegerField(),
        help_text='Games per composition, keyed by its decks\' indices ("0,0,1,3").',
    )


class CountsSerializer(serializers.Serializer):
    wins = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField()), required=False,
        help_text="Heads-up: wins[i][j]: deck i's wins against deck j so far, a tie half a win.",
    )  # fmt: skip
    games = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()), required=False,
        help_text="Heads-up: games[i][j] (= games[j][i]): their games so far.",
    )  # fmt: skip
    table = TableCountsSerializer(
        required=False, help_text="Tables of 3 to 8 seats: the counts per deck (no pairs)."
    )
    reused = ReusedSerializer(
        required=False,
        help_text="The games taken from an earlier run of the field (absent: none were).",
    )


class CompositionSerializer(serializers.Serializer):
    seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="The deck in each seat (indices, sorted)."
    )
    games = serializers.IntegerField()


class RoundSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="0: the even first round.")
    games = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()), required=False,
        help_text="Heads-up: the round's games of each pair (symmetric; 0: no run).",
    )  # fmt: skip
    reasons = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()), required=False,
        help_text="Heads-up: why each pair got its games, or none.",
    )  # fmt: skip
    tables = CompositionSerializer(
        many=True, required=False,
        help_text="Tables of more seats: the compositions drawn this round and their games.",
    )  # fmt: skip
    reason = serializers.CharField(
        required=False, help_text="Tables of more seats: why the games went where they did."
    )
    certainty = serializers.FloatField(
        allow_null=True, help_text="How sure the answer was when the round was planned."
    )
    chances = serializers.ListField(
        child=serializers.FloatField(), allow_null=True,
        help_text="Each deck's chance then (of being best, or of being in the mix).",
    )  # fmt: skip


class CellSerializer(serializers.Serializer):
    """A pair: the row deck's win chance against the column deck."""

    games = serializers.IntegerField()
    wins = serializers.FloatField()
    estimate = serializers.FloatField()
    low = serializers.FloatField()
    high = serializers.FloatField()
    mirror = serializers.BooleanField(help_text="A deck against itself: 0.5 by symmetry.")


class DeckFigureSerializer(serializers.Serializer):
    deck = serializers.IntegerField(help_text="The deck's index (its label: `decks`).")
    estimate = serializers.FloatField(help_text="Its expected win rate against the field.")
    low = serializers.FloatField()
    high = serializers.FloatField()
    p_best = serializers.FloatField(help_text="Its chance of being the best deck to bring.")


class TierSerializer(DeckFigureSerializer):
    rank = serializers.IntegerField(help_text="Its place by estimate.")
    tier = serializers.IntegerField(help_text="1: the best deck and those that may be as good.")


class NashSerializer(serializers.Serializer):
    weights = serializers.ListField(child=serializers.FloatField())
    support = serializers.ListField(child=serializers.IntegerField())
    value = serializers.FloatField()


class StabilitySerializer(serializers.Serializer):
    draws = serializers.IntegerField()
    in_support = serializers.ListField(child=serializers.FloatField())
    mean_weight = serializers.ListField(child=serializers.FloatField())
    same_support = serializers.FloatField()


class EdgeSerializer(serializers.Serializer):
    winner = serializers.IntegerField()
    loser = serializers.IntegerField()
    probability = serializers.FloatField()


class CycleSerializer(serializers.Serializer):
    decks = serializers.ListField(child=serializers.IntegerField())
    edges = EdgeSerializer(many=True)
    probability = serializers.FloatField()


class ReplicatorSerializer(serializers.Serializer):
    generations = serializers.IntegerField()
    status = serializers.CharField(help_text="settled, oscillating or still moving.")
    final = serializers.ListField(child=serializers.FloatField())
    history = serializers.ListField(child=serializers.ListField(child=serializers.FloatField()))


class NotesSerializer(serializers.Serializer):
    prior = serializers.CharField()
    interval = serializers.CharField()
    mirror = serializers.CharField()


class VerdictSerializer(serializers.Serializer):
    target = serializers.ChoiceField(choices=Target.choices)
    answer = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The deck most likely best (one), or the decks likely in the mix.",
    )
    certainty = serializers.FloatField()
    chances = serializers.ListField(child=serializers.FloatField())


class TableRateSerializer(serializers.Serializer):
    """A deck at tables of k seats drawn from the field."""

    deck = serializers.IntegerField(help_text="The deck's index (its label: `decks`).")
    seats = serializers.IntegerField(help_text="Seat-games it played.")
    wins = serializers.FloatField(help_text="Its wins (finishing first; a shared win split).")
    estimate = serializers.FloatField(help_text="Its win rate: wins / seats (1/k unplayed).")
    low = serializers.FloatField(help_text="Jeffreys interval at the run's confidence.")
    high = serializers.FloatField()
    edge = serializers.FloatField(help_text="Its win rate less 1/k, a random seat's.")
    played = serializers.BooleanField(help_text="False: no share of the field, never seated.")
    mean_place = serializers.FloatField(
        allow_null=True, help_text="Its mean finishing place (1 best; null: no places)."
    )
    place_low = serializers.FloatField(allow_null=True)
    place_high = serializers.FloatField(allow_null=True)
    p_best = serializers.FloatField(help_text="Its chance of the highest win rate.")


class TableNotesSerializer(serializers.Serializer):
    matrix = serializers.CharField(help_text="Why there is no matchup matrix.")
    baseline = serializers.CharField()
    interval = serializers.CharField()
    places = serializers.CharField()
    tables = serializers.CharField(help_text="Where the games went, and why.")
    unplayed = serializers.CharField()


class TableFiguresSerializer(serializers.Serializer):
    """The figures of tables of 3 to 8 seats (docs/metagame.md, "Tables of k seats")."""

    baseline = serializers.FloatField(help_text="1/k: a random seat's win rate.")
    rates = TableRateSerializer(many=True)
    best = TableRateSerializer(help_text="The deck with the highest win rate.")
    places = serializers.BooleanField(help_text="Whether the game ranks its players.")
    notes = TableNotesSerializer()
    compositions = CompositionSerializer(many=True, help_text="Games per composition, in all.")


class FieldResultSerializer(serializers.Serializer):
    """The answer (docs/metagame.md): every figure of analysis.analyse, decks by index; at
    tables of 3 to 8 seats, `table` instead of the heads-up figures (no matrix)."""

    decks = serializers.ListField(child=serializers.CharField(), help_text="The decks' labels.")
    table_size = serializers.IntegerField(
        required=False, help_text="Seats at a table (absent: 2, heads-up)."
    )
    shares = serializers.ListField(child=serializers.FloatField(), help_text="Summing to 1.")
    confidence = serializers.FloatField()
    seed = serializers.IntegerField()
    draws = serializers.IntegerField(help_text="Posterior draws behind the intervals.")
    notes = NotesSerializer(required=False, help_text="Heads-up only.")
    cells = serializers.ListField(
        child=serializers.ListField(child=CellSerializer()), required=False,
        help_text="Heads-up only: the matchup matrix.",
    )  # fmt: skip
    expected = DeckFigureSerializer(many=True, required=False, help_text="Heads-up only.")
    p_best = serializers.ListField(child=serializers.FloatField())
    tiers = TierSerializer(many=True)
    best_response = DeckFigureSerializer(
        required=False, help_text="Heads-up only: the deck to bring against the field."
    )
    nash = NashSerializer(required=False, help_text="Heads-up only: the mix nobody can exploit.")
    support_stability = StabilitySerializer(required=False, help_text="Heads-up only.")
    cycles = CycleSerializer(
        many=True, required=False, help_text="Heads-up only: rock-paper-scissors triangles."
    )
    replicator = ReplicatorSerializer(
        required=False, help_text="Heads-up only: where the field drifts if players follow wins."
    )
    table = TableFiguresSerializer(
        required=False, help_text="Tables of 3 to 8 seats only: each deck's win rate and place."
    )
    stopped_by = serializers.ChoiceField(
        choices=[("rule", "rule"), ("budget", "budget")],
        help_text="rule: answered at the confidence; budget: the games ran out first.",
    )
    games = serializers.IntegerField()
    rounds = serializers.IntegerField()
    verdict = VerdictSerializer()


class FieldRunSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    export_url = serializers.SerializerMethodField()
    status = serializers.ChoiceField(choices=FieldRun.Status.choices, read_only=True)
    target = serializers.ChoiceField(choices=Target.choices, read_only=True)
    entries = FieldRunEntrySerializer(many=True, read_only=True)
    progress = serializers.FloatField(read_only=True, help_text="games_spent of the budget.")
    counts = CountsSerializer(read_only=True)
    rounds = RoundSerializer(many=True, read_only=True)
    result = serializers.SerializerMethodField()
    stage_runs = serializers.SerializerMethodField()

    class Meta:
        model = FieldRun
        fields = [
            "id", "url", "export_url", "field", "entries", "format", "bot", "budget",
            "confidence", "target", "table_size", "seed", "status", "round", "games_spent",
            "progress", "counts", "rounds", "result", "stage_runs", "error", "created_at",
            "finished_at",
        ]  # fmt: skip
        read_only_fields = fields

    def get_url(self, field_run: FieldRun) -> str:
        path = reverse("api:field-run-detail", args=[field_run.pk])
        return absolute(self.context.get("request"), path)

    def get_export_url(self, field_run: FieldRun) -> str:
        path = reverse("api:field-run-export", args=[field_run.pk])
        return absolute(self.context.get("request"), path)

    @extend_schema_field(FieldResultSerializer(allow_null=True))
    def get_result(self, field_run: FieldRun) -> dict | None:
        return field_run.result

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_stage_runs(self, field_run: FieldRun) -> list[int]:
        return [stage.run_id for stage in field_run.stages.all()]


# --- the export -------------------------------------------------------------------------------


class ExportCellSerializer(serializers.Serializer):
    estimate = serializers.FloatField(help_text="The row deck's win chance against the column's.")
    low = serializers.FloatField()
    high = serializers.FloatField()
    games = serializers.IntegerField()
    mirror = serializers.BooleanField()


class ExportDeckSerializer(serializers.Serializer):
    deck = serializers.CharField()
    share = serializers.FloatField()
    estimate = serializers.FloatField(
        help_text="Its expected win rate against the field (at tables: wins / seat-games)."
    )
    low = serializers.FloatField()
    high = serializers.FloatField()
    p_best = serializers.FloatField()
    tier = serializers.IntegerField(allow_null=True, help_text="null: never seated.")
    rank = serializers.IntegerField(allow_null=True)
    games = serializers.IntegerField(help_text="Its games (at tables: its seat-games).")
    edge = serializers.FloatField(required=False, help_text="Tables: its win rate less 1/k.")
    mean_place = serializers.FloatField(
        required=False, allow_null=True, help_text="Tables: its mean finishing place."
    )
    place_low = serializers.FloatField(required=False, allow_null=True)
    place_high = serializers.FloatField(required=False, allow_null=True)


class ExportTableSerializer(serializers.Serializer):
    decks = serializers.ListField(child=serializers.CharField(), help_text="One a seat.")
    games = serializers.IntegerField()


class FieldRunExportSerializer(serializers.Serializer):
    field = serializers.CharField(help_text="The field's name.")
    format = serializers.CharField()
    target = serializers.ChoiceField(choices=Target.choices)
    confidence = serializers.FloatField()
    games = serializers.IntegerField()
    stopped_by = serializers.CharField()
    table_size = serializers.IntegerField(help_text="Seats at a table (2: heads-up).")
    labels = serializers.ListField(child=serializers.CharField())
    matrix = serializers.ListField(
        child=serializers.ListField(child=ExportCellSerializer()),
        help_text="Heads-up only: empty at tables of more seats, which no matrix describes.",
    )
    decks = ExportDeckSerializer(many=True)
    tables = ExportTableSerializer(
        many=True, required=False, help_text="Tables of more seats: games per composition."
    )
    note = serializers.CharField(required=False, help_text="Tables: why there is no matrix.")
