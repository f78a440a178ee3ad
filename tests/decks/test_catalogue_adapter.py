"""The database catalogue, as the engine sees it, is the catalogue parsed from the set files."""

from __future__ import annotations

import pytest

from decks.engine_catalogue import engine_catalogue
from simulator.engine.drifter.cards import load_catalogue

pytestmark = pytest.mark.django_db


def test_engine_catalogue_from_the_database_matches_the_set_files(catalogue):
    from_db, from_files = engine_catalogue(), load_catalogue()
    assert set(from_db.card_by_code) == set(from_files.card_by_code)
    for code, card in from_files.card_by_code.items():
        mine = from_db.card_by_code[code]
        fields = ("name", "type", "rarity", "cost", "stats", "kicker_limit", "faction", "abilities")
        assert [getattr(mine, f) for f in fields] == [getattr(card, f) for f in fields], code
    for code, chip in from_files.chip_by_code.items():
        mine = from_db.chip_by_code[code]
        assert (mine.set_code, mine.value, mine.sides) == (chip.set_code, chip.value, chip.sides)
    for set_def in from_files.sets:
        mine = from_db.set(set_def.code)
        assert mine.booster_slots == set_def.booster_slots
        assert set(mine.card_codes) == set(set_def.card_codes)


def test_the_cached_catalogue_notices_new_cards(catalogue):
    from tests.factories import CardFactory

    before = engine_catalogue()
    card = CardFactory()
    assert engine_catalogue() is not before and card.code in engine_catalogue().card_by_code
