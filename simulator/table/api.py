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

from config.api import absolute
from config.schema import ERRORS, StrictJSON, errors
from simulator.table import seating, selectors, talk
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
    player = serializers.CharField(
        required=False, max_length=150, help_text="A seat kept for this user (by username)."
    )
    open = serializers.BooleanField(
        required=False, help_text="An open seat: anyone with the invitation link (or the lobby)."
    )
    stand_in = serializers.CharField(
        required=False,
        max_length=40,
        help_text="Your seat: the bot that plays it while you are away.",
    )
    stand_in_budget = serializers.IntegerField(required=False, min_value=1)


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
    pace = serializers.ChoiceField(choices=TableGame.Pace.choices, default=TableGame.Pace.LIVE)
    clock_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Seconds a decision (live: 5-3,600, default 60; correspondence: 3,600-2,592,000,"
        " default 86,400). A table with other people always has one.",
    )
    grace_seconds = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text="Live: 5-3,600, default 60."
    )
    on_timeout = serializers.ChoiceField(
        choices=TableGame.OnTimeout.choices, default=TableGame.OnTimeout.BOT
    )
    on_resign = serializers.ChoiceField(
        choices=TableGame.OnResign.choices, default=TableGame.OnResign.OUT
    )
    listed = serializers.BooleanField(required=False, default=False)
    spectators = serializers.BooleanField(required=False, default=False)
    spectators_talk = serializers.BooleanField(required=False, default=False)


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
    stand_in = serializers.BooleanField(help_text="A bot playing for a person.")
    label = serializers.CharField(help_text="The bot's seat.")  # type: ignore[assignment]  # a field named like Field.label/.source
    log = serializers.ListField(
        child=serializers.CharField(), help_text="The narration of its move, as your seat knows it."
    )


class SeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label/.source
    bot = serializers.CharField(allow_null=True, help_text="None: a person's seat.")
    budget = serializers.IntegerField(allow_null=True)
    yours = serializers.BooleanField()
    person = serializers.CharField(
        allow_null=True, help_text="Who holds it (None: a bot, or open)."
    )
    state = serializers.ChoiceField(
        choices=["bot", "open", "invited", "seated", "out"], help_text="out: resigned or forfeited."
    )
    standing_in = serializers.BooleanField(help_text="A bot plays this person's seat now.")
    away = serializers.BooleanField(help_text="Gone longer than the table's grace.")


class GameSerializer(serializers.Serializer):
    """A game at the table as the seat to act may see it."""

    id = serializers.IntegerField()
    url = serializers.URLField()
    record_url = serializers.URLField()
    game = serializers.CharField()
    status = serializers.ChoiceField(
        choices=["waiting", "your_turn", "their_turn", "over"],
        help_text="waiting: seats to fill; your_turn: `seat` (one of yours) is to act.",
    )
    move = serializers.IntegerField(help_text="Decisions so far: send it with your action.")
    version = serializers.IntegerField(
        help_text="Counts every change you may see (moves, seats, talk): the push channel's."
    )
    seat = serializers.IntegerField(
        allow_null=True, help_text="Your seat to act (None: none of yours is)."
    )
    to_act = serializers.IntegerField(allow_null=True, help_text="The seat to act, anyone's.")
    viewer = serializers.IntegerField(
        allow_null=True,
        help_text="The seat whose view and narration these are (None: a spectator's).",
    )
    host = serializers.CharField()
    pace = serializers.CharField()
    clock_seconds = serializers.IntegerField(allow_null=True)
    grace_seconds = serializers.IntegerField()
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the seat to act runs out of time."
    )
    listed = serializers.BooleanField()
    spectators = serializers.BooleanField()
    spectators_talk = serializers.BooleanField()
    invite_url = serializers.CharField(
        allow_null=True, help_text="The invitation link (to the host, while the table waits)."
    )
    stand_in_moves = serializers.ListField(
        child=serializers.DictField(),
        help_text="The decisions a bot made for a person: {move, seat, bot, why}.",
    )
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
    """A table in a list (read it whole at `url`)."""

    url = serializers.SerializerMethodField()
    status = serializers.SerializerMethodField()
    seats = serializers.SerializerMethodField()
    host = serializers.CharField(source="owner.username")
    winners = serializers.SerializerMethodField()

    class Meta:
        model = TableGame
        fields = [
            "id", "url", "game", "status", "move", "version", "host", "pace", "format",
            "deadline", "seats", "winners", "created_at", "updated_at",
        ]  # fmt: skip
        read_only_fields = fields

    def get_url(self, game: TableGame) -> str:
        return absolute(self.context.get("request"), reverse("api:game-detail", args=[game.pk]))

    @extend_schema_field(
        serializers.ChoiceField(choices=["waiting", "your_turn", "their_turn", "over"])
    )
    def get_status(self, game: TableGame) -> str:
        if game.status != TableGame.Status.PLAYING:
            return str(game.status)
        return "your_turn" if getattr(game, "waiting_on_me", False) else "their_turn"

    @extend_schema_field(SeatSerializer(many=True))
    def get_seats(self, game: TableGame) -> list[dict[str, Any]]:
        request = self.context.get("request")
        return _seats(game, getattr(request, "user", None))

    @extend_schema_field(
        serializers.ListField(
            child=serializers.IntegerField(),
            allow_null=True,
            help_text="The winning seats once over (none: a draw, or a table ended early).",
        )
    )
    def get_winners(self, game: TableGame) -> list[int] | None:
        return table.winners_of(game.result) if game.is_over else None


class GameRecordSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    result = serializers.DictField()
    stand_in_moves = serializers.ListField(
        child=serializers.DictField(), help_text="The decisions a bot made for a person."
    )
    record = serializers.DictField(help_text="The game record (docs/game-record.md).")


def _seats(game: TableGame, user: Any) -> list[dict[str, Any]]:
    return table.seat_summaries(game, user)


def _flat(seen: table.Seen, request) -> dict[str, Any]:
    game = seen.game
    access = seen.access
    user = access.user if access else getattr(request, "user", None)
    invite = None
    if access is not None and access.host and game.is_waiting and game.invite_token:
        invite = absolute(request, reverse("play:invite", args=[game.invite_token]))
    return {
        "id": game.pk,
        "url": absolute(request, reverse("api:game-detail", args=[game.pk])),
        "record_url": absolute(request, reverse("api:game-record", args=[game.pk])),
        "game": game.game,
        "status": seen.status,
        "move": game.move,
        "version": game.version,
        "seat": seen.seat,
        "to_act": seen.to_act,
        "viewer": None if seen.viewer == table.SPECTATOR else seen.viewer,
        "view": seen.view,
        "legal_actions": seen.legal_actions,
        "log": seen.log,
        "bot_moves": [
            {"seat": m.seat, "label": m.label, "log": m.log, "stand_in": m.stand_in}
            for m in seen.bot_moves
        ],
        "result": seen.result,
        "seats": _seats(game, user),
        "host": game.owner.get_username(),
        "pace": game.pace,
        "clock_seconds": game.clock_seconds,
        "grace_seconds": game.grace_seconds,
        "deadline": game.deadline,
        "listed": game.listed,
        "spectators": game.spectators,
        "spectators_talk": game.spectators_talk,
        "invite_url": invite,
        "stand_in_moves": game.stand_in_moves or [],
        "format": game.format,
        "variants": game.variants,
        "created_at": game.created_at,
        "updated_at": game.updated_at,
    }


_WHEN = serializers.DateTimeField()


def game_json(seen: table.Seen, request=None) -> dict[str, Any]:
    """`GameSerializer(seen).data` made directly: the same JSON (the push channel's tests
    compare a pushed game with the HTTP answer), without DRF's field machinery, which costs
    more than the rest of a pushed message together."""
    flat = _flat(seen, request)
    for key in ("deadline", "created_at", "updated_at"):
        flat[key] = _WHEN.to_representation(flat[key]) if flat[key] is not None else None
    return flat


CONFLICT = errors(
    "`stale_move`: the game went on since that move; `game_over`: it has ended; "
    "`not_your_turn`: another seat is to act; `not_started`: the table still waits."
)
SEATING_CONFLICT = errors(
    "`started`, `already_seated`, `table_full`, `seat_taken`, `seats_free`, `not_seated`, "
    "`in_play`, `not_standing_in`, `game_over`: the table is not in a state that allows it."
)
FORBIDDEN = errors("`not_host`, `not_your_seat`, `not_invited`, `no_talk`: not yours to do.")


