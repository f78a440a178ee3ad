"""Copies in and out one click at a time, openings, the wishlist and trade-list keeps."""

from __future__ import annotations

import threading

import pytest
from django.db import close_old_connections

from cards.models import StarterDeck
from collecting import services as svc
from collecting.models import (
    MAX_QUANTITY,
    Collection,
    CollectionChip,
    CollectionEntry,
    ProductOpening,
    WishlistEntry,
)
from collecting.selectors import owned_of
from config.api import DomainError
from tests.collecting.collection_fixtures import *  # noqa: F403
from tests.factories import UserFactory


def test_a_user_has_named_collections(user):
    svc.collection_create(owner=user, name="Binder")
    svc.collection_create(owner=user, name="Trade box", trade_list_public=True)
    assert list(Collection.objects.filter(owner=user).values_list("name", flat=True)) == [
        "Binder",
        "Trade box",
    ]


def test_collection_names_are_unique_per_owner(user, other_user):
    svc.collection_create(owner=user, name="Binder")
    svc.collection_create(owner=other_user, name="Binder")
    with pytest.raises(DomainError) as exc:
        svc.collection_create(owner=user, name=" Binder ")
    assert exc.value.code == "unique"


def test_plus_adds_a_copy_and_minus_takes_it_out(binder, common):
    assert svc.entry_adjust(collection=binder, card=common, delta=1) == 1
    assert svc.entry_adjust(collection=binder, card=common, delta=1) == 2
    assert svc.entry_adjust(collection=binder, card=common, delta=-1) == 1
    assert svc.entry_adjust(collection=binder, card=common, delta=-1) == 0
    assert not CollectionEntry.objects.filter(collection=binder).exists()


def test_conditions_are_separate_entries(binder, common):
    svc.entry_adjust(collection=binder, card=common, delta=2, condition="mint")
    svc.entry_adjust(collection=binder, card=common, delta=1, condition="poor")
    assert binder.entries.count() == 2
    assert owned_of(collection=binder, card=common) == 3


def test_taking_out_more_than_there_are_is_refused(binder, common):
    svc.entry_adjust(collection=binder, card=common, delta=1)
    with pytest.raises(DomainError) as exc:
        svc.entry_adjust(collection=binder, card=common, delta=-2)
    assert exc.value.code == "not_enough_copies"
    assert binder.entries.get().quantity == 1


@pytest.mark.parametrize("delta", [0, MAX_QUANTITY + 1, -(MAX_QUANTITY + 1), 10**12, 1.5, "1"])
def test_absurd_deltas_are_refused(binder, common, delta):
    with pytest.raises(DomainError):
        svc.entry_adjust(collection=binder, card=common, delta=delta)
    assert CollectionEntry.objects.count() == 0


def test_an_entry_never_passes_the_quantity_limit(binder, common):
    svc.entry_adjust(collection=binder, card=common, delta=MAX_QUANTITY)
    with pytest.raises(DomainError) as exc:
        svc.entry_adjust(collection=binder, card=common, delta=1)
    assert exc.value.code == "too_many"
    assert binder.entries.get().quantity == MAX_QUANTITY


def test_an_unknown_condition_is_refused(binder, common):
    with pytest.raises(DomainError):
        svc.entry_adjust(collection=binder, card=common, delta=1, condition="pristine")
    assert CollectionEntry.objects.count() == 0


def test_chips_go_in_and_out(binder, chip):
    assert svc.chip_adjust(collection=binder, kicker_chip=chip, delta=2) == 2
    assert svc.chip_adjust(collection=binder, kicker_chip=chip, delta=-2) == 0
    assert not CollectionChip.objects.exists()


def test_a_click_sends_a_delta_so_a_stale_page_loses_nothing(binder, common):
    """Two tabs showing "1 copy": each click adds one, whatever the page last showed.

    A read-modify-write (the page computing quantity = shown + 1 and saving it) would leave 2.
    """
    svc.entry_adjust(collection=binder, card=common, delta=1)
    stale_tab_a = CollectionEntry.objects.get(collection=binder, card=common)
    stale_tab_b = CollectionEntry.objects.get(collection=binder, card=common)
    svc.entry_adjust(collection=binder, card=common, delta=1)  # tab b clicks
    svc.entry_adjust(collection=binder, card=common, delta=1)  # tab a clicks
    assert stale_tab_a.quantity == stale_tab_b.quantity == 1
    assert CollectionEntry.objects.get(collection=binder, card=common).quantity == 3


