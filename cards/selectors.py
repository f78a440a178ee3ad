"""Reads of the catalogue: what the pages and the API list."""

from __future__ import annotations

from django.db.models import QuerySet

from cards.models import Card, CardSet, KickerChip
from cards.query import parse_query


def card_list(*, q: str = "") -> QuerySet[Card]:
    """Cards matching a search-syntax query (docs/search.md), in collector order by default.

    Raises `cards.query.QuerySyntaxError` for a malformed query.
    """
    cards = Card.objects.select_related("card_set")
    if q.strip():
        cards = parse_query(q).apply(cards)
    return cards


def set_list() -> QuerySet[CardSet]:
    return CardSet.objects.all()


def kicker_chip_list() -> QuerySet[KickerChip]:
    return KickerChip.objects.select_related("card_set")
