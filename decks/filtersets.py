"""Filters for the deck API. `?fmt=` because DRF reserves `?format=` for the renderer."""

import django_filters

from decks.models import Deck, DraftPod, Pool


class DeckFilterSet(django_filters.FilterSet):
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


class PoolFilterSet(django_filters.FilterSet):
    class Meta:
        model = Pool
        fields = ["kind"]


class DraftPodFilterSet(django_filters.FilterSet):
    class Meta:
        model = DraftPod
        fields = ["status"]
