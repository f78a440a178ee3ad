"""A deck against its owner's collections: what is missing, and wishing for it in one step."""

from __future__ import annotations

import pytest

from cards.models import Card, KickerChip
from collecting.models import Collection, CollectionChip, CollectionEntry, WishlistEntry
from decks import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck(user, legal):
    return services.deck_create(
        owner=user, name="Want", cards=legal["cards"], kicker_chips=legal["kicker_chips"]
    )


def own(user, legal):
    binder = Collection.objects.create(owner=user, name="Binder")
    box = Collection.objects.create(owner=user, name="Box")
    first, second = list(legal["cards"])[:2]
    CollectionEntry.objects.create(collection=binder, card=Card.objects.get(code=first), quantity=2)
    CollectionEntry.objects.create(
        collection=box, card=Card.objects.get(code=first), quantity=1, condition="good"
    )
    CollectionEntry.objects.create(collection=box, card=Card.objects.get(code=second), quantity=1)
    chip = next(iter(legal["kicker_chips"]))
    CollectionChip.objects.create(
        collection=binder, kicker_chip=KickerChip.objects.get(code=chip), quantity=1
    )
    return binder, first, second, chip


def test_missing_counts_every_collection_and_condition(user_client, user, deck, legal):
    binder, first, second, chip = own(user, legal)
    body = user_client.get(f"/api/v1/decks/{deck.pk}/missing/").json()
    missing = {r["code"]: r["missing"] for r in body["cards"]}
    assert first not in missing and missing[second] == 2 and len(missing) == 17
    assert body["kicker_chips"] == [{"code": chip, "need": 2, "owned": 1, "missing": 1}]
    only_binder = user_client.get(f"/api/v1/decks/{deck.pk}/missing/?collection={binder.pk}").json()
    assert {r["code"]: r["missing"] for r in only_binder["cards"]}[first] == 1


def test_wishlist_adds_everything_missing_in_one_step(user_client, user, deck, legal):
    _, first, second, chip = own(user, legal)
    r = user_client.post(f"/api/v1/decks/{deck.pk}/wishlist/")
    assert r.status_code == 200 and r.json()["added"] == 18
    wishes = {
        (w.card.code if w.card else w.kicker_chip.code): w.quantity
        for w in WishlistEntry.objects.filter(owner=user)
    }
    assert first not in wishes and wishes[second] == 3 and wishes[chip] == 2
    user_client.post(f"/api/v1/decks/{deck.pk}/wishlist/")  # idempotent
    assert WishlistEntry.objects.filter(owner=user).count() == 18


def test_someone_elses_collection_is_not_found(user_client, other_user, deck):
    theirs = Collection.objects.create(owner=other_user, name="Theirs")
    assert (
        user_client.get(f"/api/v1/decks/{deck.pk}/missing/?collection={theirs.pk}").status_code
        == 404
    )
