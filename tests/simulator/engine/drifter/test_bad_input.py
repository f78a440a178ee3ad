"""Bad input: a clear IllegalAction and the state exactly as it was."""

import pytest

from simulator.engine.core.errors import IllegalAction
from simulator.engine.drifter.actions import Action

from .factory import act, duel, find, game

F = [13] * 20


def snapshot(g):
    return (
        list(g.stake),
        g.pot,
        g.phase,
        g.actor,
        [c.uid for h in g.hand for c in h],
        [d.uid for d in g.saloon],
        len(g.events),
    )


def test_action_of_the_wrong_player_is_refused():
    g = game([[1, *F], [2, *F]])
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="Sam's decision"):
        g.apply_for(1, Action("end_actions"))
    assert snapshot(g) == before


def test_action_out_of_turn_names_the_step():
    g = game([[1, *F], [2, *F]])
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="turn step"):
        act(g, "bet", amount=5)
    assert snapshot(g) == before


def test_playing_a_card_you_do_not_hold_is_refused():
    g = game([[1, *F], [2, *F]])
    before = snapshot(g)
    with pytest.raises(IllegalAction):
        act(g, "play_dude", card=find(g, 1, "Jake"), chips=5)
    with pytest.raises(IllegalAction):
        act(g, "play_dude", card=99999, chips=5)
    assert snapshot(g) == before


def test_folded_player_acting_is_refused():
    g = duel(
        [[1], [2], [3]],
        [[("dude", "Hank", False, 6)], [("dude", "Jake", False, 5)], [("dude", "Lou", False, 4)]],
    )
    act(g, "bet", amount=5)
    act(g, "fold")
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="folded"):
        g.apply_for(1, Action("call"))
    assert snapshot(g) == before


@pytest.mark.parametrize("amount", [0, -3, 1000])
def test_illegal_amounts_are_refused(amount):
    g = duel([[1], [2]], [[("dude", "Hank", False, 6)], [("dude", "Jake", False, 5)]])
    before = snapshot(g)
    with pytest.raises(IllegalAction):
        act(g, "bet", amount=amount)
    assert snapshot(g) == before


@pytest.mark.parametrize(
    "data",
    [
        None,
        {},
        {"kind": "teleport"},
        {"kind": "bet", "amount": "5"},
        {"kind": "check", "amount": 1},
    ],
)
def test_malformed_action_json_is_refused(data):
    with pytest.raises(IllegalAction):
        Action.from_json(data)


def test_actions_round_trip_through_json():
    a = Action("play_gear", card=3, dude=1, revealed=True, chips=2)
    assert Action.from_json(a.to_json()) == a
    assert a.to_json() == {"kind": "play_gear", "card": 3, "dude": 1, "revealed": True, "chips": 2}


def test_nothing_is_legal_after_the_game_ends():
    from simulator.engine.drifter import Rules

    g = game([[13] * 30, [13] * 30], rules=Rules(max_turns=1))
    act(g, "end_actions")
    act(g, "end_turn")
    assert g.is_over and g.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        act(g, "end_turn")
