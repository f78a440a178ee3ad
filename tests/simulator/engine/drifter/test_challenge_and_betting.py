"""Issuing a challenge, accepting or refusing, and the betting rounds."""

import pytest

from simulator.engine.core.errors import IllegalAction
from simulator.engine.drifter import Rules
from simulator.engine.drifter.actions import Action

from .factory import act, duel

HANK, JAKE = ("dude", "Hank", False, 6), ("dude", "Jake", False, 5)


def test_everyone_antes_and_the_challenger_names_the_stat_and_moves_a_dude():
    g = duel([[1], [2], [3]], [[HANK], [JAKE], [("dude", "Lou", False, 4)]], stat="luck")
    assert g.stake == [89, 90, 91]  # cards paid, then $5 ante each
    assert g.contested == "luck" and g.challenger == 0
    assert [d.printed.name for d in g.street] == ["Hank", "Jake", "Lou"]


def test_acceptance_goes_clockwise_from_the_challengers_left():
    g = duel([[1], [2], [3]], [[HANK], [JAKE], [("dude", "Lou", False, 4)]], accept=False)
    accepts = [e[1] for e in g.events if e[0] == "act" and e[2]["kind"] == "refuse"]
    assert accepts == [1, 2]


def test_refusing_loses_the_ante_and_an_unaccepted_challenge_wins_the_pot():
    g = duel([[1], [2], [3]], [[HANK], [JAKE], [("dude", "Lou", False, 4)]], accept=False)
    assert g.stake == [94 - 5 + 15, 90, 91]
    assert g.pot == 0
    hank = next(d for d in g.saloon if d.printed.name == "Hank")
    assert hank.chips == 6 and not hank.in_street  # no shootout: the dude goes home


def test_chips_on_revealed_dudes_and_revealed_gear_go_to_the_pot_when_the_shootout_begins():
    g = duel(
        [[1, 10], [2, 11]],
        [
            [("dude", "Hank", True, 5), ("gear", "Six-Gun", "Hank", True, 2)],
            [JAKE, ("gear", "Lucky Coin", "Jake", False, 2)],
        ],
    )
    assert g.pot == 10 + 5 + 2  # antes + Hank + Six-Gun; concealed Jake and his coin stay put
    jake = g.sdude[1]
    assert jake.chips == 5 and jake.gear[0].chips == 2


def test_lead_bettor_is_the_highest_showing_contested_stat():
    g = duel([[1], [2]], [[HANK], [("dude", "Jake", True, 4)]], stat="smarts")
    assert g.phase == "bet" and g.to_act == 1  # Jake shows smarts 7, Hank is concealed


def test_tie_for_lead_bettor_goes_to_challenger():
    g = duel([[1], [6]], [[("dude", "Hank", True, 5)], [("dude", "Hank", True, 5)]])
    assert g.lead == 0 and g.to_act == 0


def test_tie_without_the_challenger_goes_to_the_tied_player_closest_clockwise():
    g = duel(
        [[5], [1], [6]],
        [[("dude", "Ned", True, 2)], [("dude", "Hank", True, 5)], [("dude", "Hank", True, 5)]],
    )
    assert g.lead == 1 and g.to_act == 1


def test_check_bet_call_and_raise_move_chips_to_the_pot():
    g = duel([[1], [2]], [[HANK], [JAKE]])
    act(g, "bet", amount=10)
    act(g, "raise", amount=5)  # Jane calls 10 and raises 5
    act(g, "call")
    # Nobody has gear or fortunes, so the showdown follows at once: Hank (skill 8) beats
    # Jake (skill 2) and Sam takes antes 10 + bets 30 + the dudes' 6 + 5.
    assert g.stake == [89 - 15 + 51, 90 - 15] and g.pot == 0


@pytest.mark.parametrize("stake", [100, 5000])
def test_the_bet_and_raise_menus_offer_one_two_and_five_antes_and_all_in_at_any_stake(stake):
    """Menus reuse their bet and raise actions (tables indexed by amount); an amount past the
    tables, as a $5,000 stake's all-in, is offered the same way."""
    g = duel([[1], [2]], [[HANK], [JAKE]], rules=Rules(starting_stake=stake))
    sam, jane = stake - 11, stake - 10  # Hank $6 and Jake $5 paid, $5 ante each
    assert g.stake == [sam, jane]
    bets = [a for a in g.legal_actions() if a.kind == "bet"]
    assert bets == [Action("bet", amount=x) for x in (5, 10, 25, sam)]
    act(g, "bet", amount=10)
    raises = [a for a in g.legal_actions() if a.kind == "raise"]
    assert raises == [Action("raise", amount=x) for x in (5, 10, 25, jane - 10)]
    act(g, "raise", amount=jane - 10)  # Jane calls $10 and goes all in
    assert g.stake[1] == 0 and g.pot == 10 + 10 + jane


def test_check_is_illegal_when_facing_a_bet():
    g = duel([[1], [2]], [[HANK], [JAKE]])
    act(g, "bet", amount=10)
    with pytest.raises(IllegalAction):
        act(g, "check")
    assert g.stake[1] == 90 and g.pot == 20


