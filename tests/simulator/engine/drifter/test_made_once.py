"""The menus' actions made once per process are the actions they stand for, whatever game
asks next: the same ids with another cost make the right action, and ids past a table's end
still get one."""

from simulator.engine.drifter.actions import (
    DISCARDS,
    Action,
    Kind,
    Op,
    challenges,
    dude_plays,
    play_gear,
    play_kicker,
)
from simulator.engine.drifter.cards import STATS


def test_a_kicker_play_is_made_once_and_is_the_action_it_stands_for():
    a = play_kicker(130, 7)
    assert a == Action(Kind.PLAY_KICKER, card=130, dude=7)
    assert play_kicker(130, 7) is a
    assert play_kicker(7, 130) == Action(Kind.PLAY_KICKER, card=7, dude=130) != a
    assert play_kicker(5000, 7) == Action(Kind.PLAY_KICKER, card=5000, dude=7)  # past the end


def test_a_gear_play_follows_the_cost_of_the_card_that_has_the_id_now():
    up = play_gear(12, 3, True, 2, -1)
    assert up == Action(Kind.PLAY_GEAR, card=12, dude=3, revealed=True, chips=2)
    assert play_gear(12, 3, True, 2, -1) is up
    down = play_gear(12, 3, False, 3, -1)
    assert down == Action(Kind.PLAY_GEAR, card=12, dude=3, chips=3) != up
    # another game: id 12 is a gear card costing $5
    assert play_gear(12, 3, True, 4, -1) == Action(
        Kind.PLAY_GEAR, card=12, dude=3, revealed=True, chips=4
    )
    # a copy card's target is part of the action
    assert play_gear(12, 3, True, 2, 40) == Action(
        Kind.PLAY_GEAR, card=12, dude=3, revealed=True, chips=2, target=40
    )


def test_a_dude_cards_plays_follow_its_cost():
    plays = dude_plays(20, 4, 3)
    assert plays == (
        Action(Kind.PLAY_DUDE, card=20, revealed=True, chips=3),
        Action(Kind.PLAY_DUDE, card=20, chips=4),
        Action(Kind.PLAY_DUDE, card=20, chips=7),
    )
    # the same three actions (compiled, a fixed-length tuple is boxed afresh when returned)
    assert all(a is b for a, b in zip(dude_plays(20, 4, 3), plays, strict=True))
    assert dude_plays(20, 0, 3)[0] == Action(Kind.PLAY_DUDE, card=20, revealed=True, chips=0)


def test_challenges_name_each_stat_and_quick_start_none():
    assert challenges(9, False) == tuple(Action(Kind.CHALLENGE, dude=9, stat=st) for st in STATS)
    assert challenges(9, True) == (Action(Kind.CHALLENGE, dude=9),)
    assert challenges(9, False) is challenges(9, False)


def test_every_kind_has_its_own_op_and_every_action_carries_its_kinds():
    """The bots compare `Action.op`, the kind as an int: each kind has one, no two kinds share
    one, and an action made any way (built, parsed, looked up) carries its own kind's."""
    kinds = {name: value for name, value in vars(Kind).items() if name.isupper()}
    ops = {name: value for name, value in vars(Op).items() if name.isupper()}
    assert set(kinds) == set(ops) and len(set(kinds.values())) == len(kinds)
    assert sorted(ops.values()) == list(range(len(ops)))
    for name, kind in kinds.items():
        assert Action(kind).op == ops[name]
        assert Action.from_json({"kind": kind}).op == ops[name]
    assert play_kicker(3, 7).op == Op.PLAY_KICKER
    assert DISCARDS.of(5).op == Op.DISCARD
    assert Action("no such kind").op == -1
