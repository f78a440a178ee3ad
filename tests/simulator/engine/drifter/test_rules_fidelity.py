"""Where the engine once strayed from the rules text (issue 14), stacked decks and exact chips
show it now plays the text; and `Rules(rulings=2)`, the reading older records were played by,
still plays it the old way so that they replay (docs/rules/high-stakes-drifter.md, "Rulings")."""

import pytest

from simulator.engine.core.errors import IllegalAction, RulesError
from simulator.engine.drifter import Rules
from simulator.engine.drifter.bots import HeuristicBot

from .factory import BASIC, BASIC_CHIPS, act, catalogue, dude, end_turn, find, game, thing

F = [13] * 20  # Old Boots: filler
MIMIC = thing(
    50,
    "Mimic",
    "gear",
    1,
    [{"timing": "on_play", "effects": [{"kind": "copy", "of": "gear"}]}],
    text="When you play this card, it becomes a copy of a gear card of your choice.",
)
ECHO = thing(
    51,
    "Echo",
    "fortune",
    1,
    [{"timing": "on_play", "effects": [{"kind": "copy", "of": "any"}]}],
    text="This card becomes a copy of any card of your choice in the saloon or street.",
)
WALT = dude(
    52,
    "Walt",
    5,
    2,
    4,
    3,
    abilities=[
        {
            "timing": "as_gear",
            "effects": [{"kind": "stat_mod", "stat": "skill", "amount": 1, "target": "self"}],
        }
    ],
    text="☆ Gear: This dude gets +1 skill.",
)
ZEKE = dude(53, "Zeke", 3, 2, 0, 2)


def cat():
    return catalogue([*BASIC, MIMIC, ECHO, WALT, ZEKE], BASIC_CHIPS)


def names(cards):
    return [c.defn.name for c in cards]


# --- copy cards copy any card in the saloon or street, not only the first four -------------


def five_revealed_gear(rules=None):
    """Sam: Hank with Six-Gun, Lucky Coin and (turn 3) Spectacles; Jane: Jake with Old Boots
    and Spectacles, all revealed. Sam is to act on turn 3 with Mimic in hand."""
    g = game([[1, 10, 11, 12, 50, *F], [2, 13, 12, *F]], cat=cat(), rules=rules)
    act(g, "play_dude", card=find(g, 0, "Hank"), revealed=True, chips=5)
    hank = g.saloon[0].uid
    act(g, "play_gear", card=find(g, 0, "Six-Gun"), dude=hank, revealed=True, chips=2)
    act(g, "play_gear", card=find(g, 0, "Lucky Coin"), dude=hank, revealed=True, chips=1)
    end_turn(g)
    act(g, "play_dude", card=find(g, 1, "Jake"), revealed=True, chips=4)
    jake = g.saloon[1].uid
    act(g, "play_gear", card=find(g, 1, "Old Boots"), dude=jake, revealed=True, chips=0)
    act(g, "play_gear", card=find(g, 1, "Spectacles"), dude=jake, revealed=True, chips=1)
    end_turn(g)
    act(g, "play_gear", card=find(g, 0, "Spectacles"), dude=hank, revealed=True, chips=1)
    return g


def test_a_copy_gear_card_copies_the_fifth_revealed_gear_card():
    g = five_revealed_gear()
    hank, jake = g.saloon
    candidates = [*hank.gear, *jake.gear]
    assert names(candidates) == ["Six-Gun", "Lucky Coin", "Spectacles", "Old Boots", "Spectacles"]
    fifth = candidates[4]  # Jane's Spectacles: the menu offers only the first four
    offered = {a.target for a in g.legal_actions() if a.card == find(g, 0, "Mimic")}
    assert fifth.uid not in offered
    act(g, "play_gear", card=find(g, 0, "Mimic"), dude=hank.uid, revealed=True, chips=0,
        target=fifth.uid)  # fmt: skip
    mimic = hank.gear[-1]
    assert mimic.defn.name == "Spectacles" and mimic.defn.cost == 1 and mimic.chips == 0
    assert g.stats(hank) == [3 + 2 + 2, 8 + 3, 4 + 2]  # two Spectacles now
    assert g.stake[0] == 100 - 5 - 2 - 1 - 1 - 0
    assert g.events[-1] == ["act", 0, {"kind": "play_gear", "card": mimic.uid, "dude": hank.uid,
                                       "revealed": True, "target": fifth.uid}]  # fmt: skip


