"""Loading the shipped sets into the database through the engine's one parser."""

from __future__ import annotations

import pytest

from cards.models import Card, CardSet, KickerChip, StarterDeck
from cards.services import catalogue_load
from simulator.engine.drifter.cards import load_catalogue

pytestmark = pytest.mark.django_db


def test_every_card_chip_and_starter_of_the_fixtures_is_loaded(catalogue):
    data = load_catalogue()
    assert Card.objects.count() == len(data.cards)
    assert KickerChip.objects.count() == len(data.chips)
    assert CardSet.objects.count() == len(data.sets)
    assert StarterDeck.objects.count() == sum(len(s.starters) for s in data.sets)


def test_loading_twice_changes_nothing(catalogue):
    before = list(Card.objects.order_by("code").values_list("code", "name", "cost", "text"))
    result = catalogue_load()
    assert result.cards == len(before)
    after = list(Card.objects.order_by("code").values_list("code", "name", "cost", "text"))
    assert after == before


def test_a_changed_card_is_updated_in_place(catalogue):
    card = Card.objects.get(code="HSD-012")
    Card.objects.filter(pk=card.pk).update(name="Somebody Else", cost=1)
    catalogue_load()
    card.refresh_from_db()
    assert (card.name, card.cost) == ("Henry Meek", 6)


def test_non_dudes_have_no_stats(catalogue):
    assert not Card.objects.exclude(type="dude").filter(skill__isnull=False).exists()
    assert not Card.objects.filter(type="dude", kicker_limit__isnull=True).exists()
