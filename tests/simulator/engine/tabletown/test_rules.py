"""Tabletown's rules, one scenario each, with stacked decks and dice."""

from __future__ import annotations

import pytest

from simulator.engine.core import IllegalAction, RecordedChance, ReplayChance
from simulator.engine.core.errors import RecordError, RulesError
from simulator.engine.core.record import GameRecord
from simulator.engine.tabletown import Action, TabletownState, narrate, new_game, replay
from simulator.engine.tabletown.bots import BOTS
from simulator.engine.tabletown.cards import CARDS, GUNSLINGERS
from simulator.engine.tabletown.game import LEGACY_RULINGS, RULINGS
from tests.simulator.engine.tabletown.town import Cards, town

HOLD = Action("hold")
OLD_SEED = 1  # a four-player game whose legacy record passes someone over (asserted below)


def roll(label: str, value: int) -> list:
    return ["roll", label, value]


# -- setup ------------------------------------------------------------------------------------


def test_the_highest_roll_is_marshall_and_a_tie_rolls_again():
    events = [
        roll("marshall", 3),
        roll("marshall", 6),
        roll("marshall", 6),
        roll("marshall", 2),
        roll("marshall", 5),
    ]
    dealt = sum(1 for c in CARDS if c.role not in ("draw", "shootout"))
    events += [
        ["shuffle", "deck", list(range(dealt))],
        ["shuffle", "deck", list(range(len(CARDS) - 15))],
    ]
    state = new_game([{}, {}, {}], seed=0, record=False, chance=ReplayChance(events))
    assert state.marshall == 2 and state.to_act == 2 and state.phase == "facing"
    # The Marshall deals first, five each, from a deck without DRAW! and SHOOTOUT!
    assert all(len(h) == 5 for h in state.hands)
    assert not any(CARDS[c].role in ("draw", "shootout") for h in state.hands for c in h)
    assert sum(CARDS[c].role in ("draw", "shootout") for c in state.deck) == 14


def test_two_gunslingers_play_without_tnt():
    state = new_game([{}, {}], seed=4)
    assert not any(CARDS[c].role == "tnt" for c in state.deck + state.hands[0] + state.hands[1])
    assert len(state.deck) + 10 == 99 - 6


def test_there_are_99_cards_and_18_gunslingers_the_text_names_among_them():
    assert len(CARDS) == 99 and len(GUNSLINGERS) == 18
    titles = {g.title for g in GUNSLINGERS if g.in_text}
    assert 'Johnny "Doc" Edwards' in titles and 'Robert "Ironsides" Jackson' in titles
    assert len(titles) == 9


def test_no_two_gunslingers_face_the_same_one_and_nobody_faces_himself():
    state = new_game([{}, {}, {}], seed=1)
    first = state.to_act
    second, third = (first + 1) % 3, (first + 2) % 3
    state.apply(Action("face", target=second))
    # Facing `first` would leave `third` nobody but himself to face.
    assert state.legal_actions() == [Action("face", target=third)]
    state.apply(Action("face", target=third))
    assert state.legal_actions() == [Action("face", target=first)]
    state.apply(Action("face", target=first))
    assert sorted(state.facing) == [0, 1, 2] and state.phase == "turn" and state.to_act == first


def test_the_seat_may_choose_its_gunslinger():
    state = new_game([{"gunslinger": 17}, {"gunslinger": 0}], seed=1)
    assert state.gunslingers == [17, 0]


# -- the turn ---------------------------------------------------------------------------------


def test_arm_discards_the_weapon_in_play_with_its_ammo():
    cards = Cards()
    rifle, revolver, bullets = cards.one("Rifle"), cards.one("Revolver"), cards.take("Bullet", 2)
    state = town(hands=[[rifle], [], []], weapons=[[revolver], [], []], loaded=[bullets, [], []])
    state.apply(Action("arm", rifle))
    assert state.weapons[0] == [rifle] and state.loaded[0] == []
    assert {revolver, *bullets} <= set(state.discard)


