"""The variant rules, each on its own, their conflicts, and the end of the game."""

import pytest

from simulator.engine.core.errors import RulesError
from simulator.engine.drifter import Rules

from .factory import act, duel, end_turn, find, game

F = [13] * 20
HANK, JAKE = ("dude", "Hank", False, 6), ("dude", "Jake", False, 5)


def rules(*variants, **kw):
    return Rules(variants=frozenset(variants), **kw)


def checks_to_showdown(g):
    while g.phase in ("bet", "reveal", "fortune"):
        kind = {"bet": "check", "reveal": "pass_reveal", "fortune": "pass_fortune"}[g.phase]
        act(g, kind)


def test_cold_hands_ante_turns_then_the_badge_holder_challenges_then_new_hands():
    g = game([[1, 10, 20, 13, 13, *F], [2, 11, 21, 13, 13, *F]], rules=rules("cold_hands"))
    assert g.stake == [95, 95] and g.pot == 10  # everyone antes first
    assert not any(a.kind == "challenge" for a in g.legal_actions())
    act(g, "play_dude", card=find(g, 0, "Hank"), chips=6)
    act(g, "end_actions")
    assert g.phase == "turn" and g.to_act == 1  # no discarding or drawing in Cold Hands
    act(g, "play_dude", card=find(g, 1, "Jake"), chips=5)
    act(g, "end_actions")
    assert g.phase == "cold_challenge" and g.to_act == 0
    act(g, "challenge", dude=find(g, 0, "Hank"), stat="skill")
    act(g, "accept", dude=find(g, 1, "Jake"))
    assert g.pot == 10  # no second ante
    checks_to_showdown(g)
    # Hank wins 10 + 6 + 5; everything in the street is buried, hands are discarded,
    # everyone draws five new cards, the badge passes and the next round's antes are in.
    assert g.stake == [89 + 21 - 5, 90 - 5] and g.pot == 10
    assert g.street == [] and g.saloon == []
    assert [len(h) for h in g.hand] == [5, 5]
    assert g.badge == 1 and g.to_act == 1 and g.phase == "turn"
    assert "Quick Draw" in [c.printed.name for c in g.dead[0]]


def test_high_low_highest_and_lowest_tie_for_the_win():
    g = duel(
        [[1], [2], [3]],
        [[("dude", "Hank", True, 5)], [("dude", "Jake", True, 4)], [("dude", "Lou", True, 3)]],
        rules=rules("high_low"),
    )
    checks_to_showdown(g)
    # pot 15 + 5 + 4 + 3 = 27: Hank (8, highest) and Jake (2, lowest) split; odd chip to Sam
    assert g.stake[:3] == [90 + 14, 91 + 13, 92]


def test_lowball_lowest_contested_stat_wins():
    g = duel(
        [[1], [2]],
        [[("dude", "Hank", True, 5)], [("dude", "Jake", True, 4)]],
        rules=rules("lowball"),
    )
    checks_to_showdown(g)
    assert g.stake == [90, 91 + 19]


def test_standard_game_ends_when_a_player_cannot_cover_the_ante():
    g = game([[1, *F], [2, 10, *F]], rules=Rules(starting_stake=12))
    act(g, "play_dude", card=find(g, 0, "Hank"), chips=6)
    end_turn(g)
    act(g, "play_dude", card=find(g, 1, "Jake"), chips=5)
    act(g, "play_gear", card=find(g, 1, "Six-Gun"), dude=find(g, 1, "Jake"), chips=3)
    end_turn(g)
    act(g, "challenge", dude=find(g, 0, "Hank"), stat="skill")
    assert g.is_over and g.final()["winners"] == [0] and g.final()["stakes"] == [6, 4]
    assert g.final()["reason"] == "a player cannot cover the ante"


def test_last_man_standing_plays_on_until_one_player_has_chips():
    g = game([[1, *F], [2, 10, *F]], rules=rules("last_man_standing", starting_stake=12))
    act(g, "play_dude", card=find(g, 0, "Hank"), chips=6)
    end_turn(g)
    act(g, "play_dude", card=find(g, 1, "Jake"), chips=5)
    act(g, "play_gear", card=find(g, 1, "Six-Gun"), dude=find(g, 1, "Jake"), chips=3)
    end_turn(g)
    act(g, "challenge", dude=find(g, 0, "Hank"), stat="skill")
    assert not g.is_over and g.stake == [1, 0] and g.pot == 9  # Jane antes all she has
    act(g, "refuse")
    # Sam takes the pot; Jane has nothing left in her stake: the last man standing is Sam
    assert g.is_over and g.stake == [10, 0] and g.final()["winners"] == [0]


