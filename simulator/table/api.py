"""The table's API (issue #16): start a game against bots, read it as your seat sees it, act,
and read its record once it is over. Games are owner-scoped: another user's game is a 404.

What each answer holds comes from simulator/table/services.py (`Seen`): never the seed, the deck
order, another seat's hidden cards or a chance outcome still to come (docs/table.md).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from config.schema import ERRORS, StrictJSON, errors
from simulator.table import selectors
from simulator.table import services as table
from simulator.table.models import TableGame

JSON_OBJECT = {"type": "object", "additionalProperties": True}


class SeatInputSerializer(StrictJSON, serializers.Serializer):
    """One seat: a deck (yours or public, by id), a public deck by slug, a starter deck by code,
    or nothing for a game of fixed components; with `bot` (and `budget`) for a bot's seat. A
    seat without a bot is yours."""

    deck = serializers.IntegerField(required=False, min_value=1)
    public_deck = serializers.CharField(required=False, max_length=32)
    starter = serializers.CharField(required=False, max_length=16)
    bot = serializers.CharField(required=False, max_length=40, help_text="random, heuristic, …")
    budget = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text=(
            "The bot's budget per decision: the search bot's rollouts (High Stakes Drifter: 1 to "
            "400) or the ismcts bot's iterations (1 to 2,000 in High Stakes Drifter, to 300-1,000 "
            "in the other games: docs/table.md)."
        ),
    )


class GameCreateSerializer(StrictJSON, serializers.Serializer):
    game = serializers.CharField(max_length=40, default="drifter")
    seats = SeatInputSerializer(many=True, min_length=2, max_length=8)  # type: ignore[call-arg]  # many=True passes these to ListSerializer
    rules = serializers.DictField(
        required=False,
        default=dict,
        help_text="The game's rule options, as `manage.py play --rule` takes them "
        '(e.g. `{"first_player": 0, "max_turns": 100}`).',
    )
    variants = serializers.ListField(
        child=serializers.CharField(max_length=40), required=False, default=list, max_length=20
    )
    quick_start = serializers.BooleanField(required=False, default=False)
    format = serializers.CharField(max_length=100, required=False, default="", allow_blank=True)


class ActionInputSerializer(StrictJSON, serializers.Serializer):
    move = serializers.IntegerField(
        min_value=0, help_text="The game's `move` as you last read it: a stale one is a 409."
    )
    action = serializers.DictField(help_text="One of `legal_actions[].action`, as given.")


class LegalActionSerializer(serializers.Serializer):
    action = serializers.DictField(help_text="The engine's action JSON: send it back to act.")
    label = serializers.CharField(help_text='What the button says ("Bet $5").')  # type: ignore[assignment]  # a field named like Field.label/.source


class BotMoveSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    label = serializers.CharField(help_text="The bot's seat.")  # type: ignore[assignment]  # a field named like Field.label/.source
    log = serializers.ListField(
        child=serializers.CharField(), help_text="The narration of its move, as your seat knows it."
    )


class SeatSerializer(serializers.Serializer):
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label/.source
    bot = serializers.CharField(allow_null=True, help_text="None: your seat.")
    budget = serializers.IntegerField(allow_null=True)
    yours = serializers.BooleanField()


class GameSerializer(serializers.Serializer):
    """A game at the table as the seat to act may see it."""

    id = serializers.IntegerField()
    url = serializers.URLField()
    record_url = serializers.URLField()
    game = serializers.CharField()
    status = serializers.ChoiceField(
        choices=["your_turn", "over"], help_text="your_turn: `seat` (one of yours) is to act."
    )
    move = serializers.IntegerField(help_text="Decisions so far: send it with your action.")
    seat = serializers.IntegerField(allow_null=True, help_text="The seat to act (None: over).")
    viewer = serializers.IntegerField(help_text="The seat whose view and narration these are.")
    view = serializers.SerializerMethodField()
    legal_actions = LegalActionSerializer(many=True)
    log = serializers.ListField(child=serializers.CharField())
    bot_moves = BotMoveSerializer(
        many=True, help_text="The bots' moves since your last action, in order."
    )
    result = serializers.SerializerMethodField()
    seats = SeatSerializer(many=True)
    format = serializers.CharField()
    variants = serializers.ListField(child=serializers.CharField())
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    @extend_schema_field(
        {**JSON_OBJECT, "description": "What `viewer` may see: a hidden card is {hidden: true}."}
    )
    def get_view(self, flat: dict[str, Any]) -> dict[str, Any]:
        return flat["view"]

    @extend_schema_field(
        {**JSON_OBJECT, "nullable": True, "description": "The final result, once over."}
    )
    def get_result(self, flat: dict[str, Any]) -> dict[str, Any] | None:
        return flat["result"]

    def to_representation(self, seen: table.Seen) -> dict[str, Any]:
        return super().to_representation(_flat(seen, self.context.get("request")))


class GameSummarySerializer(serializers.ModelSerializer):
    """A game in the list (read it whole at `url`)."""

    url = serializers.SerializerMethodField()
    status = serializers.SerializerMethodField()
    seats = serializers.SerializerMethodField()

    class Meta:
        model = TableGame
        fields = ["id", "url", "game", "status", "move", "seats", "created_at", "updated_at"]
        read_only_fields = fields

    def get_url(self, game: TableGame) -> str:
        return _abs(self.context.get("request"), reverse("api:game-detail", args=[game.pk]))

    @extend_schema_field(serializers.ChoiceField(choices=["your_turn", "over"]))
    def get_status(self, game: TableGame) -> str:
        return "over" if game.is_over else "your_turn"

    @extend_schema_field(SeatSerializer(many=True))
    def get_seats(self, game: TableGame) -> list[dict[str, Any]]:
        return _seats(game)


class GameRecordSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    result = serializers.DictField()
    record = serializers.DictField(help_text="The game record (docs/game-record.md).")


def _abs(request, path: str) -> str:
    return request.build_absolute_uri(path) if request is not None else path


def _seats(game: TableGame) -> list[dict[str, Any]]:
    return [
        {"label": s["label"], "bot": s["bot"], "budget": s.get("budget"), "yours": not s["bot"]}
        for s in game.seats
    ]


def _flat(seen: table.Seen, request) -> dict[str, Any]:
    game = seen.game
    return {
        "id": game.pk,
        "url": _abs(request, reverse("api:game-detail", args=[game.pk])),
        "record_url": _abs(request, reverse("api:game-record", args=[game.pk])),
        "game": game.game,
        "status": "over" if seen.seat is None else "your_turn",
        "move": game.move,
        "seat": seen.seat,
        "viewer": seen.viewer,
        "view": seen.view,
        "legal_actions": seen.legal_actions,
        "log": seen.log,
        "bot_moves": [{"seat": m.seat, "label": m.label, "log": m.log} for m in seen.bot_moves],
        "result": seen.result,
        "seats": _seats(game),
        "format": game.format,
        "variants": game.variants,
        "created_at": game.created_at,
        "updated_at": game.updated_at,
    }


CONFLICT = errors("`stale_move`: the game went on since that move; `game_over`: it has ended.")


class GameViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Your games at the table: a game against bots, played one decision at a time."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = GameSummarySerializer
    lookup_value_regex = r"\d+"

    def get_queryset(self):
        return selectors.table_game_list(owner=self.request.user)

    def list(self, request, *args, **kwargs):
        """Your games, unfinished first (to resume), then the most recently played."""
        return super().list(request, *args, **kwargs)

    @extend_schema(
        request=GameCreateSerializer,
        responses={201: GameSerializer, 400: ERRORS},
        description="Sit down at a new game. Seats without a `bot` are yours; the bots act "
        "until one of your seats is due, and the answer is the game as that seat sees it.",
    )
    def create(self, request):
        data = GameCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        seen = table.table_game_create(
            owner=request.user,
            game=v["game"],
            seats=[dict(s) for s in v["seats"]],
            rules=dict(v["rules"]),
            variants=list(v["variants"]),
            quick_start=v["quick_start"],
            format=v["format"],
        )
        body = GameSerializer(seen, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": body["url"]})

    @extend_schema(responses={200: GameSerializer})
    def retrieve(self, request, pk=None):
        """The game as the seat to act sees it: its view, its legal actions with their labels,
        the narration it may know; the result once over."""
        seen = table.table_game_seen(owner=request.user, pk=pk)
        return Response(GameSerializer(seen, context={"request": request}).data)

    @extend_schema(
        request=ActionInputSerializer,
        responses={200: GameSerializer, 400: ERRORS, 409: CONFLICT},
        description="Act: one of `legal_actions[].action` at the game's current `move`. The "
        "answer is the game after the bots have answered, with their moves in `bot_moves`. An "
        "action the engine refuses is a 400 `illegal_action` with its reason; nothing changes.",
    )
    @action(detail=True, methods=["post"])
    def actions(self, request, pk=None):
        data = ActionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        seen = table.table_game_act(
            owner=request.user, pk=pk, move=v["move"], action=dict(v["action"])
        )
        return Response(GameSerializer(seen, context={"request": request}).data)

    @extend_schema(
        responses={
            200: GameRecordSerializer,
            409: errors("`game_on`: the record is withheld until the game is over."),
        }
    )
    @action(detail=True, methods=["get"])
    def record(self, request, pk=None):
        """The game record once the game is over (`manage.py replay` verifies it)."""
        game = selectors.table_game_get(owner=request.user, pk=pk)
        if not game.is_over:
            raise table.TableConflict(
                "The record is withheld until the game is over: no peeking.", code="game_on"
            )
        body = {"id": game.pk, "game": game.game, "result": game.result, "record": game.record}
        return Response(GameRecordSerializer(body).data)
