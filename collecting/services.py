"""Writes to collections: copies in and out, openings, CSV import, wishlist, trade-list keeps
and scans. Keyword-only, atomic, and every refusal is a `config.api.DomainError`.

Quantities change only by relative updates in the database (`quantity = quantity + n`, or an
upsert that adds), never by reading a number into Python and writing it back, so two quick
clicks (or a click during an import) never lose an update.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.db import IntegrityError, connection, transaction
from django.db.models import F

from cards.models import Card, CardSet, KickerChip, StarterDeck
from collecting import csv_format as collection_csv
from collecting import hooks, scans
from collecting.models import (
    MAX_QUANTITY,
    CardScan,
    Collection,
    CollectionChip,
    CollectionEntry,
    Condition,
    ProductOpening,
    TradeKeep,
    WishlistEntry,
)
from collecting.selectors import owned_by_user
from config.api import DomainError
from simulator.engine.drifter.sealed import open_booster


class CollectionImportError(DomainError):
    """A refused import: its problems are every bad row (code, detail, attr, line, column)."""


def _check_quantity(value: Any, *, attr: str = "quantity", allow_zero: bool = False) -> int:
    low = 0 if allow_zero else 1
    if type(value) is not int or not low <= value <= MAX_QUANTITY:
        raise DomainError(
            f"{attr} must be a whole number from {low} to {MAX_QUANTITY}.",
            code="invalid_quantity",
            attr=attr,
        )
    return value


def _check_condition(condition: str) -> str:
    if condition not in Condition.values:
        raise DomainError(
            f"{condition!r} is not a condition.", code="invalid_condition", attr="condition"
        )
    return condition


# --- Collections -------------------------------------------------------------------------------


@transaction.atomic
def collection_create(*, owner: User, name: str, trade_list_public: bool = False) -> Collection:
    """A new named collection; names are unique per owner."""
    name = name.strip()
    if not name:
        raise DomainError("A collection needs a name.", code="blank", attr="name")
    if Collection.objects.filter(owner=owner, name=name).exists():
        raise DomainError(
            f"You already have a collection called {name!r}.", code="unique", attr="name"
        )
    return Collection.objects.create(owner=owner, name=name, trade_list_public=trade_list_public)


@transaction.atomic
def collection_update(
    *, collection: Collection, name: str | None = None, trade_list_public: bool | None = None
) -> Collection:
    """Rename a collection or publish / hide its trade list."""
    if name is not None:
        name = name.strip()
        if not name:
            raise DomainError("A collection needs a name.", code="blank", attr="name")
        clash = Collection.objects.filter(owner_id=collection.owner_id, name=name)
        if clash.exclude(pk=collection.pk).exists():
            raise DomainError(
                f"You already have a collection called {name!r}.", code="unique", attr="name"
            )
        collection.name = name
    if trade_list_public is not None:
        collection.trade_list_public = trade_list_public
    collection.save()
    return collection


@transaction.atomic
def collection_delete(*, collection: Collection) -> None:
    """Delete a collection with its entries, chips, keeps, openings and scans (and their files)."""
    for scan in collection.scans.all():
        _delete_scan_files(scan)
    collection.delete()


def collection_default(*, owner: User) -> Collection:
    """The owner's first collection, creating "Binder" if they have none."""
    collection = Collection.objects.filter(owner=owner).order_by("id").first()
    if collection is None:
        collection, _ = Collection.objects.get_or_create(owner=owner, name="Binder")
    return collection


# --- One click: copies in and out ---------------------------------------------------------------


