"""Examples 1-4 of the rules, reproduced with the fixture cards chip for chip (quick-start)."""

from simulator.engine.drifter import Rules
from simulator.engine.drifter.cards import load_catalogue

from .factory import act, find, game

SPURS = "HSD-110"  # Silver Spurs: the second gear each dude needs before a quick-start challenge
SAM_HAND = ["HSD-012", "HSD-102", SPURS, "HSD-135", SPURS]
JANE_HAND = ["HSD-079", "HSD-103", SPURS, "HSD-148", SPURS]


def quick_start_game():
    """The shared quick-start deck, stacked: Sam draws first, then Jane."""
    deck = [*SAM_HAND, *JANE_HAND, *[SPURS] * 20]
    return game([deck, []], rules=Rules(quick_start=True), cat=load_catalogue())


def sams_dude(g):
    return next(d for d in g.saloon + g.street if d.owner == 0)


def test_example_1_sam_plays_henry_meek_concealed_with_6_on_it():
    g = quick_start_game()
    act(g, "play_dude", card=find(g, 0, "Henry Meek"), chips=6)
    henry = sams_dude(g)
    assert henry.printed.code == "HSD-012" and not henry.revealed and henry.chips == 6
    assert g.stake[0] == 94


def test_example_2_plains_saddle_goes_concealed_beside_henry_with_2_on_it():
    g = quick_start_game()
    act(g, "play_dude", card=find(g, 0, "Henry Meek"), chips=6)
    henry = sams_dude(g)
    act(g, "play_gear", card=find(g, 0, "Plains Saddle"), dude=henry.uid, chips=2)
    saddle = henry.gear[0]
    assert saddle.printed.name == "Plains Saddle" and not saddle.revealed and saddle.chips == 2
    assert g.stake[0] == 92


def test_quick_start_cards_are_played_concealed_with_exactly_their_cost():
    g = quick_start_game()
    kinds = {(a.kind, a.revealed, a.chips) for a in g.legal_actions() if a.kind == "play_dude"}
    assert kinds == {("play_dude", False, 6)}


def play_examples_3_and_4():
    g = quick_start_game()
    henry = find(g, 0, "Henry Meek")
    act(g, "play_dude", card=henry, chips=6)
    act(g, "play_gear", card=find(g, 0, "Plains Saddle"), dude=henry, chips=2)
    act(g, "play_gear", card=find(g, 0, "Silver Spurs"), dude=henry, chips=1)
    assert not any(a.kind == "challenge" for a in g.legal_actions())
    act(g, "end_turn")  # three actions taken: straight to the end of the turn
    benteen = find(g, 1, "Col. Frederick Benteen")
    act(g, "play_dude", card=benteen, chips=8)
    act(g, "play_gear", card=find(g, 1, "Dazzling Smile"), dude=benteen, chips=2)
    act(g, "play_gear", card=find(g, 1, "Silver Spurs"), dude=benteen, chips=1)
    act(g, "end_turn")
    # Both have a dude with two gear cards: Sam may challenge, declaring Henry Meek.
    assert g.stake == [91, 89]
    act(g, "challenge", dude=henry)
    assert g.phase == "accept" and {a.kind for a in g.legal_actions()} == {"accept"}
    act(g, "accept", dude=benteen)
    # Example 3: both ante $5; betting starts with the challenger.
    assert g.pot == 10 and g.stake == [86, 84] and g.to_act == 0
    act(g, "bet", amount=10)
    act(g, "call")
    assert g.pot == 30
    act(g, "reveal_gear", card=find(g, 0, "Plains Saddle"))
    act(g, "reveal_gear", card=find(g, 1, "Dazzling Smile"))
    assert g.pot == 34
    assert g.phase == "bet" and g.to_act == 0  # gear was revealed: Sam may bet again
    act(g, "check")
    act(g, "check")
    act(g, "pass_reveal")
    act(g, "pass_reveal")
    # Example 4: fortunes, from the challenger.
    assert g.phase == "fortune" and g.to_act == 0
    act(g, "play_fortune", card=find(g, 0, "Gotcha Covered"))
    assert g.pot == 38
    act(g, "play_fortune", card=find(g, 1, "Fort Up"))
    return g


def test_example_3_ante_bet_call_and_reveal():
    g = play_examples_3_and_4()
    assert g.is_over


def test_example_4_jane_wins_with_skill_12_and_takes_the_pot():
    g = play_examples_3_and_4()
    final = g.final()
    # Pot: 10 antes + 20 bets + 4 gear + 9 fortunes + Henry's $6 + Benteen's $8 = 57.
    # Sam's concealed Silver Spurs ($1) come home when Henry loses; Jane's too (game over).
    assert final["stakes"] == [
        100 - 6 - 2 - 1 - 5 - 10 - 4 + 1,
        100 - 8 - 2 - 1 - 5 - 10 - 5 + 57 + 1,
    ]
    assert final["stakes"] == [73, 127]
    assert final["winners"] == [1]
    assert final["reason"].startswith("the quick-start game ends")


def test_example_4_totals_smarts_9_skill_3_luck_10_against_5_12_5():
    g = quick_start_game()
    g.log = []
    henry = find(g, 0, "Henry Meek")
    act(g, "play_dude", card=henry, chips=6)
    act(g, "play_gear", card=find(g, 0, "Plains Saddle"), dude=henry, chips=2)
    act(g, "play_gear", card=find(g, 0, "Silver Spurs"), dude=henry, chips=1)
    act(g, "end_turn")
    benteen = find(g, 1, "Col. Frederick Benteen")
    act(g, "play_dude", card=benteen, chips=8)
    act(g, "play_gear", card=find(g, 1, "Dazzling Smile"), dude=benteen, chips=2)
    act(g, "play_gear", card=find(g, 1, "Silver Spurs"), dude=benteen, chips=1)
    act(g, "end_turn")
    act(g, "challenge", dude=henry)
    act(g, "accept", dude=benteen)
    act(g, "check")
    act(g, "check")
    act(g, "reveal_gear", card=find(g, 0, "Plains Saddle"))
    act(g, "reveal_gear", card=find(g, 1, "Dazzling Smile"))
    act(g, "check")
    act(g, "check")
    act(g, "pass_reveal")
    act(g, "pass_reveal")
    act(g, "play_fortune", card=find(g, 0, "Gotcha Covered"))
    act(g, "play_fortune", card=find(g, 1, "Fort Up"))
    showdown = next(e for e in g.log if e[0] == "showdown")
    totals = {who: stats for who, _card, stats in showdown[1]}
    assert totals == {0: [9, 3, 10], 1: [5, 12, 5]}
    assert g.final()["winners"] == [1]
