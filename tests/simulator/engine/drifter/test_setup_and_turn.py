"""Setting up and the turn: stakes, hands, the redraw, the badge, the three actions."""

import pytest

from simulator.engine.core.errors import IllegalAction
from simulator.engine.drifter import Rules

from .factory import act, end_turn, find, game, kicker

F = [13] * 20  # filler: Old Boots


def test_each_player_starts_with_equal_stake_and_five_cards():
    g = game([[1, 2, 3, 4, 5, *F], [1, 2, 3, 4, 5, *F], [1, 2, 3, 4, 5, *F]])
    assert g.stake == [100, 100, 100]
    assert [len(h) for h in g.hand] == [5, 5, 5]
    assert g.pot == 0 and g.saloon == [] and g.street == []


def test_starting_stake_is_configurable():
    g = game([[1, *F], [1, *F]], rules=Rules(starting_stake=250, ante=10))
    assert g.stake == [250, 250]


def test_dudeless_starting_hand_is_shown_discarded_and_redrawn_once():
    # Jane's first five have no dude: they go to her deadwood and she draws five more.
    g = game([[1, *F], [10, 11, 12, 13, 13, 2, 13, 13, 13, 13, *F]])
    assert [c.printed.name for c in g.dead[1]] == [
        "Six-Gun",
        "Lucky Coin",
        "Spectacles",
        "Old Boots",
        "Old Boots",
    ]
    assert g.hand[1][0].printed.name == "Jake"
    assert g.redrawn == [False, True]


def test_redraw_happens_only_once_even_if_the_new_hand_has_no_dude():
    g = game([[1, *F], [13] * 30])
    assert len(g.dead[1]) == 5 and len(g.hand[1]) == 5


def test_random_first_player_gets_the_badge():
    g = game([[1, *F], [1, *F], [1, *F]], first=2)
    assert g.badge == 2 and g.to_act == 2 and g.phase == "turn"


def test_dude_played_revealed_costs_one_less():
    g = game([[1, 2, 3, 13, 13, *F], [1, *F]])
    act(g, "play_dude", card=find(g, 0, "Hank"), revealed=True, chips=5)
    assert g.stake[0] == 95
    hank = g.saloon[0]
    assert hank.revealed and hank.chips == 5


def test_dude_played_concealed_takes_its_cost_or_more_to_bluff():
    g = game([[1, 2, 3, 13, 13, *F], [1, *F]])
    act(g, "play_dude", card=find(g, 0, "Hank"), chips=9)
    assert g.stake[0] == 91
    assert not g.saloon[0].revealed and g.saloon[0].chips == 9


def test_concealed_dude_with_less_than_its_cost_is_an_illegal_amount():
    g = game([[1, 2, 3, 13, 13, *F], [1, *F]])
    with pytest.raises(IllegalAction, match="illegal amount"):
        act(g, "play_dude", card=find(g, 0, "Hank"), chips=5)
    assert g.stake[0] == 100 and g.saloon == []


def test_gear_goes_on_your_own_dude_revealed_for_one_less_or_concealed():
    g = game([[1, 10, 11, 13, 13, *F], [2, 12, *F]])
    hank = find(g, 0, "Hank")
    act(g, "play_dude", card=hank, chips=6)
    act(g, "play_gear", card=find(g, 0, "Six-Gun"), dude=hank, revealed=True, chips=2)
    act(g, "play_gear", card=find(g, 0, "Lucky Coin"), dude=hank, chips=2)
    assert g.stake[0] == 100 - 6 - 2 - 2
    assert [(x.printed.name, x.revealed, x.chips) for x in g.cards[hank].gear] == [
        ("Six-Gun", True, 2),
        ("Lucky Coin", False, 2),
    ]


def test_gear_cannot_go_on_an_opponents_dude():
    g = game([[1, 10, *F], [2, 12, *F]])
    end_turn(g)
    jake = find(g, 1, "Jake")
    act(g, "play_dude", card=jake, chips=5)
    end_turn(g)
    with pytest.raises(IllegalAction):
        act(g, "play_gear", card=find(g, 0, "Six-Gun"), dude=jake, chips=3)


def test_three_actions_then_the_turn_moves_to_its_end():
    g = game([[1, 2, 3, 5, 13, *F], [1, *F]])
    for name in ("Hank", "Jake", "Lou"):
        act(g, "play_dude", card=find(g, 0, name), chips=g.cards[find(g, 0, name)].printed.cost)
    assert g.phase == "discard" and g.to_act == 0


def test_end_of_turn_discard_then_draw_to_five_then_badge_passes_left():
    g = game([[1, 2, 3, 13, 13, 5, 4, *F], [1, *F], [1, *F]])
    act(g, "play_dude", card=find(g, 0, "Hank"), chips=6)
    act(g, "end_actions")
    act(g, "discard", card=find(g, 0, "Lou"))
    act(g, "end_turn")
    assert [c.printed.name for c in g.hand[0]] == ["Jake", "Old Boots", "Old Boots", "Ned", "Molly"]
    assert [c.printed.name for c in g.dead[0]] == ["Lou"]
    assert g.badge == 1 and g.to_act == 1