def _adjust(
    model: type[CollectionEntry | CollectionChip], lookup: dict[str, Any], delta: int | None
) -> int:
    """Add `delta` (may be negative) to the row matching `lookup`, atomically; the new count."""
    if type(delta) is not int or delta == 0 or abs(delta) > MAX_QUANTITY:
        raise DomainError(
            f"delta must be a non-zero whole number from -{MAX_QUANTITY} to {MAX_QUANTITY}.",
            code="invalid_delta",
            attr="delta",
        )
    rows = model.objects.filter(**lookup)
    if delta > 0:
        bump = rows.filter(quantity__lte=MAX_QUANTITY - delta)
        # Another click may create the row between any two of these statements: an update
        # that found nothing is only final once the row is seen and is too full to take more.
        for _ in range(5):
            if bump.update(quantity=F("quantity") + delta):
                break
            have = rows.values_list("quantity", flat=True).first()
            if have is not None:
                if have > MAX_QUANTITY - delta:
                    raise DomainError(
                        f"At most {MAX_QUANTITY} copies per entry.", code="too_many", attr="delta"
                    )
                continue  # the row appeared after the update looked: update it
            try:
                with transaction.atomic():  # a savepoint: a simultaneous first click may win
                    model.objects.create(**lookup, quantity=delta)
                break
            except IntegrityError:
                continue  # it did: update the row it made
        else:
            raise DomainError(
                "The entry is being changed by another request; try again.", code="busy", status=409
            )
    else:
        if not rows.filter(quantity__gte=-delta).update(quantity=F("quantity") + delta):
            have = rows.values_list("quantity", flat=True).first() or 0
            raise DomainError(
                f"Only {have} copies to take out, not {-delta}.",
                code="not_enough_copies",
                attr="delta",
            )
        rows.filter(quantity=0).delete()
    return rows.values_list("quantity", flat=True).first() or 0


@transaction.atomic
def entry_adjust(
    *, collection: Collection, card: Card, delta: int | None, condition: str = Condition.NEAR_MINT
) -> int:
    """Add (delta > 0) or take out (delta < 0) copies of a card in one condition; the new count.

    An entry that reaches 0 copies is deleted. Taking out more than there are is refused, and so
    is a delta that is not a whole number (None: the form sent none).
    """
    _check_condition(condition)
    return _adjust(
        CollectionEntry, {"collection": collection, "card": card, "condition": condition}, delta
    )


@transaction.atomic
def chip_adjust(*, collection: Collection, kicker_chip: KickerChip, delta: int) -> int:
    """Add or take out copies of a kicker chip; the new count (0 deletes the row)."""
    return _adjust(CollectionChip, {"collection": collection, "kicker_chip": kicker_chip}, delta)


@transaction.atomic
def entry_update(
    *,
    entry: CollectionEntry,
    quantity: int | None = None,
    notes: str | None = None,
    acquired_on: Any = None,
) -> CollectionEntry | None:
    """Set an entry's quantity (0 deletes it), notes or acquisition date (an edit form)."""
    fields = []
    if quantity is not None:
        _check_quantity(quantity, allow_zero=True)
        if quantity == 0:
            entry.delete()
            return None
        entry.quantity = quantity
        fields.append("quantity")
    if notes is not None:
        entry.notes = notes
        fields.append("notes")
    if acquired_on is not None:
        entry.acquired_on = acquired_on
        fields.append("acquired_on")
    if fields:
        entry.save(update_fields=fields)
    return entry


@transaction.atomic
def chip_update(
    *, chip: CollectionChip, quantity: int | None = None, notes: str | None = None
) -> CollectionChip | None:
    """Set a chip row's quantity (0 deletes it) or notes."""
    if quantity is not None:
        _check_quantity(quantity, allow_zero=True)
        if quantity == 0:
            chip.delete()
            return None
        chip.quantity = quantity
    if notes is not None:
        chip.notes = notes
    chip.save()
    return chip


# --- Adding many at once: the one upsert -------------------------------------------------------


@dataclass(frozen=True)
class AddedCounts:
    rows: int  # data rows read (an import) or lines added (an opening)
    card_copies: int
    chip_copies: int
    entries: int  # distinct (card, condition) entries touched
    chips: int  # distinct chips touched


def _upsert_add(table: str, columns: list[str], conflict: list[str], rows: list[tuple]) -> None:
    """INSERT ... ON CONFLICT DO UPDATE adding the quantities: one statement per 500 rows.

    Both SQLite (3.24+) and PostgreSQL speak this upsert, and the addition happens inside the
    database, so it is race-free and needs no read first.
    """
    if not rows:
        return
    qn = connection.ops.quote_name
    cols = ", ".join(qn(c) for c in columns)
    updates = [f"{qn('quantity')} = {qn(table)}.{qn('quantity')} + excluded.{qn('quantity')}"]
    if "notes" in columns:
        updates.append(
            f"{qn('notes')} = CASE WHEN excluded.{qn('notes')} <> '' THEN excluded.{qn('notes')} "
            f"ELSE {qn(table)}.{qn('notes')} END"
        )
    if "acquired_on" in columns:
        updates.append(
            f"{qn('acquired_on')} = COALESCE(excluded.{qn('acquired_on')}, "
            f"{qn(table)}.{qn('acquired_on')})"
        )
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), 500):
            batch = rows[start : start + 500]
            sql = (
                f"INSERT INTO {qn(table)} ({cols}) VALUES {', '.join([one] * len(batch))} "
                f"ON CONFLICT ({', '.join(qn(c) for c in conflict)}) DO UPDATE SET "
                + ", ".join(updates)
            )
            cursor.execute(sql, [value for row in batch for value in row])


