from django.conf import settings
from django.db.models import Count
from django.utils.decorators import method_decorator
from django.views.decorators.cache import cache_page
from django.views.decorators.vary import vary_on_headers
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import viewsets

from cards import selectors
from cards.api.pagination import CardPagination
from cards.api.serializers import CardSerializer, CardSetSerializer, KickerChipSerializer
from cards.filtersets import CardFilterSet, KickerChipFilterSet
from cards.query import QuerySyntaxError
from config.api import DomainError

Q_PARAM = OpenApiParameter(
    "q",
    OpenApiTypes.STR,
    description="Search syntax (docs/search.md), e.g. `t:dude skill>=8 -f:outlaws sort:-cost`.",
)


def catalogue_cached(viewset):
    """Cache list and detail answers of the read-only catalogue (per URL, Accept and
    Authorization). The catalogue only changes when `load_catalogue` runs, which clears the
    cache; with a per-process cache other processes see the change within the timeout."""
    seconds = settings.CATALOGUE_CACHE_SECONDS
    if seconds <= 0:
        return viewset
    for name in ("list", "retrieve"):
        decorated = method_decorator([vary_on_headers("Authorization"), cache_page(seconds)])
        setattr(viewset, name, decorated(getattr(viewset, name)))
    return viewset


@catalogue_cached
@extend_schema_view(list=extend_schema(parameters=[Q_PARAM]))
class CardViewSet(viewsets.ReadOnlyModelViewSet):
    """The card catalogue: `?q=` search syntax, filters, ordering, limit/offset."""

    serializer_class = CardSerializer
    pagination_class = CardPagination
    lookup_field = "code"
    lookup_value_regex = "[A-Za-z0-9]+-[0-9]+"
    filterset_class = CardFilterSet
    ordering_fields = ["name", "cost", "smarts", "skill", "luck", "kicker_limit", "number"]

    def get_queryset(self):
        q = self.request.query_params.get("q", "") if self.action == "list" else ""
        try:
            return selectors.card_list(q=q)
        except QuerySyntaxError as exc:
            raise DomainError(
                exc.message, code="invalid_query", attr="q", position=exc.position
            ) from exc


@catalogue_cached
class CardSetViewSet(viewsets.ReadOnlyModelViewSet):
    """Card sets with their booster layout and starter decks."""

    serializer_class = CardSetSerializer
    lookup_field = "code"
    pagination_class = None
    filter_backends = []

    def get_queryset(self):
        return selectors.set_list().annotate(card_count=Count("cards")).prefetch_related("starters")


@catalogue_cached
class KickerChipViewSet(viewsets.ReadOnlyModelViewSet):
    """Kicker chips: colour, value and both sides."""

    serializer_class = KickerChipSerializer
    lookup_field = "code"
    lookup_value_regex = "[A-Za-z0-9]+-K[0-9]+"
    filterset_class = KickerChipFilterSet
    ordering_fields = ["code", "value"]

    def get_queryset(self):
        return selectors.kicker_chip_list()
