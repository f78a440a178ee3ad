"""Gunfighter's narration agrees with its final result: `final()["turns"]` counts the turns
completed, and a gunfight that ends in a death ends during the next one, which the last line
names with the count of full turns."""

from __future__ import annotations

from simulator.engine.gunfighter import Action
from tests.simulator.engine.gunfighter.test_rules import QUICK_SHOT, QUICK_SHOT_3, TAKE_AIM_1, ready


def test_a_death_in_the_second_turn_is_told_as_after_one_full_turn():
    state = ready(
        ([QUICK_SHOT, TAKE_AIM_1], [QUICK_SHOT_3]),
        bullets=(3, 0),
        health=(2, 1),
        events=[["roll", "shot", 1]],
    )
    state.story = []
    state.apply(Action("select", TAKE_AIM_1))  # turn 1: Ada aims, Bo (no bullets) cannot shoot
    state.apply(Action("select", QUICK_SHOT_3))
    assert state.final()["turns"] == 1 and not state.is_over
    state.apply(Action("select", QUICK_SHOT))  # turn 2: Ada shoots first and hits
    state.apply(Action("select", QUICK_SHOT_3))
    assert state.is_over and state.final()["turns"] == 1
    assert state.story[-1] == "Bo is dead; Ada wins the gunfight in turn 2, after 1 full turn"
    assert [line for line in state.story if line.startswith("Turn ")][-1].startswith("Turn 2:")
