"""Gunfighter's components: 50 action cards across the five categories, as documented."""

from __future__ import annotations

from collections import Counter

import pytest

from simulator.engine.core.errors import RulesError
from simulator.engine.gunfighter import new_game
from simulator.engine.gunfighter.cards import CARDS, CATEGORIES

KNOWN_OPS = {
    "shoot": 1,
    "dodge": 1,
    "accuracy": 2,
    "bullets": 2,
    "enemy_accuracy": 2,
    "enemy_bullets": 2,
    "draw": 2,
    "scavenge": 1,
    "enemy_discard": 2,
}


def test_fifty_action_cards_in_the_five_categories():
    assert len(CARDS) == 50
    assert set(Counter(c.category for c in CARDS)) == set(CATEGORIES)


def test_every_card_has_a_die_roll_value_a_cost_and_known_instructions():
    for card in CARDS:
        assert 1 <= card.die <= 6 and 0 <= card.cost <= 6
        assert card.effects
        for step in card.effects:
            assert KNOWN_OPS[step[0]] == len(step), card.name


def test_the_die_roll_values_are_close_to_a_fair_die():
    counts = Counter(c.die for c in CARDS)
    assert set(counts) == {1, 2, 3, 4, 5, 6} and max(counts.values()) - min(counts.values()) <= 1


def test_every_shoot_card_costs_a_bullet_per_shot():
    for card in CARDS:
        shots = sum(step[0] == "shoot" for step in card.effects)
        assert (card.category == "SHOOT") == (shots > 0)
        assert card.cost == shots


@pytest.mark.parametrize("seats", [[], [{}], [{}, {}, {}]])
def test_gunfighter_is_for_exactly_two(seats):
    with pytest.raises(RulesError):
        new_game(seats)


def test_unknown_rules_are_refused():
    with pytest.raises(RulesError):
        new_game([{}, {}], {"max_turns": 0})
    with pytest.raises(RulesError):
        new_game([{}, {}], {"sudden_death": 1})
