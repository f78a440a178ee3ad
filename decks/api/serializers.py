"""Deck API serializers: thin shapes; rules live in formats.py and the services."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.api import absolute
from config.schema import StrictJSON
from decks import selectors
from decks.models import Deck, DeckVersion, DraftPod, Pool
from simulator.engine.drifter import formats
from simulator.engine.drifter.sealed import Draft


class EntrySerializer(serializers.Serializer):
    """One line of a deck: a card or kicker chip code and how many."""

    code = serializers.CharField(max_length=32)
    qty = serializers.IntegerField(min_value=1, max_value=formats.MAX_QTY)


@extend_schema_field(EntrySerializer(many=True))
class EntryListField(serializers.Field):
    """A list of {code, qty} (at most 1,000), read as {code: qty} with repeats summed.

    Checked by hand rather than by a nested serializer per entry: this is the hot path of the
    stateless validator, and the errors keep DRF's shape (attr `cards.3.qty`).
    """

    default_error_messages = {
        "not_a_list": "Expected a list of {{code, qty}} entries.",
        "max_length": f"At most {formats.MAX_ENTRIES} entries, not {{n}}.",
    }

    def to_internal_value(self, data) -> dict[str, int]:
        if not isinstance(data, list):
            self.fail("not_a_list")
        if len(data) > formats.MAX_ENTRIES:
            self.fail("max_length", n=len(data))
        out: Counter[str] = Counter()
        errors: dict[int, dict[str, list[str]]] = {}
        for index, row in enumerate(data):
            problems = self._entry_errors(row)
            if problems:
                errors[index] = problems
            else:
                out[row["code"].strip().upper()] += int(row["qty"])
        if errors:
            raise serializers.ValidationError(errors)  # type: ignore[arg-type]  # keyed by row
        return dict(out)

    @staticmethod
    def _entry_errors(row: Any) -> dict[str, list[str]]:
        if not isinstance(row, dict):
            return {"non_field_errors": ["Expected an object {code, qty}."]}
        problems: dict[str, list[str]] = {}
        code = row.get("code")
        if not isinstance(code, str) or not code.strip() or len(code) > 32:
            problems["code"] = ["A card or kicker chip code (text, at most 32 characters)."]
        qty = row.get("qty")
        if type(qty) is not int:
            problems["qty"] = ["A whole number is required."]
        elif not 1 <= qty <= formats.MAX_QTY:
            problems["qty"] = [f"Must be from 1 to {formats.MAX_QTY}."]
        return problems

    def to_representation(self, value):
        return [{"code": c, "qty": q} for c, q in value.items()]


class DeckProblemSerializer(serializers.Serializer):
    code = serializers.CharField()
    detail = serializers.CharField()
    attr = serializers.CharField(allow_null=True)
    line = serializers.IntegerField(required=False)
    card = serializers.CharField(required=False)
    kicker_chip = serializers.CharField(required=False)
    qty = serializers.IntegerField(required=False)
    limit = serializers.IntegerField(required=False)


class LegalitySerializer(serializers.Serializer):
    legal = serializers.BooleanField()
    format = serializers.CharField()
    errors = DeckProblemSerializer(many=True)  # type: ignore[assignment]  # a field, not .errors


class PoolContentsSerializer(StrictJSON, serializers.Serializer):
    cards = EntryListField(required=False, default=dict)
    kicker_chips = EntryListField(required=False, default=dict)


class ValidateSerializer(StrictJSON, serializers.Serializer):
    """The stateless check: a format, cards and chips, and a pool for Stud/Draw."""

    format = serializers.CharField(max_length=100, default=formats.STANDARD)
    cards = EntryListField(required=False, default=dict)
    kicker_chips = EntryListField(required=False, default=dict)
    pool = PoolContentsSerializer(required=False, allow_null=True, default=None)
    pool_id = serializers.IntegerField(required=False, allow_null=True, default=None)


def _share_url(deck: Deck, request) -> str:
    """A public deck's link in the API, absolute when there is a request to say where."""
    return absolute(request, reverse("api:deck-shared", args=[deck.slug]))


