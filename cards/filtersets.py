"""django-filter FilterSets for the catalogue API (next to the `q` search syntax)."""

import django_filters

from cards.models import Card, KickerChip


class CardFilterSet(django_filters.FilterSet):
    set = django_filters.CharFilter(field_name="card_set__code", lookup_expr="iexact")
    faction = django_filters.CharFilter(lookup_expr="iexact")
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Card
        fields = {
            "type": ["exact"],
            "rarity": ["exact"],
            "is_copy": ["exact"],
            "cost": ["exact", "lte", "gte"],
            "smarts": ["exact", "lte", "gte"],
            "skill": ["exact", "lte", "gte"],
            "luck": ["exact", "lte", "gte"],
            "kicker_limit": ["exact", "lte", "gte"],
        }


class KickerChipFilterSet(django_filters.FilterSet):
    set = django_filters.CharFilter(field_name="card_set__code", lookup_expr="iexact")

    class Meta:
        model = KickerChip
        fields = {"color": ["exact"], "value": ["exact", "lte", "gte"]}
