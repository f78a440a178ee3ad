"""Deck legality for every High Stakes Drifter format: the one rules module for deck building.

Pure Python: the `decks` app and the engine both call `validate_deck`, so a deck the site calls
legal is a deck the engine accepts. Every problem is reported, not just the first.

Formats (docs/decks.md has the full reasoning):

- ``standard``: exactly 54 cards; at most 3 copies of a common, 2 of an uncommon, 1 of a rare
  or fixed card; kicker chips worth exactly $50. Promotional cards count as 1 copy: the rules
  list five rarities but give limits for four, and promos were the scarcest printing, so we
  apply the strictest limit (the same as rare and fixed).
- ``deuces_wild`` / ``tres_amigos`` / ``on_your_lonesome``: 2 / 3 / 1 copies of any card,
  whatever its rarity (other standard rules hold).
- ``stud``: built from six opened boosters: no copy limit, no kicker-chip value limit, every
  card and chip must come from the sealed pool.
- ``draw``: the deck is the 54 cards and six kicker chips drafted: exactly the pool.

Starter decks (``validate_deck(..., starter=True)``): "Players can use the deck of cards provided
in the Starter Set", so a starter played with the kicker chips it is sold with is legal though
they are not worth $50 (a starter holds two chips); every other rule still applies to its cards.

Variants combine ("players may combine variant rules any way they choose"), e.g.
``stud+on_your_lonesome``; two copy-limit variants, or Stud with Draw, conflict. Copies are
counted by card name, so a reprint in another set counts against the same limit.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from simulator.engine.drifter.cards import Catalogue

# the deck variants and their copy limits are variants.py's (one list of them); "standard" is no
# variant
from simulator.engine.drifter.variants import (
    COPY_LIMITS,
    DECK_VARIANTS,
    DEUCES_WILD,
    DRAW,
    ON_YOUR_LONESOME,
    STUD,
    TRES_AMIGOS,
)

STANDARD = "standard"
FORMATS = (STANDARD, *DECK_VARIANTS)
FORMAT_LABELS = {
    STANDARD: "Standard",
    DEUCES_WILD: "Deuces Wild",
    TRES_AMIGOS: "Tres Amigos",
    ON_YOUR_LONESOME: "On Your Lonesome",
    STUD: "Stud (sealed)",
    DRAW: "Draw (draft)",
}
# What each format changes, in a line for people choosing one.
FORMAT_DESCRIPTIONS = {
    STANDARD: "54 cards: up to 3 copies of a common, 2 of an uncommon, 1 of a rare; "
    "kicker chips worth exactly $50.",
    DEUCES_WILD: "Up to 2 copies of any card, whatever its rarity.",
    TRES_AMIGOS: "Up to 3 copies of any card, whatever its rarity.",
    ON_YOUR_LONESOME: "One copy of each card, whatever its rarity.",
    STUD: "Built from six opened boosters: every card and chip from the pool, no copy limit, "
    "no $50 rule.",
    DRAW: "The deck is the drafted pool: all 54 cards and the six kicker chips.",
}
POOL_FORMATS = frozenset({STUD, DRAW})

DECK_SIZE = 54
KICKER_VALUE = 50
DRAW_KICKER_CHIPS = 6
RARITY_LIMITS = {"common": 3, "uncommon": 2, "rare": 1, "fixed": 1, "promo": 1}
# Bounds on input size, so a hostile request cannot make validation expensive.
MAX_ENTRIES = 1000
MAX_QTY = 999

PROBLEM_CODES = (
    "unknown_format",
    "format_conflict",
    "bad_quantity",
    "too_many_entries",
    "unknown_card",
    "unknown_kicker_chip",
    "deck_size",
    "copy_limit",
    "kicker_value",
    "kicker_count",
    "pool_required",
    "not_in_pool",
    "pool_unused",
    "not_owned",
)


@dataclass(frozen=True, slots=True)
class Problem:
    """One reason a deck is not legal. `attr` names the part of the deck it concerns."""

    code: str
    detail: str
    attr: str | None = None
    card: str | None = None
    kicker_chip: str | None = None
    qty: int | None = None
    limit: int | None = None
    line: int | None = None
    # a deck list's unknown card name: the closest names in the catalogue
    suggestions: tuple[str, ...] | None = None

    def as_dict(self) -> dict[str, Any]:
        """The problem in the API's error shape: code, detail, attr, then any extras set."""
        out: dict[str, Any] = {"code": self.code, "detail": self.detail, "attr": self.attr}
        out.update(
            {
                k: list(v) if isinstance(v, tuple) else v
                for k, v in asdict(self).items()
                if v is not None and k not in out
            }
        )
        return out