def test_a_second_revolver_may_join_the_first_but_a_rifle_replaces_both():
    cards = Cards()
    first, second, rifle = cards.one("Revolver"), cards.one("Revolver"), cards.one("Rifle")
    bullet = cards.one("Bullet")
    state = town(
        hands=[[second, rifle], [], []], weapons=[[first], [], []], loaded=[[bullet], [], []]
    )
    state.apply(Action("arm", second))
    assert state.weapons[0] == [first, second] and state.loaded[0] == [bullet]
    assert state._capacity(0) == 12
    state.current = state.actor = 0
    state.apply(Action("arm", rifle))
    assert state.weapons[0] == [rifle] and state.loaded[0] == []


def test_load_takes_the_right_ammo_up_to_the_capacity():
    cards = Cards()
    rifle, shell, bullets = cards.one("Rifle"), cards.one("Shell"), cards.take("Bullet", 5)
    state = town(
        hands=[[shell, bullets[4]], [], []], weapons=[[rifle], [], []], loaded=[bullets[:3], [], []]
    )
    assert Action("load", bullets[4]) in state.legal_actions()
    assert Action("load", shell) not in state.legal_actions()  # shells are for a shotgun
    state.apply(Action("load", bullets[4]))
    assert len(state.loaded[0]) == 4
    state.current = state.actor = 0
    state.hands[0].append(cards.one("Bullet"))
    assert not any(a.kind == "load" for a in state.legal_actions())  # a rifle holds four


def test_track_turns_to_face_another_gunslinger():
    state = town(n=4, hands=[[], [], [], []])
    assert [a.target for a in state.legal_actions() if a.kind == "track"] == [2, 3]
    state.apply(Action("track", target=3))
    assert state.facing[0] == 3 and state.to_act == 1


def test_after_playing_a_card_the_hand_is_drawn_back_to_five():
    cards = Cards()
    hand = cards.take("Bullet", 5)
    state = town(hands=[hand, [], []])
    state.apply(Action("discard", hand[0]))
    assert len(state.hands[0]) == 5 and state.to_act == 1


def test_reach_for_the_sky_makes_the_faced_gunslinger_drop_his_guns():
    cards = Cards()
    reach, shotgun, shells = (
        cards.one("Reach for the Sky"),
        cards.one("Shotgun"),
        cards.take("Shell", 2),
    )
    state = town(hands=[[reach], [], []], weapons=[[], [shotgun], []], loaded=[[], shells, []])
    state.apply(Action("reach", reach, 1))
    assert state.weapons[1] == [] and state.loaded[1] == []


def test_an_empty_deck_is_made_from_the_shuffled_discards():
    cards = Cards()
    bullet, spare = cards.one("Bullet"), cards.one("Bullet")
    state = town(hands=[[bullet], [], []], events=[["shuffle", "reshuffle", [1, 0]]])
    state.deck, state.discard = [], [spare]
    state.apply(Action("discard", bullet))
    # The spare and the discarded bullet become the deck, in the shuffled order: spare on top.
    assert state.hands[0] == [spare, bullet] and state.deck == []


# -- DRAW! and SHOOTOUT! ----------------------------------------------------------------------


def gunfight(n=3, **kwargs):
    """Seat 0 holds five bullets; discarding one draws the first card of `deck_top`."""
    cards = kwargs.pop("cards")
    hand = cards.take("Bullet", 5)
    state = town(
        n, hands=[hand] + (kwargs.pop("hands", None) or [[] for _ in range(n - 1)]), **kwargs
    )
    state.apply(Action("discard", hand[0]))
    return state


def test_draw_calls_out_a_gunslinger_who_turns_and_each_shoots_once():
    cards = Cards()
    revolvers, bullets = cards.take("Revolver", 2), cards.take("Bullet", 4)
    state = gunfight(
        cards=cards,
        weapons=[[revolvers[0]], [], [revolvers[1]]],
        loaded=[bullets[:2], [], bullets[2:]],
        facing=[1, 2, 1],
        deck_top=[cards.one("DRAW!")],
        events=[roll("initiative", 4), roll("initiative", 2), roll("shot", 5), roll("shot", 4)],
    )
    assert state.phase == "call" and state.to_act == 0
    state.apply(Action("call", target=2))
    assert state.facing[2] == 0 and state.facing[0] == 2
    # Seat 2 rolled lower and shoots first; one shot only in a DRAW, and it must shoot.
    assert state.to_act == 2 and state.legal_actions() == [Action("shoot", target=0, n=1)]
    state.apply(Action("shoot", target=0, n=1))
    assert state.to_act == 0
    state.apply(Action("shoot", target=2, n=1))
    assert state.wounds == [1, 0, 0] and len(state.loaded[0]) == 1 and len(state.loaded[2]) == 1
    assert state.phase == "turn" and state.to_act == 1