@pytest.mark.django_db(transaction=True)
def test_two_people_clicking_at_once_never_lose_an_update(catalogue):
    """Threads hammer + on one card, starting together; every click counts.

    With `entry = get(); entry.quantity += 1; entry.save()` the interleaved reads see the same
    number and updates are lost (on PostgreSQL always; the F() update holds on any database).
    """
    from cards.models import Card

    owner = UserFactory()
    binder = Collection.objects.create(owner=owner, name="Binder")
    card = Card.objects.order_by("id").first()
    threads, clicks = 4, 15
    start = threading.Barrier(threads)
    failures: list[BaseException] = []

    def click():
        try:
            start.wait()
            for _ in range(clicks):
                svc.entry_adjust(collection=binder, card=card, delta=1)
        except BaseException as exc:
            failures.append(exc)
        finally:
            close_old_connections()

    workers = [threading.Thread(target=click) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert failures == []
    assert CollectionEntry.objects.get(collection=binder, card=card).quantity == threads * clicks


def test_opening_a_starter_adds_its_deck_and_chips(binder):
    starter = StarterDeck.objects.order_by("code").first()
    opening = svc.opening_record(collection=binder, starter=starter)
    assert opening.kind == ProductOpening.Kind.STARTER
    total = sum(e["qty"] for e in starter.cards)
    assert sum(binder.entries.values_list("quantity", flat=True)) == total
    assert sum(binder.chips.values_list("quantity", flat=True)) == len(starter.kicker_chips)


def _booster_contents(card_set):
    from cards.models import Card

    size = card_set.booster_layout["cards"]
    codes = list(
        Card.objects.filter(card_set=card_set, rarity="common").values_list("code", flat=True)
    )
    return {code: 1 for code in codes[:size]}


def test_opening_a_booster_adds_what_was_in_it(binder, chip):
    card_set = chip.card_set
    cards = _booster_contents(card_set)
    svc.opening_record(
        collection=binder, card_set=card_set, cards=cards, kicker_chips={chip.code: 1}
    )
    assert binder.entries.count() == len(cards)
    assert binder.chips.get().kicker_chip == chip
    assert binder.openings.get().contents["cards"] == cards


def test_a_booster_of_the_wrong_size_is_refused(binder, common):
    with pytest.raises(DomainError) as exc:
        svc.opening_record(collection=binder, card_set=common.card_set, cards={common.code: 2})
    assert exc.value.code == "wrong_booster_size"
    assert binder.entries.count() == 0 and ProductOpening.objects.count() == 0


def test_a_booster_with_another_sets_card_is_refused(binder, chip):
    from cards.models import Card

    cards = _booster_contents(chip.card_set)
    cards.popitem()
    stray = Card.objects.exclude(card_set=chip.card_set).first()
    cards[stray.code] = 1
    with pytest.raises(DomainError) as exc:
        svc.opening_record(collection=binder, card_set=chip.card_set, cards=cards)
    assert exc.value.code == "wrong_set"
    assert binder.entries.count() == 0


def test_a_booster_with_an_unknown_card_is_refused(binder, chip):
    with pytest.raises(DomainError) as exc:
        svc.opening_record(collection=binder, card_set=chip.card_set, cards={"HSD-999": 9})
    assert exc.value.code == "unknown_card"


def test_wishlist_adds_and_updates(user, common, chip):
    result = svc.wishlist_add(owner=user, card=common, quantity=3)
    assert result.status == "added"
    # Said with the card's name, never its code.
    assert result.detail == f"You want 3 of {common.name}: added to your wishlist."
    assert common.code not in result.detail
    assert svc.wishlist_add(owner=user, card=common, quantity=2).status == "updated"
    wished = svc.wishlist_add(owner=user, kicker_chip=chip, quantity=1)
    assert wished.status == "added" and chip.code not in wished.detail
    assert f"the {chip.color} kicker chip" in wished.detail
    assert WishlistEntry.objects.get(owner=user, card=common).quantity == 2


def test_wishing_for_what_you_already_own_says_so(user, binder, common):
    svc.entry_adjust(collection=binder, card=common, delta=2)
    result = svc.wishlist_add(owner=user, card=common, quantity=2)
    assert result.status == "already_owned"
    assert result.owned == 2
    assert "already own 2" in result.detail
    assert not WishlistEntry.objects.exists()
    assert svc.wishlist_add(owner=user, card=common, quantity=3).status == "added"


@pytest.mark.parametrize("quantity", [0, -1, MAX_QUANTITY + 1])
def test_wishlist_refuses_absurd_quantities(user, common, quantity):
    with pytest.raises(DomainError):
        svc.wishlist_add(owner=user, card=common, quantity=quantity)
    assert not WishlistEntry.objects.exists()


def test_wishlist_wants_a_card_or_a_chip_not_both(user, common, chip):
    with pytest.raises(DomainError):
        svc.wishlist_add(owner=user, card=common, kicker_chip=chip, quantity=1)
    with pytest.raises(DomainError):
        svc.wishlist_add(owner=user, quantity=1)