@dataclass(frozen=True)
class Pool:
    """Cards and kicker chips available to a deck: a sealed or drafted pool, or a collection."""

    cards: Mapping[str, int] = field(default_factory=dict)
    kicker_chips: Mapping[str, int] = field(default_factory=dict)


def parse_format(fmt: str | Iterable[str]) -> tuple[frozenset[str], list[Problem]]:
    """The variants named by `fmt` ('standard', 'stud+on_your_lonesome', ['stud', ...]).

    'standard' alone is the empty set of variants; it may also be listed alongside variants.
    Returns the variants and the problems (unknown names, conflicts).
    """
    if isinstance(fmt, str):
        names = [n for n in fmt.replace(",", "+").replace(" ", "+").split("+") if n]
    else:
        names = list(fmt)
    problems: list[Problem] = []
    variants: set[str] = set()
    if not names:
        problems.append(Problem("unknown_format", "No format given.", attr="format"))
    for raw in names:
        key = str(raw).strip().lower().replace("-", "_")
        if key not in FORMATS:
            problems.append(
                Problem(
                    "unknown_format",
                    f"There is no format {raw!r}; the formats are {', '.join(FORMATS)}.",
                    attr="format",
                )
            )
        elif key != STANDARD:
            variants.add(key)
    limits = sorted(v for v in variants if v in COPY_LIMITS)
    if len(limits) > 1:
        problems.append(
            Problem(
                "format_conflict",
                f"{' and '.join(FORMAT_LABELS[v] for v in limits)} set different copy limits: "
                "pick one.",
                attr="format",
            )
        )
    if STUD in variants and DRAW in variants:
        problems.append(
            Problem(
                "format_conflict",
                "Stud and Draw build decks from different pools (opened versus drafted "
                "boosters): pick one.",
                attr="format",
            )
        )
    return frozenset(variants), problems


def format_name(variants: Iterable[str]) -> str:
    """The canonical name of a set of variants: 'standard' or the variants sorted, joined by +."""
    names = sorted(set(variants) - {STANDARD})
    return "+".join(names) if names else STANDARD


def format_label(fmt: str) -> str:
    """A human name for a canonical format string, e.g. 'Stud (sealed) + On Your Lonesome'."""
    return " + ".join(FORMAT_LABELS.get(n, n) for n in fmt.split("+"))


def format_description(fmt: str) -> str:
    """What a canonical format changes, in words: each of its variants' lines."""
    return " ".join(FORMAT_DESCRIPTIONS.get(n, "") for n in fmt.split("+")).strip()


def format_choices(pool_kind: str | None = None) -> list[str]:
    """The formats a deck can be built in: with no pool, standard and each copy-limit variant;
    from a Stud or Draw pool, that format alone or with one copy-limit variant."""
    base = [pool_kind] if pool_kind in POOL_FORMATS else []
    plain = [format_name(base)] if base else [STANDARD]
    return plain + [format_name([*base, v]) for v in COPY_LIMITS]


def copy_limit(rarity: str, variants: frozenset[str]) -> int | None:
    """How many copies of a card of `rarity` a deck may hold (None: no limit)."""
    for variant, limit in COPY_LIMITS.items():
        if variant in variants:
            return limit
    if STUD in variants or DRAW in variants:
        return None
    return RARITY_LIMITS.get(rarity, 1)


def _bad_qty(qty: Any) -> bool:
    return type(qty) is not int or qty < 1 or qty > MAX_QTY


