"""Fixtures shared by the test_collection_* files (imported with `from ... import *`)."""

from __future__ import annotations

import pytest

from cards.models import Card, KickerChip
from collecting.models import Collection


@pytest.fixture
def binder(user, catalogue) -> Collection:
    return Collection.objects.create(owner=user, name="Binder")


@pytest.fixture
def common(catalogue) -> Card:
    return Card.objects.filter(card_set__code="HSD", rarity="common").order_by("number").first()


@pytest.fixture
def uncommon(catalogue) -> Card:
    return Card.objects.filter(card_set__code="HSD", rarity="uncommon").order_by("number").first()


@pytest.fixture
def rare(catalogue) -> Card:
    return Card.objects.filter(card_set__code="HSD", rarity="rare").order_by("number").first()


@pytest.fixture
def chip(catalogue) -> KickerChip:
    return KickerChip.objects.filter(card_set__code="HSD").order_by("code").first()


__all__ = ["binder", "chip", "common", "rare", "uncommon"]
