"""`apply` in every game: anything that is not a legal action is an IllegalAction, in the build
that runs (compiled or pure) and, for High Stakes Drifter, in the other build too (a subprocess).

A non-action must never get further than the check: not as a TypeError of the compiled build's
annotations, nor accepted because it compares equal to a legal action (`mock.ANY`, `True == 1`,
`1.0 == 1`) and then written into a record that its replay refuses."""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from simulator.engine import compiled, drifter, duel, gunfighter, quickdraw, tabletown
from simulator.engine.core import IllegalAction
from simulator.engine.drifter import actions
from simulator.engine.drifter.actions import Action

from .drifter.factory import game

ROOT = Path(__file__).resolve().parents[3]
SMALL_GAMES = [gunfighter, duel, quickdraw, tabletown]
NOT_ACTIONS = [None, 3, "end_actions", {"kind": "end_actions"}, object(), mock.ANY]


def without_address(thing) -> str:
    """Its repr without an object's address: the same test id in every test process."""
    return re.sub(r" at 0x[0-9a-f]+", "", repr(thing))


def small_game(package):
    state = package.new_game([{"name": "A"}, {"name": "B"}], None, 4)
    assert not state.is_over
    return state


def drifter_game():
    return game([[1, 10, 2, 11, *[13] * 20], [2, 11, 1, 10, *[13] * 20]])


def running_compiled() -> bool:
    """Whether this process runs the compiled build (its modules are not .py files). Not
    `compiled.active()`: test_compiled.py rewrites that report with its stand-in builds."""
    return not actions.__file__.endswith(".py")


def unchanged(state) -> tuple:
    return state.record(), [repr(a) for a in state.legal_actions()], state.to_act


# --- the small games ---------------------------------------------------------------------------


@pytest.mark.parametrize("package", SMALL_GAMES, ids=lambda p: p.__name__.rsplit(".", 1)[1])
@pytest.mark.parametrize(
    "thing", [*NOT_ACTIONS, drifter.Action("end_actions")], ids=without_address
)
def test_a_small_game_refuses_what_is_not_an_action(package, thing):
    state = small_game(package)
    before = unchanged(state)
    with pytest.raises(IllegalAction, match="not legal"):
        state.apply(thing)
    assert unchanged(state) == before


def twin_of_a_legal_action(state, twin):
    """The first legal action with a whole-number field that `twin` turns into an equal value
    of another type, and its twin; the game moves on (first legal action) until there is one."""
    for _ in range(200):
        for legal in state.legal_actions():
            for field in dataclasses.fields(legal):
                value = getattr(legal, field.name)
                if type(value) is int and twin(value) == value:
                    return legal, dataclasses.replace(legal, **{field.name: twin(value)})
        state.apply(state.legal_actions()[0])
    raise AssertionError("no legal action with such a field")


@pytest.mark.parametrize("package", SMALL_GAMES, ids=lambda p: p.__name__.rsplit(".", 1)[1])
@pytest.mark.parametrize("twin", [float, bool], ids=["float", "bool"])
def test_a_small_game_refuses_a_legal_action_with_a_field_of_another_type(package, twin):
    """`Action("select", 1.0)` equals `Action("select", 1)`; taken, the record would hold 1.0."""
    state = small_game(package)
    legal, other = twin_of_a_legal_action(state, twin)
    assert other == legal  # what `in legal_actions()` would have accepted
    before = unchanged(state)
    with pytest.raises(IllegalAction):
        state.apply(other)
    assert unchanged(state) == before
    state.apply(legal)  # the legal action itself still goes


def test_a_small_game_refuses_another_games_action_with_the_same_fields():
    state = small_game(duel)
    legal = state.legal_actions()[0]
    with pytest.raises(IllegalAction):
        state.apply(gunfighter.Action(legal.kind, legal.card))


# --- High Stakes Drifter, in the build that runs -----------------------------------------------


@pytest.mark.parametrize(
    "thing",
    [*NOT_ACTIONS, quickdraw.Action("keep"), Action("end_actions").to_json()],
    ids=without_address,
)
def test_drifter_refuses_what_is_not_an_action(thing):
    g = drifter_game()
    before = unchanged(g)
    with pytest.raises(IllegalAction, match="not an action"):
        g.apply(thing)
    with pytest.raises(IllegalAction, match="not an action"):
        g.apply_for(g.to_act, thing)
    assert unchanged(g) == before


def test_drifter_refuses_a_seat_that_is_not_a_number():
    g = drifter_game()
    with pytest.raises(IllegalAction, match="not a seat"):
        g.apply_for("0", Action("end_actions"))


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": "end_actions", "card": 3},  # a field its kind does not use
        {"kind": "discard", "amount": 5, "card": 0},
        {"kind": "teleport"},
    ],
    ids=repr,
)
def test_drifter_refuses_an_action_with_fields_its_kind_does_not_take(fields):
    g = drifter_game()
    before = unchanged(g)
    with pytest.raises(IllegalAction):
        g.apply(Action(**fields))
    assert unchanged(g) == before


@pytest.mark.parametrize("twin", [float, bool], ids=["float", "bool"])
def test_drifter_refuses_a_legal_action_with_a_field_of_another_type(twin):
    g = drifter_game()
    legal = next(a for a in g.legal_actions() if a.kind == "play_dude" and a.card == 0)
    try:
        other = Action("play_dude", card=twin(0), revealed=legal.revealed, chips=legal.chips)
    except TypeError:
        # the compiled Action checks its annotations: a float card cannot even be made
        assert running_compiled()
        return
    if type(other.card) is int:
        # the compiled Action stores False as the int 0: what it made *is* the legal action
        assert running_compiled()
        g.apply(other)
        assert g.events[-1] == ["act", 0, legal.to_json()]
        return
    assert other == legal  # what `in legal_actions()` would have accepted
    before = unchanged(g)
    with pytest.raises(IllegalAction, match="card must be int"):
        g.apply(other)
    assert unchanged(g) == before


# --- High Stakes Drifter, in the other build ---------------------------------------------------

OTHER_BUILD = """
from unittest import mock
from simulator.engine import quickdraw
from simulator.engine.drifter import actions
from simulator.engine.drifter.actions import Action
from tests.simulator.engine.test_action_contract import drifter_game
g = drifter_game()
out = ["pure" if actions.__file__.endswith(".py") else "compiled"]
for thing in (None, 3, "end_actions", {"kind": "end_actions"}, object(), mock.ANY,
              quickdraw.Action("keep"), Action("end_actions", card=3)):
    for call in (g.apply, lambda a: g.apply_for(g.to_act, a)):
        try:
            call(thing)
            out.append("accepted")
        except Exception as exc:
            out.append(type(exc).__name__)
print(" ".join(out))
"""


def test_drifter_refuses_what_is_not_an_action_in_the_other_build_too(monkeypatch):
    """CI runs this suite once compiled and once pure: each run checks the other build."""
    monkeypatch.delenv("DRIFTER_PURE_ENGINE", raising=False)
    env = dict(os.environ)
    if running_compiled():
        env["DRIFTER_PURE_ENGINE"] = "1"
        other = "pure"
    else:
        ok, why = compiled.check("simulator.engine.drifter")
        if not ok:
            pytest.skip(f"no compiled build to check: {why}")
        other = "compiled"
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run(
        [sys.executable, "-c", OTHER_BUILD],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    build, *results = out.stdout.split()
    assert build == other
    assert results == ["IllegalAction"] * 16