def test_hand_over_five_must_be_discarded_down_to_five():
    g = game([[1, 2, 3, 13, 13, *F], [1, *F]])
    g.hand[0].append(g.deck[0].pop())
    g._menu = None
    act(g, "end_actions")
    with pytest.raises(IllegalAction):
        act(g, "end_turn")
    act(g, "discard", card=g.hand[0][0].uid)
    act(g, "end_turn")
    assert len(g.hand[0]) == 5


def test_empty_deck_reshuffles_deadwood_and_returns_kicker_chips_to_the_stack():
    g = game([[1, 2, 3, 4, 5], [1, *F]], chips=[[1, 2], []])
    hank = find(g, 0, "Hank")
    act(g, "play_dude", card=hank, revealed=True, chips=5)
    act(g, "play_kicker", card=kicker(g, 0, 1), dude=hank)
    g.bury_kickers(g.cards[hank])  # as if the chip had been buried in a shootout
    act(g, "end_actions")
    for name in ("Jake", "Lou", "Molly"):
        act(g, "discard", card=find(g, 0, name))
    act(g, "end_turn")
    assert len(g.hand[0]) == 4  # Ned + the three discards drawn back from a fresh deck
    assert g.dead[0] == [] and len(g.chips[0]) == 2 and g.dead_chips[0] == []
    assert any(e[:2] == ["shuffle", "reshuffle0"] for e in g.events)


def test_kicker_chip_flip_is_a_chance_event_and_modifies_the_stat():
    g = game([[1, *F], [1, *F]], chips=[[2], []], flips=[0])
    hank = find(g, 0, "Hank")
    act(g, "play_dude", card=hank, revealed=True, chips=5)
    act(g, "play_kicker", card=kicker(g, 0, 2), dude=hank)
    assert g.stats(g.cards[hank]) == [3, 11, 4]  # red chip landed skill +3
    assert ["pick", f"flip{g.cards[hank].kickers[0].uid}", 0] in g.events


def test_kicker_chip_may_go_on_an_opponents_dude():
    g = game([[1, *F], [2, *F]], chips=[[3], []], flips=[1])
    end_turn(g)
    jake = find(g, 1, "Jake")
    act(g, "play_dude", card=jake, revealed=True, chips=4)
    end_turn(g)
    act(g, "play_kicker", card=kicker(g, 0, 3), dude=jake)
    assert g.stats(g.cards[jake]) == [7, -1, 5]  # the blue chip landed skill -3


def test_kicker_limit_blocks_a_chip_on_a_revealed_dude():
    g = game([[3, *F], [1, *F]], chips=[[1, 2], []])
    lou = find(g, 0, "Lou")  # kicker limit 1
    act(g, "play_dude", card=lou, revealed=True, chips=3)
    legal = {(a.kind, a.card) for a in g.legal_actions()}
    assert ("play_kicker", kicker(g, 0, 1)) in legal  # white = $1 fits
    assert ("play_kicker", kicker(g, 0, 2)) not in legal  # red = $5 does not
    with pytest.raises(IllegalAction):
        act(g, "play_kicker", card=kicker(g, 0, 2), dude=lou)


def test_concealed_dude_over_its_kicker_limit_buries_all_chips_when_revealed():
    g = game([[3, *F], [1, *F]], chips=[[1, 2], []])
    lou = find(g, 0, "Lou")
    act(g, "play_dude", card=lou, chips=4)
    act(g, "play_kicker", card=kicker(g, 0, 2), dude=lou)  # any value on a concealed dude
    act(g, "play_kicker", card=kicker(g, 0, 1), dude=lou)
    assert len(g.cards[lou].kickers) == 2
    g.reveal_dude(g.cards[lou])
    assert g.cards[lou].kickers == [] and len(g.dead_chips[0]) == 2


def test_no_challenge_on_a_players_first_turn():
    g = game([[1, *F], [2, *F]])
    act(g, "play_dude", card=find(g, 0, "Hank"), chips=6)
    assert not any(a.kind == "challenge" for a in g.legal_actions())
    end_turn(g)
    act(g, "play_dude", card=find(g, 1, "Jake"), chips=5)
    assert not any(a.kind == "challenge" for a in g.legal_actions())
    end_turn(g)
    assert any(a.kind == "challenge" for a in g.legal_actions())


def test_issuing_a_challenge_ends_the_actions():
    g = game([[1, 2, *F], [2, *F]])
    act(g, "play_dude", card=find(g, 0, "Hank"), chips=6)
    end_turn(g)
    act(g, "play_dude", card=find(g, 1, "Jake"), chips=5)
    end_turn(g)
    act(g, "challenge", dude=find(g, 0, "Hank"), stat="skill")
    act(g, "refuse")
    assert g.phase == "discard"  # Jake... refused: straight to the end of Sam's turn
    assert not any(a.kind == "play_dude" for a in g.legal_actions())
