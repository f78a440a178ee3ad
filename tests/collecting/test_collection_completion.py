"""Set completion, missing cards, the trade list and trade matching, counted by the database."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from cards.models import Card, CardSet
from collecting import services as svc
from collecting.models import Collection, CollectionEntry
from collecting.selectors import completion, missing_cards, trade_matches, tradelist
from tests.collecting.collection_fixtures import *  # noqa: F403
from tests.factories import UserFactory


def _hsd(rows):
    return next(r for r in rows if r.code == "HSD")


def _rarity(row, rarity):
    return next(r for r in row.rarities if r.code == rarity)


def test_an_empty_collection_completes_nothing(binder):
    hsd = _hsd(completion(collection=binder))
    assert hsd.total == Card.objects.filter(card_set__code="HSD").count()
    assert (hsd.owned, hsd.copies, hsd.playset_owned, hsd.percent) == (0, 0, 0, 0.0)


def test_completion_counts_distinct_cards_copies_and_playsets(binder, common, uncommon, rare):
    svc.entry_adjust(collection=binder, card=common, delta=2, condition="mint")
    svc.entry_adjust(collection=binder, card=common, delta=3, condition="poor")
    svc.entry_adjust(collection=binder, card=uncommon, delta=1)
    svc.entry_adjust(collection=binder, card=rare, delta=4)
    hsd = _hsd(completion(collection=binder))
    assert hsd.owned == 3
    assert hsd.copies == 10
    # a playset is 3 common, 2 uncommon, 1 rare: 5 commons count 3, 4 rares count 1
    assert hsd.playset_owned == 3 + 1 + 1
    cards = Card.objects.filter(card_set__code="HSD")
    limits = {"common": 3, "uncommon": 2}
    assert hsd.playset_total == sum(limits.get(c.rarity, 1) for c in cards)
    assert _rarity(hsd, "common").owned == 1
    assert _rarity(hsd, "common").playset_owned == 3
    assert _rarity(hsd, "uncommon").playset_owned == 1
    assert _rarity(hsd, "rare").copies == 4
    assert hsd.percent == round(100 * 3 / hsd.total, 1)


def test_promo_cards_count_a_playset_of_one(binder):
    promo = Card.objects.filter(card_set__code="HSD", rarity="promo").order_by("number").first()
    assert promo is not None, "the shipped HSD set has promo cards"
    svc.entry_adjust(collection=binder, card=promo, delta=3)
    promos = _rarity(_hsd(completion(collection=binder)), "promo")
    assert (promos.owned, promos.copies, promos.playset_owned) == (1, 3, 1)


def test_other_collections_do_not_count(binder, user, other_user, common):
    other = Collection.objects.create(owner=other_user, name="Binder")
    mine2 = Collection.objects.create(owner=user, name="Trade box")
    svc.entry_adjust(collection=other, card=common, delta=3)
    svc.entry_adjust(collection=mine2, card=common, delta=3)
    assert _hsd(completion(collection=binder)).owned == 0


def test_missing_lists_cards_not_owned(binder, common):
    svc.entry_adjust(collection=binder, card=common, delta=1)
    hsd = CardSet.objects.get(code="HSD")
    missing = missing_cards(collection=binder, card_set=hsd)
    assert missing.count() == hsd.cards.count() - 1
    assert common not in missing
    short = missing_cards(collection=binder, card_set=hsd, playset=True)
    assert short.get(pk=common.pk).missing == 2


def test_completion_takes_a_fixed_number_of_queries(binder, catalogue):
    """However big the collection, completion is one grouped query."""
    cards = list(Card.objects.all())
    CollectionEntry.objects.bulk_create(
        CollectionEntry(collection=binder, card=card, condition=cond, quantity=i % 5 + 1)
        for i, card in enumerate(cards)
        for cond in ("mint", "good", "poor")
    )
    with CaptureQueriesContext(connection) as queries:
        rows = completion(collection=binder)
    assert len(queries) == 1
    assert sum(r.owned for r in rows) == len(cards)


def test_the_trade_list_holds_copies_beyond_a_playset(binder, common, uncommon, rare):
    svc.entry_adjust(collection=binder, card=common, delta=5)
    svc.entry_adjust(collection=binder, card=uncommon, delta=2)
    svc.entry_adjust(collection=binder, card=rare, delta=1, condition="mint")
    svc.entry_adjust(collection=binder, card=rare, delta=2, condition="poor")
    trade = {c.code: c.tradeable for c in tradelist(collection=binder)}
    assert trade == {common.code: 2, rare.code: 2}


def test_the_owner_adjusts_what_to_keep(binder, common, uncommon):
    svc.entry_adjust(collection=binder, card=common, delta=5)
    svc.entry_adjust(collection=binder, card=uncommon, delta=2)
    svc.trade_keep_set(collection=binder, card=common, keep=4)
    svc.trade_keep_set(collection=binder, card=uncommon, keep=0)
    trade = {c.code: (c.tradeable, c.keep_overridden) for c in tradelist(collection=binder)}
    assert trade == {common.code: (1, True), uncommon.code: (2, True)}
    svc.trade_keep_set(collection=binder, card=common, keep=None)
    assert {c.code: c.tradeable for c in tradelist(collection=binder)}[common.code] == 2


def test_trades_match_my_wants_with_their_haves_and_back(user, binder, common, uncommon, rare):
    them = UserFactory()
    their_box = Collection.objects.create(owner=them, name="Trade box", trade_list_public=True)
    svc.entry_adjust(collection=their_box, card=common, delta=6)  # 3 spare
    svc.entry_adjust(collection=binder, card=rare, delta=3)  # 2 spare
    svc.entry_adjust(collection=binder, card=common, delta=1)
    svc.wishlist_add(owner=user, card=common, quantity=3)  # I still need 2
    svc.wishlist_add(owner=them, card=rare, quantity=1)
    svc.wishlist_add(owner=them, card=uncommon, quantity=1)  # nobody has it
    matches = trade_matches(me=user, them=them)
    assert [(m.card.code, m.quantity, m.wanted, m.spare) for m in matches["they_have_i_want"]] == [
        (common.code, 2, 2, 3)
    ]
    assert [(m.card.code, m.quantity) for m in matches["i_have_they_want"]] == [(rare.code, 1)]


def test_no_matching_against_a_user_without_a_public_trade_list(user, common):
    them = UserFactory()
    box = Collection.objects.create(owner=them, name="Private")
    svc.entry_adjust(collection=box, card=common, delta=9)
    svc.wishlist_add(owner=user, card=common, quantity=3)
    assert trade_matches(me=user, them=them) == {"they_have_i_want": [], "i_have_they_want": []}


def test_the_trade_list_keeps_what_a_deck_uses_when_more_than_a_playset(user, binder, common):
    from decks.models import DeckCard
    from tests.factories import DeckFactory

    svc.entry_adjust(collection=binder, card=common, delta=6)
    # a Stud deck has no copy limit: five copies of one common
    DeckCard.objects.create(deck=DeckFactory(owner=user, format="stud"), card=common, qty=5)
    DeckCard.objects.create(deck=DeckFactory(owner=user), card=common, qty=2)
    DeckCard.objects.create(deck=DeckFactory(), card=common, qty=6)  # someone else's deck
    row = tradelist(collection=binder).get(pk=common.pk)
    assert (row.keep, row.tradeable) == (5, 1)
