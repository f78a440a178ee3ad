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


def _sets_copy(tmp_path):
    import shutil

    from django.conf import settings

    directory = tmp_path / "sets"
    shutil.copytree(f"{settings.FIXTURES_DIR}/sets", directory)
    return directory


def _rename_first_card(directory, name: str) -> str:
    import json

    from simulator.engine.drifter.cards import card_code

    path = directory / "HSD.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["cards"][0]["name"] = name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return card_code(doc["code"], doc["cards"][0]["number"])


def test_loading_changed_set_files_makes_a_new_catalogue_version(catalogue, tmp_path):
    from cards.services import catalogue_load
    from decks.engine_catalogue import _key, catalogue_version, versioned_catalogue

    directory = _sets_copy(tmp_path)
    catalogue_load(directory=directory)
    version, before = versioned_catalogue()
    assert version == catalogue_version() >= 1
    catalogue_load(directory=directory)  # the same files again (every `make run`)
    assert versioned_catalogue() == (version, before)

    # A card changed in place: every row count and highest id stay as they were, so only
    # the version tells the cache that the catalogue changed.
    fingerprint = _key()[1]
    code = _rename_first_card(directory, "Renamed In Place")
    catalogue_load(directory=directory)
    assert _key()[1] == fingerprint
    new_version, after = versioned_catalogue()
    assert new_version == version + 1 == catalogue_version()
    assert before.card_by_code[code].name != "Renamed In Place"
    assert after.card_by_code[code].name == "Renamed In Place"


def test_a_catalogue_never_loaded_is_version_zero(db):
    from cards.models import CatalogueVersion
    from decks.engine_catalogue import catalogue_version, versioned_catalogue

    CatalogueVersion.objects.all().delete()

    assert catalogue_version() == 0
    assert versioned_catalogue()[0] == 0