def test_initiative_adds_two_for_a_rifle_and_one_for_a_shotgun():
    cards = Cards()
    rifle, shotgun, revolver = cards.one("Rifle"), cards.one("Shotgun"), cards.one("Revolver")
    state = gunfight(
        cards=cards,
        weapons=[[rifle], [shotgun], [revolver]],
        deck_top=[cards.one("SHOOTOUT!")],
        events=[roll("initiative", 1), roll("initiative", 2), roll("initiative", 3)],
    )
    assert state.legal_actions() == [HOLD]  # seat 0 has bullets in hand, no gun: he is asked
    state.apply(HOLD)
    assert state.combat is None  # nobody loaded: everyone holds and it is over
    state2 = gunfight(
        cards=Cards(),
        weapons=[[rifle], [shotgun], [revolver]],
        loaded=[[cards.one("Bullet")], [], []],
        facing=[1, 2, 0],
        deck_top=[Cards().free["SHOOTOUT!"][0]],
        events=[roll("initiative", 1), roll("initiative", 2), roll("initiative", 3)],
    )
    assert state2.combat.groups == [[0, 1, 2]]  # 1+2, 2+1, 3+0: all at once


def test_equal_initiative_shoots_at_once_and_both_can_die():
    cards = Cards()
    revolvers, bullets = cards.take("Revolver", 2), cards.take("Bullet", 2)
    state = gunfight(
        n=2,
        cards=cards,
        weapons=[[revolvers[0]], [revolvers[1]]],
        loaded=[bullets[:1], bullets[1:]],
        wounds=[5, 5],
        deck_top=[cards.one("DRAW!")],
        events=[roll("initiative", 3), roll("initiative", 3), roll("shot", 6), roll("shot", 5)],
    )
    state.apply(Action("call", target=1))
    state.apply(Action("shoot", target=1, n=1))
    assert state.alive == [True, True]  # hits land when the whole group has fired
    state.apply(Action("shoot", target=0, n=1))
    assert state.is_over and state.final()["winners"] == [] and state.alive == [False, False]


def test_the_sixth_wound_kills_and_the_last_gunslinger_standing_wins():
    cards = Cards()
    revolvers, bullets = cards.take("Revolver", 2), cards.take("Bullet", 2)
    state = gunfight(
        n=2,
        cards=cards,
        weapons=[[revolvers[0]], [revolvers[1]]],
        loaded=[bullets[:1], bullets[1:]],
        wounds=[0, 5],
        deck_top=[cards.one("DRAW!")],
        events=[roll("initiative", 1), roll("initiative", 6), roll("shot", 5)],
    )
    state.apply(Action("call", target=1))
    state.apply(Action("shoot", target=1, n=1))
    assert state.is_over and state.final()["winners"] == [0] and state.wounds == [0, 6]


def test_you_may_hold_fire_only_when_unloaded_or_your_target_does_not_face_you():
    cards = Cards()
    revolvers, bullets = cards.take("Revolver", 3), cards.take("Bullet", 3)
    state = gunfight(
        cards=cards,
        weapons=[[r] for r in revolvers],
        loaded=[[b] for b in bullets],
        facing=[1, 0, 0],  # 0 and 1 face each other; 2 faces 0, who does not face 2
        deck_top=[cards.one("SHOOTOUT!")],
        events=[roll("initiative", 1), roll("initiative", 2), roll("initiative", 3)],
    )
    assert state.to_act == 0 and HOLD not in state.legal_actions()
    assert HOLD not in state._combat_actions(1)
    assert HOLD in state._combat_actions(2)


