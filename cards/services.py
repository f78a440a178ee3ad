"""Writes to the catalogue. The set files are parsed by the engine's one parser, so a set the
site loads is a set the engine plays."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from cards.models import Card, CardSet, CatalogueVersion, KickerChip, StarterDeck
from simulator.engine.drifter.cards import CardDef, Catalogue, card_code, parse_sets


@dataclass(frozen=True)
class LoadResult:
    sets: int
    cards: int
    kicker_chips: int
    starters: int


def _layout(set_def) -> dict:
    return {
        "cards": set_def.booster_size,
        "kicker_chips": set_def.booster_kicker_chips,
        "slots": [
            {"count": slot.count, "weights": dict(slot.weights)} for slot in set_def.booster_slots
        ],
    }


@transaction.atomic
def catalogue_load(*, directory: Path | None = None) -> LoadResult:
    """Create or update every set, card, kicker chip and starter from the set files.

    Idempotent: loading the same files twice changes nothing; a changed card is updated in
    place (its code is its identity).
    """
    # Read once, here: the version's digest is of the very bytes parsed (the engine's
    # `load_catalogue` caches a directory's parse for the life of the process).
    files = _set_files(directory)
    catalogue: Catalogue = parse_sets([json.loads(data) for data in files.values()])
    sets = _load_sets(catalogue)
    _load_cards(catalogue, sets, _raw_abilities(files))
    _load_chips(catalogue, sets)
    starters = _load_starters(catalogue, sets)
    _version_bump(_digest(files))
    # Cached catalogue answers are stale now (cards.api.views.catalogue_cached).
    transaction.on_commit(cache.clear)
    return LoadResult(
        sets=len(catalogue.sets),
        cards=len(catalogue.cards),
        kicker_chips=len(catalogue.chips),
        starters=starters,
    )


def _load_sets(catalogue: Catalogue) -> dict[str, CardSet]:
    """Every set, created or updated, by its code."""
    sets = {}
    for s in catalogue.sets:
        released = dt.date.fromisoformat(s.released) if s.released else None
        sets[s.code], _ = CardSet.objects.update_or_create(
            code=s.code,
            defaults={
                "name": s.name,
                "kind": s.kind,
                "released": released,
                "order": s.order,
                "booster_layout": _layout(s),
            },
        )
    return sets


CARD_FIELDS = [
    "card_set", "set_order", "number", "name", "type", "is_copy", "faction", "rarity", "cost",
    "smarts", "skill", "luck", "kicker_limit", "text", "flavor", "abilities",
]  # fmt: skip


def _load_cards(
    catalogue: Catalogue, sets: dict[str, CardSet], raw_abilities: dict[str, list]
) -> None:
    """Every card: new ones created, changed ones updated, in bulk; unchanged ones untouched."""
    existing = {c.code: c for c in Card.objects.all()}
    new, changed = [], []
    for c in catalogue.cards:
        values = _card_values(c, sets[c.set_code], raw_abilities.get(c.code, []))
        card = existing.get(c.code)
        if card is None:
            new.append(Card(code=c.code, **values))
        elif any(getattr(card, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(card, k, v)
            changed.append(card)
    Card.objects.bulk_create(new, batch_size=500)
    Card.objects.bulk_update(changed, CARD_FIELDS, batch_size=500)


def _card_values(c: CardDef, card_set: CardSet, abilities: list) -> dict[str, Any]:
    """A card's fields (`CARD_FIELDS`) as the set file gives them; stats only for a dude."""
    return {
        "card_set": card_set,
        "set_order": card_set.order,
        "number": c.number,
        "name": c.name,
        "type": c.type,
        "is_copy": c.is_copy,
        "faction": c.faction,
        "rarity": c.rarity,
        "cost": c.cost,
        "smarts": c.smarts if c.is_dude else None,
        "skill": c.skill if c.is_dude else None,
        "luck": c.luck if c.is_dude else None,
        "kicker_limit": c.kicker_limit if c.is_dude else None,
        "text": c.text,
        "flavor": c.flavor,
        "abilities": abilities,
    }


def _load_chips(catalogue: Catalogue, sets: dict[str, CardSet]) -> None:
    for chip in catalogue.chips:
        (a_stat, a_amount), (b_stat, b_amount) = chip.sides
        KickerChip.objects.update_or_create(
            code=chip.code,
            defaults={
                "card_set": sets[chip.set_code],
                "color": chip.color,
                "value": chip.value,
                "side_a_stat": a_stat,
                "side_a_amount": a_amount,
                "side_b_stat": b_stat,
                "side_b_amount": b_amount,
            },
        )


def _load_starters(catalogue: Catalogue, sets: dict[str, CardSet]) -> int:
    """Every set's starter decks, created or updated; how many there are."""
    starters = 0
    for s in catalogue.sets:
        for st in s.starters:
            starters += 1
            StarterDeck.objects.update_or_create(
                code=st.code,
                defaults={
                    "card_set": sets[s.code],
                    "name": st.name,
                    "cards": [{"code": code, "qty": qty} for code, qty in st.cards],
                    "kicker_chips": list(st.kicker_chips),
                },
            )
    return starters


def _set_files(directory: Path | None) -> dict[str, bytes]:
    """The set files' bytes by file name, in name order."""
    path = Path(directory or Path(settings.FIXTURES_DIR) / "sets")
    return {file.name: file.read_bytes() for file in sorted(path.glob("*.json"))}


def _digest(files: dict[str, bytes]) -> str:
    """sha256 of the set files (names and bytes, in name order)."""
    digest = hashlib.sha256()
    for name, data in files.items():
        digest.update(name.encode() + b"\0" + data + b"\0")
    return digest.hexdigest()


def _version_bump(digest: str) -> int:
    """Bump the catalogue version unless these set files are the ones loaded last; the
    version now. Loading the same files again (every `make run`) keeps the version, so the
    runs playing meanwhile go on; a changed file makes a new version."""
    row, _ = CatalogueVersion.objects.select_for_update().get_or_create(pk=1)
    if row.digest != digest:
        row.version += 1
        row.digest = digest
        row.save()
    return row.version


def _raw_abilities(files: dict[str, bytes]) -> dict[str, list]:
    """The abilities exactly as written in the set files (the API serves them verbatim)."""
    out = {}
    for data in files.values():
        doc = json.loads(data)
        for card in doc.get("cards", []):
            out[card_code(doc["code"], card["number"])] = card.get("abilities", [])
    return out
