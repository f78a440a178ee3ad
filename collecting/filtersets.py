"""Filters for the collections API (django-filter, on the catalogue's strict `FilterSet`)."""

import django_filters
from django.core.exceptions import ValidationError
from drf_spectacular.utils import extend_schema_field

from cards.filtersets import FilterSet
from collecting.models import CollectionEntry, Condition


class ConditionField(django_filters.fields.ChoiceField):
    """One of the conditions, once given: anything else (blank too) is a 400 that lists them."""

    def clean(self, value):
        if value is not None and value not in Condition.values:
            raise ValidationError(
                f"condition is one of {', '.join(Condition.values)}.", code="invalid_choice"
            )
        return value


# The schema says what the field takes (the conditions), without django-filter's list of labels.
@extend_schema_field({"type": "string", "enum": Condition.values})
class ConditionFilter(django_filters.ChoiceFilter):
    field_class = ConditionField


class EntryFilterSet(FilterSet):
    set = django_filters.CharFilter(
        field_name="card__card_set__code", lookup_expr="iexact", help_text="Set code."
    )
    card = django_filters.CharFilter(
        field_name="card__code", lookup_expr="iexact", help_text="Card code."
    )
    condition = ConditionFilter(choices=Condition.choices)

    class Meta:
        model = CollectionEntry
        fields = ["set", "card", "condition"]