class DeckListSerializer(serializers.ModelSerializer):
    format_label = serializers.SerializerMethodField()
    share_url = serializers.SerializerMethodField()

    class Meta:
        model = Deck
        fields = [
            "id", "name", "description", "format", "format_label", "pool", "is_public",
            "listed", "share_url", "version", "unsaved_changes", "created", "updated",
        ]  # fmt: skip
        read_only_fields = ["unsaved_changes"]

    def get_format_label(self, deck: Deck) -> str:
        return formats.format_label(deck.format)

    def get_share_url(self, deck: Deck) -> str | None:
        """The unguessable public link (only while the deck is public)."""
        if not deck.is_public:
            return None
        return _share_url(deck, self.context.get("request"))


class PublicDeckSerializer(serializers.ModelSerializer):
    """A deck in the public deck list: read by its link, `share_url`."""

    owner = serializers.CharField(source="owner.username")
    format_label = serializers.SerializerMethodField()
    share_url = serializers.SerializerMethodField()
    factions = serializers.SerializerMethodField()

    class Meta:
        model = Deck
        fields = [
            "slug", "name", "description", "owner", "format", "format_label", "factions",
            "share_url", "updated",
        ]  # fmt: skip

    def get_format_label(self, deck: Deck) -> str:
        return formats.format_label(deck.format)

    def get_share_url(self, deck: Deck) -> str:
        """The deck's public link (the API's `shared/{slug}/`)."""
        return _share_url(deck, self.context.get("request"))

    def get_factions(self, deck: Deck) -> list[str]:
        """The factions of the deck's cards, most cards first."""
        return list(self.context.get("factions", {}).get(deck.pk, []))


class PublicDeckQuerySerializer(serializers.Serializer):
    """The public deck list's search: every field optional; an empty one is no filter (as
    the page's "any" choice)."""

    card = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        help_text="Holds a card whose name contains this, or whose code is this.",
    )
    fmt = serializers.ChoiceField(
        choices=list(formats.FORMAT_LABELS.items()),
        required=False,
        allow_blank=True,
        help_text="A format, or one variant of a joined format.",
    )
    faction = serializers.CharField(
        max_length=40, required=False, allow_blank=True, help_text="Holds a card of this faction."
    )

    def validate_faction(self, value: str) -> str:
        if value and value not in selectors.factions():
            raise serializers.ValidationError("No card belongs to this faction.")
        return value


class DeckSerializer(DeckListSerializer):
    cards = serializers.SerializerMethodField()
    kicker_chips = serializers.SerializerMethodField()
    legal = serializers.SerializerMethodField()

    class Meta(DeckListSerializer.Meta):
        fields = [*DeckListSerializer.Meta.fields, "cards", "kicker_chips", "legal"]

    def _contents(self, deck: Deck) -> tuple[dict[str, int], dict[str, int]]:
        cache = self.context.setdefault("_contents", {})  # type: ignore[attr-defined]  # a dict
        if deck.pk not in cache:
            cache[deck.pk] = selectors.deck_contents(deck)
        return cache[deck.pk]

    @extend_schema_field(EntrySerializer(many=True))
    def get_cards(self, deck: Deck) -> list[dict[str, Any]]:
        return [{"code": c, "qty": q} for c, q in self._contents(deck)[0].items()]

    @extend_schema_field(EntrySerializer(many=True))
    def get_kicker_chips(self, deck: Deck) -> list[dict[str, Any]]:
        return [{"code": c, "qty": q} for c, q in self._contents(deck)[1].items()]

    def get_legal(self, deck: Deck) -> bool:
        return not selectors.deck_problems(deck)


class DeckWriteSerializer(StrictJSON, serializers.Serializer):
    """Create or change a deck; on update every field is optional."""

    name = serializers.CharField(max_length=100)
    description = serializers.CharField(max_length=5000, required=False, allow_blank=True)
    format = serializers.CharField(max_length=100, required=False)
    pool = serializers.IntegerField(required=False, allow_null=True)
    is_public = serializers.BooleanField(required=False)
    listed = serializers.BooleanField(
        required=False, help_text="Show the deck in the public deck list while it is public."
    )
    cards = EntryListField(required=False)
    kicker_chips = EntryListField(required=False)


class DeckImportSerializer(StrictJSON, serializers.Serializer):
    """A deck list; `name` and `format` default to the list's `# <name>` and `# Format:` header
    lines (as the text export writes them), else "Imported deck" and standard."""

    name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    format = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    description = serializers.CharField(
        max_length=5000, required=False, default="", allow_blank=True
    )
    pool = serializers.IntegerField(required=False, allow_null=True)
    text = serializers.CharField(max_length=200_000, allow_blank=False, trim_whitespace=False)


