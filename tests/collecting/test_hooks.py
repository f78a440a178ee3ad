"""Collections take two things from the decks app without importing it (collecting/hooks.py):
what the owner's decks use, and the engine's catalogue. The decks app hands both in when it
starts; without them a trade list keeps a playset and practice boosters are refused."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from collecting import hooks
from collecting import services as svc
from collecting.selectors import tradelist
from tests.collecting.collection_fixtures import *  # noqa: F403


def test_the_decks_app_hands_collections_its_deck_use_and_engine_catalogue():
    from decks.engine_catalogue import engine_catalogue
    from decks.ownership import deck_use

    assert hooks._deck_use is deck_use
    assert hooks._engine_catalogue is engine_catalogue


@pytest.fixture
def without_decks(monkeypatch):
    monkeypatch.setattr(hooks, "_deck_use", None)
    monkeypatch.setattr(hooks, "_engine_catalogue", None)


def test_without_the_decks_app_a_trade_list_keeps_a_playset(user, binder, common, without_decks):
    from decks.models import DeckCard
    from tests.factories import DeckFactory

    svc.entry_adjust(collection=binder, card=common, delta=6)
    DeckCard.objects.create(deck=DeckFactory(owner=user, format="stud"), card=common, qty=5)
    row = tradelist(collection=binder).get(pk=common.pk)
    assert (row.keep, row.tradeable) == (3, 3)  # a playset of a common, the deck not counted


def test_without_the_decks_app_practice_boosters_are_refused(catalogue, without_decks):
    with pytest.raises(ImproperlyConfigured):
        svc.practice_booster("HSD", 7)