class JoinSerializer(StrictJSON, serializers.Serializer):
    deck = serializers.IntegerField(required=False, min_value=1, help_text="One of your decks.")
    public_deck = serializers.CharField(required=False, max_length=32)
    starter = serializers.CharField(required=False, max_length=16)
    seat = serializers.IntegerField(required=False, min_value=0, max_value=7)
    token = serializers.CharField(
        required=False, max_length=64, help_text="The invitation link's token, if that is how."
    )
    stand_in = serializers.CharField(required=False, max_length=40)
    stand_in_budget = serializers.IntegerField(required=False, min_value=1)


class StartSerializer(StrictJSON, serializers.Serializer):
    fill = serializers.BooleanField(
        required=False, default=False, help_text="Put bots in the seats still free."
    )
    bot = serializers.CharField(required=False, max_length=40)
    starter = serializers.CharField(
        required=False, max_length=16, help_text="The filling bots' starter deck."
    )


class InviteSerializer(StrictJSON, serializers.Serializer):
    seat = serializers.IntegerField(required=False, min_value=0, max_value=7)
    player = serializers.CharField(
        required=False, max_length=150, allow_null=True, help_text="None: the seat is open."
    )
    revoke = serializers.BooleanField(required=False, default=False)


class TalkInputSerializer(StrictJSON, serializers.Serializer):
    text = serializers.CharField(max_length=2000, allow_blank=True, trim_whitespace=False)


class TalkQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(
        required=False, default=0, min_value=0, help_text="Only the lines after this id."
    )


class TalkLineSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    author = serializers.CharField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    text = serializers.CharField()
    system = serializers.BooleanField(help_text="A line the table says.")
    removed = serializers.BooleanField(help_text="Removed by the host.")
    at = serializers.DateTimeField()


class TalkHideSerializer(StrictJSON, serializers.Serializer):
    id = serializers.IntegerField(min_value=1)
    hide = serializers.BooleanField(required=False, default=True)


class TalkRemoveSerializer(StrictJSON, serializers.Serializer):
    id = serializers.IntegerField(min_value=1)


class VersionSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    move = serializers.IntegerField()
    status = serializers.CharField()


def _answer(request, seen: table.Seen, code: int = 200) -> Response:
    return Response(game_json(seen, request), status=code)


class GameViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Tables: games people play against each other and against bots, one decision at a time.
    A table you host, sit at or are invited to; one listed in the lobby; one open to
    spectators. Anyone else's is a 404."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    serializer_class = GameSummarySerializer
    lookup_value_regex = r"\d+"

    def get_queryset(self):
        return selectors.table_game_list(owner=self.request.user)

    def list(self, request, *args, **kwargs):
        """Your tables: those waiting on you first, then the unfinished, then the finished."""
        return super().list(request, *args, **kwargs)

    @extend_schema(responses={200: GameSummarySerializer(many=True)})
    @action(detail=False, methods=["get"])
    def lobby(self, request):
        """Listed tables waiting for players: join one with a deck."""
        page = self.paginate_queryset(selectors.lobby())
        data = GameSummarySerializer(page, many=True, context={"request": request}).data
        return self.get_paginated_response(data)

    @extend_schema(responses={200: GameSummarySerializer(many=True)})
    @action(detail=False, methods=["get"])
    def history(self, request):
        """Your finished games against other people: the seats (who, with which deck), the
        winners."""
        page = self.paginate_queryset(selectors.history(request.user))
        data = GameSummarySerializer(page, many=True, context={"request": request}).data
        return self.get_paginated_response(data)

    @extend_schema(
        request=GameCreateSerializer,
        responses={201: GameSerializer, 400: ERRORS},
        description="Open a table. Seats without `bot`, `player` or `open` are yours. With no "
        "seat for anyone else the game starts at once (the bots act until one of your seats is "
        "due); else it waits (`status` waiting) for the named players and open seats.",
    )
    def create(self, request):
        data = GameCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        seen = seating.table_game_create(
            owner=request.user,
            game=v["game"],
            seats=[dict(s) for s in v["seats"]],
            rules=dict(v["rules"]),
            variants=list(v["variants"]),
            quick_start=v["quick_start"],
            format=v["format"],
            pace=v["pace"],
            clock_seconds=v["clock_seconds"],
            grace_seconds=v["grace_seconds"],
            on_timeout=v["on_timeout"],
            on_resign=v["on_resign"],
            listed=v["listed"],
            spectators=v["spectators"],
            spectators_talk=v["spectators_talk"],
        )
        body = GameSerializer(seen, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": body["url"]})

    @extend_schema(responses={200: GameSerializer})
    def retrieve(self, request, pk=None):
        """The table as you see it: your seat's view (a spectator: what is public), your legal
        actions when one of your seats is to act, the narration you may know; the result once
        over."""
        return _answer(request, table.table_game_seen(owner=request.user, pk=pk))

    @extend_schema(responses={200: VersionSerializer})
    @action(detail=True, methods=["get"])
    def version(self, request, pk=None):
        """The table's version, cheaply: poll it when the push channel is down."""
        access = selectors.table_access(user=request.user, pk=pk)
        if access.seats:
            table.seating_touch(access)
        row = access.game
        return Response({"version": row.version, "move": row.move, "status": row.status})

    @extend_schema(
        request=ActionInputSerializer,
        responses={200: GameSerializer, 400: ERRORS, 403: FORBIDDEN, 409: CONFLICT},
        description="Act: one of `legal_actions[].action` at the game's current `move`, for your "
        "seat to act. The answer is the game after the bots have answered, with their moves in "
        "`bot_moves`. An action the engine refuses is a 400 `illegal_action` with its reason; "
        "nothing changes.",
    )
    @action(detail=True, methods=["post"])
    def actions(self, request, pk=None):
        data = ActionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        seen = table.table_game_act(
            owner=request.user, pk=pk, move=v["move"], action=dict(v["action"])
        )
        return _answer(request, seen)

    @extend_schema(
        request=JoinSerializer,
        responses={200: GameSerializer, 400: ERRORS, 403: FORBIDDEN, 409: SEATING_CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def join(self, request, pk=None):
        """Sit down at a waiting table with your deck: the seat kept for you, else `seat` or the
        first open one (by invitation link: give its `token`; or listed in the lobby)."""
        data = JoinSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        deck = {k: v[k] for k in ("deck", "public_deck", "starter") if k in v}
        seen = seating.table_join(
            user=request.user,
            pk=pk,
            token=v.get("token", ""),
            seat=v.get("seat"),
            deck=deck,
            stand_in=v.get("stand_in"),
            stand_in_budget=v.get("stand_in_budget"),
        )
        return _answer(request, seen)

    @extend_schema(
        request=StartSerializer,
        responses={200: GameSerializer, 400: ERRORS, 403: FORBIDDEN, 409: SEATING_CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        """The host starts the table: every seat taken, or `fill` the free ones with bots."""
        data = StartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        deck = {"starter": v["starter"]} if v.get("starter") else None
        seen = seating.table_start(
            user=request.user, pk=pk, fill=v["fill"], bot=v.get("bot"), deck=deck
        )
        return _answer(request, seen)

    def _seating(self, request, pk, do) -> Response:
        return _answer(request, do(user=request.user, pk=pk))

    @extend_schema(request=None, responses={200: GameSerializer, 409: SEATING_CONFLICT})
    @action(detail=True, methods=["post"])
    def leave(self, request, pk=None):
        """Leave: before the start your seat opens again (the host leaving ends the table);
        during the game you resign."""
        return self._seating(request, pk, seating.table_leave)

    @extend_schema(request=None, responses={200: GameSerializer, 409: SEATING_CONFLICT})
    @action(detail=True, methods=["post"])
    def resign(self, request, pk=None):
        """Resign: your seat is out, or a bot plays on, as the table says (`on_resign`)."""
        return self._seating(request, pk, seating.table_resign)

    @extend_schema(
        request=None, responses={200: GameSerializer, 403: FORBIDDEN, 409: SEATING_CONFLICT}
    )
    @action(detail=True, methods=["post"])
    def end(self, request, pk=None):
        """The host ends a table nobody is playing (waiting, or everyone else away or out)."""
        return self._seating(request, pk, seating.table_end)

    @extend_schema(request=None, responses={200: GameSerializer, 409: SEATING_CONFLICT})
    @action(detail=True, methods=["post"], url_path="take-back")
    def take_back(self, request, pk=None):
        """Take your seat back from the bot standing in for you."""
        return self._seating(request, pk, seating.table_take_back)

    @extend_schema(
        request=InviteSerializer,
        responses={200: GameSerializer, 400: ERRORS, 403: FORBIDDEN, 409: SEATING_CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def invite(self, request, pk=None):
        """The host's invitations: a new link (`revoke`: none), or a free `seat` kept for the
        named `player` (null: open to anyone)."""
        data = InviteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        seen = seating.table_invite(
            user=request.user,
            pk=pk,
            seat=v.get("seat"),
            player=v.get("player"),
            revoke=v["revoke"],
        )
        return _answer(request, seen)

    @extend_schema(request=None, responses={201: GameSerializer, 409: SEATING_CONFLICT})
    @action(detail=True, methods=["post"])
    def rematch(self, request, pk=None):
        """A new table with the same seats: you host it; the other people are invited again."""
        return _answer(request, seating.table_rematch(user=request.user, pk=pk), 201)

    @extend_schema(
        methods=["GET"],
        parameters=[TalkQuerySerializer],
        responses={200: TalkLineSerializer(many=True)},
    )
    @extend_schema(
        methods=["POST"],
        request=TalkInputSerializer,
        responses={201: TalkLineSerializer, 400: ERRORS, 403: FORBIDDEN, 429: ERRORS},
    )
    @action(detail=True, methods=["get", "post"], url_path="talk", pagination_class=None)
    def talk(self, request, pk=None):
        """Table talk: the lines you may read (without the ones you hid), or say one (at most
        300 characters, 5 lines in 10 seconds)."""
        if request.method == "POST":
            data = TalkInputSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            line = talk.talk_post(user=request.user, pk=pk, text=data.validated_data["text"])
            return Response(talk.talk_json(line), status=status.HTTP_201_CREATED)
        # a plain dict: from the QueryDict itself an empty `after=` would read as no `after` at
        # all (DRF's form-input rule), where the API says an id is a whole number
        query = TalkQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        access = selectors.table_access(user=request.user, pk=pk)
        lines = talk.talk_list(access, after=query.validated_data["after"])
        return Response([talk.talk_json(line) for line in lines])

    @extend_schema(request=TalkHideSerializer, responses={204: None, 403: FORBIDDEN})
    @action(detail=True, methods=["post"], url_path="talk/hide")
    def talk_hide(self, request, pk=None):
        """Hide a line from your own reading (`hide` false: show it again)."""
        data = TalkHideSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        talk.talk_hide(user=request.user, pk=pk, message_id=v["id"], hide=v["hide"])
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=TalkRemoveSerializer, responses={204: None, 403: FORBIDDEN})
    @action(detail=True, methods=["post"], url_path="talk/remove")
    def talk_remove(self, request, pk=None):
        """The host removes a line for everyone."""
        data = TalkRemoveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        talk.talk_remove(user=request.user, pk=pk, message_id=data.validated_data["id"])
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        responses={
            200: GameRecordSerializer,
            409: errors("`game_on`: the record is withheld until the game is over."),
        }
    )
    @action(detail=True, methods=["get"])
    def record(self, request, pk=None):
        """The game record once the game is over, in an envelope with the table's marks (the
        decisions bots made for people): `manage.py replay` takes the envelope as it is."""
        access = selectors.table_access(user=request.user, pk=pk)
        game = access.game
        if not game.is_over or game.record is None:
            raise table.TableConflict(
                "The record is withheld until the game is over: no peeking.", code="game_on"
            )
        body = {
            "id": game.pk,
            "game": game.game,
            "result": game.result,
            "stand_in_moves": game.stand_in_moves or [],
            "record": game.record,
        }
        return Response(GameRecordSerializer(body).data)