class QtyMapField(serializers.DictField):
    """{card or kicker chip code: copies}."""

    child = serializers.IntegerField()


class DeckSnapshotSerializer(serializers.Serializer):
    """The deck as a version saved it."""

    name = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    format = serializers.CharField()
    pool = serializers.IntegerField(allow_null=True, required=False)
    cards = QtyMapField()
    kicker_chips = QtyMapField()


class ExportCardSerializer(EntrySerializer):
    name = serializers.CharField()


class DeckExportSerializer(serializers.Serializer):
    """`export/?as=json`: what `POST /api/v1/decks/` takes, plus card names for people."""

    name = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    format = serializers.CharField()
    version = serializers.IntegerField()
    cards = ExportCardSerializer(many=True)
    kicker_chips = EntrySerializer(many=True)


class DeckVersionSerializer(serializers.ModelSerializer):
    snapshot = DeckSnapshotSerializer(read_only=True)

    class Meta:
        model = DeckVersion
        fields = ["number", "note", "created", "snapshot"]


class VersionSaveSerializer(StrictJSON, serializers.Serializer):
    """Save the deck as it stands as a new version, with an optional note."""

    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class DiffEntryNamedSerializer(EntrySerializer):
    name = serializers.CharField(
        help_text="The card's name; a kicker chip's colour, value and sides."
    )


class QtyChangeSerializer(serializers.Serializer):
    code = serializers.CharField()
    name = serializers.CharField(
        help_text="The card's name; a kicker chip's colour, value and sides."
    )

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = serializers.IntegerField()  # "from" is a keyword in Python
        fields["to"] = serializers.IntegerField()
        return fields


class DiffEntrySerializer(serializers.Serializer):
    added = DiffEntryNamedSerializer(many=True)
    removed = DiffEntryNamedSerializer(many=True)
    changed = QtyChangeSerializer(many=True)


class FieldChangeSerializer(serializers.Serializer):
    to = serializers.CharField(allow_null=True)

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = serializers.CharField(allow_null=True)
        return fields


class DeckFieldChangesSerializer(serializers.Serializer):
    """The deck's fields that changed (only those)."""

    name = FieldChangeSerializer(required=False)
    format = FieldChangeSerializer(required=False)
    description = FieldChangeSerializer(required=False)


class DeckDiffSerializer(serializers.Serializer):
    to = serializers.IntegerField()
    fields = DeckFieldChangesSerializer()  # type: ignore[assignment]  # a field, not .fields
    cards = DiffEntrySerializer()
    kicker_chips = DiffEntrySerializer()

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = serializers.IntegerField()  # "from" is a keyword in Python
        return fields


class MeanStdSerializer(serializers.Serializer):
    mean = serializers.FloatField()
    std = serializers.FloatField(help_text="Standard deviation.")


class DudeStatsSerializer(serializers.Serializer):
    """The deck's dudes' printed stats, weighted by copies (0 when there are no dudes)."""

    smarts = MeanStdSerializer()
    skill = MeanStdSerializer()
    luck = MeanStdSerializer()
    kicker_limit = MeanStdSerializer()


class ChipModifierSerializer(serializers.Serializer):
    total = serializers.IntegerField(help_text="The sum of every side, times copies.")
    positive = serializers.IntegerField()
    negative = serializers.IntegerField()
    expected_per_flip = serializers.FloatField(help_text="A random chip's expected modifier.")


class ChipModifiersSerializer(serializers.Serializer):
    smarts = ChipModifierSerializer()
    skill = ChipModifierSerializer()
    luck = ChipModifierSerializer()


class KickerChipStatsSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    value = serializers.IntegerField(help_text="Dollars.")
    modifiers = ChipModifiersSerializer()


class ChipsToFieldSerializer(serializers.Serializer):
    concealed = serializers.IntegerField(help_text="Dollars to play every card concealed.")
    revealed = serializers.IntegerField(help_text="Dollars to play every card revealed.")


class OpeningHandSerializer(serializers.Serializer):
    """The exact odds of an opening hand."""

    dude = serializers.FloatField()
    dude_with_redraw = serializers.FloatField()
    dude_and_gear = serializers.FloatField()
    dude_and_gear_with_redraw = serializers.FloatField()