def test_in_a_shootout_you_fire_as_many_shots_as_you_like():
    cards = Cards()
    revolver, bullets = cards.one("Revolver"), cards.take("Bullet", 3)
    state = gunfight(
        cards=cards,
        weapons=[[revolver], [], []],
        loaded=[bullets, [], []],
        facing=[1, 0, 0],
        deck_top=[cards.one("SHOOTOUT!")],
        events=[
            roll("initiative", 1),
            roll("initiative", 2),
            roll("initiative", 3),
            roll("shot", 1),
            roll("shot", 5),
            roll("shot", 6),
        ],
    )
    assert [a.n for a in state.legal_actions() if a.kind == "shoot"] == [1, 2, 3]
    state.apply(Action("shoot", target=1, n=3))
    assert state.wounds == [0, 2, 0] and state.loaded[0] == []


@pytest.mark.parametrize(
    ("weapon", "ammo", "kind", "value", "hit"),
    [
        ("Revolver", "Bullet", "shoot", 4, False),
        ("Revolver", "Bullet", "shoot", 5, True),
        ("Rifle", "Bullet", "shoot", 3, False),
        ("Rifle", "Bullet", "shoot", 4, True),
        ("Shotgun", "Shell", "shoot", 2, False),
        ("Shotgun", "Shell", "shoot", 3, True),
        ("Shotgun", "Shell", "blast", 1, False),
        ("Shotgun", "Shell", "blast", 2, True),
    ],
)
def test_each_weapon_hits_from_its_printed_roll(weapon, ammo, kind, value, hit):
    cards = Cards()
    state = gunfight(
        n=2,
        cards=cards,
        weapons=[[cards.one(weapon)], []],
        loaded=[cards.take(ammo, 2), []],
        deck_top=[cards.one("DRAW!")],
        events=[roll("initiative", 1), roll("initiative", 6), roll("shot", value)],
    )
    state.apply(Action("call", target=1))
    action = Action(kind, target=1, n=1 if kind == "shoot" else 0)
    state.apply(action)
    assert state.wounds[1] == int(hit)
    assert len(state.loaded[0]) == (0 if kind == "blast" else 1)


def test_tnt_goes_last_and_rolls_for_everyone_even_when_its_thrower_is_dead():
    cards = Cards()
    tnt = cards.take("TNT", 2)
    revolver, bullet = cards.one("Revolver"), cards.one("Bullet")
    state = gunfight(
        cards=cards,
        hands=[tnt, []],
        weapons=[[], [], [revolver]],
        loaded=[[], [], [bullet]],
        facing=[1, 2, 1],
        wounds=[0, 5, 0],
        deck_top=[cards.one("SHOOTOUT!")],
        events=[
            roll("initiative", 1),
            roll("initiative", 2),
            roll("initiative", 3),
            roll("shot", 6),
            roll("tnt", 4),
            roll("tnt", 3),
        ],
    )
    assert state.to_act == 0 and state.legal_actions() == [HOLD]  # cards in hand: he is asked
    state.apply(HOLD)
    state.apply(Action("tnt", n=2))  # two sticks hit on 4, 5 or 6
    assert state.to_act == 2 and state.wounds == [0, 5, 0]  # not yet: TNT goes last
    state.apply(Action("shoot", target=1, n=1))
    state.apply(Action("stay"))  # seat 1 is unarmed: shooting him breaks the Law
    # Seat 1 fell to the revolver, then his TNT went BOOM for everyone still at the table.
    assert state.alive == [True, False, True] and state.wounds == [1, 6, 0]
    assert not state.is_over and state.chance.pos == 6


def test_a_shot_in_the_back_lets_everyone_turn_to_face_the_shooter():
    cards = Cards()
    revolver, bullet = cards.one("Revolver"), cards.one("Bullet")
    rifle = cards.one("Rifle")
    state = gunfight(
        n=4,
        cards=cards,
        weapons=[[revolver], [rifle], [], []],
        loaded=[[bullet], [], [], []],
        facing=[1, 2, 3, 1],  # seat 1 faces 2, not 0: a shot in the back
        deck_top=[cards.one("SHOOTOUT!")],
        events=[
            roll("initiative", 1),
            roll("initiative", 2),
            roll("initiative", 3),
            roll("initiative", 4),
            roll("shot", 2),
        ],
    )
    assert HOLD in state.legal_actions()
    state.apply(Action("shoot", target=1, n=1))
    assert state.phase == "law" and state.to_act == 1
    state.apply(Action("turn_to_face"))
    state.apply(Action("stay"))
    state.apply(Action("turn_to_face"))
    assert state.facing == [1, 0, 3, 0]


