"""The card duel's components: each player's deck of 14, as documented."""

from __future__ import annotations

import pytest

from simulator.engine.core.errors import RulesError
from simulator.engine.duel import new_game
from simulator.engine.duel.cards import CARDS


def test_each_deck_holds_the_values_the_special_cards_and_special_actions():
    names = [c.name for c in CARDS]
    assert names[:5] == ["1", "2", "3", "4", "5"]
    assert {"6", "7 (pink)", "7 (green)", "8 (pink)", "8 (green)", "Dynamite"} <= set(names)
    assert {"Ace in the Hole", "Reload", "Bounty"} <= set(names)
    assert [c.value for c in CARDS if c.value is None] == [None]
    assert all(c.value is None or 1 <= c.value <= 8 for c in CARDS)


def test_nine_cards_can_be_dealt_each_round():
    assert len(CARDS) >= 9


@pytest.mark.parametrize(
    ("seats", "rules"), [([{}], None), ([{}, {}, {}], None), ([{}, {}], {"x": 1})]
)
def test_two_players_and_no_rule_options(seats, rules):
    with pytest.raises(RulesError):
        new_game(seats, rules)
