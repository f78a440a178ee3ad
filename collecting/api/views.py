"""The collections API: a user's collections with their entries, chips, completion, trade list,
CSV import and export, openings and scans; the wishlist; trade matching; practice boosters.

Everything is scoped to the requesting user: another user's collection answers 404, except its
trade list when the owner made it public (then read-only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.models import CardSet
from collecting import csv_format as collection_csv
from collecting import selectors as collection_selectors
from collecting import services as collection_services
from collecting.api import serializers as s
from collecting.filtersets import EntryFilterSet
from collecting.models import Collection, CollectionChip, CollectionEntry, Condition, WishlistEntry
from config.api import DomainError, FilterBackend
from config.schema import ERRORS, errors

IMPORT_ERRORS = errors("Every bad row, with its `line` and `column`, or a bad form field.")
BUSY = errors("`busy`: another request is changing the same entry just now; try again.")


def owned_collection(request: Request, pk) -> Collection:
    """The requesting user's collection `pk`, or 404 (never 403: others' ids are not revealed)."""
    return get_object_or_404(Collection, pk=pk, owner=request.user)


def _flag(request: Request, name: str) -> bool:
    """A boolean query parameter: `true`/`false` (or `1`/`0`); absent is false, anything else
    (empty too) is a 400, as the schema's boolean says."""
    raw = request.query_params.get(name)
    if raw is None:
        return False
    try:
        return serializers.BooleanField().to_internal_value(raw)
    except serializers.ValidationError:
        raise DomainError(f"{name} is true or false.", code="invalid", attr=name) from None