def test_shooting_an_unarmed_gunslinger_breaks_the_law_too():
    cards = Cards()
    revolver, bullet = cards.one("Revolver"), cards.one("Bullet")
    state = gunfight(
        cards=cards,
        weapons=[[revolver], [], []],
        loaded=[[bullet], [], []],
        facing=[1, 0, 1],
        deck_top=[cards.one("SHOOTOUT!")],
        events=[
            roll("initiative", 1),
            roll("initiative", 2),
            roll("initiative", 3),
            roll("shot", 2),
        ],
    )
    state.apply(Action("shoot", target=1, n=1))
    assert state.phase == "law" and state.to_act == 2  # seat 1 already faces the shooter


@pytest.mark.parametrize(
    ("star", "weapon", "ammo", "cancelled"),
    [
        ("Sheriff", "Shotgun", "Shell", True),
        ("Deputy Sheriff", "Rifle", "Bullet", True),
        ("Deputy Sheriff", "Shotgun", "Shell", False),
    ],
)
def test_tin_stars_cancel_a_hit(star, weapon, ammo, cancelled):
    cards = Cards()
    badge = cards.one(star)
    state = gunfight(
        n=2,
        cards=cards,
        hands=[[badge]],
        weapons=[[cards.one(weapon)], []],
        loaded=[[cards.one(ammo)], []],
        deck_top=[cards.one("DRAW!")],
        events=[roll("initiative", 1), roll("initiative", 6), roll("shot", 6)],
    )
    state.apply(Action("call", target=1))
    state.apply(Action("shoot", target=1, n=1))
    assert state.wounds[1] == (0 if cancelled else 1)
    assert (badge in state.hands[1]) != cancelled


def test_the_sheriff_cancels_even_tnt():
    cards = Cards()
    sheriff, tnt = cards.one("Sheriff"), cards.one("TNT")
    state = gunfight(
        cards=cards,
        hands=[[tnt], [sheriff]],  # seats 1 and 2
        facing=[1, 2, 0],
        deck_top=[cards.one("SHOOTOUT!")],
        events=[
            roll("initiative", 1),
            roll("initiative", 2),
            roll("initiative", 3),
            roll("tnt", 6),
            roll("tnt", 6),
            roll("tnt", 6),
        ],
    )
    state.apply(HOLD)  # seat 0: bullets in hand, no gun
    state.apply(Action("tnt", n=1))
    state.apply(Action("stay"))  # the Law: seat 2 may turn to face the TNT thrower
    state.apply(HOLD)  # seat 2 keeps the Sheriff in hand: he is asked, and can only hold
    assert state.wounds == [1, 1, 0]


def test_the_last_stage_coach_cancels_a_draw_you_are_part_of():
    cards = Cards()
    coach = cards.one("Last Stage Coach Out of Town")
    state = gunfight(cards=cards, hands=[[coach], []], deck_top=[cards.one("DRAW!")])
    state.apply(Action("call", target=1))
    assert state.phase == "react" and state.to_act == 1
    state.apply(Action("stagecoach", coach))
    assert state.combat is None and state.phase == "turn" and state.to_act == 1


def test_the_stage_coach_takes_you_out_of_a_shootout():
    cards = Cards()
    coach = cards.one("Last Stage Coach Out of Town")
    state = gunfight(
        cards=cards,
        hands=[[coach], []],
        deck_top=[cards.one("SHOOTOUT!")],
        events=[roll("initiative", 1), roll("initiative", 2)],
    )
    state.apply(Action("stagecoach", coach))
    assert state.combat.combatants == [0, 2] and state.escaped == {1}
    state.apply(HOLD)  # seat 0: bullets in hand, no gun; seat 2 has no cards and is passed over
    assert state.escaped == set() and state.combat is None  # combat ran without seat 1