class StatsSerializer(serializers.Serializer):
    cards = serializers.IntegerField()
    by_type = serializers.DictField(child=serializers.IntegerField())
    by_faction = serializers.DictField(child=serializers.IntegerField())
    by_rarity = serializers.DictField(child=serializers.IntegerField())
    cost_curve = serializers.DictField(
        child=serializers.IntegerField(), help_text="{cost: copies}."
    )
    dude_stats = DudeStatsSerializer()
    kicker_chips = KickerChipStatsSerializer()
    chips_to_field = ChipsToFieldSerializer()
    opening_hand = OpeningHandSerializer()


class BoosterSerializer(serializers.Serializer):
    """One booster as opened: codes in the order they came out."""

    set = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    kicker_chips = serializers.ListField(child=serializers.CharField())


class PoolSerializer(serializers.ModelSerializer):
    kind = serializers.ChoiceField(
        choices=Pool.Kind.choices, read_only=True, help_text="stud (sealed) or draw (draft)"
    )
    set_codes = serializers.ListField(
        child=serializers.CharField(), read_only=True, help_text="The set of each booster."
    )
    boosters = BoosterSerializer(many=True, read_only=True, help_text="Each booster (Stud).")
    cards = serializers.SerializerMethodField()
    kicker_chips = serializers.SerializerMethodField()

    class Meta:
        model = Pool
        fields = [
            "id",
            "kind",
            "name",
            "seed",
            "set_codes",
            "boosters",
            "cards",
            "kicker_chips",
            "created",
        ]

    @extend_schema_field(EntrySerializer(many=True))
    def get_cards(self, pool: Pool) -> list[dict[str, Any]]:
        return [{"code": c, "qty": q} for c, q in sorted(pool.cards.items())]

    @extend_schema_field(EntrySerializer(many=True))
    def get_kicker_chips(self, pool: Pool) -> list[dict[str, Any]]:
        return [{"code": c, "qty": q} for c, q in sorted(pool.kicker_chips.items())]


class PoolOpenSerializer(StrictJSON, serializers.Serializer):
    """Open six boosters: one `set` for all six, or `sets` naming each booster's set."""

    set = serializers.CharField(max_length=8, required=False)
    sets = serializers.ListField(
        child=serializers.CharField(max_length=8), required=False, max_length=6
    )
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62)
    name = serializers.CharField(max_length=100, required=False, default="", allow_blank=True)

    def validate(self, attrs):
        if not attrs.get("set") and not attrs.get("sets"):
            raise serializers.ValidationError({"set": ["Name a set (or six sets)."]})
        return attrs


class PoolDeckSerializer(StrictJSON, serializers.Serializer):
    name = serializers.CharField(max_length=100, required=False, default="", allow_blank=True)
    variants = serializers.ListField(
        child=serializers.CharField(max_length=30), required=False, default=list
    )
    auto = serializers.BooleanField(default=True)


class DraftSeatSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    player = serializers.CharField(allow_null=True)
    is_bot = serializers.BooleanField()
    deck = serializers.IntegerField(allow_null=True)


class DraftPodSerializer(serializers.ModelSerializer):
    """A pod, as anyone who may see it sees it. Open pods are listed to every user, so no
    account id is shown: people are their usernames in `seat_list`, where the creator (who
    starts the draft) holds the first seat."""

    set_codes = serializers.ListField(child=serializers.CharField(), read_only=True)
    seat_list = serializers.SerializerMethodField()
    my_seat = serializers.SerializerMethodField()
    my_pack = serializers.SerializerMethodField()
    my_picks = serializers.SerializerMethodField()
    round = serializers.SerializerMethodField()
    pass_direction = serializers.SerializerMethodField()

    class Meta:
        model = DraftPod
        fields = [
            "id", "name", "seats", "set_codes", "seed", "status", "round",
            "pass_direction", "seat_list", "my_seat", "my_pack", "my_picks", "created",
        ]  # fmt: skip

    def _me(self, pod: DraftPod):
        user = self.context["request"].user
        return next((s for s in pod.seat_set.all() if s.user_id == user.pk), None)

    @extend_schema_field(DraftSeatSerializer(many=True))
    def get_seat_list(self, pod: DraftPod) -> list[dict[str, Any]]:
        return [
            {
                "number": s.number,
                "player": s.user.username if s.user is not None else None,
                "is_bot": s.user_id is None and pod.status != DraftPod.Status.OPEN,
                "deck": s.deck_id,
            }
            for s in pod.seat_set.select_related("user")
        ]

    def get_my_seat(self, pod: DraftPod) -> int | None:
        me = self._me(pod)
        return me.number if me else None

    def _draft(self, pod: DraftPod):
        return Draft.from_json(pod.state) if pod.state else None

    def get_my_pack(self, pod: DraftPod) -> list[str]:
        me, draft = self._me(pod), self._draft(pod)
        return draft.pack(me.number) if me and draft else []

    def get_my_picks(self, pod: DraftPod) -> list[str]:
        me, draft = self._me(pod), self._draft(pod)
        return draft.picked(me.number) if me and draft else []

    def get_round(self, pod: DraftPod) -> int | None:
        draft = self._draft(pod)
        return draft.round + 1 if draft and not draft.is_over else None

    def get_pass_direction(self, pod: DraftPod) -> str | None:
        draft = self._draft(pod)
        if not draft or draft.is_over:
            return None
        return "left" if draft.direction(draft.round) > 0 else "right"


