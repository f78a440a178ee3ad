"""The one adapter from the database catalogue to the engine's `Catalogue` (pure card data).

Built once per process and rebuilt when the catalogue's key changes: its version, which
`catalogue_load` bumps when it loads changed set files (cards.models.CatalogueVersion: an
in-place update keeps every row count and id), and its fingerprint (row counts and highest ids
of sets, cards and chips: a test or an admin that adds rows). A simulation run pins the version
in its plan (simulator.games.drifter).
"""

from __future__ import annotations

import threading
from typing import cast

from django.db import connection

from cards.models import Card, CardSet, CatalogueVersion, KickerChip
from simulator.engine.drifter.cards import (
    BoosterSlot,
    CardDataError,
    CardDef,
    Catalogue,
    KickerChipDef,
    SetDef,
    parse_ability,
)

_lock = threading.Lock()
_cache: dict[str, object] = {}


def _key() -> tuple[int, tuple[object, ...]]:
    """(catalogue version, fingerprint), in one query (this runs per request). The version is
    0 before any set was loaded."""
    parts = ", ".join(
        f"(SELECT COUNT(*) FROM {m._meta.db_table}), (SELECT MAX(id) FROM {m._meta.db_table})"
        for m in (Card, KickerChip, CardSet)
    )
    version = f"(SELECT MAX(version) FROM {CatalogueVersion._meta.db_table})"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {version}, {parts}")  # our own tables' names, no user input
        row = cursor.fetchone()
    return int(row[0] or 0), tuple(row[1:])


def _abilities(card: Card) -> tuple:
    try:
        return tuple(parse_ability(a, card.code) for a in card.abilities or [])
    except CardDataError:  # a hand-made test card may carry free-form data; rate it plainly
        return ()


def _build() -> Catalogue:
    sets = list(CardSet.objects.order_by("order", "code"))
    cards: list[CardDef] = []
    by_set: dict[int, list[str]] = {s.pk: [] for s in sets}
    for c in Card.objects.select_related("card_set").order_by("card_set__order", "number"):
        cards.append(_card_def(c, id=len(cards)))
        by_set.setdefault(c.card_set_id, []).append(c.code)
    chips: list[KickerChipDef] = []
    chips_by_set: dict[int, list[str]] = {s.pk: [] for s in sets}
    for k in KickerChip.objects.select_related("card_set").order_by("card_set__order", "code"):
        chips.append(
            KickerChipDef(
                id=len(chips),
                code=k.code,
                set_code=k.card_set.code,
                color=k.color,
                value=k.value,
                sides=((k.side_a_stat, k.side_a_amount), (k.side_b_stat, k.side_b_amount)),
            )
        )
        chips_by_set.setdefault(k.card_set_id, []).append(k.code)
    return Catalogue(
        sets=tuple(
            _set_def(s, tuple(by_set.get(s.pk, [])), tuple(chips_by_set.get(s.pk, [])))
            for s in sets
        ),
        cards=tuple(cards),
        chips=tuple(chips),
        card_by_code={c.code: c for c in cards},
        chip_by_code={k.code: k for k in chips},
    )


def _card_def(c: Card, *, id: int) -> CardDef:
    """The engine's card for a catalogue card (stats only for a dude)."""
    dude = c.type == "dude"
    return CardDef(
        id=id,
        code=c.code,
        set_code=c.card_set.code,
        number=c.number,
        name=c.name,
        type=c.type,
        faction=c.faction,
        rarity=c.rarity,
        cost=c.cost,
        smarts=(c.smarts or 0) if dude else 0,
        skill=(c.skill or 0) if dude else 0,
        luck=(c.luck or 0) if dude else 0,
        kicker_limit=(c.kicker_limit or 0) if dude else 0,
        text=c.text,
        abilities=_abilities(c),
    )


def _set_def(s: CardSet, card_codes: tuple[str, ...], chip_codes: tuple[str, ...]) -> SetDef:
    """The engine's set for a catalogue set, with its booster layout (no starters)."""
    layout = s.booster_layout or {}
    slots = tuple(
        BoosterSlot(count=int(slot["count"]), weights=tuple(slot["weights"].items()))
        for slot in layout.get("slots", [])
    )
    return SetDef(
        code=s.code,
        name=s.name,
        kind=s.kind,
        released=s.released.isoformat() if s.released else "",
        order=s.order,
        booster_slots=slots,
        booster_kicker_chips=int(layout.get("kicker_chips", 1)),
        starters=(),
        card_codes=card_codes,
        chip_codes=chip_codes,
    )


def versioned_catalogue() -> tuple[int, Catalogue]:
    """(catalogue version, the catalogue as the engine sees it), cached while the database
    catalogue is unchanged."""
    key = _key()
    with _lock:
        if _cache.get("key") != key:
            _cache["catalogue"] = _build()
            _cache["key"] = key
        return key[0], cast(Catalogue, _cache["catalogue"])


def engine_catalogue() -> Catalogue:
    """The catalogue as the engine sees it (cached while the database catalogue is unchanged)."""
    return versioned_catalogue()[1]


def catalogue_version() -> int:
    """The catalogue's current version (0 before any set was loaded)."""
    return int(CatalogueVersion.objects.filter(pk=1).values_list("version", flat=True).first() or 0)
