"""Deck statistics: counts, cost curve, dude stats, kicker-chip modifiers, chips to field the
deck and exact opening-hand odds (hypergeometric, with the once-per-game redraw).

Works on the engine's card data (no database), so it is cheap and easy to test. The formulas
are in docs/decks.md.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from simulator.engine.drifter.cards import STATS, CardDef, Catalogue, KickerChipDef

HAND = 5


def _c(n: int, k: int) -> int:
    return math.comb(n, k) if 0 <= k <= n else 0


def p_none(n: int, successes: int, draws: int = HAND) -> Fraction:
    """P(no success among `draws` cards drawn from `n` holding `successes`)."""
    if draws > n:
        return Fraction(0) if successes else Fraction(1)
    return Fraction(_c(n - successes, draws), _c(n, draws))


def p_dude(n: int, dudes: int) -> Fraction:
    """P(at least one dude in the opening hand)."""
    return 1 - p_none(n, dudes)


def p_dude_with_redraw(n: int, dudes: int) -> Fraction:
    """P(a dude in the hand kept, using the once-per-game redraw).

    The dudeless first hand goes to the deadwood, so the second hand comes from n - 5 cards that
    still hold every dude: 1 - q1 * q2 with q1 = C(n-d,5)/C(n,5), q2 = C(n-5-d,5)/C(n-5,5);
    not 1 - q1^2, because the second draw is without the five non-dudes already seen.
    """
    return 1 - p_none(n, dudes) * p_none(n - HAND, dudes)


def p_dude_and_gear(n: int, dudes: int, gear: int) -> Fraction:
    """P(at least one dude and at least one gear in five cards): inclusion-exclusion."""
    if n < HAND:
        return Fraction(0)
    total = _c(n, HAND)
    bad = _c(n - dudes, HAND) + _c(n - gear, HAND) - _c(n - dudes - gear, HAND)
    return Fraction(total - bad, total)


def p_dude_and_gear_with_redraw(n: int, dudes: int, gear: int) -> Fraction:
    """P(the hand kept has a dude and a gear), redrawing a dudeless first hand once.

    Sum over g, the gear in a dudeless first hand: P(first hand dudeless with g gear) times
    P(dude and gear in five from the n - 5 left, which hold all dudes and gear - g gear).
    """
    if n < HAND:
        return Fraction(0)
    first = p_dude_and_gear(n, dudes, gear)
    others = n - dudes - gear
    total = _c(n, HAND)
    redraw = Fraction(0)
    for g in range(0, HAND + 1):
        ways = _c(gear, g) * _c(others, HAND - g)
        if ways:
            redraw += Fraction(ways, total) * p_dude_and_gear(n - HAND, dudes, gear - g)
    return first + redraw


def _mean_std(values: list[tuple[int, int]]) -> tuple[float, float]:
    """Mean and population standard deviation of (value, weight) pairs."""
    n = sum(w for _, w in values)
    if not n:
        return 0.0, 0.0
    mean = sum(v * w for v, w in values) / n
    var = sum(w * (v - mean) ** 2 for v, w in values) / n
    return mean, math.sqrt(var)


def _dude_stats(defs: list[tuple[CardDef, int]]) -> dict[str, dict[str, float]]:
    """Mean and standard deviation of each stat (and the kicker limit) over the deck's dudes,
    copy by copy."""
    dudes = [(card, q) for card, q in defs if card.is_dude]
    dude_stats = {}
    for i, stat in enumerate((*STATS, "kicker_limit")):
        pairs = [(card.stats[i] if i < 3 else card.kicker_limit, q) for card, q in dudes]
        mean, std = _mean_std(pairs)
        dude_stats[stat] = {"mean": round(mean, 3), "std": round(std, 3)}
    return dude_stats


def _chip_modifiers(
    chips: list[tuple[KickerChipDef, int]], chip_count: int
) -> dict[str, dict[str, Any]]:
    """Per stat, the kicker chips' modifiers: their total, positive and negative parts, and what
    a flip of a random chip of the deck adds on average."""
    chip_mods = {
        s: {"total": 0, "positive": 0, "negative": 0, "expected_per_flip": 0.0} for s in STATS
    }
    for chip, q in chips:
        for stat, amount in chip.sides:
            m = chip_mods[stat]
            m["total"] += amount * q
            m["positive" if amount > 0 else "negative"] += amount * q
    for m in chip_mods.values():
        # Each side lands face up half the time, so a random chip's expected modifier is half
        # the sum of its sides; averaged over the chips in the deck.
        m["expected_per_flip"] = round(m["total"] / 2 / chip_count, 3) if chip_count else 0.0
    return chip_mods


def deck_stats(
    *, cards: Mapping[str, int], kicker_chips: Mapping[str, int], catalogue: Catalogue
) -> dict[str, Any]:
    """Every statistic of a deck, JSON-able. Unknown codes are skipped."""
    defs = [(catalogue.card_by_code[c], q) for c, q in cards.items() if c in catalogue.card_by_code]
    chips = [
        (catalogue.chip_by_code[c], q)
        for c, q in kicker_chips.items()
        if c in catalogue.chip_by_code
    ]
    n = sum(q for _, q in defs)
    by_type: Counter[str] = Counter()
    by_faction: Counter[str] = Counter()
    by_rarity: Counter[str] = Counter()
    curve: Counter[int] = Counter()
    concealed = revealed = 0
    for card, q in defs:
        by_type[card.type] += q
        by_faction[card.faction or "(none)"] += q
        by_rarity[card.rarity] += q
        curve[card.cost] += q
        concealed += card.cost * q
        # Dudes and gear played revealed cost $1 less; fortune cards always cost full price.
        revealed += (max(card.cost - 1, 0) if card.type in ("dude", "gear") else card.cost) * q
    chip_count = sum(q for _, q in chips)
    d, g = by_type["dude"], by_type["gear"]
    odds = {
        "dude": p_dude(n, d),
        "dude_with_redraw": p_dude_with_redraw(n, d),
        "dude_and_gear": p_dude_and_gear(n, d, g),
        "dude_and_gear_with_redraw": p_dude_and_gear_with_redraw(n, d, g),
    }
    return {
        "cards": n,
        "by_type": dict(sorted(by_type.items())),
        "by_faction": dict(sorted(by_faction.items())),
        "by_rarity": dict(sorted(by_rarity.items())),
        "cost_curve": {str(k): curve[k] for k in sorted(curve)},
        "dude_stats": _dude_stats(defs),
        "kicker_chips": {
            "count": chip_count,
            "value": sum(chip.value * q for chip, q in chips),
            "modifiers": _chip_modifiers(chips, chip_count),
        },
        "chips_to_field": {"concealed": concealed, "revealed": revealed},
        "opening_hand": {k: round(float(v), 6) for k, v in odds.items()},
    }