def test_riding_shotgun_puts_a_dude_into_play_when_one_moves_into_the_street():
    g = game([[1, 2, *F], [3, 5, *F]], rules=rules("riding_shotgun"))
    act(g, "play_dude", card=find(g, 0, "Hank"), chips=6)
    end_turn(g)
    act(g, "play_dude", card=find(g, 1, "Lou"), chips=4)
    end_turn(g)
    act(g, "challenge", dude=find(g, 0, "Hank"), stat="skill")
    assert g.phase == "shotgun" and g.to_act == 0
    act(g, "shotgun", card=find(g, 0, "Jake"))
    jake = next(d for d in g.saloon if d.printed.name == "Jake")
    assert jake.revealed and jake.chips == 0 and g.stake[0] == 89  # free
    act(g, "accept", dude=find(g, 1, "Lou"))
    assert g.phase == "shotgun" and g.to_act == 1
    act(g, "pass_shotgun")
    assert g.phase == "bet"


def test_tombstone_a_dude_revealed_after_a_namesake_is_buried():
    g = game([[1, *F], [6, *F]], rules=rules("tombstone"))
    act(g, "play_dude", card=find(g, 0, "Hank"), revealed=True, chips=5)
    end_turn(g)
    act(g, "play_dude", card=find(g, 1, "Hank"), revealed=True, chips=5)
    assert [d.owner for d in g.saloon] == [0]
    assert g.stake[1] == 100 and [c.printed.name for c in g.dead[1]] == ["Hank"]


def test_tombstone_simultaneous_copies_are_all_buried_and_the_pot_waits():
    g = duel([[1, 2], [6, 3]], [[HANK], [("dude", "Hank", False, 6)]], rules=rules("tombstone"))
    checks_to_showdown(g)
    # both Hanks revealed together at the showdown: both buried, pot 10 + 6 + 6 carried
    assert g.carried == 22 and g.pot == 0 and g.street == []
    assert g.total_chips() == 200
    act(g, "end_turn")
    act(g, "play_dude", card=find(g, 1, "Lou"), revealed=True, chips=3)
    end_turn(g)
    act(g, "play_dude", card=find(g, 0, "Jake"), revealed=True, chips=4)
    act(g, "challenge", dude=find(g, 0, "Jake"), stat="smarts")
    assert g.pot == 10 + 22 and g.carried == 0
    act(g, "refuse")
    assert g.stake[0] == 89 - 4 - 5 + 32


def test_whirlwind_any_number_of_actions_but_three_on_the_very_first_turn():
    deck = [5, 5, 5, 5, 5, 5, 5, *F]
    g = game([deck, deck], rules=rules("whirlwind"))
    for _ in range(3):
        act(g, "play_dude", card=find(g, 0, "Ned"), chips=3)
    assert g.phase == "discard"  # the first player's first turn: three actions only
    act(g, "end_turn")
    for _ in range(5):
        act(g, "play_dude", card=find(g, 1, "Ned"), chips=3)
    assert g.phase == "turn" and g.to_act == 1
    act(g, "end_actions")
    act(g, "end_turn")
    act(g, "challenge", dude=g.saloon[0].uid, stat="luck")
    act(g, "refuse")
    assert g.phase == "discard"  # one challenge a turn, and it ends the actions


@pytest.mark.parametrize(
    "variant", ["deuces_wild", "tres_amigos", "on_your_lonesome", "draw", "stud"]
)
def test_deck_format_variants_are_accepted(variant):
    g = game([[1, *F], [2, *F]], rules=rules(variant))
    assert variant in g.rules.variants


@pytest.mark.parametrize(
    ("variants", "quick", "message"),
    [
        ({"high_low", "lowball"}, False, "High-Low and Lowball"),
        ({"deuces_wild", "tres_amigos"}, False, "copy-limit"),
        ({"on_your_lonesome", "deuces_wild"}, False, "copy-limit"),
        ({"draw", "stud"}, False, "Draw and Stud"),
        ({"tombstone"}, True, "quick-start"),
        ({"gunslinger"}, False, "unknown variant"),
    ],
)
def test_conflicting_or_unknown_variants_raise_rules_error(variants, quick, message):
    with pytest.raises(RulesError, match=message):
        Rules(variants=frozenset(variants), quick_start=quick)


def test_variant_names_are_normalised():
    assert Rules(variants=frozenset({"High-Low", "Riding Shotgun"})).variants == {
        "high_low",
        "riding_shotgun",
    }


@pytest.mark.parametrize("players", [1, 9])
def test_two_to_eight_players(players):
    with pytest.raises(RulesError, match="2 to 8"):
        game([[1, *F]] * players, names=[f"P{i}" for i in range(players)])


def test_quick_start_is_for_two_players():
    with pytest.raises(RulesError, match="two players"):
        game([[1, *F]] * 3, rules=Rules(quick_start=True))


def test_turn_cap_ends_every_game_and_is_reported():
    g = game([[13] * 30, [13] * 30], rules=Rules(max_turns=4))
    for _ in range(4):
        end_turn(g)
    assert g.is_over and g.final()["cap_hit"] and g.final()["turns"] == 4
    assert g.final()["winners"] == [0, 1]  # equal stakes: a shared win