def test_a_concealed_copy_card_with_a_bluff_copies_the_fifth_card_too():
    g = five_revealed_gear()
    hank, jake = g.saloon
    fifth = jake.gear[1]
    act(g, "play_gear", card=find(g, 0, "Mimic"), dude=hank.uid, chips=4, target=fifth.uid)
    mimic = hank.gear[-1]
    assert mimic.defn.name == "Spectacles" and mimic.chips == 4 and not mimic.revealed
    assert g.stake[0] == 100 - 5 - 2 - 1 - 1 - 4


def test_a_copy_fortune_copies_the_fifth_card_in_the_street():
    g = game([[1, 10, 51, *F], [2, 12, 11, 22, *F]], cat=cat())
    act(g, "play_dude", card=find(g, 0, "Hank"), revealed=True, chips=5)
    act(g, "play_gear", card=find(g, 0, "Six-Gun"), dude=g.saloon[0].uid, revealed=True, chips=2)
    end_turn(g)
    act(g, "play_dude", card=find(g, 1, "Jake"), revealed=True, chips=4)
    jake = g.saloon[1].uid
    act(g, "play_gear", card=find(g, 1, "Spectacles"), dude=jake, revealed=True, chips=1)
    act(g, "play_gear", card=find(g, 1, "Lucky Coin"), dude=jake, revealed=True, chips=1)
    end_turn(g)
    act(g, "challenge", dude=g.saloon[0].uid, stat="skill")
    act(g, "accept", dude=jake)
    act(g, "check")
    act(g, "check")  # no concealed gear: the fortune step, Sam (skill 11) first
    hank, jake_card = g.sdude[0], g.sdude[1]
    candidates = [hank, *hank.gear, jake_card, *jake_card.gear]
    assert names(candidates) == ["Hank", "Six-Gun", "Jake", "Spectacles", "Lucky Coin"]
    lucky = candidates[4]
    assert g.phase == "fortune" and g.to_act == 0 and g.pot == 10 + 7 + 6
    act(g, "play_fortune", card=find(g, 0, "Echo"), target=lucky.uid)
    assert g.phase == "fortune" and g.to_act == 1  # Jane may answer with her Dust Devil
    assert names(g.fortunes) == ["Lucky Coin"] and g.pot == 10 + 7 + 6 + 1
    assert g.stats(hank) == [3, 8 + 3, 4 + 2]  # Echo is a Lucky Coin for Sam's dude


def test_a_copy_card_names_the_real_reason_it_cannot_copy_a_card():
    g = five_revealed_gear()
    hank = g.saloon[0]
    mimic = find(g, 0, "Mimic")
    with pytest.raises(IllegalAction, match=f"Mimic copies a revealed gear card.*card {hank.uid} "):
        act(g, "play_gear", card=mimic, dude=hank.uid, chips=3, target=hank.uid)  # a dude
    with pytest.raises(IllegalAction, match="name the card it copies"):
        act(g, "play_gear", card=mimic, dude=hank.uid, chips=3)
    with pytest.raises(IllegalAction, match=r"illegal amount.*from \$1 up to your stake"):
        act(g, "play_gear", card=mimic, dude=hank.uid, chips=0, target=hank.gear[0].uid)
    with pytest.raises(IllegalAction, match="Old Boots is no copy card"):
        act(g, "play_gear", card=find(g, 0, "Old Boots"), dude=hank.uid, chips=1,
            target=hank.gear[0].uid)  # fmt: skip
    with pytest.raises(IllegalAction, match=f"card {hank.uid} is not in your hand"):
        act(g, "play_gear", card=hank.uid, dude=hank.uid, chips=6)
    assert g.stake[0] == 100 - 5 - 2 - 1 - 1 and len(hank.gear) == 3


def test_a_revealed_play_with_the_wrong_chips_says_what_it_takes():
    g = game([[1, *F], [2, *F]], cat=cat())
    with pytest.raises(IllegalAction, match=r"exactly its cost less \$1 \(\$5\), not \$6"):
        act(g, "play_dude", card=find(g, 0, "Hank"), revealed=True, chips=6)


# --- a dude that folded concealed is reinvested concealed, for its full cost ---------------