class BotDeckCardSerializer(serializers.Serializer):
    code = serializers.CharField()
    name = serializers.CharField()
    type = serializers.CharField(help_text="dude, gear or fortune")
    qty = serializers.IntegerField()


class BotDeckSerializer(serializers.Serializer):
    """A bot seat's Draw deck: everything it drafted, built by `sealed.auto_build`."""

    seat = serializers.IntegerField(help_text="The seat's number, as in seat_list (from 0).")
    name = serializers.CharField()
    format = serializers.CharField()
    legal = serializers.BooleanField()
    errors = DeckProblemSerializer(many=True)  # type: ignore[assignment]  # a field, not .errors
    cards = BotDeckCardSerializer(many=True, help_text="By type (dude, gear, fortune), cost, name.")
    by_type = serializers.DictField(child=serializers.IntegerField())
    kicker_chips = EntrySerializer(many=True)
    picks = serializers.ListField(
        child=serializers.CharField(), help_text="The bot's picks (card codes) in pick order."
    )


def bot_deck_data(deck: dict[str, Any]) -> dict[str, Any]:
    """A `selectors.pod_bot_decks` entry in the API's shape (`BotDeckSerializer`)."""
    return {
        "seat": deck["seat"],
        "name": deck["name"],
        "format": deck["format"],
        "legal": not deck["problems"],
        "errors": [p.as_dict() for p in deck["problems"]],
        "cards": [
            {
                "code": r["card"].code,
                "name": r["card"].name,
                "type": r["card"].type,
                "qty": r["qty"],
            }
            for group in deck["by_type"]
            for r in group["cards"]
        ],
        "by_type": {group["type"]: group["count"] for group in deck["by_type"]},
        "kicker_chips": [
            {"code": r["kicker_chip"].code, "qty": r["qty"]} for r in deck["kicker_chips"]
        ],
        "picks": deck["picks"],
    }


class DraftPodDetailSerializer(DraftPodSerializer):
    """One pod; once the draft is over, the people seated at it also see the bots' decks."""

    bot_decks = serializers.SerializerMethodField()

    class Meta(DraftPodSerializer.Meta):
        fields = [*DraftPodSerializer.Meta.fields, "bot_decks"]

    @extend_schema_field(
        BotDeckSerializer(
            many=True,
            allow_null=True,
            help_text="Each bot seat's deck once the draft is over; null before (hidden).",
        )
    )
    def get_bot_decks(self, pod: DraftPod) -> list[dict[str, Any]] | None:
        decks = selectors.pod_bot_decks(pod=pod, user=self.context["request"].user)
        return None if decks is None else [bot_deck_data(d) for d in decks]


class DraftPodCreateSerializer(PoolOpenSerializer):
    """A Draw pod: `seats` (2-8), and its six boosters' sets as for a Stud pool."""

    seats = serializers.IntegerField(min_value=2, max_value=8)


class DraftPickSerializer(StrictJSON, serializers.Serializer):
    card = serializers.CharField(max_length=32)


class MissingLineSerializer(serializers.Serializer):
    code = serializers.CharField()
    need = serializers.IntegerField(help_text="Copies the deck has.")
    owned = serializers.IntegerField(help_text="Copies in the collection (or all of them).")
    missing = serializers.IntegerField()


class MissingSerializer(serializers.Serializer):
    collection = serializers.IntegerField(allow_null=True)
    cards = MissingLineSerializer(many=True)
    kicker_chips = MissingLineSerializer(many=True)


class WishlistResultSerializer(serializers.Serializer):
    added = serializers.IntegerField()
    missing = MissingSerializer()