def test_only_three_raises_per_betting_round_the_opening_bet_not_counted():
    g = duel([[1], [2]], [[HANK], [JAKE]])
    act(g, "bet", amount=1)
    act(g, "raise", amount=1)
    act(g, "raise", amount=1)
    act(g, "raise", amount=1)
    assert not any(a.kind == "raise" for a in g.legal_actions())
    with pytest.raises(IllegalAction):
        act(g, "raise", amount=1)
    act(g, "call")
    assert g.stake == [89 - 4 + 10 + 8 + 11, 90 - 4]


def test_bet_above_the_stake_is_an_illegal_amount():
    g = duel([[1], [2]], [[HANK], [JAKE]])
    with pytest.raises(IllegalAction, match="outside"):
        act(g, "bet", amount=500)
    assert g.stake == [89, 90]


def test_fold_puts_the_dudes_chips_in_the_pot_and_buries_revealed_gear():
    g = duel(
        [[1, 10], [2, 11, 12]],
        [
            [HANK, ("gear", "Six-Gun", "Hank", False, 3)],
            [
                JAKE,
                ("gear", "Lucky Coin", "Jake", True, 1),
                ("gear", "Spectacles", "Jake", False, 2),
            ],
        ],
    )
    act(g, "bet", amount=10)
    act(g, "fold")
    # Pot: 10 antes + Lucky Coin's $1 (revealed gear at the start) + bet 10 + Jake's $5.
    assert [d.printed.name for d in g.dead[1]] == ["Lucky Coin"]
    # Jane folded, so Sam is alone: the showdown reveals Hank and he takes everything.
    assert g.stake[0] == 86 - 10 + 10 + 1 + 10 + 5 + 6
    # Jane may reinvest Jake ($4) or bury him; the concealed Spectacles stay on him.
    assert g.phase == "reinvest" and g.to_act == 0


def test_a_folded_player_may_reinvest_the_dude_and_keeps_its_concealed_gear():
    g = duel(
        [[1], [2, 12]],
        [[HANK], [JAKE, ("gear", "Spectacles", "Jake", False, 2)]],
    )
    act(g, "bet", amount=10)
    act(g, "fold")
    act(g, "bury", dude=g.sdude[0].uid)  # Sam buries his winner
    assert g.to_act == 1 and g.phase == "reinvest"
    act(g, "reinvest", dude=g.sdude[1].uid)
    jake = next(d for d in g.saloon if d.printed.name == "Jake")
    assert jake.chips == 5 and jake.gear[0].chips == 2 and not jake.gear[0].revealed
    assert g.stake[1] == 88 - 5  # Jake folded concealed: his full cost (docs: Reinvesting)


def test_folded_player_cannot_act_again():
    g = duel([[1], [2], [3]], [[HANK], [JAKE], [("dude", "Lou", False, 4)]])
    act(g, "bet", amount=5)
    act(g, "fold")  # Jane
    act(g, "call")  # Cal
    assert g.folded[1]
    with pytest.raises(IllegalAction, match="folded"):
        g.apply_for(1, g.legal_actions()[0])


def test_all_in_player_stays_in_and_plays_fortunes_free():
    g = duel(
        [[1, 20], [2, 20]],
        [[HANK], [JAKE]],
        rules=Rules(starting_stake=20, ante=5),
    )
    # Sam: 20 - 6 - 5 = 9; Jane: 20 - 5 - 5 = 10.
    act(g, "bet", amount=9)
    assert g.stake[0] == 0
    act(g, "call")
    assert g.phase == "fortune" and g.to_act == 0
    act(g, "play_fortune", card=next(c.uid for c in g.hand[0] if c.printed.name == "Quick Draw"))
    assert g.stake[0] == 0 and g.pot == 10 + 18  # all in: no cost
    # Jane has $1: Quick Draw costs $4, so she goes all in to play it.
    act(g, "play_fortune", card=next(c.uid for c in g.hand[1] if c.printed.name == "Quick Draw"))
    # Nobody else plays a fortune: showdown. Hank 8+4 beats Jake 2+4 for 10+18+1+6+5.
    assert g.stake == [40, 0]


def test_all_in_short_call_keeps_the_player_in_the_shootout():
    g = duel([[1], [2]], [[HANK], [JAKE]], rules=Rules(starting_stake=20, ante=5))
    act(g, "bet", amount=9)
    act(g, "call")
    # Sam is all in but stays to the showdown, and wins 10 + 18 + 6 + 5.
    assert g.stake == [39, 1]
    assert ("win", [0], 39, 39, 0) in [tuple(e) for e in g.log] if g.log else True


def test_cant_fold_ability_removes_fold():
    from .factory import BASIC, BASIC_CHIPS, catalogue, dude

    stubborn = dude(
        7,
        "Mule",
        4,
        5,
        5,
        5,
        abilities=[{"timing": "static", "effects": [{"kind": "cant_fold", "target": "opponents"}]}],
    )
    cat = catalogue([*BASIC, stubborn], BASIC_CHIPS)
    g = duel([[7], [2]], [[("dude", "Mule", True, 3)], [JAKE]], cat=cat)
    act(g, "bet", amount=5)
    assert not any(a.kind == "fold" for a in g.legal_actions())