@extend_schema_view(
    list=extend_schema(summary="Your collections, with card and chip totals"),
    create=extend_schema(summary="Start a collection"),
)
class CollectionViewSet(viewsets.ModelViewSet):
    """Your collections: the cards and kicker chips you own, their condition and trade list."""

    serializer_class = s.CollectionSerializer
    permission_classes = [permissions.IsAuthenticated]
    lookup_value_regex = "[0-9]+"
    filter_backends = []

    def get_queryset(self):
        if not self.request.user.is_authenticated:
            return Collection.objects.none()
        return collection_selectors.collection_list(owner=self.request.user)

    def get_permissions(self):
        if self.action == "tradelist" and self.request.method == "GET":
            return [permissions.AllowAny()]
        return super().get_permissions()

    def perform_create(self, serializer):
        serializer.instance = collection_services.collection_create(
            owner=self.request.user, **serializer.validated_data
        )

    def perform_update(self, serializer):
        serializer.instance = collection_services.collection_update(
            collection=serializer.instance, **serializer.validated_data
        )

    def perform_destroy(self, instance):
        collection_services.collection_delete(collection=instance)

    @extend_schema(
        summary="Set completion: per set and per rarity",
        responses={200: s.SetCompletionSerializer(many=True)},
    )
    @action(detail=True, methods=["get"], pagination_class=None)  # one row per set: not paged
    def completion(self, request, pk=None):
        rows = collection_selectors.completion(collection=self.get_object())
        return Response([row.as_dict() for row in rows])

    @extend_schema(
        summary="Cards the collection lacks",
        parameters=[
            OpenApiParameter("set", OpenApiTypes.STR, description="Only this set (code)."),
            OpenApiParameter(
                "playset", OpenApiTypes.BOOL, description="Lacking a full playset, not just one."
            ),
        ],
        responses={200: s.CollectionMissingCardSerializer(many=True)},
    )
    @action(detail=True, methods=["get"])
    def missing(self, request, pk=None):
        card_set = None
        if request.query_params.get("set"):
            card_set = get_object_or_404(CardSet, code__iexact=request.query_params["set"])
        playset = _flag(request, "playset")
        cards = collection_selectors.missing_cards(
            collection=self.get_object(), card_set=card_set, playset=playset
        )
        page = self.paginate_queryset(cards)
        return self.get_paginated_response(s.CollectionMissingCardSerializer(page, many=True).data)

    @extend_schema(
        methods=["GET"],
        summary="The trade list: copies beyond what the owner keeps",
        description="Readable by anyone when the owner made it public; otherwise owner only.",
        responses={200: s.TradelistCardSerializer(many=True), 404: ERRORS},
    )
    @extend_schema(
        methods=["POST"],
        summary="Keep a number of copies of a card off the trade list (null: the default)",
        request=s.TradeKeepSerializer,
        responses={200: s.TradelistCardSerializer(many=True), 400: ERRORS},
    )
    @action(detail=True, methods=["get", "post"])
    def tradelist(self, request, pk=None):
        if request.method == "GET":
            collection = collection_selectors.collection_for_tradelist(user=request.user, pk=pk)
            if collection is None:
                raise NotFound()
        else:
            collection = self.get_object()
            keep = s.TradeKeepSerializer(data=request.data)
            keep.is_valid(raise_exception=True)
            collection_services.trade_keep_set(collection=collection, **keep.validated_data)
        cards = collection_selectors.tradelist(collection=collection)
        page = self.paginate_queryset(cards)
        return self.get_paginated_response(s.TradelistCardSerializer(page, many=True).data)

    @extend_schema(
        summary="One click: add or take out copies of a card or a kicker chip",
        request=s.COLLECTION_ADJUST_REQUEST,
        responses={200: s.CollectionAdjustResultSerializer, 400: ERRORS, 409: BUSY},
    )
    @action(detail=True, methods=["post"])
    def adjust(self, request, pk=None):
        collection = self.get_object()
        data = s.CollectionAdjustSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        if "card" in v:
            quantity = collection_services.entry_adjust(
                collection=collection, card=v["card"], condition=v["condition"], delta=v["delta"]
            )
            item, condition = v["card"], v["condition"]
            owned = collection_selectors.owned_of(collection=collection, card=item)
        else:
            quantity = collection_services.chip_adjust(
                collection=collection, kicker_chip=v["kicker_chip"], delta=v["delta"]
            )
            item, condition, owned = v["kicker_chip"], None, quantity
        return Response(
            {"item": item.code, "condition": condition, "quantity": quantity, "owned": owned}
        )

    @extend_schema(
        summary="Import a collection CSV: all or nothing",
        description=(
            "Columns: `set_code,collector_number,name,condition,quantity[,notes][,acquired_on]` "
            "or the short form `code,qty[,condition]`. Any bad row refuses the whole file and "
            "the answer lists every bad row. See docs/collections.md."
        ),
        request={"multipart/form-data": s.CollectionImportSerializer},
        responses={
            200: s.CollectionImportResultSerializer,
            400: IMPORT_ERRORS,
            413: errors("The file is over the size limit (`file_too_large`); nothing imported."),
        },
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="import",
        url_name="import",
        parser_classes=[MultiPartParser],
    )
    def import_csv(self, request, pk=None):
        collection = self.get_object()
        form = s.CollectionImportSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        result = collection_services.collection_import_csv(
            collection=collection,
            file=form.validated_data["file"],
            mode=form.validated_data["mode"],
        )
        return Response(s.CollectionImportResultSerializer(result).data)

    @extend_schema(
        summary="Export the collection as CSV",
        parameters=[
            OpenApiParameter("shape", OpenApiTypes.STR, enum=["full", "short"], default="full")
        ],
        responses={(200, "text/csv"): OpenApiTypes.STR},
    )
    @action(detail=True, methods=["get"])
    def export(self, request, pk=None):
        return export_response(self.get_object(), request.query_params.get("shape", "full"))

    @extend_schema(
        methods=["GET"],
        summary="Products opened into this collection",
        responses={200: s.ProductOpeningSerializer(many=True)},
    )
    @extend_schema(
        methods=["POST"],
        summary="Record an opened starter or booster and add its contents",
        request=s.ProductOpeningCreateSerializer,
        responses={201: s.ProductOpeningSerializer, 400: ERRORS},
    )
    @action(detail=True, methods=["get", "post"])
    def openings(self, request, pk=None):
        collection = self.get_object()
        if request.method == "GET":
            page = self.paginate_queryset(collection_selectors.opening_list(collection=collection))
            return self.get_paginated_response(s.ProductOpeningSerializer(page, many=True).data)
        form = s.ProductOpeningCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        v = form.validated_data
        card_set = None
        if "set" in v:
            card_set = get_object_or_404(CardSet, code__iexact=v["set"])
        opening = collection_services.opening_record(
            collection=collection,
            starter=v.get("starter"),
            card_set=card_set,
            cards=v.get("cards"),
            kicker_chips=v.get("kicker_chips"),
            condition=v["condition"],
        )
        return Response(s.ProductOpeningSerializer(opening).data, status=status.HTTP_201_CREATED)


