"""Reads of collections: completion, missing cards, owned counts on the grid, the wishlist, the
trade list and trade matching. Everything is counted by the database (aggregates and
subqueries), never by looping over entries in Python, so a 20,000-entry collection stays fast.

Rules (docs/collections.md):

* **Playset**: the most copies a standard deck may hold, from the one rules module
  (`simulator.engine.drifter.formats.RARITY_LIMITS`): common 3, uncommon 2, rare, fixed and
  promo 1 (promos take the strictest limit, as formats.py decides).
* **Trade list**: of each card, the copies (all conditions together) beyond what the owner
  keeps. By default the owner keeps a playset or as many as any one of their decks uses,
  whichever is more; a `TradeKeep` row overrides that for one card.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias, TypedDict

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce, Greatest, Least

from cards import selectors
from cards.models import Card, CardSet, KickerChip
from collecting import hooks
from collecting.models import (
    CardScan,
    Collection,
    CollectionChip,
    CollectionEntry,
    Condition,
    ProductOpening,
    TradeKeep,
    WishlistEntry,
)
from simulator.engine.drifter.formats import RARITY_LIMITS

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class _WishCounts(TypedDict):
    owned: int  # copies in all the owner's collections
    needed: int  # copies still wanted


# A wishlist line as `wishlist` answers it, with its two counts.
WishWithCounts: TypeAlias = "WithAnnotations[WishlistEntry, _WishCounts]"


class _TradeCounts(TypedDict):
    owned: int
    default_keep: int
    keep: int
    keep_overridden: bool
    tradeable: int


# A card of a trade list as `tradelist` answers it, with its counts.
CardWithTradeCounts: TypeAlias = "WithAnnotations[Card, _TradeCounts]"


def playset_limit() -> Case:
    """The playset size of each card as a SQL expression (see the module docstring)."""
    return Case(
        *(When(rarity=rarity, then=Value(limit)) for rarity, limit in RARITY_LIMITS.items()),
        default=Value(1),
        output_field=IntegerField(),
    )


def _owned_in(collections: QuerySet[Collection] | Collection) -> Coalesce:
    """Copies of the outer card (all conditions) in one collection or a set of collections."""
    entries = CollectionEntry.objects.filter(card=OuterRef("pk"))
    if isinstance(collections, Collection):
        entries = entries.filter(collection=collections)
    else:
        entries = entries.filter(collection__in=collections)
    total = entries.order_by().values("card").annotate(n=Sum("quantity")).values("n")
    return Coalesce(Subquery(total, output_field=IntegerField()), Value(0))


# --- Collections -------------------------------------------------------------------------------


def collection_list(*, owner: User) -> QuerySet[Collection]:
    """The owner's collections with their card and chip totals."""
    cards = (
        CollectionEntry.objects.filter(collection=OuterRef("pk"))
        .order_by()
        .values("collection")
        .annotate(n=Sum("quantity"))
        .values("n")
    )
    chips = (
        CollectionChip.objects.filter(collection=OuterRef("pk"))
        .order_by()
        .values("collection")
        .annotate(n=Sum("quantity"))
        .values("n")
    )
    return Collection.objects.filter(owner=owner).annotate(
        card_count=Coalesce(Subquery(cards, output_field=IntegerField()), Value(0)),
        chip_count=Coalesce(Subquery(chips, output_field=IntegerField()), Value(0)),
    )


def collection_for_tradelist(*, user: User | AnonymousUser, pk: int) -> Collection | None:
    """A collection whose trade list `user` may read: their own, or anyone's public one."""
    visible = Q(trade_list_public=True)
    if user.is_authenticated:
        visible |= Q(owner=user)
    return Collection.objects.filter(visible, pk=pk).select_related("owner").first()


def entry_list(*, collection: Collection) -> QuerySet[CollectionEntry]:
    return collection.entries.select_related("card", "card__card_set")


def chip_list(*, collection: Collection) -> QuerySet[CollectionChip]:
    return collection.chips.select_related("kicker_chip", "kicker_chip__card_set")


def opening_list(*, collection: Collection) -> QuerySet[ProductOpening]:
    return collection.openings.select_related("card_set", "starter")


def scan_list(*, owner: User) -> QuerySet[CardScan]:
    return CardScan.objects.filter(owner=owner).select_related("card", "collection")


# --- Completion --------------------------------------------------------------------------------


