"""Deck API: owner-scoped deck CRUD with validate/stats/versions/export/import, the stateless
validator, sealed pools and draft pods. Views are thin: services write, selectors read."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from config.api import DomainError
from config.schema import ERRORS
from decks import exports, selectors, services
from decks.api import serializers as s
from decks.engine_catalogue import engine_catalogue
from decks.filtersets import DeckFilterSet, DraftPodFilterSet, PoolFilterSet
from decks.models import Deck
from decks.ownership import deck_missing, deck_wishlist_missing
from simulator.engine.drifter import formats


def _pool_for(user, pk: int | None):
    """One of `user`'s pools, or a 400 naming the problem (someone else's pool is not found)."""
    if pk is None:
        return None
    pool = selectors.pool_list(owner=user).filter(pk=pk).first()
    if pool is None:
        raise DomainError(f"You have no pool {pk}.", code="not_your_pool", attr="pool")
    return pool


def _collection_param(request) -> int | None:
    raw = request.query_params.get("collection")
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        raise DomainError("collection must be a number.", attr="collection") from None


class DeckViewSet(viewsets.ModelViewSet):
    """Your decks. Another person's deck is a 404; a public one is read at `shared/{slug}/`."""

    permission_classes = [permissions.IsAuthenticated]
    lookup_value_regex = r"\d+"
    ordering_fields = ["updated", "created", "name"]
    filterset_class = DeckFilterSet

    def get_queryset(self):
        return selectors.deck_list(owner=self.request.user)

    def get_serializer_class(self):
        if self.action in ("create", "update", "partial_update"):
            return s.DeckWriteSerializer
        return s.DeckListSerializer if self.action == "list" else s.DeckSerializer

    def _write(self, request, deck: Deck | None, partial: bool) -> Response:
        ser = s.DeckWriteSerializer(data=request.data, partial=partial)
        ser.is_valid(raise_exception=True)
        data = dict(ser.validated_data)
        if "format" in data:
            data["fmt"] = data.pop("format")
        if "pool" in data:
            data["pool"] = _pool_for(request.user, data["pool"])
        if deck is None:
            deck = services.deck_create(owner=request.user, **data)
            code: int = status.HTTP_201_CREATED
        else:
            deck = services.deck_update(deck=deck, **data)
            code = status.HTTP_200_OK
        return Response(s.DeckSerializer(deck, context={"request": request}).data, status=code)

    @extend_schema(request=s.DeckWriteSerializer, responses={201: s.DeckSerializer, 400: ERRORS})
    def create(self, request, *args, **kwargs):
        return self._write(request, None, partial=False)

    @extend_schema(request=s.DeckWriteSerializer, responses={200: s.DeckSerializer, 400: ERRORS})
    def update(self, request, *args, **kwargs):
        return self._write(request, self.get_object(), partial=kwargs.get("partial", False))

    @extend_schema(request=s.DeckWriteSerializer, responses={200: s.DeckSerializer, 400: ERRORS})
    def partial_update(self, request, *args, **kwargs):
        return self._write(request, self.get_object(), partial=True)

    def perform_destroy(self, instance: Deck) -> None:
        services.deck_delete(deck=instance)

    @extend_schema(responses={200: s.LegalitySerializer})
    @action(detail=True, methods=["get"], url_path="validate")
    def validate_deck(self, request, pk=None):
        """Is the deck legal in its format? Every problem is listed."""
        deck = self.get_object()
        problems = selectors.deck_problems(deck)
        return Response(
            {
                "legal": not problems,
                "format": deck.format,
                "errors": [p.as_dict() for p in problems],
            }
        )

    @extend_schema(responses={200: s.StatsSerializer})
    @action(detail=True, methods=["get"])
    def stats(self, request, pk=None):
        """Counts, cost curve, dude stats, kicker-chip modifiers, chips to field, hand odds."""
        return Response(selectors.deck_statistics(self.get_object()))

    @extend_schema(
        methods=["GET"], request=None, responses={200: s.DeckVersionSerializer(many=True)}
    )
    @extend_schema(
        methods=["POST"],
        request=s.VersionSaveSerializer,
        responses={201: s.DeckVersionSerializer, 400: ERRORS},
    )
    @action(detail=True, methods=["get", "post"], filter_backends=[])  # not the deck filters
    def versions(self, request, pk=None):
        """GET: every saved version, newest first. POST: save the deck as it stands as a new
        version with an optional `note` (what the builder's "Save version" does after one-click
        edits, which make no version of their own: see `unsaved_changes`); a deck that is as its
        latest version has `nothing_to_save` (400)."""
        deck = self.get_object()
        if request.method == "POST":
            ser = s.VersionSaveSerializer(data=request.data)
            ser.is_valid(raise_exception=True)
            version = services.deck_version_save(deck=deck, note=ser.validated_data["note"])
            return Response(s.DeckVersionSerializer(version).data, status=status.HTTP_201_CREATED)
        page = self.paginate_queryset(selectors.version_list(deck))
        return self.get_paginated_response(s.DeckVersionSerializer(page, many=True).data)

    @extend_schema(responses={200: s.DeckVersionSerializer})
    @action(detail=True, methods=["get"], url_path=r"versions/(?P<number>\d+)")
    def version(self, request, pk=None, number=None):
        """One saved version."""
        version = selectors.version_get(self.get_object(), int(number))
        return Response(s.DeckVersionSerializer(version).data)

    @extend_schema(
        parameters=[
            OpenApiParameter("from", OpenApiTypes.INT, required=True),
            OpenApiParameter("to", OpenApiTypes.INT, description="Default: the latest version."),
        ],
        responses={200: s.DeckDiffSerializer, 400: ERRORS},
    )
    @action(detail=True, methods=["get"])
    def compare(self, request, pk=None):
        """What changed from one version to another: cards and chips added, removed, changed."""
        deck = self.get_object()
        try:
            a = int(request.query_params["from"])
            b = int(request.query_params.get("to", deck.version))
        except (KeyError, ValueError):
            raise DomainError(
                "Give ?from= (and optionally ?to=) as version numbers.", code="invalid", attr="from"
            ) from None
        return Response(
            selectors.version_diff(selectors.version_get(deck, a), selectors.version_get(deck, b))
        )

    @extend_schema(
        parameters=[OpenApiParameter("as", OpenApiTypes.STR, enum=["text", "json", "pdf"])],
        responses={
            (200, "text/plain"): OpenApiTypes.STR,
            (200, "application/json"): s.DeckExportSerializer,
            (200, "application/pdf"): OpenApiTypes.BINARY,
            400: ERRORS,
        },
    )
    @action(detail=True, methods=["get"])
    def export(self, request, pk=None):
        """The deck as a text list, JSON, or a printable proxy sheet (PDF, 3x3 cards a page)."""
        return exports.export_response(self.get_object(), request.query_params.get("as", "text"))

    @extend_schema(request=s.DeckImportSerializer, responses={201: s.DeckSerializer, 400: ERRORS})
    @action(detail=False, methods=["post"], url_path="import")
    def import_text(self, request):
        """A deck from a text list; every bad line is reported by number and nothing is saved."""
        ser = s.DeckImportSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        deck = services.deck_import_text(
            owner=request.user,
            text=d["text"],
            name=d["name"],
            fmt=d["format"],
            description=d["description"],
            pool=_pool_for(request.user, d.get("pool")),
        )
        return Response(
            s.DeckSerializer(deck, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        request=s.ValidateSerializer, responses={200: s.LegalitySerializer, 400: ERRORS}, auth=[]
    )
    @action(
        detail=False,
        methods=["post"],
        url_path="validate",
        permission_classes=[permissions.AllowAny],
        authentication_classes=[],
        url_name="validate-stateless",
    )
    def validate_stateless(self, request):
        """Check a deck without saving it (anyone may ask): `{"legal", "errors"}`.

        Unauthenticated, so no CSRF: REST clients and anonymous pages can call it. A Stud or
        Draw deck gives its pool inline as `pool: {cards, kicker_chips}`.
        """
        ser = s.ValidateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        pool = d.get("pool")
        problems = formats.validate_deck(
            fmt=d["format"],
            cards=d["cards"],
            kicker_chips=d["kicker_chips"],
            catalogue=engine_catalogue(),
            pool=formats.Pool(pool["cards"], pool["kicker_chips"]) if pool else None,
        )
        return Response(
            {
                "legal": not problems,
                "format": d["format"],
                "errors": [p.as_dict() for p in problems],
            }
        )

    @extend_schema(
        parameters=[OpenApiParameter("collection", OpenApiTypes.INT, description="Default: all.")],
        responses={200: s.MissingSerializer},
    )
    @action(detail=True, methods=["get"])
    def missing(self, request, pk=None):
        """Cards and chips of the deck missing from your collections, and how many."""
        return Response(
            deck_missing(
                owner=request.user,
                deck=self.get_object(),
                collection_id=_collection_param(request),
            )
        )

    @extend_schema(
        request=None,
        parameters=[OpenApiParameter("collection", OpenApiTypes.INT, description="Default: all.")],
        responses={200: s.WishlistResultSerializer},
    )
    @action(detail=True, methods=["post"])
    def wishlist(self, request, pk=None):
        """Add everything missing (see `missing/`) to your wishlist in one step."""
        deck = self.get_object()
        collection_id = _collection_param(request)
        count = deck_wishlist_missing(owner=request.user, deck=deck, collection_id=collection_id)
        return Response(
            {
                "added": count,
                "missing": deck_missing(owner=request.user, deck=deck, collection_id=collection_id),
            }
        )

    @extend_schema(responses={200: s.DeckSerializer, 404: ERRORS})
    @action(
        detail=False,
        methods=["get"],
        url_path=r"shared/(?P<slug>[A-Za-z0-9_-]+)",
        permission_classes=[permissions.AllowAny],
        url_name="shared",
    )
    def shared(self, request, slug=None):
        """A public deck, read by its unguessable link."""
        deck = selectors.deck_public(slug=slug)
        return Response(s.DeckSerializer(deck, context={"request": request}).data)

    @extend_schema(
        parameters=[s.PublicDeckQuerySerializer],
        responses={200: s.PublicDeckSerializer(many=True), 400: ERRORS},
    )
    @action(
        detail=False,
        methods=["get"],
        url_path="public",
        permission_classes=[permissions.AllowAny],
        url_name="public",
        filter_backends=[],
    )
    def public(self, request):
        """Decks their owners made public and listed, newest change first; anyone may read
        them. An unknown format or faction is a 400."""
        query = s.PublicDeckQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        d = query.validated_data
        decks = selectors.public_deck_list(
            card=d.get("card", ""), fmt=d.get("fmt", ""), faction=d.get("faction", "")
        )
        page = self.paginate_queryset(decks)
        factions = selectors.deck_factions([deck.pk for deck in page])
        context = {"request": request, "factions": factions}
        data = s.PublicDeckSerializer(page, many=True, context=context).data
        return self.get_paginated_response(data)


class PoolViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Your sealed (Stud) and drafted (Draw) pools. Create opens six boosters."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = s.PoolSerializer
    lookup_value_regex = r"\d+"
    filterset_class = PoolFilterSet

    def get_queryset(self):
        return selectors.pool_list(owner=self.request.user)

    @extend_schema(request=s.PoolOpenSerializer, responses={201: s.PoolSerializer, 400: ERRORS})
    def create(self, request, *args, **kwargs):
        """Open six boosters (seeded and recorded) into a new Stud pool."""
        ser = s.PoolOpenSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        pool = services.pool_open_stud(
            owner=request.user,
            set_codes=d.get("sets") or d["set"],
            seed=d.get("seed"),
            name=d["name"],
        )
        return Response(s.PoolSerializer(pool).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.PoolDeckSerializer, responses={201: s.DeckSerializer, 400: ERRORS})
    @action(detail=True, methods=["post"])
    def deck(self, request, pk=None):
        """Build a deck from this pool: automatically (`auto`, the default) or start empty."""
        ser = s.PoolDeckSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        deck = services.deck_from_pool(
            owner=request.user,
            pool=self.get_object(),
            name=d["name"],
            variants=d["variants"],
            auto=d["auto"],
        )
        return Response(
            s.DeckSerializer(deck, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )


# Its `simulate` action (POST drafts/{id}/simulate/) is the simulator's: simulator/drafts/api.py.
class DraftPodViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Draw pods: create, join, start (bots fill the empty seats), pick; once the draft is over,
    the bots' decks and a test run of your deck against them."""

    permission_classes = [permissions.IsAuthenticated]
    lookup_value_regex = r"\d+"
    filterset_class = DraftPodFilterSet

    def get_queryset(self):
        return selectors.pod_list(user=self.request.user)

    def get_serializer_class(self):
        return s.DraftPodSerializer if self.action == "list" else s.DraftPodDetailSerializer

    def _out(self, pod, code=status.HTTP_200_OK) -> Response:
        pod.refresh_from_db()
        return Response(
            s.DraftPodDetailSerializer(pod, context={"request": self.request}).data, status=code
        )

    @extend_schema(responses={200: s.DraftPodDetailSerializer})
    def retrieve(self, request, *args, **kwargs):
        """One pod: seats, your pack and picks; the bots' decks once the draft is over."""
        pod = self.get_object()
        services.draft_bot_decks_build(pod=pod)  # a pod that ended before bot decks were kept
        return self._out(pod)

    @extend_schema(
        request=s.DraftPodCreateSerializer,
        responses={201: s.DraftPodDetailSerializer, 400: ERRORS},
    )
    def create(self, request, *args, **kwargs):
        """A new pod; you take seat 1. Others join until you start it."""
        ser = s.DraftPodCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        pod = services.draft_pod_create(
            owner=request.user,
            seats=d["seats"],
            set_codes=d.get("sets") or d["set"],
            seed=d.get("seed"),
            name=d["name"],
        )
        return self._out(pod, status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: s.DraftPodDetailSerializer, 400: ERRORS})
    @action(detail=True, methods=["post"])
    def join(self, request, pk=None):
        """Take an empty seat at an open pod."""
        pod = self.get_object()
        services.draft_pod_join(pod=pod, user=request.user)
        return self._out(pod)

    @extend_schema(request=None, responses={200: s.DraftPodDetailSerializer, 400: ERRORS})
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        """Start the draft (the pod's creator only); bots take the empty seats."""
        pod = self.get_object()
        services.draft_pod_start(pod=pod, user=request.user)
        return self._out(pod)

    @extend_schema(
        request=s.DraftPickSerializer, responses={200: s.DraftPodDetailSerializer, 400: ERRORS}
    )
    @action(detail=True, methods=["post"])
    def pick(self, request, pk=None):
        """Pick a card from the pack in front of you."""
        ser = s.DraftPickSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        pod = self.get_object()
        services.draft_pick(
            pod=pod, user=request.user, code=ser.validated_data["card"].strip().upper()
        )
        return self._out(pod)
