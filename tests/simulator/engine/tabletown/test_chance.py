"""Tabletown's dice: every weapon hits as often as the text says (99.9% interval, fixed seed)."""

from __future__ import annotations

import math

import pytest

from simulator.engine.core import RecordedChance
from simulator.engine.tabletown import Action
from simulator.engine.tabletown.game import Combat
from tests.simulator.engine.tabletown.town import Cards, town

Z_999 = 3.2905  # two-sided 99.9%
TRIALS = 3000


def within(successes: int, trials: int, p: float) -> bool:
    return abs(successes / trials - p) <= Z_999 * math.sqrt(p * (1 - p) / trials)


@pytest.mark.parametrize(
    ("weapon", "ammo", "kind", "p"),
    [
        ("Revolver", "Bullet", "shoot", 1 / 3),
        ("Rifle", "Bullet", "shoot", 1 / 2),
        ("Shotgun", "Shell", "shoot", 2 / 3),
        ("Shotgun", "Shell", "blast", 5 / 6),
    ],
)
def test_a_shot_hits_as_often_as_its_weapon_says(weapon, ammo, kind, p):
    cards = Cards()
    state = town(weapons=[[cards.one(weapon)], [], []], facing=[1, 0, 0])
    state.chance = RecordedChance(sum(map(ord, weapon + kind)), None)
    shells = cards.take(ammo, 2)
    hits = 0
    for _ in range(TRIALS):
        state.combat = Combat("shootout", 0, -1, [0, 1, 2])
        state.loaded[0] = list(shells)
        state._fire(0, Action(kind, target=1, n=1 if kind == "shoot" else 0))
        hits += len(state.combat.hits)
    assert within(hits, TRIALS, p)


@pytest.mark.parametrize(("sticks", "p"), [(1, 1 / 3), (2, 1 / 2), (3, 2 / 3)])
def test_tnt_hits_each_gunslinger_as_often_as_its_sticks_say(sticks, p):
    state = town(n=3)
    state.chance = RecordedChance(40 + sticks, None)
    hits = 0
    for _ in range(TRIALS // 3):
        state.combat = Combat("shootout", 0, -1, [0, 1, 2])
        state.combat.tnt = [(0, sticks)]
        state.wounds = [0, 0, 0]
        state._end_combat()
        hits += sum(state.wounds)
    assert within(hits, 3 * (TRIALS // 3), p)