@dataclass
class Completion:
    """Completion figures for one set (or one rarity of a set)."""

    code: str
    name: str
    total: int = 0  # distinct cards in the set
    owned: int = 0  # distinct cards with at least one copy
    copies: int = 0  # copies owned (all conditions)
    playset_owned: int = 0  # copies counted up to a playset per card
    playset_total: int = 0  # copies a full playset of the set needs
    rarities: list[Completion] = field(default_factory=list)

    @property
    def percent(self) -> float:
        return round(100 * self.owned / self.total, 1) if self.total else 0.0

    @property
    def playset_percent(self) -> float:
        return (
            round(100 * self.playset_owned / self.playset_total, 1) if self.playset_total else 0.0
        )

    @property
    def missing(self) -> int:
        return self.total - self.owned

    def add(self, other: Completion) -> None:
        for name in ("total", "owned", "copies", "playset_owned", "playset_total"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_dict(self) -> dict:
        out = {
            "code": self.code,
            "name": self.name,
            "total": self.total,
            "owned": self.owned,
            "missing": self.missing,
            "copies": self.copies,
            "percent": self.percent,
            "playset_owned": self.playset_owned,
            "playset_total": self.playset_total,
            "playset_percent": self.playset_percent,
        }
        if self.rarities:
            out["rarities"] = [r.as_dict() for r in self.rarities]
        return out


RARITY_ORDER = {r: i for i, r in enumerate(Card.Rarity.values)}


def completion(*, collection: Collection) -> list[Completion]:
    """Per set and per rarity: distinct cards owned, copies, playset completion.

    One grouped query (set x rarity, at most a few dozen rows) does the counting; the per-set
    figures are sums of those rows.
    """
    rows = (
        Card.objects.annotate(owned=_owned_in(collection), limit=playset_limit())
        .order_by()
        .values("card_set__code", "card_set__name", "card_set__order", "rarity")
        .annotate(
            total=Count("id"),
            owned_distinct=Count("id", filter=Q(owned__gt=0)),
            copies=Sum("owned"),
            playset_owned=Sum(Least(F("owned"), F("limit"))),
            playset_total=Sum("limit"),
        )
    )
    sets: dict[str, Completion] = {}
    for row in sorted(
        rows, key=lambda r: (r["card_set__order"], r["card_set__code"], RARITY_ORDER[r["rarity"]])
    ):
        code = row["card_set__code"]
        whole = sets.setdefault(code, Completion(code=code, name=row["card_set__name"]))
        part = Completion(
            code=row["rarity"],
            name=Card.Rarity(row["rarity"]).label,
            total=row["total"],
            owned=row["owned_distinct"],
            copies=row["copies"] or 0,
            playset_owned=row["playset_owned"] or 0,
            playset_total=row["playset_total"] or 0,
        )
        whole.add(part)
        whole.rarities.append(part)
    return list(sets.values())


def missing_cards(
    *, collection: Collection, card_set: CardSet | None = None, playset: bool = False
) -> QuerySet[Card]:
    """Cards the collection lacks (or, with `playset`, lacks a full playset of), each annotated
    with `owned`, `limit` and `missing` (copies still needed)."""
    cards = Card.objects.select_related("card_set").annotate(
        owned=_owned_in(collection), limit=playset_limit()
    )
    if card_set is not None:
        cards = cards.filter(card_set=card_set)
    if playset:
        return cards.filter(owned__lt=F("limit")).annotate(missing=F("limit") - F("owned"))
    return cards.filter(owned=0).annotate(missing=Value(1, output_field=IntegerField()))


def collection_cards(*, collection: Collection, q: str = "") -> QuerySet[Card]:
    """The catalogue search (`cards.selectors.card_list`) with each card's `owned` copies in
    this collection. Raises `QuerySyntaxError` for a malformed query."""
    return selectors.card_list(q=q).annotate(owned=_owned_in(collection))


def owned_of(*, collection: Collection, card: Card) -> int:
    """Copies of one card in a collection, all conditions."""
    total = collection.entries.filter(card=card).aggregate(n=Sum("quantity"))["n"]
    return total or 0


def owned_by_user(
    *, owner: User, card: Card | None = None, kicker_chip: KickerChip | None = None
) -> int:
    """Copies of a card or a chip across all the owner's collections."""
    qs: QuerySet[CollectionEntry] | QuerySet[CollectionChip]
    if card is not None:
        qs = CollectionEntry.objects.filter(collection__owner=owner, card=card)
    else:
        qs = CollectionChip.objects.filter(collection__owner=owner, kicker_chip=kicker_chip)
    return qs.aggregate(n=Sum("quantity"))["n"] or 0


# --- Wishlist ----------------------------------------------------------------------------------


def wishlist(*, owner: User) -> QuerySet[WishWithCounts]:
    """The owner's wishlist, each line with `owned` (all their collections) and `needed`."""
    mine = Collection.objects.filter(owner=owner)
    card_owned = (
        CollectionEntry.objects.filter(collection__in=mine, card=OuterRef("card"))
        .order_by()
        .values("card")
        .annotate(n=Sum("quantity"))
        .values("n")
    )
    chip_owned = (
        CollectionChip.objects.filter(collection__in=mine, kicker_chip=OuterRef("kicker_chip"))
        .order_by()
        .values("kicker_chip")
        .annotate(n=Sum("quantity"))
        .values("n")
    )
    return (
        WishlistEntry.objects.filter(owner=owner)
        .select_related("card", "card__card_set", "kicker_chip")
        .annotate(
            owned=Coalesce(
                Case(
                    When(card__isnull=False, then=Subquery(card_owned)),
                    default=Subquery(chip_owned),
                    output_field=IntegerField(),
                ),
                Value(0),
            )
        )
        .annotate(needed=Greatest(F("quantity") - F("owned"), Value(0)))
    )


# --- Trade list --------------------------------------------------------------------------------


def tradelist(*, collection: Collection) -> QuerySet[CardWithTradeCounts]:
    """Cards with copies to spare in this collection, each with `owned`, `keep`, `tradeable`
    and `keep_overridden` (the owner set `keep` for this card)."""
    override = TradeKeep.objects.filter(collection=collection, card=OuterRef("pk")).values("keep")
    return (
        Card.objects.select_related("card_set")
        .filter(Exists(CollectionEntry.objects.filter(collection=collection, card=OuterRef("pk"))))
        .annotate(
            owned=_owned_in(collection),
            default_keep=Greatest(playset_limit(), hooks.deck_use(collection.owner_id)),
            keep=Coalesce(Subquery(override, output_field=IntegerField()), F("default_keep")),
            keep_overridden=Exists(override),
        )
        .annotate(tradeable=F("owned") - F("keep"))
        .filter(tradeable__gt=0)
    )


def _tradeable_by_card(collections: QuerySet[Collection]) -> dict[int, int]:
    out: dict[int, int] = {}
    for collection in collections:  # a user has a handful of collections, not thousands
        for card_id, n in tradelist(collection=collection).values_list("id", "tradeable"):
            out[card_id] = out.get(card_id, 0) + n
    return out


@dataclass(frozen=True)
class TradeMatch:
    card: Card
    quantity: int  # copies that could change hands
    wanted: int  # copies the wanting side still needs
    spare: int  # copies the having side can trade


def _match(wants: Iterable[WishWithCounts], haves: dict[int, int]) -> list[TradeMatch]:
    matches = []
    for w in wants:
        if w.card_id and w.needed > 0 and haves.get(w.card_id):
            assert w.card is not None  # card_id is set
            matches.append(
                TradeMatch(
                    card=w.card,
                    quantity=min(w.needed, haves[w.card_id]),
                    wanted=w.needed,
                    spare=haves[w.card_id],
                )
            )
    return matches


def trade_matches(*, me: User, them: User) -> dict[str, list[TradeMatch]]:
    """My wishlist against their public trade lists, and their wishlist against my trade lists.

    Their wishlist is only read when they have at least one public trade list (they asked to
    trade); otherwise only the first half is answered.
    """
    theirs_public = Collection.objects.filter(owner=them, trade_list_public=True)
    if not theirs_public.exists():
        return {"they_have_i_want": [], "i_have_they_want": []}
    they_have = _tradeable_by_card(theirs_public)
    i_have = _tradeable_by_card(Collection.objects.filter(owner=me))
    return {
        "they_have_i_want": _match(wishlist(owner=me), they_have),
        "i_have_they_want": _match(wishlist(owner=them), i_have),
    }


# --- Export --------------------------------------------------------------------------------------

FULL_HEADER = (
    "set_code",
    "collector_number",
    "name",
    "condition",
    "quantity",
    "notes",
    "acquired_on",
)
SHORT_HEADER = ("code", "qty", "condition")


def export_rows(*, collection: Collection, shape: str = "full") -> tuple[tuple, Iterable[tuple]]:
    """The header and rows of a collection CSV (docs/collections.md), cards then chips, in
    collector order. Rows stream from the database (`iterator()`), so a big collection is not
    held in memory."""
    entries = (
        collection.entries.order_by("card__card_set__order", "card__number", "condition")
        .values_list(
            "card__card_set__code",
            "card__number",
            "card__name",
            "card__code",
            "condition",
            "quantity",
            "notes",
            "acquired_on",
        )
        .iterator(chunk_size=2000)
    )
    chips = (
        collection.chips.order_by("kicker_chip__card_set__order", "kicker_chip__code")
        .values_list("kicker_chip__card_set__code", "kicker_chip__code", "quantity", "notes")
        .iterator(chunk_size=2000)
    )
    labels = dict(Condition.choices)

    def full() -> Iterable[tuple]:
        for set_code, number, name, _code, condition, qty, notes, acquired in entries:
            yield (
                set_code,
                number,
                name,
                labels[condition],
                qty,
                notes,
                acquired.isoformat() if acquired else "",
            )
        for set_code, code, qty, notes in chips:
            yield (set_code, code.rsplit("-", 1)[1], code, "", qty, notes, "")

    def short() -> Iterable[tuple]:
        for _set, _number, _name, code, condition, qty, *_ in entries:
            yield (code, qty, condition)
        for _set, code, qty, _notes in chips:
            yield (code, qty, "")

    if shape == "short":
        return SHORT_HEADER, short()
    return FULL_HEADER, full()
