"""A deck against what its owner owns: what is missing, and adding it to the wishlist.

Counts copies across all the owner's collections (every condition) unless one collection is
named. The wishlist holds "the total you want to own", so a missing card is wished for at the
deck's quantity (never lowering a bigger wish already there).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Expression, IntegerField, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.http import Http404

from cards.models import Card, KickerChip
from collecting.models import Collection, CollectionChip, CollectionEntry, WishlistEntry
from collecting.services import wishlist_add
from decks.models import Deck, DeckCard
from decks.selectors import deck_contents
from simulator.engine.drifter import formats


def deck_use(owner_id: int) -> Expression:
    """Copies of the outer card the owner's decks use: the most any one of their decks holds
    (decks are rebuilt between games, so two decks sharing a card do not need two sets).

    A trade list keeps these by default; the collecting app asks for it through
    `collecting.hooks` (DecksConfig.ready hands it in), so collections need not import decks.
    """
    most = (
        DeckCard.objects.filter(deck__owner_id=owner_id, card=OuterRef("pk"))
        .order_by("-qty")
        .values("qty")[:1]
    )
    return Coalesce(Subquery(most, output_field=IntegerField()), Value(0))


def _collections(owner, collection_id: int | None):
    qs = Collection.objects.filter(owner=owner)
    if collection_id is not None:
        qs = qs.filter(pk=collection_id)
        if not qs.exists():
            raise Http404("No such collection.")
    return qs


def owned(*, owner, collection_id: int | None = None) -> formats.Pool:
    """What `owner` owns, as an engine pool {code: copies}."""
    cols = _collections(owner, collection_id)
    cards = dict(
        CollectionEntry.objects.filter(collection__in=cols)
        .values("card__code")
        .annotate(n=Sum("quantity"))
        .values_list("card__code", "n")
    )
    chips = dict(
        CollectionChip.objects.filter(collection__in=cols)
        .values("kicker_chip__code")
        .annotate(n=Sum("quantity"))
        .values_list("kicker_chip__code", "n")
    )
    return formats.Pool(cards=cards, kicker_chips=chips)


def deck_missing(*, owner, deck: Deck, collection_id: int | None = None) -> dict[str, Any]:
    """Each card and chip of the deck the owner lacks: needed, owned and missing copies."""
    have = owned(owner=owner, collection_id=collection_id)
    cards, chips = deck_contents(deck)
    names = dict(Card.objects.filter(code__in=list(cards)).values_list("code", "name"))
    out: dict[str, Any] = {"collection": collection_id, "cards": [], "kicker_chips": []}
    for key, wanted, pool in (
        ("cards", cards, have.cards),
        ("kicker_chips", chips, have.kicker_chips),
    ):
        for code, need in wanted.items():
            got = pool.get(code, 0)
            if got < need:
                row = {"code": code, "need": need, "owned": got, "missing": need - got}
                if key == "cards":
                    row["name"] = names.get(code, code)
                out[key].append(row)
    return out


@transaction.atomic
def deck_wishlist_missing(*, owner, deck: Deck, collection_id: int | None = None) -> int:
    """Wish for every missing card and chip of `deck`; returns how many lines were wished."""
    missing = deck_missing(owner=owner, deck=deck, collection_id=collection_id)
    cards = {c.code: c for c in Card.objects.filter(code__in=[r["code"] for r in missing["cards"]])}
    chips = {
        k.code: k
        for k in KickerChip.objects.filter(code__in=[r["code"] for r in missing["kicker_chips"]])
    }
    wishes = {
        (w.card_id, w.kicker_chip_id): w.quantity for w in WishlistEntry.objects.filter(owner=owner)
    }
    count = 0
    for row in missing["cards"]:
        card = cards[row["code"]]
        wishlist_add(
            owner=owner, card=card, quantity=max(row["need"], wishes.get((card.pk, None), 0))
        )
        count += 1
    for row in missing["kicker_chips"]:
        chip = chips[row["code"]]
        wishlist_add(
            owner=owner, kicker_chip=chip, quantity=max(row["need"], wishes.get((None, chip.pk), 0))
        )
        count += 1
    return count


def missing_for_page(*, owner, deck: Deck) -> dict[str, Any] | None:
    """The deck page's "missing from your collections" box (None if no collections)."""
    if not Collection.objects.filter(owner=owner).exists():
        return None
    return deck_missing(owner=owner, deck=deck)