def _add_many(
    *,
    collection: Collection,
    cards: Mapping[tuple[int, str], tuple[int, str, Any]],
    chips: Mapping[int, tuple[int, str]],
) -> None:
    """Add merged card quantities {(card_id, condition): (qty, notes, acquired_on)} and chip
    quantities {chip_id: (qty, notes)} to a collection in bulk."""
    try:
        with transaction.atomic():
            _upsert_add(
                CollectionEntry._meta.db_table,
                ["collection_id", "card_id", "condition", "quantity", "notes", "acquired_on"],
                ["collection_id", "card_id", "condition"],
                [(collection.pk, c, cond, q, n, a) for (c, cond), (q, n, a) in cards.items()],
            )
            _upsert_add(
                CollectionChip._meta.db_table,
                ["collection_id", "kicker_chip_id", "quantity", "notes"],
                ["collection_id", "kicker_chip_id"],
                [(collection.pk, c, q, n) for c, (q, n) in chips.items()],
            )
    except IntegrityError:
        # the check constraint: some entry would pass MAX_QUANTITY (callers check first; this
        # is the backstop for a click that raced them)
        raise DomainError(
            f"That would put more than {MAX_QUANTITY} copies in one entry.", code="too_many"
        ) from None


# --- Opening a product ---------------------------------------------------------------------------


@transaction.atomic
def opening_record(
    *,
    collection: Collection,
    starter: StarterDeck | None = None,
    card_set: CardSet | None = None,
    cards: Mapping[str, int] | None = None,
    kicker_chips: Mapping[str, int] | None = None,
    condition: str = Condition.NEAR_MINT,
) -> ProductOpening:
    """Record an opened starter (its contents come from the StarterDeck) or booster (the cards
    and chips found in it, by code) and add the contents to the collection.

    A booster must hold exactly the set's booster size of cards, all of that set, and at most
    its number of kicker chips.
    """
    _check_condition(condition)
    card_qty, chip_qty, card_set, kind = _opening_contents(starter, card_set, cards, kicker_chips)
    known_cards, known_chips = _known_contents(card_qty, chip_qty)
    if kind == ProductOpening.Kind.BOOSTER:
        _check_booster(card_set, card_qty, chip_qty, known_cards, known_chips)
    card_ids = dict(Card.objects.filter(code__in=card_qty).values_list("code", "id"))
    chip_ids = dict(KickerChip.objects.filter(code__in=chip_qty).values_list("code", "id"))
    _check_room(
        collection,
        {(card_ids[c], condition): q for c, q in card_qty.items()},
        {chip_ids[c]: q for c, q in chip_qty.items()},
    )
    _add_many(
        collection=collection,
        cards={(card_ids[c], condition): (q, "", None) for c, q in card_qty.items()},
        chips={chip_ids[c]: (q, "") for c, q in chip_qty.items()},
    )
    return ProductOpening.objects.create(
        collection=collection,
        kind=kind,
        card_set=card_set,
        starter=starter,
        contents={"cards": card_qty, "kicker_chips": chip_qty, "condition": condition},
    )


def _opening_contents(
    starter: StarterDeck | None,
    card_set: CardSet | None,
    cards: Mapping[str, int] | None,
    kicker_chips: Mapping[str, int] | None,
) -> tuple[dict[str, int], dict[str, int], CardSet, str]:
    """What was opened: copies by card code and by chip code, the set, and the kind (a starter's
    contents come from the catalogue, a booster's as they were found)."""
    if starter is not None:
        card_qty = {e["code"]: e["qty"] for e in starter.cards}
        chip_qty: dict[str, int] = {}
        for code in starter.kicker_chips:
            chip_qty[code] = chip_qty.get(code, 0) + 1
        return card_qty, chip_qty, starter.card_set, ProductOpening.Kind.STARTER
    if card_set is not None:
        return dict(cards or {}), dict(kicker_chips or {}), card_set, "booster"
    raise DomainError("Say which starter or which set's booster was opened.", code="required")


