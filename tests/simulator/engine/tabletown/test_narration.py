"""Tabletown's narration tells what the dice and the choices did: initiative, both shells fired
as one shot, every wound with its total, every TNT roll, a DRAW where nobody can fire (in
public facts only: never a hand's TNT), and a gunslinger who stays facing where he was."""

from __future__ import annotations

from simulator.engine.tabletown import Action
from simulator.engine.tabletown.game import LEGACY_RULINGS
from tests.simulator.engine.tabletown.town import Cards, town


def roll(label: str, value: int) -> list:
    return ["roll", label, value]


def told(n=3, **kwargs):
    """Seat 0 discards a bullet and draws the first card of `deck_top`, the story kept."""
    cards = kwargs.pop("cards")
    hand = cards.take("Bullet", 5)
    state = town(
        n, hands=[hand] + (kwargs.pop("hands", None) or [[] for _ in range(n - 1)]), **kwargs
    )
    state.story = []
    state.apply(Action("discard", hand[0]))
    return state


def said(state, *starts: str) -> list[str]:
    """The lines of the story with `gunslinger N (...)` shortened to `gunslinger N`."""
    out = []
    for line in state.story:
        for i in range(len(state.seats)):
            line = line.replace(state.names[i], f"gunslinger {i}")
        out.append(line)
    return [line for line in out if line.startswith(starts)] if starts else out


def test_a_draw_where_nobody_can_fire_says_so():
    cards = Cards()
    state = told(n=2, cards=cards, deck_top=[cards.one("DRAW!")],
                 events=[roll("initiative", 2), roll("initiative", 5)])  # fmt: skip
    state.apply(Action("call", target=1))
    # Two play without TNT, so nothing loaded is all there is to say of either.
    assert said(state)[1:] == [
        "gunslinger 0 yells Draw! at gunslinger 1",
        "Initiative, lowest first: gunslinger 0 2, then gunslinger 1 5",
        "gunslinger 0 has nothing loaded",
        "gunslinger 1 has nothing loaded",
        "The DRAW ends without a shot",
    ]


def test_an_old_record_tells_a_draw_where_nobody_can_fire_as_it_did():
    cards = Cards()
    state = told(n=2, cards=cards, deck_top=[cards.one("DRAW!")], rulings=LEGACY_RULINGS,
                 events=[roll("initiative", 2), roll("initiative", 5)])  # fmt: skip
    state.apply(Action("call", target=1))
    assert said(state)[1:] == [
        "gunslinger 0 yells Draw! at gunslinger 1",
        "Initiative, lowest first: gunslinger 0 2, then gunslinger 1 5",
        "gunslinger 0 has nothing loaded and no TNT",
        "gunslinger 1 has nothing loaded and no TNT",
        "The DRAW ends without a shot",
    ]


def test_holding_fire_is_told_alike_with_or_without_tnt_in_hand():
    cards = Cards()
    state = told(
        cards=cards,
        hands=[[], [cards.one("TNT")]],
        deck_top=[cards.one("SHOOTOUT!")],
        events=[roll("initiative", 1), roll("initiative", 2), roll("initiative", 3)],
    )
    state.apply(Action("hold"))  # seat 0: bullets but no gun
    state.apply(Action("hold"))  # seat 2: a stick of TNT he keeps
    assert said(state)[2:] == [
        "Initiative, lowest first: gunslinger 0 1, then gunslinger 1 2, then gunslinger 2 3",
        "gunslinger 0 holds fire",
        "gunslinger 1 has nothing loaded and no cards in hand",
        "gunslinger 2 holds fire",
        "The SHOOTOUT ends without a shot",
    ]


def test_initiative_tells_each_weapon_modifier():
    cards = Cards()
    state = told(
        cards=cards,
        weapons=[[cards.one("Rifle")], [cards.one("Shotgun")], [cards.one("Revolver")]],
        deck_top=[cards.one("SHOOTOUT!")],
        events=[roll("initiative", 1), roll("initiative", 2), roll("initiative", 3)],
    )
    assert said(state, "Initiative") == [
        "Initiative, lowest first: gunslinger 0 1 + 2 (Rifle) = 3 and gunslinger 1 2 + 1"
        " (Shotgun) = 3 and gunslinger 2 3 at once"
    ]


