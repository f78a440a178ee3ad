"""Gear reveals, fortune cards, the showdown and what follows it."""

from .factory import act, duel, find

HANK, JAKE = ("dude", "Hank", False, 6), ("dude", "Jake", False, 5)
SAM = [HANK, ("gear", "Six-Gun", "Hank", False, 3)]
JANE = [JAKE, ("gear", "Lucky Coin", "Jake", False, 2)]


def standard(**kw):
    """Sam: Hank + concealed Six-Gun, Quick Draw in hand. Jane: Jake + concealed Lucky Coin,
    Bad Omen in hand. Sam challenges on skill; Jane accepts."""
    return duel([[1, 10, 20], [2, 11, 21]], [SAM, JANE], **kw)


def test_a_whole_shootout_chip_for_chip():
    g = standard()
    assert g.stake == [86, 88] and g.pot == 10
    act(g, "bet", amount=10)
    act(g, "call")
    assert g.phase == "reveal" and g.to_act == 0
    act(g, "reveal_gear", card=find(g, 0, "Six-Gun"))
    act(g, "reveal_gear", card=find(g, 1, "Lucky Coin"))
    assert g.pot == 30 + 3 + 2
    assert g.stats(g.sdude[0]) == [0, 3, 0]  # concealed Hank shows only the Six-Gun
    assert g.phase == "bet"  # gear was revealed: another betting round
    act(g, "check")
    act(g, "check")
    # nobody has concealed gear left: fortunes, from the lead bettor
    assert g.phase == "fortune" and g.to_act == 0
    act(g, "play_fortune", card=find(g, 0, "Quick Draw"))
    act(g, "play_fortune", card=find(g, 1, "Bad Omen"))
    # both out of fortunes: the showdown reveals Hank ($6) and Jake ($5)
    assert g.phase == "reinvest" and g.to_act == 0
    assert g.stake == [72 + 52, 76]
    assert [d.printed.name for d in g.dead[0]] == ["Quick Draw", "Six-Gun"]
    assert sorted(d.printed.name for d in g.dead[1]) == ["Bad Omen", "Jake", "Lucky Coin"]
    act(g, "reinvest", dude=g.sdude[0].uid)
    hank = next(d for d in g.saloon if d.printed.name == "Hank")
    assert hank.revealed and hank.chips == 5 and g.stake == [119, 76]
    assert g.total_chips() == 200


def test_gear_reveals_together_after_all_have_announced():
    g = standard()
    act(g, "bet", amount=10)
    act(g, "call")
    act(g, "reveal_gear", card=find(g, 0, "Six-Gun"))
    six = g.cards[find(g, 0, "Six-Gun")]
    assert not six.revealed and six.chips == 0 and g.pot == 33  # announced, chips moved
    act(g, "pass_reveal")
    assert six.revealed


def test_passing_a_reveal_is_final_for_the_rest_of_the_shootout():
    g = duel(
        [[1, 10, 12], [2, 11]],
        [[*SAM, ("gear", "Spectacles", "Hank", False, 2)], JANE],
    )
    act(g, "check")
    act(g, "check")
    act(g, "pass_reveal")  # Sam passes
    act(g, "reveal_gear", card=find(g, 1, "Lucky Coin"))
    act(g, "check")
    act(g, "check")
    # Sam still has two concealed gear cards but may not reveal them now: no more rounds
    assert g.phase == "reinvest" or g.phase == "fortune" or g.phase == "discard"
    assert not any(a.kind == "reveal_gear" for a in g.legal_actions())


def test_when_nobody_reveals_there_are_no_more_betting_rounds():
    g = standard()
    act(g, "check")
    act(g, "check")
    act(g, "pass_reveal")
    act(g, "pass_reveal")
    assert g.phase == "fortune"


def test_loser_buries_dude_gear_and_kicker_chips_and_concealed_gear_chips_return():
    g = duel(
        [[1], [2, 11]],
        [[("dude", "Hank", True, 5)], [JAKE, ("gear", "Lucky Coin", "Jake", False, 2)]],
        chips=[[], [1]],
    )
    act(g, "check")
    act(g, "check")
    act(g, "pass_reveal")  # Jane keeps the coin concealed: it does nothing at the showdown
    # Hank skill 8 beats Jake skill 2: Jane's $2 on the concealed Lucky Coin comes home.
    assert g.stake[1] == 100 - 5 - 2 - 5 + 2
    assert sorted(c.printed.name for c in g.dead[1]) == ["Jake", "Lucky Coin"]