def _known_contents(
    card_qty: Mapping[str, int], chip_qty: Mapping[str, int]
) -> tuple[dict[str, int], dict[str, int]]:
    """The set id of every card and chip opened, by code; an unknown code or a bad quantity is
    refused."""
    known_cards = dict(Card.objects.filter(code__in=card_qty).values_list("code", "card_set_id"))
    known_chips = dict(
        KickerChip.objects.filter(code__in=chip_qty).values_list("code", "card_set_id")
    )
    for code, qty in card_qty.items():
        _check_quantity(qty, attr=f"cards.{code}")
        if code not in known_cards:
            raise DomainError(f"Unknown card {code}.", code="unknown_card", attr="cards")
    for code, qty in chip_qty.items():
        _check_quantity(qty, attr=f"kicker_chips.{code}")
        if code not in known_chips:
            raise DomainError(
                f"Unknown kicker chip {code}.", code="unknown_chip", attr="kicker_chips"
            )
    return known_cards, known_chips


def _check_booster(
    card_set: CardSet,
    card_qty: Mapping[str, int],
    chip_qty: Mapping[str, int],
    known_cards: Mapping[str, int],
    known_chips: Mapping[str, int],
) -> None:
    """A booster holds exactly the set's booster size of cards, all of that set, and at most
    its number of kicker chips."""
    layout = card_set.booster_layout or {}
    size = layout.get("cards") or sum(s["count"] for s in layout.get("slots", []))
    stray = sorted(c for c in card_qty if known_cards[c] != card_set.pk)
    stray += sorted(c for c in chip_qty if known_chips[c] != card_set.pk)
    if stray:
        raise DomainError(
            f"Not from {card_set.code}: {', '.join(stray)}.", code="wrong_set", attr="cards"
        )
    if sum(card_qty.values()) != size:
        raise DomainError(
            f"A {card_set.code} booster holds {size} cards, not {sum(card_qty.values())}.",
            code="wrong_booster_size",
            attr="cards",
        )
    if sum(chip_qty.values()) > layout.get("kicker_chips", 1):
        raise DomainError(
            f"A {card_set.code} booster holds {layout.get('kicker_chips', 1)} kicker chip(s).",
            code="wrong_booster_size",
            attr="kicker_chips",
        )


def _check_room(
    collection: Collection, cards: Mapping[tuple[int, str], int], chips: Mapping[int, int]
) -> None:
    over: list[tuple[int, str] | int] = [
        key
        for key, have in _existing(collection).items()
        if have + cards.get(key, 0) > MAX_QUANTITY
    ]
    over += [
        cid
        for cid, have in collection.chips.values_list("kicker_chip_id", "quantity")
        if have + chips.get(cid, 0) > MAX_QUANTITY
    ]
    if over:
        raise DomainError(f"More than {MAX_QUANTITY} copies in one entry.", code="too_many")


def _existing(collection: Collection) -> dict[tuple[int, str], int]:
    return {
        (card_id, cond): qty
        for card_id, cond, qty in collection.entries.values_list("card_id", "condition", "quantity")
    }


# --- CSV import ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportResult(AddedCounts):
    mode: str = "add"


@transaction.atomic
def collection_import_csv(*, collection: Collection, file: Any, mode: str = "add") -> ImportResult:
    """Import a collection CSV (docs/collections.md): all or nothing.

    `mode="add"` adds the file's copies to what the collection holds; `mode="replace"` makes the
    collection hold exactly the file. Rows naming the same card and condition (or the same chip)
    are merged: quantities add, the last non-blank notes and date win. Any bad row refuses the
    whole file with `CollectionImportError` listing every bad row.
    """
    if mode not in ("add", "replace"):
        raise DomainError("mode is add or replace.", code="invalid_mode", attr="mode")
    parsed = collection_csv.parse(_read_upload(file))
    merged = _merge_rows(parsed)
    errors = merged.errors
    if not errors:
        errors += _room_errors(collection, merged, replace=mode == "replace")
    if errors:
        errors.sort(key=lambda e: e.line)
        raise CollectionImportError(
            problems=[e.as_error() for e in errors],
            status=413 if any(e.code == "file_too_large" for e in errors) else None,
        )
    if mode == "replace":
        collection.entries.all().delete()
        collection.chips.all().delete()
    _add_many(
        collection=collection,
        cards={k: tuple(v) for k, v in merged.cards.items()},
        chips={k: tuple(v) for k, v in merged.chips.items()},
    )
    return ImportResult(
        rows=len(parsed.rows),
        card_copies=sum(v[0] for v in merged.cards.values()),
        chip_copies=sum(v[0] for v in merged.chips.values()),
        entries=len(merged.cards),
        chips=len(merged.chips),
        mode=mode,
    )


