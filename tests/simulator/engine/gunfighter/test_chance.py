"""Gunfighter's dice: a shot hits with probability accuracy / 6 (99.9% interval, fixed seed)."""

from __future__ import annotations

import math

import pytest

from simulator.engine.core import RecordedChance
from simulator.engine.gunfighter import new_game
from simulator.engine.gunfighter.cards import CARDS

QUICK_SHOT = CARDS[0]
Z_999 = 3.2905  # two-sided 99.9%
SHOTS = 3000


@pytest.mark.parametrize("accuracy", [0, 1, 2, 3, 4, 5, 6])
def test_a_shot_hits_with_probability_accuracy_over_six(accuracy):
    state = new_game([{}, {}], seed=0, record=False)
    state.chance = RecordedChance(1000 + accuracy, None)
    hits = 0
    for _ in range(SHOTS):
        state.accuracy[0], state.bullets[0], state.health[1] = accuracy, 1, 2
        state._use(0, QUICK_SHOT)
        hits += state.health[1] == 1
    p = accuracy / 6
    margin = Z_999 * math.sqrt(p * (1 - p) / SHOTS)
    assert abs(hits / SHOTS - p) <= margin