def check_entries(
    cards: Mapping[str, Any],
    kicker_chips: Mapping[str, Any],
    *,
    card_codes: Container[str],
    chip_codes: Container[str],
) -> list[Problem]:
    """Every problem with a deck's entries themselves, whatever its format: a quantity that is
    not a whole number from 1 to `MAX_QTY`, a code that names no card (no kicker chip).

    The one entry check: `validate_deck` runs it, and so does the `decks` app before it saves a
    deck (with the codes it found in the database). `card_codes` and `chip_codes` hold the codes
    that exist. More than `MAX_ENTRIES` entries is the one problem reported: nothing further is
    looked at. An entry with a bad quantity is not looked up.
    """
    if len(cards) + len(kicker_chips) > MAX_ENTRIES:
        return [
            Problem(
                "too_many_entries",
                f"A deck has at most {MAX_ENTRIES} entries, not {len(cards) + len(kicker_chips)}.",
                limit=MAX_ENTRIES,
            )
        ]
    problems: list[Problem] = []
    for attr, entries, known, unknown, what in (
        ("cards", cards, card_codes, "unknown_card", "card"),
        ("kicker_chips", kicker_chips, chip_codes, "unknown_kicker_chip", "kicker chip"),
    ):
        for code, qty in entries.items():
            card, chip = (code, None) if attr == "cards" else (None, code)
            if _bad_qty(qty):
                problems.append(
                    Problem(
                        "bad_quantity",
                        f"{code}: the quantity must be a whole number from 1 to {MAX_QTY}, "
                        f"not {qty!r}.",
                        attr=attr,
                        card=card,
                        kicker_chip=chip,
                    )
                )
            elif code not in known:
                problems.append(
                    Problem(
                        unknown,
                        f"There is no {what} {code!r}.",
                        attr=attr,
                        card=card,
                        kicker_chip=chip,
                    )
                )
    return problems


def validate_deck(
    *,
    fmt: str | Iterable[str],
    cards: Mapping[str, int],
    kicker_chips: Mapping[str, int],
    catalogue: Catalogue,
    pool: Pool | None = None,
    owned: Pool | None = None,
    starter: bool = False,
) -> list[Problem]:
    """Every problem that keeps the deck from being legal in `fmt` (empty list: legal).

    `cards` and `kicker_chips` map codes to quantities. `pool` is the sealed (Stud) or drafted
    (Draw) pool; `owned`, when given, is what the player owns and adds `not_owned` problems.
    `starter=True` says the deck is a starter deck with the kicker chips it is sold with: the
    starter allowance waives the $50 kicker-chip rule for it (and only that rule).
    If the format itself is unknown or conflicting, the format-dependent rules are skipped
    (they have no meaning) but every other problem is still reported.
    """
    variants, problems = parse_format(fmt)
    format_ok = not problems
    card_by_code = catalogue.card_by_code
    chip_by_code = catalogue.chip_by_code
    problems += check_entries(cards, kicker_chips, card_codes=card_by_code, chip_codes=chip_by_code)
    if len(cards) + len(kicker_chips) > MAX_ENTRIES:
        return problems  # too many to look at (check_entries said so)

    total, by_name, chip_value, chip_count = _tally(cards, kicker_chips, catalogue)
    if total != DECK_SIZE:
        problems.append(
            Problem(
                "deck_size",
                f"A deck has exactly {DECK_SIZE} cards; this one has {total}.",
                attr="cards",
                qty=total,
                limit=DECK_SIZE,
            )
        )
    if not format_ok:
        return problems + _ownership(cards, kicker_chips, owned)
    problems += _copy_problems(by_name, variants)
    problems += _chip_problems(variants, chip_value, chip_count, starter)
    if variants & POOL_FORMATS:
        if pool is None:
            problems.append(
                Problem(
                    "pool_required",
                    "Stud and Draw decks are built from a pool; give the pool.",
                    attr="pool",
                )
            )
        else:
            problems.extend(_from_pool(cards, kicker_chips, pool, exact=DRAW in variants))
    return problems + _ownership(cards, kicker_chips, owned)


def _tally(
    cards: Mapping[str, int], kicker_chips: Mapping[str, int], catalogue: Catalogue
) -> tuple[int, dict[str, list], int, int]:
    """(cards in the deck, name -> [copies, its strictest printing], the kicker chips' value,
    their count), over the entries check_entries did not refuse."""
    card_by_code = catalogue.card_by_code
    chip_by_code = catalogue.chip_by_code
    total = 0
    by_name: dict[str, list] = {}
    for code, qty in cards.items():
        card = card_by_code.get(code)
        if card is None or _bad_qty(qty):
            continue  # check_entries reported it
        total += qty
        entry = by_name.get(card.name)
        if entry is None:
            by_name[card.name] = [qty, card]
        else:
            entry[0] += qty
            if RARITY_LIMITS.get(card.rarity, 1) < RARITY_LIMITS.get(entry[1].rarity, 1):
                entry[1] = card  # the strictest printing decides
    chip_value = 0
    chip_count = 0
    for code, qty in kicker_chips.items():
        chip = chip_by_code.get(code)
        if chip is None or _bad_qty(qty):
            continue  # check_entries reported it
        chip_value += chip.value * qty
        chip_count += qty
    return total, by_name, chip_value, chip_count


