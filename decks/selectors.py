"""Reads: decks (owner-scoped or public by link), their contents, legality, statistics and
history; pools and draft pods."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404

from decks.catalogue import engine_catalogue
from decks.models import Deck, DeckVersion, DraftPod, Pool
from decks.stats import deck_stats as _deck_stats
from simulator.engine.drifter import formats


def deck_list(*, owner) -> QuerySet[Deck]:
    """The decks `owner` may edit (anonymous: none)."""
    if not getattr(owner, "is_authenticated", False):
        return Deck.objects.none()
    return Deck.objects.filter(owner=owner).select_related("pool")


def deck_get(*, owner, pk: int) -> Deck:
    """One of `owner`'s decks; Http404 for anyone else's (private or not: edits are owner-only)."""
    try:
        return deck_list(owner=owner).get(pk=pk)
    except (Deck.DoesNotExist, ValueError, TypeError):
        raise Http404("No such deck.") from None


def deck_public(*, slug: str) -> Deck:
    """A public deck by its unguessable link; Http404 if private or unknown."""
    try:
        return Deck.objects.select_related("pool", "owner").get(slug=slug, is_public=True)
    except Deck.DoesNotExist:
        raise Http404("No such deck.") from None


def deck_contents(deck: Deck) -> tuple[dict[str, int], dict[str, int]]:
    """The deck's cards and kicker chips as {code: qty}, in catalogue order."""
    cards = dict(
        deck.entries.order_by("card__card_set__order", "card__number").values_list(
            "card__code", "qty"
        )
    )
    chips = dict(
        deck.chip_entries.order_by("kicker_chip__code").values_list("kicker_chip__code", "qty")
    )
    return cards, chips


def pool_of(pool: Pool | None) -> formats.Pool | None:
    """The engine's view of a sealed or drafted pool."""
    if pool is None:
        return None
    return formats.Pool(cards=dict(pool.cards), kicker_chips=dict(pool.kicker_chips))


def deck_problems(deck: Deck, *, owned: formats.Pool | None = None) -> list[formats.Problem]:
    """Every reason `deck` is not legal in its format (empty: legal)."""
    cards, chips = deck_contents(deck)
    return formats.validate_deck(
        fmt=deck.format,
        cards=cards,
        kicker_chips=chips,
        catalogue=engine_catalogue(),
        pool=pool_of(deck.pool),
        owned=owned,
    )


def deck_statistics(deck: Deck) -> dict[str, Any]:
    cards, chips = deck_contents(deck)
    return _deck_stats(cards=cards, kicker_chips=chips, catalogue=engine_catalogue())


def deck_rows(deck: Deck) -> list[dict[str, Any]]:
    """The deck's cards with their card data, for pages: [{card, qty}] sorted by type, cost."""
    order = {"dude": 0, "gear": 1, "fortune": 2}
    rows = [{"card": e.card, "qty": e.qty} for e in deck.entries.select_related("card")]
    rows.sort(key=lambda r: (order.get(r["card"].type, 3), r["card"].cost, r["card"].name))
    return rows


def version_list(deck: Deck) -> QuerySet[DeckVersion]:
    return deck.versions.all()


def version_get(deck: Deck, number: int) -> DeckVersion:
    try:
        return deck.versions.get(number=number)
    except DeckVersion.DoesNotExist:
        raise Http404(f"No version {number} of this deck.") from None


def _diff_map(old: dict[str, int], new: dict[str, int]) -> dict[str, list[dict[str, Any]]]:
    added = [{"code": c, "qty": q} for c, q in new.items() if c not in old]
    removed = [{"code": c, "qty": q} for c, q in old.items() if c not in new]
    changed = [
        {"code": c, "from": old[c], "to": new[c]} for c in new if c in old and old[c] != new[c]
    ]
    return {"added": added, "removed": removed, "changed": changed}


def version_diff(old: DeckVersion, new: DeckVersion) -> dict[str, Any]:
    """What changed between two snapshots: cards and chips added, removed, changed; fields."""
    a, b = old.snapshot, new.snapshot
    fields = {
        k: {"from": a.get(k), "to": b.get(k)}
        for k in ("name", "format", "description")
        if a.get(k) != b.get(k)
    }
    return {
        "from": old.number,
        "to": new.number,
        "fields": fields,
        "cards": _diff_map(a.get("cards", {}), b.get("cards", {})),
        "kicker_chips": _diff_map(a.get("kicker_chips", {}), b.get("kicker_chips", {})),
    }


def pool_list(*, owner) -> QuerySet[Pool]:
    if not getattr(owner, "is_authenticated", False):
        return Pool.objects.none()
    return Pool.objects.filter(owner=owner)


def pool_get(*, owner, pk: int) -> Pool:
    try:
        return pool_list(owner=owner).get(pk=pk)
    except (Pool.DoesNotExist, ValueError, TypeError):
        raise Http404("No such pool.") from None


def pod_list(*, user) -> QuerySet[DraftPod]:
    """Pods a person can see: open ones (to join) and those they sit at or created."""
    if not getattr(user, "is_authenticated", False):
        return DraftPod.objects.none()
    return (
        DraftPod.objects.filter(
            Q(status=DraftPod.Status.OPEN) | Q(owner=user) | Q(seat_set__user=user)
        )
        .distinct()
        .prefetch_related("seat_set")
    )


def pod_get(*, user, pk: int) -> DraftPod:
    try:
        return pod_list(user=user).get(pk=pk)
    except (DraftPod.DoesNotExist, ValueError, TypeError):
        raise Http404("No such draft pod.") from None