def test_both_shells_at_once_are_told_as_one_shot_that_hits_on_two():
    cards = Cards()
    state = told(
        n=2,
        cards=cards,
        weapons=[[cards.one("Shotgun")], []],
        loaded=[cards.take("Shell", 2), []],
        deck_top=[cards.one("DRAW!")],
        events=[roll("initiative", 1), roll("initiative", 6), roll("shot", 2)],
    )
    state.apply(Action("call", target=1))
    state.apply(Action("blast", target=1))
    assert said(state, "gunslinger 0 fires") == [
        "gunslinger 0 fires both shells at once, one shot, at gunslinger 1 with the Shotgun"
        " (hits on 2+): 2, hit"
    ]


def test_every_wound_is_told_with_the_total_and_the_sixth_kills():
    cards = Cards()
    revolvers, bullets = cards.take("Revolver", 2), cards.take("Bullet", 2)
    state = told(
        n=2,
        cards=cards,
        weapons=[[revolvers[0]], [revolvers[1]]],
        loaded=[bullets[:1], bullets[1:]],
        wounds=[2, 5],
        deck_top=[cards.one("DRAW!")],
        events=[roll("initiative", 1), roll("initiative", 1), roll("shot", 5), roll("shot", 6)],
    )
    state.apply(Action("call", target=1))
    state.apply(Action("shoot", target=1, n=1))
    state.apply(Action("shoot", target=0, n=1))
    assert said(state)[-5:] == [
        "gunslinger 1 shoots at gunslinger 0 with the Revolver (hits on 5+): 6, hit",
        "gunslinger 1 takes a wound from the Revolver: 6 of 6",
        "gunslinger 0 takes a wound from the Revolver: 3 of 6",
        "gunslinger 1 is gunned down",
        "gunslinger 0 is the fastest draw in the West",
    ]


def test_tnt_tells_every_roll_at_the_table():
    cards = Cards()
    state = told(
        cards=cards,
        hands=[cards.take("TNT", 2), []],
        deck_top=[cards.one("SHOOTOUT!")],
        events=[
            *[roll("initiative", k) for k in (1, 2, 3)],
            roll("tnt", 4),
            roll("tnt", 3),
            roll("tnt", 6),
        ],
    )
    state.apply(Action("hold"))  # seat 0: bullets in hand, no gun
    state.apply(Action("tnt", n=2))
    state.apply(Action("stay"))  # the Law: TNT lets seat 2 (not facing him) turn to face him
    assert said(state, "BOOM") == [
        "BOOM! gunslinger 1's TNT (hits on 4+): gunslinger 0 4 (hit), gunslinger 1 3 (miss),"
        " gunslinger 2 6 (hit)"
    ]
    assert "gunslinger 0 takes a wound from the TNT: 1 of 6" in said(state)


def test_staying_is_told_like_turning():
    cards = Cards()
    state = told(
        cards=cards,
        hands=[cards.take("TNT", 1), []],
        facing=[2, 0, 0],
        deck_top=[cards.one("SHOOTOUT!")],
        events=[*[roll("initiative", k) for k in (1, 2, 3)], *[roll("tnt", 1)] * 3],
    )
    state.apply(Action("hold"))  # seat 0: bullets in hand, no gun
    state.apply(Action("tnt", n=1))
    state.apply(Action("stay"))  # the Law, clockwise from the thrower: seat 2, then seat 0
    state.apply(Action("turn_to_face"))
    assert said(state, "gunslinger 2 stays", "gunslinger 0 turns") == [
        "gunslinger 2 stays facing gunslinger 0",
        "gunslinger 0 turns to face gunslinger 1",
    ]