def test_the_cavalry_cancels_a_shootout():
    cards = Cards()
    cavalry = cards.one("US Cavalry Arrives!")
    state = gunfight(cards=cards, hands=[[], [cavalry]], deck_top=[cards.one("SHOOTOUT!")])
    assert state.phase == "react" and state.to_act == 2
    state.apply(Action("cavalry", cavalry))
    assert state.phase == "turn" and state.to_act == 1 and state.chance.pos == 0


def test_an_illegal_turn_action_changes_nothing():
    cards = Cards()
    state = town(hands=[[cards.one("Shell")], [], []])
    with pytest.raises(IllegalAction):
        state.apply(Action("load", state.hands[0][0]))  # no shotgun in play
    assert state.hands[0] and state.phase == "turn"


@pytest.mark.parametrize("n", [1, 9])
def test_tabletown_is_for_two_to_eight(n):
    with pytest.raises(RulesError):
        new_game([{}] * n)


def test_without_the_advanced_rules_no_modifiers_and_one_revolver():
    cards = Cards()
    first, second, rifle = cards.one("Revolver"), cards.one("Revolver"), cards.one("Rifle")
    state = town(hands=[[second], [], []], weapons=[[first], [rifle], []])
    state.rules = dict(state.rules, advanced=False)
    state.apply(Action("arm", second))
    assert state.weapons[0] == [second]
    state.chance = ReplayChance([roll("initiative", 3), roll("initiative", 3)])
    state.yelled = ("draw", 0, 1)
    state._begin_combat()
    assert state.combat.groups == [[0, 1]]  # the rifle's +2 does not count


def test_a_view_shows_only_its_own_hand():
    cards = Cards()
    state = town(hands=[cards.take("Bullet", 2), [cards.one("Sheriff")], []])
    view = state.view(1)
    assert view["hand"] == state.hands[1] and view["hand_sizes"] == [2, 1, 0]
    assert not set(state.hands[0]) & set(str(v) for v in view.values() if isinstance(v, int))
    assert "hands" not in view


def test_two_seats_cannot_share_a_gunslinger():
    with pytest.raises(RulesError):
        new_game([{"gunslinger": 1}, {}])


def test_the_cavalry_after_a_stage_coach_leaves_nobody_out_of_town():
    cards = Cards()
    coach, cavalry = cards.one("Last Stage Coach Out of Town"), cards.one("US Cavalry Arrives!")
    state = gunfight(cards=cards, hands=[[coach], [cavalry]], deck_top=[cards.one("SHOOTOUT!")])
    state.apply(Action("stagecoach", coach))
    state.apply(Action("cavalry", cavalry))
    assert state.escaped == set() and state.combat is None and state.phase == "turn"


def test_drawing_stops_when_only_draw_and_shootout_cards_are_left():
    cards = Cards()
    bullet = cards.one("Bullet")
    shootouts = cards.take("SHOOTOUT!", 5)
    state = town(hands=[[bullet], [], []])
    state.deck, state.discard = list(shootouts), []
    state.chance = RecordedChance(5, None)
    state.apply(Action("discard", bullet))
    # Nobody is armed: every shootout ends with holds (seat 0 is asked once the reshuffled
    # bullet is back in his hand); after 14 of them the drawing stops.
    while state.phase == "combat":
        assert state.to_act == 0 and state.legal_actions() == [HOLD]
        state.apply(HOLD)
    assert state.phase == "turn" and state.to_act == 1 and state.refill_triggers == 15
    assert state.hands[0] == [bullet]


# -- rulings: who is asked to hold ------------------------------------------------------------