def fold_and_reinvest(revealed: bool, rules=None):
    """Sam (Hank revealed) challenges; Jane accepts with Jake played revealed or concealed,
    folds to a $10 bet and reinvests him after Sam buries his winner."""
    g = game([[1, *F], [2, *F]], cat=cat(), rules=rules)
    act(g, "play_dude", card=find(g, 0, "Hank"), revealed=True, chips=5)
    end_turn(g)
    act(g, "play_dude", card=find(g, 1, "Jake"), revealed=revealed, chips=4 if revealed else 5)
    end_turn(g)
    act(g, "challenge", dude=g.saloon[0].uid, stat="skill")
    act(g, "accept", dude=g.saloon[0].uid)
    act(g, "bet", amount=10)
    act(g, "fold")
    act(g, "bury", dude=g.sdude[0].uid)
    assert g.phase == "reinvest" and g.to_act == 1
    act(g, "reinvest", dude=g.sdude[1].uid)
    (jake,) = [d for d in g.saloon if d.owner == 1]
    return g, jake


def test_a_dude_that_folded_concealed_goes_back_concealed_for_its_full_cost():
    g, jake = fold_and_reinvest(revealed=False)
    assert not jake.revealed and jake.chips == 5  # Jake costs $5
    assert g.stake[1] == 100 - 5 - 5 - 5  # played for 5, the ante, reinvested for 5


def test_a_dude_that_folded_revealed_is_reinvested_for_one_dollar_less():
    g, jake = fold_and_reinvest(revealed=True)
    assert jake.revealed and jake.chips == 4
    assert g.stake[1] == 100 - 4 - 5 - 4


def test_the_legacy_rulings_reinvest_a_concealed_dude_for_one_dollar_less():
    g, jake = fold_and_reinvest(revealed=False, rules=Rules(rulings=2))
    assert not jake.revealed and jake.chips == 4
    assert g.stake[1] == 100 - 5 - 5 - 4


@pytest.mark.parametrize("rulings", [1, 4, "3", 3.0, True])
def test_rulings_are_the_current_or_the_legacy_ones(rulings):
    with pytest.raises(RulesError, match="rulings"):
        Rules(rulings=rulings)


# --- the quick-start game: each player draws five, with no redraw --------------------------


def test_a_dudeless_quick_start_hand_is_kept():
    # the quick-start deck is shared: Sam (first) draws the top five, then Jane the next five
    g = game([[10, 11, 12, 13, 20, 1, 2, 3, 4, 5, *F], []], rules=Rules(quick_start=True))
    assert names(g.hand[0]) == ["Six-Gun", "Lucky Coin", "Spectacles", "Old Boots", "Quick Draw"]
    assert names(g.hand[1]) == ["Hank", "Jake", "Lou", "Molly", "Ned"]
    assert g.dead == [[], []] and g.redrawn == [False, False]


def test_the_legacy_rulings_redraw_a_dudeless_quick_start_hand():
    g = game(
        [[10, 11, 12, 13, 20, 1, 2, 3, 4, 5, *F], []], rules=Rules(quick_start=True, rulings=2)
    )
    assert len(g.dead[0]) == 5 and names(g.hand[0]) == ["Hank", "Jake", "Lou", "Molly", "Ned"]


# --- a ☆ gear ability takes an action each time, and nothing limits it further -------------


def test_a_gear_ability_may_be_used_with_every_action_left():
    g = game([[52, *F], [2, *F]], cat=cat())
    act(g, "play_dude", card=find(g, 0, "Walt"), revealed=True, chips=4)
    walt = g.saloon[0]
    act(g, "as_gear", card=walt.uid, ability=0)
    act(g, "as_gear", card=walt.uid, ability=0)
    assert g.stats(walt) == [2, 4 + 2, 3] and g.phase == "discard"  # three actions used
    end_turn(g)
    end_turn(g)
    act(g, "as_gear", card=walt.uid, ability=0)
    assert g.stats(walt) == [2, 4 + 3, 3]  # the marks last while Walt is in play


def test_the_legacy_rulings_allow_a_gear_ability_once_a_turn():
    g = game([[52, *F], [2, *F]], cat=cat(), rules=Rules(rulings=2))
    act(g, "play_dude", card=find(g, 0, "Walt"), revealed=True, chips=4)
    act(g, "as_gear", card=g.saloon[0].uid, ability=0)
    assert not any(a.kind == "as_gear" for a in g.legal_actions())


def test_the_heuristic_bot_ends_a_whirlwind_turn_with_a_gear_ability_to_spare():
    """Whirlwind's actions never run out: a bot that always took a free +1 would never stop."""
    g = game([[52, *F], [2, *F]], cat=cat(), rules=Rules(variants=frozenset({"whirlwind"})))
    walt = find(g, 0, "Walt")
    act(g, "play_dude", card=walt, revealed=True, chips=4)
    end_turn(g)
    end_turn(g)
    bot, used = HeuristicBot(1), 0
    for _ in range(200):
        if not (g.phase == "turn" and g.to_act == 0):
            break
        action = bot.choose(g.view(0), g.legal_actions())
        used += action.kind == "as_gear"
        g.apply(action)
    assert (g.phase, g.to_act) != ("turn", 0) and used == 1
    assert g.stats(g.cards[walt])[1] == 4 + 1


