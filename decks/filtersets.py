"""Filters for the deck API. `?fmt=` because DRF reserves `?format=` for the renderer."""

import django_filters

from cards.filtersets import FilterSet
from decks.models import Deck, DraftPod, Pool


class DeckFilterSet(FilterSet):
    fmt = django_filters.CharFilter(
        field_name="format", help_text="Exact format, e.g. stud+on_your_lonesome."
    )
    variant = django_filters.CharFilter(
        field_name="format",
        lookup_expr="contains",
        help_text="Decks whose format includes this variant.",
    )
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Deck
        fields = ["fmt", "variant", "name", "is_public", "pool"]


class PoolFilterSet(FilterSet):
    class Meta:
        model = Pool
        fields = ["kind"]


class DraftPodFilterSet(FilterSet):
    class Meta:
        model = DraftPod
        fields = ["status"]