def test_tie_splits_the_pot_evenly():
    g = duel([[1], [6]], [[("dude", "Hank", True, 5)], [("dude", "Hank", True, 5)]])
    act(g, "bet", amount=1)
    act(g, "call")
    # pot: antes 10 + the Hanks' 5 + 5 + bets 2 = 22 -> 11 each
    assert g.stake == [100 - 5 - 5 - 1 + 11, 100 - 5 - 5 - 1 + 11]


def test_tie_splits_the_pot_and_the_odd_chip_goes_to_the_challenger():
    # Sam bluffs $8 on his concealed Hank; Jane's second Hank is revealed ($5).
    g = duel([[1], [6]], [[("dude", "Hank", False, 8)], [("dude", "Hank", True, 5)]])
    assert g.to_act == 1  # Jane shows skill 8, concealed Hank shows nothing
    act(g, "check")
    act(g, "check")
    # showdown: 10 + 5 + 8 = 23 -> 11 each and the odd chip to Sam, the challenger
    assert g.stake == [100 - 8 - 5 + 12, 100 - 5 - 5 + 11]


def test_odd_chips_go_to_the_first_tied_player_left_of_an_absent_challenger():
    g = duel(
        [[5], [1], [6]],
        [[("dude", "Ned", True, 2)], [("dude", "Hank", True, 5)], [("dude", "Hank", True, 5)]],
    )
    # pot 15 antes + Ned 2 + Hank 5 + Hank 5 = 27
    assert g.to_act == 1
    act(g, "check")
    act(g, "check")
    act(g, "fold")  # Sam (the challenger) folds: the pot gains nothing more
    # Jane and Cal tie on 8 skill: 27 -> 13 each, the odd chip to Jane (first left of Sam)
    assert g.stake[1] == 90 + 14 and g.stake[2] == 90 + 13


def test_winner_buries_revealed_gear_and_may_bury_the_dude_instead_of_reinvesting():
    g = standard()
    act(g, "check")
    act(g, "check")
    act(g, "reveal_gear", card=find(g, 0, "Six-Gun"))
    act(g, "pass_reveal")
    act(g, "check")
    act(g, "check")
    act(g, "pass_fortune")
    act(g, "pass_fortune")
    assert g.phase == "reinvest"
    act(g, "bury", dude=g.sdude[0].uid)
    assert sorted(c.printed.name for c in g.dead[0]) == ["Hank", "Six-Gun"]


def test_everyone_draws_to_five_after_the_shootout():
    g = standard()
    act(g, "check")
    act(g, "check")
    act(g, "pass_reveal")
    act(g, "pass_reveal")
    act(g, "pass_fortune")
    act(g, "pass_fortune")
    act(g, "bury", dude=g.sdude[0].uid)
    assert [len(h) for h in g.hand] == [5, 5]
    assert g.phase == "discard" and g.to_act == 0  # then Sam's turn ends as usual


def test_fortunes_go_until_everyone_passes_in_succession():
    g = duel([[1, 20, 22], [2, 21]], [[HANK], [JAKE]])
    act(g, "check")
    act(g, "check")
    act(g, "pass_fortune")  # Sam passes ...
    act(g, "play_fortune", card=find(g, 1, "Bad Omen"))  # ... Jane plays ...
    assert g.to_act == 0  # ... so Sam may play after all
    act(g, "play_fortune", card=find(g, 0, "Dust Devil"))
    assert g.phase == "fortune" and g.to_act == 0  # Jane has none: auto-pass; Sam again
    act(g, "pass_fortune")
    assert g.phase == "reinvest"


def test_lead_bettor_is_determined_again_after_gear_is_revealed():
    g = duel(
        [[1], [6, 10]],
        [
            [("dude", "Hank", True, 5)],
            [("dude", "Hank", True, 5), ("gear", "Six-Gun", "Hank", False, 3)],
        ],
    )
    assert g.lead == 0 and g.to_act == 0  # skill 8 each: the challenger leads
    act(g, "check")
    act(g, "check")
    act(g, "reveal_gear", card=find(g, 1, "Six-Gun"))  # Sam has nothing: auto-pass
    assert g.phase == "bet" and g.lead == 1 and g.to_act == 1  # Jane's Hank shows 11 now