# --- stats have no floor: in Lowball, skill 2 - 3 = -1 beats 0 -----------------------------


def lowball_minus_one_against_zero(rules: Rules):
    """Sam's Jake (skill 2) takes a blue kicker chip landed skill -3; Jane's Zeke has skill 0.
    Sam challenges on skill; both check; no gear, no fortunes: the showdown."""
    g = game([[2, *F], [53, *F]], chips=[[3], []], flips=[1], cat=cat(), rules=rules)
    act(g, "play_dude", card=find(g, 0, "Jake"), revealed=True, chips=4)
    act(g, "play_kicker", card=g.chips[0][0].uid, dude=g.saloon[0].uid)
    end_turn(g)
    act(g, "play_dude", card=find(g, 1, "Zeke"), revealed=True, chips=2)
    end_turn(g)
    act(g, "challenge", dude=g.saloon[0].uid, stat="skill")
    act(g, "accept", dude=g.saloon[0].uid)
    while g.phase in ("bet", "fortune"):
        act(g, "check" if g.phase == "bet" else "pass_fortune")
    assert g.phase == "reinvest"
    return g


def test_in_lowball_a_stat_below_zero_wins_against_zero():
    g = lowball_minus_one_against_zero(Rules(variants=frozenset({"lowball"})))
    assert [g.stats(g.sdude[0])[1], g.stats(g.sdude[1])[1]] == [-1, 0]
    assert g.stake == [100 - 4 - 5 + 16, 100 - 2 - 5]  # Sam takes the $16 pot alone


def test_the_legacy_rulings_floor_minus_one_to_a_tie_with_zero():
    g = lowball_minus_one_against_zero(Rules(variants=frozenset({"lowball"}), rulings=2))
    assert g.stake == [100 - 4 - 5 + 8, 100 - 2 - 5 + 8]  # 0 and 0 split the pot


# --- readings the text does not spell out, argued from it (docs: Fortune cards, Abilities) --


def test_a_fortune_ability_is_used_once_per_shootout():
    """Played "as a fortune card", it stays played for the shootout, like a fortune card."""
    kate = dude(
        54,
        "Kate",
        5,
        2,
        6,
        2,
        abilities=[
            {
                "timing": "as_fortune",
                "effects": [{"kind": "stat_mod", "stat": "skill", "amount": 2, "target": "self"}],
            }
        ],
        text="☆ Fortune: This dude gets +2 skill.",
    )
    g = game([[54, *F], [2, 22, *F]], cat=catalogue([*BASIC, kate], BASIC_CHIPS))
    act(g, "play_dude", card=find(g, 0, "Kate"), revealed=True, chips=4)
    end_turn(g)
    act(g, "play_dude", card=find(g, 1, "Jake"), revealed=True, chips=4)
    end_turn(g)
    act(g, "challenge", dude=g.saloon[0].uid, stat="skill")
    act(g, "accept", dude=g.saloon[0].uid)
    act(g, "check")
    act(g, "check")
    assert g.phase == "fortune" and g.to_act == 0
    act(g, "as_fortune", card=g.sdude[0].uid, ability=0)
    assert g.stats(g.sdude[0])[1] == 6 + 2 and g.to_act == 1
    act(g, "pass_fortune")
    assert g.phase == "reinvest"  # Kate's ability was spent: Sam passed by himself


def test_an_impossible_effect_is_ignored_and_the_rest_of_the_ability_resolves():
    """ "Ignore the ability or portion of the ability that indicates the impossible action":
    no kicker chip to play, yet the card still draws."""
    scout = thing(
        55,
        "Scout",
        "gear",
        1,
        [
            {
                "timing": "on_play",
                "effects": [
                    {"kind": "play_kicker", "target": "self"},
                    {"kind": "draw", "count": 1},
                ],
            }
        ],
    )
    g = game([[1, 55, *F], [2, *F]], cat=catalogue([*BASIC, scout], BASIC_CHIPS))
    act(g, "play_dude", card=find(g, 0, "Hank"), revealed=True, chips=5)
    act(g, "play_gear", card=find(g, 0, "Scout"), dude=g.saloon[0].uid, revealed=True, chips=0)
    assert len(g.hand[0]) == 5 - 2 + 1 and g.saloon[0].kickers == []