def _copy_problems(by_name: dict[str, list], variants: frozenset[str]) -> list[Problem]:
    """A `copy_limit` problem for each name with more copies than its rarity allows."""
    problems: list[Problem] = []
    for name, (qty, card) in by_name.items():
        limit = copy_limit(card.rarity, variants)
        if limit is not None and qty > limit:
            problems.append(
                Problem(
                    "copy_limit",
                    f"{qty} copies of {name} ({card.rarity}): at most {limit} in "
                    f"{format_label(format_name(variants))}.",
                    attr="cards",
                    card=card.code,
                    qty=qty,
                    limit=limit,
                )
            )
    return problems


def _chip_problems(
    variants: frozenset[str], chip_value: int, chip_count: int, starter: bool
) -> list[Problem]:
    """The kicker chips' value (not in Stud or Draw, nor a starter deck's) and Draw's count."""
    problems: list[Problem] = []
    if not variants & POOL_FORMATS and chip_value != KICKER_VALUE and not starter:
        problems.append(
            Problem(
                "kicker_value",
                f"Kicker chips are worth exactly ${KICKER_VALUE}; these are worth ${chip_value}.",
                attr="kicker_chips",
                qty=chip_value,
                limit=KICKER_VALUE,
            )
        )
    if DRAW in variants and chip_count != DRAW_KICKER_CHIPS:
        problems.append(
            Problem(
                "kicker_count",
                f"A Draw deck has the {DRAW_KICKER_CHIPS} kicker chips drafted; this one has "
                f"{chip_count}.",
                attr="kicker_chips",
                qty=chip_count,
                limit=DRAW_KICKER_CHIPS,
            )
        )
    return problems


def _excess(
    wanted: Mapping[str, int], have: Mapping[str, int], attr: str, code: str, what: str
) -> list[Problem]:
    out = []
    for item, qty in wanted.items():
        if _bad_qty(qty):
            continue
        limit = have.get(item, 0)
        if qty > limit:
            out.append(
                Problem(
                    code,
                    f"{item}: {qty} in the deck but {limit} {what}.",
                    attr=attr,
                    qty=qty,
                    limit=limit,
                    card=item if attr == "cards" else None,
                    kicker_chip=None if attr == "cards" else item,
                )
            )
    return out


def _from_pool(
    cards: Mapping[str, int], kicker_chips: Mapping[str, int], pool: Pool, *, exact: bool
) -> list[Problem]:
    problems = _excess(cards, pool.cards, "cards", "not_in_pool", "in the pool")
    problems += _excess(
        kicker_chips, pool.kicker_chips, "kicker_chips", "not_in_pool", "in the pool"
    )
    if exact:  # a Draw deck is the whole drafted pool
        for attr, wanted, have in (
            ("cards", cards, pool.cards),
            ("kicker_chips", kicker_chips, pool.kicker_chips),
        ):
            for item, qty in have.items():
                used = wanted.get(item, 0)
                used = used if type(used) is int else 0
                if used < qty:
                    problems.append(
                        Problem(
                            "pool_unused",
                            f"{item}: drafted {qty} but the deck uses {used}; a Draw deck is "
                            "everything drafted.",
                            attr=attr,
                            qty=used,
                            limit=qty,
                            card=item if attr == "cards" else None,
                            kicker_chip=None if attr == "cards" else item,
                        )
                    )
    return problems


def _ownership(
    cards: Mapping[str, int], kicker_chips: Mapping[str, int], owned: Pool | None
) -> list[Problem]:
    if owned is None:
        return []
    return _excess(cards, owned.cards, "cards", "not_owned", "owned") + _excess(
        kicker_chips, owned.kicker_chips, "kicker_chips", "not_owned", "owned"
    )
