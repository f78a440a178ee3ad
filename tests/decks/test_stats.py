"""Deck statistics: exact opening-hand odds against brute force, and the descriptive stats."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from decks.stats import (
    deck_stats,
    p_dude,
    p_dude_and_gear,
    p_dude_and_gear_with_redraw,
    p_dude_with_redraw,
)


def brute(n: int, dudes: int, gear: int) -> dict[str, Fraction]:
    """Enumerate every first hand and, for a dudeless one, every second hand."""
    deck = ["d"] * dudes + ["g"] * gear + ["x"] * (n - dudes - gear)
    hits = dict.fromkeys(("dude", "redraw", "dg", "dg_redraw"), Fraction(0))
    hands = list(itertools.combinations(range(n), 5))
    for hand in hands:
        w = Fraction(1, len(hands))
        kinds = {deck[i] for i in hand}
        has_d, has_dg = "d" in kinds, {"d", "g"} <= kinds
        hits["dude"] += w * has_d
        hits["dg"] += w * has_dg
        if has_d:
            hits["redraw"] += w
            hits["dg_redraw"] += w * has_dg
            continue
        rest = [i for i in range(n) if i not in hand]
        seconds = list(itertools.combinations(rest, 5))
        for second in seconds:
            w2 = w / len(seconds)
            k2 = {deck[i] for i in second}
            hits["redraw"] += w2 * ("d" in k2)
            hits["dg_redraw"] += w2 * ({"d", "g"} <= k2)
    return hits


@pytest.mark.parametrize(("n", "dudes", "gear"), [(12, 3, 2), (13, 1, 4), (11, 0, 3), (10, 4, 4)])
def test_opening_hand_odds_match_brute_force(n, dudes, gear):
    expected = brute(n, dudes, gear)
    assert p_dude(n, dudes) == expected["dude"]
    assert p_dude_with_redraw(n, dudes) == expected["redraw"]
    assert p_dude_and_gear(n, dudes, gear) == expected["dg"]
    assert p_dude_and_gear_with_redraw(n, dudes, gear) == expected["dg_redraw"]


def test_54_card_odds_match_the_hypergeometric_formula():
    n, d = 54, 20
    q1 = Fraction(math.comb(34, 5), math.comb(54, 5))
    q2 = Fraction(math.comb(29, 5), math.comb(49, 5))
    assert p_dude(n, d) == 1 - q1
    assert p_dude_with_redraw(n, d) == 1 - q1 * q2
    # The five dudeless cards go to the deadwood, so the second hand comes from a richer deck:
    # better than an independent second try (1 - q1^2).
    assert p_dude_with_redraw(n, d) > 1 - q1 * q1 > p_dude(n, d)


def test_deck_stats_counts_curve_means_chips_and_cost_to_field(mini):
    cards = {"TST-001": 3, "TST-002": 1, "TST-021": 2, "TST-031": 2}  # dudes, gear, fortune
    chips = {"TST-K01": 2, "TST-K04": 1}
    stats = deck_stats(cards=cards, kicker_chips=chips, catalogue=mini)
    assert stats["cards"] == 8
    assert stats["by_type"] == {"dude": 4, "fortune": 2, "gear": 2}
    assert stats["by_rarity"] == {"common": 6, "uncommon": 2}
    assert stats["cost_curve"] == {"3": 8}
    one, two = mini.card_by_code["TST-001"], mini.card_by_code["TST-002"]
    values = [one.smarts] * 3 + [two.smarts]
    mean = sum(values) / 4
    assert stats["dude_stats"]["smarts"]["mean"] == pytest.approx(mean, abs=1e-3)
    std = math.sqrt(sum((v - mean) ** 2 for v in values) / 4)
    assert stats["dude_stats"]["smarts"]["std"] == pytest.approx(std, abs=1e-3)
    assert stats["kicker_chips"]["value"] == 27 and stats["kicker_chips"]["count"] == 3
    assert stats["kicker_chips"]["modifiers"]["luck"]["total"] == 3
    assert stats["kicker_chips"]["modifiers"]["skill"]["negative"] == -3
    assert stats["kicker_chips"]["modifiers"]["luck"]["expected_per_flip"] == 0.5
    # $3 each; played revealed, dudes and gear cost $1 less, fortunes full price.
    assert stats["chips_to_field"] == {"concealed": 24, "revealed": 4 * 2 + 2 * 2 + 2 * 3}
    assert stats["opening_hand"]["dude"] == pytest.approx(float(p_dude(8, 4)), abs=1e-6)


def test_stats_of_an_empty_deck_are_zero(mini):
    stats = deck_stats(cards={}, kicker_chips={}, catalogue=mini)
    assert stats["cards"] == 0 and stats["opening_hand"]["dude"] == 0.0