@dataclass
class _MergedRows:
    """A CSV's rows merged by entry, and every problem found so far: `[copies, notes, date]`
    by (card id, condition), `[copies, notes]` by chip id, and the last line naming each (the
    line a problem with the merged entry points at)."""

    errors: list[collection_csv.RowError]
    cards: dict[tuple[int, str], list] = field(default_factory=dict)
    chips: dict[int, list] = field(default_factory=dict)
    last_line: dict[Any, int] = field(default_factory=dict)


def _merge_rows(parsed: collection_csv.ParseResult) -> _MergedRows:
    """The parsed rows merged by entry, each code looked up in the catalogue (an unknown code,
    or a name that is not the card's, is a problem of its row)."""
    merged = _MergedRows(errors=list(parsed.errors))
    cards = {code: (pk, name) for pk, code, name in Card.objects.values_list("id", "code", "name")}
    chips = dict(KickerChip.objects.values_list("code", "id"))
    code_column = "code" if parsed.shape == "short" else "collector_number"
    for row in parsed.rows:
        if row.is_chip:
            chip_id = chips.get(row.code)
            if chip_id is None:
                merged.errors.append(
                    collection_csv.RowError(
                        row.line, code_column, "unknown_chip", f"No kicker chip {row.code}."
                    )
                )
                continue
            slot = merged.chips.setdefault(chip_id, [0, ""])
            slot[0] += row.quantity
            slot[1] = row.notes or slot[1]
            merged.last_line[chip_id] = row.line
            continue
        known = cards.get(row.code)
        if known is None:
            merged.errors.append(
                collection_csv.RowError(
                    row.line, code_column, "unknown_card", f"No card {row.code}."
                )
            )
            continue
        card_id, name = known
        if row.name and row.name.casefold() != name.casefold():
            merged.errors.append(
                collection_csv.RowError(
                    row.line, "name", "name_mismatch", f"{row.code} is {name!r}, not {row.name!r}."
                )
            )
            continue
        key = (card_id, row.condition)
        slot = merged.cards.setdefault(key, [0, "", None])
        slot[0] += row.quantity
        slot[1] = row.notes or slot[1]
        slot[2] = row.acquired_on or slot[2]
        merged.last_line[key] = row.line
    return merged


def _room_errors(
    collection: Collection, merged: _MergedRows, *, replace: bool
) -> list[collection_csv.RowError]:
    """Entries the import would take past `MAX_QUANTITY` copies (counting what the collection
    holds already, unless the file replaces it)."""
    errors = []
    existing = {} if replace else _existing(collection)
    existing_chips = (
        {} if replace else dict(collection.chips.values_list("kicker_chip_id", "quantity"))
    )
    for key, (qty, *_) in merged.cards.items():
        if existing.get(key, 0) + qty > MAX_QUANTITY:
            errors.append(_too_many(merged.last_line[key], existing.get(key, 0), qty))
    for chip_key, (qty, _) in merged.chips.items():
        if existing_chips.get(chip_key, 0) + qty > MAX_QUANTITY:
            errors.append(
                _too_many(merged.last_line[chip_key], existing_chips.get(chip_key, 0), qty)
            )
    return errors


def _too_many(line: int, have: int, adding: int) -> collection_csv.RowError:
    return collection_csv.RowError(
        line,
        "quantity",
        "quantity_out_of_range",
        f"{have} + {adding} copies would pass the limit of {MAX_QUANTITY} per entry.",
    )


def _read_upload(file: Any) -> bytes:
    """The upload's bytes, refusing (before reading it all) anything over the size limit."""
    limit = collection_csv.MAX_BYTES
    if isinstance(file, bytes | bytearray):
        data: bytes | None = bytes(file)
    elif (getattr(file, "size", None) or 0) > limit:
        data = None
    else:
        data = file.read(limit + 1)
    if data is None or len(data) > limit:
        too_large = collection_csv.RowError(
            0, None, "file_too_large", f"The file is over {limit // 2**20} MB."
        )
        raise CollectionImportError(problems=[too_large.as_error()], status=413)
    return data


# --- Wishlist -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class WishlistResult:
    """What `wishlist_add` did: "added", "updated" or "already_owned" (nothing written)."""

    status: str
    entry: WishlistEntry | None
    owned: int
    detail: str