@pytest.mark.parametrize("held", [["TNT"], ["Bullet"], []])
def test_a_gunslinger_with_cards_in_hand_is_asked_even_if_he_can_only_hold(held):
    """Whether seat 1 (no gun) is asked must not tell the table what his hand holds: with TNT
    he may light it or hold, without it he may only hold, and both are asked."""
    cards = Cards()
    bullets = cards.take("Bullet", 5)
    state = town(
        hands=[bullets, [cards.one(name) for name in held], []],
        deck_top=[cards.one("SHOOTOUT!")],
        events=[roll("initiative", 2), roll("initiative", 1), roll("initiative", 3)],
    )
    state.story = []
    state.apply(Action("discard", bullets[0]))
    if held:
        assert state.phase == "combat" and state.to_act == 1
        tnt = [Action("tnt", n=1)] if held == ["TNT"] else []
        assert state.legal_actions() == [*tnt, HOLD]
        state.apply(HOLD)
        assert state.story[-1] == f"{state.names[1]} holds fire"
    else:
        assert state.story[-1] == f"{state.names[1]} has nothing loaded and no cards in hand"
    # Seat 0 discarded a bullet for the SHOOTOUT!: four in hand, no gun; asked all the same.
    assert state.to_act == 0 and state.legal_actions() == [HOLD]
    state.apply(HOLD)
    # Seat 2 has no cards at all: everyone can see he has nothing to do, so he is passed over.
    assert state.story[-2:] == [
        f"{state.names[2]} has nothing loaded and no cards in hand",
        "The SHOOTOUT ends without a shot",
    ]
    assert state.combat is None and state.phase == "turn" and state.to_act == 1


def test_a_hold_is_asked_of_two_players_only_when_they_can_shoot():
    """Two play without TNT: a gunslinger with nothing loaded is passed over, cards or not."""
    cards = Cards()
    state = gunfight(n=2, cards=cards, hands=[[cards.one("Bullet")]],
                     deck_top=[cards.one("DRAW!")],
                     events=[roll("initiative", 1), roll("initiative", 2)])  # fmt: skip
    state.apply(Action("call", target=1))
    assert state.combat is None and state.phase == "turn"


@pytest.mark.parametrize("held", [["Bullet"], []])
def test_an_old_record_passes_over_anyone_who_can_only_hold(held):
    """The legacy rulings (records written before `rulings`): hold-only means passed over."""
    cards = Cards()
    state = gunfight(
        cards=cards,
        rulings=LEGACY_RULINGS,
        hands=[[cards.one(name) for name in held], []],
        deck_top=[cards.one("SHOOTOUT!")],
        events=[roll("initiative", 2), roll("initiative", 1), roll("initiative", 3)],
    )
    assert state.combat is None and state.phase == "turn" and state.to_act == 1
    assert state.legal_actions()  # seat 1's turn


def test_new_games_are_played_and_recorded_by_the_current_rulings():
    state = new_game([{}, {}, {}], seed=3)
    assert state.rules["rulings"] == RULINGS == 2
    assert state.record()["rules"]["rulings"] == RULINGS
    assert new_game([{}, {}], {"rulings": LEGACY_RULINGS}).rules["rulings"] == 1
    assert TabletownState.recorded_rules({"advanced": True}) == {"advanced": True, "rulings": 1}
    assert TabletownState.recorded_rules({"rulings": 2}) == {"rulings": 2}
    for bad in (0, 3, "2", True):
        with pytest.raises(RulesError):
            new_game([{}, {}], {"rulings": bad})


def _played(rulings: int, seed: int) -> dict:
    state = new_game([{}, {}, {}, {}], {"rulings": rulings}, seed=seed)
    bots = [BOTS["heuristic"](seat, seed) for seat in range(4)]
    while not state.is_over:
        state.apply(bots[state.to_act].choose(state.view(state.to_act), state.legal_actions()))
    return state.record()


def _without_rulings(record: dict) -> dict:
    rules = {k: v for k, v in record["rules"].items() if k != "rulings"}
    body = {k: v for k, v in record.items() if k not in ("checksum", "rules")}
    return GameRecord(rules=rules, **body).to_json()


def test_a_record_without_rulings_replays_by_the_legacy_ones():
    old = _without_rulings(_played(LEGACY_RULINGS, seed=OLD_SEED))
    story = narrate(old)
    assert any(line.endswith("has nothing loaded and no TNT") for line in story)
    assert replay(old).final() == old["final"]
    assert replay(old).record()["rules"]["rulings"] == LEGACY_RULINGS
    # The same decisions read by today's rulings ask someone the old game passed over.
    new = _played(RULINGS, seed=OLD_SEED)
    with pytest.raises(RecordError):
        replay(_without_rulings(new))
    assert replay(new).final() == new["final"]
