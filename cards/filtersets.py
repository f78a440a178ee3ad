"""django-filter FilterSets for the catalogue API (next to the `q` search syntax), on a FilterSet
whose numbers and booleans take only what the OpenAPI schema says they take."""

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from django.db import models

from cards.models import Card, KickerChip
from config.api import DomainError


class GivenMeansNotEmpty:
    """A form field for a query parameter that, once given, must have a value: `?kind=` is a
    400, not "no filter" (the schema types it as an integer, a boolean or an enum)."""

    def clean(self, value):
        if value == "":
            raise ValidationError("Give a value or leave the parameter out.", code="blank")
        return super().clean(value)


class WholeNumberField(GivenMeansNotEmpty, forms.IntegerField):
    pass


class IntegerFilter(django_filters.NumberFilter):
    """A whole number (django-filter's NumberFilter also takes `0.5` for an integer field)."""

    field_class = WholeNumberField


class TrueFalseField(GivenMeansNotEmpty, forms.NullBooleanField):
    """`true` or `false` (or `1`/`0`), or absent; anything else is an error, not "no filter"."""

    widget = forms.TextInput  # NullBooleanField's widget reads anything unknown as "no filter"

    def to_python(self, value):
        if value is None:
            return None
        if value in ("true", "True", "1"):
            return True
        if value in ("false", "False", "0"):
            return False
        raise ValidationError("Must be true or false.", code="invalid")

    def validate(self, value):
        pass


def true_or_false(request, name: str) -> bool | None:
    """A query parameter that is true or false (or 1/0): None when absent, else a 400 in the
    error shape naming it (for parameters that are not a FilterSet's: they change what the
    list holds rather than filter it)."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    try:
        return bool(TrueFalseField(required=False).clean(raw))
    except ValidationError:
        raise DomainError(f"{name} is true or false.", attr=name) from None


class BooleanFilter(django_filters.BooleanFilter):
    field_class = TrueFalseField


class ChoiceField(GivenMeansNotEmpty, django_filters.fields.ChoiceField):
    pass


class ChoiceFilter(django_filters.ChoiceFilter):
    field_class = ChoiceField


class ModelChoiceField(GivenMeansNotEmpty, django_filters.fields.ModelChoiceField):
    pass


class ModelChoiceFilter(django_filters.ModelChoiceFilter):
    field_class = ModelChoiceField


class FilterSet(django_filters.FilterSet):
    """django-filter's FilterSet taking only what the schema says: whole numbers for integer
    fields, true or false for booleans, and a value for any of them (or an enum) once given."""

    FILTER_DEFAULTS = {
        **django_filters.FilterSet.FILTER_DEFAULTS,
        **{
            field: {"filter_class": IntegerFilter}
            for field in django_filters.FilterSet.FILTER_DEFAULTS
            if issubclass(field, models.IntegerField)
        },
        models.BooleanField: {"filter_class": BooleanFilter},
        models.NullBooleanField: {"filter_class": BooleanFilter},
        **{
            field: {**default, "filter_class": ModelChoiceFilter}
            for field, default in django_filters.FilterSet.FILTER_DEFAULTS.items()
            if default["filter_class"] is django_filters.ModelChoiceFilter
        },
    }

    @classmethod
    def filter_for_lookup(cls, field, lookup_type):
        filter_class, params = super().filter_for_lookup(field, lookup_type)
        if filter_class is django_filters.ChoiceFilter:  # a model field with choices
            filter_class = ChoiceFilter
        return filter_class, params


class CardFilterSet(FilterSet):
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


class KickerChipFilterSet(FilterSet):
    set = django_filters.CharFilter(field_name="card_set__code", lookup_expr="iexact")

    class Meta:
        model = KickerChip
        fields = {"color": ["exact"], "value": ["exact", "lte", "gte"]}