@transaction.atomic
def wishlist_add(
    *,
    owner: User,
    card: Card | None = None,
    kicker_chip: KickerChip | None = None,
    quantity: int,
) -> WishlistResult:
    """Want `quantity` copies of a card or a chip (the total you want to own).

    When the owner's collections already hold that many, nothing is added and the result says
    so (status "already_owned"). An existing wish for the same item takes the new quantity.
    """
    if (card is None) == (kicker_chip is None):
        raise DomainError("Wish for a card or a kicker chip.", code="required", attr="card")
    _check_quantity(quantity)
    # Said by name, as a player knows it: "Wyatt Earp", "the white kicker chip +1 smarts/+1 luck".
    if card is not None:
        item = card.name
    else:
        assert kicker_chip is not None  # one of the two, checked above
        sides = "/".join(f"{amount:+d} {stat}" for stat, amount in kicker_chip.sides)
        item = f"the {kicker_chip.color} kicker chip {sides}"
    owned = owned_by_user(owner=owner, card=card, kicker_chip=kicker_chip)
    if owned >= quantity:
        return WishlistResult(
            "already_owned",
            None,
            owned,
            f"You already own {owned} of {item}, which covers the {quantity} you want.",
        )
    lookup = (
        {"owner": owner, "card": card} if card else {"owner": owner, "kicker_chip": kicker_chip}
    )
    entry, created = WishlistEntry.objects.update_or_create(
        **lookup, defaults={"quantity": quantity}
    )
    status = "added" if created else "updated"
    done = "added to your wishlist" if created else "your wishlist now says so"
    return WishlistResult(status, entry, owned, f"You want {quantity} of {item}: {done}.")


@transaction.atomic
def wishlist_remove(*, entry: WishlistEntry) -> None:
    entry.delete()


# --- Trade list ---------------------------------------------------------------------------------


@transaction.atomic
def trade_keep_set(*, collection: Collection, card: Card, keep: int | None) -> TradeKeep | None:
    """Keep exactly `keep` copies of `card` off the trade list; None restores the default."""
    if keep is None:
        TradeKeep.objects.filter(collection=collection, card=card).delete()
        return None
    _check_quantity(keep, attr="keep", allow_zero=True)
    row, _ = TradeKeep.objects.update_or_create(
        collection=collection, card=card, defaults={"keep": keep}
    )
    return row


# --- Scans --------------------------------------------------------------------------------------


def scan_create(*, owner: User, collection: Collection, card: Card, upload: Any) -> CardScan:
    """Attach a photo of the owner's own copy of `card`: checked, re-encoded, thumbnailed.

    The files are written before the row; if the row cannot be saved they are removed.
    """
    if collection.owner_id != owner.pk:
        raise DomainError("No such collection.", code="not_found", attr="collection")
    data = upload if isinstance(upload, bytes) else upload.read(scans.MAX_BYTES + 1)
    processed = scans.process(data)
    scan = CardScan(
        owner=owner,
        collection=collection,
        card=card,
        entry=collection.entries.filter(card=card).order_by("condition", "id").first(),
        content_type=processed.content_type,
        width=processed.width,
        height=processed.height,
    )
    scan.image.save(f"scan.{processed.extension}", ContentFile(processed.image), save=False)
    scan.thumbnail.save(
        f"thumb.{processed.extension}", ContentFile(processed.thumbnail), save=False
    )
    try:
        with transaction.atomic():
            scan.save()
    except Exception:
        _delete_scan_files(scan)
        raise
    return scan


def scan_delete(*, scan: CardScan) -> None:
    """Delete a scan and its two files."""
    with transaction.atomic():
        scan.delete()
    _delete_scan_files(scan)


def _delete_scan_files(scan: CardScan) -> None:
    for f in (scan.image, scan.thumbnail):
        if f.name:  # what `if f` tests (FieldFile is true when it has a name)
            f.storage.delete(f.name)


def practice_booster(set_code: str, seed: int | None) -> dict:
    """Open one seeded booster of a set from the database catalogue; touches no collection."""
    catalogue = hooks.engine_catalogue()
    if set_code not in {x.code for x in catalogue.sets}:
        raise DomainError(f"No set {set_code!r}.", code="unknown_set", attr="set")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    booster = open_booster(catalogue, set_code, random.Random(seed))
    return {
        "set": set_code,
        "seed": seed,
        **{k: v for k, v in booster.to_json().items() if k != "set"},
    }