def export_response(collection: Collection, shape: str) -> StreamingHttpResponse:
    """The collection as a streamed CSV download (shared by the API and the page)."""
    if shape not in ("full", "short"):
        raise DomainError("shape is full or short.", code="invalid_shape", attr="shape")
    header, rows = collection_selectors.export_rows(collection=collection, shape=shape)
    response = StreamingHttpResponse(
        collection_csv.write(rows, header=header), content_type="text/csv; charset=utf-8"
    )
    name = slugify(collection.name) or "collection"
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


# The type checker sees the mixin as the viewset it is mixed into (its request, kwargs and
# permission_classes); at run time it is a plain mixin.
if TYPE_CHECKING:
    _ViewSetMixin = viewsets.GenericViewSet
else:
    _ViewSetMixin = object


class _InCollection(_ViewSetMixin):
    """A viewset nested under /collections/{collection_pk}/: only the owner's collection."""

    permission_classes = [permissions.IsAuthenticated]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user, no kwargs
            return self.serializer_class.Meta.model.objects.none()
        return self.collection_queryset()

    @property
    def collection(self) -> Collection:
        if not hasattr(self, "_collection"):
            self._collection = owned_collection(self.request, self.kwargs["collection_pk"])
        return self._collection


class _HoldingsViewSet(
    _InCollection,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """Rows of what a collection holds, counted in copies: adding copies adds to the row there
    is, PATCH changes a row (a quantity of 0 deletes it: 204), DELETE is a quantity of 0. A
    subclass says how copies are added (`add_copies`) and a row changed (`change`)."""

    update_serializer_class: type[serializers.Serializer]
    filter_backends = []

    def add_copies(self, data: dict) -> Any:
        """Add `data["quantity"]` copies (validated by `serializer_class`); the row they are in."""
        raise NotImplementedError

    def change(self, row: Any, **fields: Any) -> Any:
        """The row with `fields` changed, or None when its quantity became 0 (it is gone)."""
        raise NotImplementedError

    def perform_create(self, serializer):
        serializer.instance = self.add_copies(serializer.validated_data)

    def partial_update(self, request, *args, **kwargs):
        form = self.update_serializer_class(data=request.data)
        form.is_valid(raise_exception=True)
        row = self.change(self.get_object(), **form.validated_data)
        if row is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(self.serializer_class(row).data)

    def perform_destroy(self, instance):
        self.change(instance, quantity=0)


@extend_schema_view(
    list=extend_schema(summary="The collection's cards"),
    create=extend_schema(
        summary="Add copies (adds to an existing card+condition entry)",
        responses={201: s.CollectionEntrySerializer, 409: BUSY},
    ),
    partial_update=extend_schema(
        summary="Set quantity (0 deletes), notes or date",
        request=s.CollectionEntryUpdateSerializer,
        responses={
            200: s.CollectionEntrySerializer,
            204: OpenApiResponse(description="Quantity 0: the entry is gone."),
        },
    ),
)
class EntryViewSet(_HoldingsViewSet):
    """Entries of one of your collections: a card, a condition, a quantity."""

    serializer_class = s.CollectionEntrySerializer
    update_serializer_class = s.CollectionEntryUpdateSerializer
    filterset_class = EntryFilterSet
    filter_backends = [FilterBackend]  # no ordering, as before

    def collection_queryset(self):
        return collection_selectors.entry_list(collection=self.collection)

    def add_copies(self, data: dict) -> CollectionEntry | None:
        condition = data.get("condition", Condition.NEAR_MINT)
        collection_services.entry_adjust(
            collection=self.collection,
            card=data["card"],
            condition=condition,
            delta=data["quantity"],
        )
        entry = CollectionEntry.objects.get(
            collection=self.collection, card=data["card"], condition=condition
        )
        if data.get("notes") or data.get("acquired_on"):
            return self.change(
                entry, notes=data.get("notes") or None, acquired_on=data.get("acquired_on")
            )
        return entry

    def change(self, row: CollectionEntry, **fields: Any) -> CollectionEntry | None:
        return collection_services.entry_update(entry=row, **fields)


@extend_schema_view(
    create=extend_schema(
        summary="Add copies of a kicker chip (adds to an existing row)",
        responses={201: s.CollectionChipSerializer, 409: BUSY},
    ),
    partial_update=extend_schema(
        summary="Set quantity (0 deletes) or notes",
        request=s.CollectionChipUpdateSerializer,
        responses={
            200: s.CollectionChipSerializer,
            204: OpenApiResponse(description="Quantity 0: the chip is gone."),
        },
    ),
)
class ChipViewSet(_HoldingsViewSet):
    """Kicker chips in one of your collections."""

    serializer_class = s.CollectionChipSerializer
    update_serializer_class = s.CollectionChipUpdateSerializer

    def collection_queryset(self):
        return collection_selectors.chip_list(collection=self.collection)

    def add_copies(self, data: dict) -> CollectionChip | None:
        collection_services.chip_adjust(
            collection=self.collection, kicker_chip=data["kicker_chip"], delta=data["quantity"]
        )
        chip = CollectionChip.objects.get(
            collection=self.collection, kicker_chip=data["kicker_chip"]
        )
        if data.get("notes"):
            return self.change(chip, notes=data["notes"])
        return chip

    def change(self, row: CollectionChip, **fields: Any) -> CollectionChip | None:
        return collection_services.chip_update(chip=row, **fields)


@extend_schema_view(
    create=extend_schema(
        summary="Attach a photo of your copy of a card",
        request={"multipart/form-data": s.CardScanCreateSerializer},
        responses={
            201: s.CardScanSerializer,
            400: ERRORS,
            413: errors("The image is over the size limit (`file_too_large`)."),
        },
    )
)
class ScanViewSet(
    _InCollection,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """Photos of your own copies (re-encoded PNG/JPEG/WebP, served with safe headers)."""

    serializer_class = s.CardScanSerializer
    parser_classes = [MultiPartParser]
    filter_backends = []

    def collection_queryset(self):
        return collection_selectors.scan_list(owner=self.request.user).filter(
            collection=self.collection
        )

    def create(self, request, *args, **kwargs):
        form = s.CardScanCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        scan = collection_services.scan_create(
            owner=request.user,
            collection=self.collection,
            card=form.validated_data["card"],
            upload=form.validated_data["image"],
        )
        return Response(
            s.CardScanSerializer(scan, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )

    def perform_destroy(self, instance):
        collection_services.scan_delete(scan=instance)


class _WishStatus(serializers.Serializer):
    status = serializers.CharField()
    detail = serializers.CharField()
    owned = serializers.IntegerField()


@extend_schema_view(
    create=extend_schema(
        summary="Want a card or a kicker chip",
        description="409 `already_owned` (nothing added) when your collections already hold "
        "the wanted quantity.",
        responses={201: s.WishlistSerializer, 200: s.WishlistSerializer, 409: ERRORS},
    ),
    partial_update=extend_schema(
        request=s.WishlistUpdateSerializer,
        responses={
            200: s.WishlistSerializer,
            204: OpenApiResponse(description="You already own that many: the wish is gone."),
        },
    ),
)
class WishlistViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """Your wishlist: cards and chips you want, with copies owned and still needed."""

    serializer_class = s.WishlistSerializer
    permission_classes = [permissions.IsAuthenticated]
    filter_backends = []

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return WishlistEntry.objects.none()
        return collection_selectors.wishlist(owner=self.request.user)

    def create(self, request, *args, **kwargs):
        form = s.WishlistSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        v = form.validated_data
        result = collection_services.wishlist_add(
            owner=request.user,
            card=v.get("card"),
            kicker_chip=v.get("kicker_chip"),
            quantity=v["quantity"],
        )
        if result.status == "already_owned":
            raise DomainError(
                result.detail,
                code="already_owned",
                attr="quantity",
                status=status.HTTP_409_CONFLICT,
                owned=result.owned,
            )
        entry = self.get_queryset().get(pk=result.entry.pk)
        code = status.HTTP_201_CREATED if result.status == "added" else status.HTTP_200_OK
        return Response(s.WishlistSerializer(entry).data, status=code)

    def partial_update(self, request, *args, **kwargs):
        form = s.WishlistUpdateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        wish = self.get_object()
        result = collection_services.wishlist_add(
            owner=request.user,
            card=wish.card,
            kicker_chip=wish.kicker_chip,
            quantity=form.validated_data["quantity"],
        )
        if result.status == "already_owned":
            collection_services.wishlist_remove(entry=wish)
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(s.WishlistSerializer(self.get_queryset().get(pk=wish.pk)).data)

    def perform_destroy(self, instance):
        collection_services.wishlist_remove(entry=instance)


class TradeMatchView(APIView):
    """My wishlist against another user's public trade lists, and theirs against mine."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Match trades with another user",
        parameters=[OpenApiParameter("user", OpenApiTypes.STR, required=True)],
        description="My wishlist against another user's public trade lists, and theirs "
        "against mine. A username nobody has answers like a user with no public trade list: "
        "200 with no matches.",
        responses={200: s.TradeMatchSerializer},
    )
    def get(self, request):
        username = request.query_params.get("user", "").strip()
        if not username:
            raise DomainError("Name the user to trade with.", code="required", attr="user")
        matches = trade_matches_for(me=request.user, username=username)
        return Response(s.TradeMatchSerializer({"user": username, **matches}).data)


def trade_matches_for(*, me, username: str) -> dict[str, list[collection_selectors.TradeMatch]]:
    """`trade_matches` with the user called `username`. Someone unknown has no matches, exactly
    like someone with no public trade list: whether an account exists is not for others to learn
    (shared by the API and the page)."""
    them = get_user_model().objects.filter(username=username).first()
    if them is None:
        return {"they_have_i_want": [], "i_have_they_want": []}
    return collection_selectors.trade_matches(me=me, them=them)


class PracticeBoosterView(APIView):
    """Open a practice booster: generated from the set's layout, never added to a collection."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="Open a practice booster (seeded; the same seed gives the same booster)",
        parameters=[
            OpenApiParameter("set", OpenApiTypes.STR, required=True),
            OpenApiParameter("seed", OpenApiTypes.INT, description="Random when left out."),
        ],
        responses={200: s.PracticeBoosterSerializer, 400: ERRORS},
    )
    def get(self, request):
        raw_seed = request.query_params.get("seed")
        seed = None
        if raw_seed is not None:
            try:
                seed = int(raw_seed)
            except ValueError:
                raise DomainError("seed is a whole number.", code="invalid", attr="seed") from None
            if not 0 <= seed < 2**63:
                raise DomainError("seed is from 0 to 2**63 - 1.", code="invalid", attr="seed")
        set_code = request.query_params.get("set", "").upper()
        return Response(collection_services.practice_booster(set_code, seed))
