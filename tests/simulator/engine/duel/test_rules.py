"""The card duel's rules, one scenario each, with the hands dealt by hand."""

from __future__ import annotations

import pytest

from simulator.engine.core import IllegalAction
from simulator.engine.duel import Action, new_game
from simulator.engine.duel.cards import duel_outcome
from simulator.engine.duel.game import round_duels

ONE, TWO, THREE, FOUR, FIVE, SIX = 0, 1, 2, 3, 4, 5
PINK_7, GREEN_7, PINK_8, GREEN_8, DYNAMITE = 6, 7, 8, 9, 10
ACE_IN_THE_HOLE, RELOAD, BOUNTY = 11, 12, 13


def ready(hands, discards=((), ()), round_no: int = 0):
    """A duel about to be played in round `round_no` with the given hands and discards."""
    state = new_game([{"name": "Ada"}, {"name": "Bo"}], seed=0, record=False)
    state.phase, state.actor = "play", 0
    state.hands = [list(h) for h in hands]
    state.discards = [list(d) for d in discards]
    state.round_no, state.duels = round_no, round_duels(round_no)
    return state


def duel(state, mine: int, theirs: int) -> None:
    state.apply(Action("play", mine))
    state.apply(Action("play", theirs))


def test_each_round_deals_nine_and_each_player_discards_two():
    state = new_game([{}, {}], seed=5)
    assert [len(h) for h in state.hands] == [9, 9]
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    assert [len(h) for h in state.hands] == [7, 7] and state.phase == "play"


def test_rounds_have_six_five_then_four_duels():
    assert [round_duels(r) for r in range(3)] == [6, 5, 4]


def test_the_round_ends_when_all_but_one_card_is_played():
    hand = [FIVE, FOUR, THREE, TWO, ONE, DYNAMITE, BOUNTY]
    state = ready((hand, list(hand)))
    for card in hand[:5]:
        duel(state, card, card)
    assert state.round_no == 0
    duel(state, DYNAMITE, DYNAMITE)
    assert state.round_no == 1 and state.round_gold == [[0, 0]]


@pytest.mark.parametrize(
    ("mine", "theirs", "result"),
    [
        (FIVE, TWO, (0, 3)),  # 3 apart: the higher wins the difference
        (TWO, FIVE, (1, 3)),
        (FIVE, ONE, (1, 4)),  # more than 3 apart: the lower wins
        (PINK_8, TWO, (1, 6)),
        (FOUR, FOUR, (-1, 0)),
        (PINK_7, GREEN_7, (-1, 0)),  # equal values tie whatever their colour
    ],
)
def test_close_cards_go_to_the_higher_and_far_ones_to_the_lower(mine, theirs, result):
    assert duel_outcome(mine, theirs) == result


def test_the_winner_scores_the_difference():
    state = ready(([FIVE, ONE], [TWO, THREE]))
    duel(state, FIVE, TWO)
    assert state.gold == [3, 0]


def test_a_tie_puts_two_gold_between_the_cards_and_nobody_scores():
    state = ready(([FOUR, ONE], [FOUR, TWO]))
    duel(state, FOUR, FOUR)
    assert state.gold == [0, 0] and state.pot == 2


def test_the_first_to_play_the_6_takes_the_gold_of_tied_duels():
    state = ready(([FOUR, SIX, ONE], [FOUR, THREE, SIX]))
    duel(state, FOUR, FOUR)
    duel(state, SIX, THREE)
    assert state.gold == [3 + 2, 0] and state.pot == 0


def test_a_6_played_by_both_at_once_is_nobodys_first():
    state = ready(([FOUR, SIX, ONE, TWO], [FOUR, SIX, FIVE, THREE]))
    duel(state, FOUR, FOUR)
    duel(state, SIX, SIX)
    assert state.pot == 4 and state.gold == [0, 0]


def test_pink_7_ends_the_round_from_the_third_duel():
    state = ready(([PINK_7, FIVE, THREE, TWO, ONE], [FIVE, THREE, ONE, PINK_7, TWO]))
    duel(state, PINK_7, FIVE)  # the 1st duel: the round goes on
    assert state.round_no == 0
    duel(state, FIVE, THREE)
    duel(state, THREE, PINK_7)  # the 3rd duel: the round is finished
    assert state.round_no == 1 and len(state.round_gold) == 1


def test_green_7_earns_a_gold_more_for_each_duel_won_from_the_next_one():
    state = ready(([GREEN_7, FIVE, FIVE], [FIVE, TWO, ONE]))
    duel(state, GREEN_7, FIVE)
    assert state.gold == [2, 0]
    duel(state, FIVE, TWO)
    assert state.gold == [2 + 3 + 1, 0]


def test_pink_8_wins_three_gold_against_a_1():
    state = ready(([PINK_8, TWO], [ONE, THREE]))
    duel(state, PINK_8, ONE)
    assert state.gold == [3, 0]


def test_pink_8_wins_against_ace_in_the_hole_which_is_a_1():
    assert duel_outcome(ACE_IN_THE_HOLE, PINK_8) == (1, 3)


def test_green_8_takes_back_a_discard_shown_and_costs_two_more_discards_next_round():
    state = ready(([GREEN_8, TWO, THREE], [FIVE, FOUR, ONE]), discards=([SIX, ONE], [TWO, THREE]))
    duel(state, GREEN_8, FIVE)
    assert state.phase == "take_back" and state.to_act == 0
    assert state.legal_actions() == [Action("take_back", SIX), Action("take_back", ONE)]
    state.apply(Action("take_back", SIX))
    assert SIX in state.hands[0] and state.view(1)["opponent_shown"] == [SIX]
    assert state.penalty == [True, False]
    state.duel_no = state.duels - 1  # jump to the round's last duel
    duel(state, TWO, ONE)
    assert state.to_discard == [4, 2]


def test_ace_in_the_hole_takes_back_a_discard_without_penalty():
    state = ready(([ACE_IN_THE_HOLE, TWO], [THREE, FOUR]), discards=([DYNAMITE, FIVE], []))
    duel(state, ACE_IN_THE_HOLE, THREE)
    state.apply(Action("take_back", DYNAMITE))
    assert DYNAMITE in state.hands[0] and state.penalty == [False, False]


def test_reload_takes_back_the_card_played_in_the_previous_duel():
    state = ready(([FIVE, RELOAD, ONE], [TWO, ONE, THREE]))
    duel(state, FIVE, TWO)
    duel(state, RELOAD, ONE)
    assert FIVE in state.hands[0] and state.view(1)["opponent_shown"] == [FIVE]


def test_bounty_scores_a_gold_more_when_it_wins():
    state = ready(([BOUNTY, ONE], [THREE, TWO]))
    duel(state, BOUNTY, THREE)
    assert state.gold == [3, 0]


@pytest.mark.parametrize(("other", "winner"), [(ONE, 0), (FOUR, 0), (FIVE, 1), (PINK_8, 1)])
def test_dynamite_beats_1_to_4_loses_to_5_to_8_and_scores_three(other, winner):
    assert duel_outcome(DYNAMITE, other) == (winner, 3)
    assert duel_outcome(other, DYNAMITE) == (1 - winner, 3)
    assert duel_outcome(DYNAMITE, DYNAMITE) == (-1, 0)


def test_you_may_not_play_a_card_one_higher_than_your_last():
    state = ready(([THREE, FOUR, FIVE, DYNAMITE], [ONE, TWO, THREE, FOUR]))
    duel(state, THREE, ONE)
    assert Action("play", FOUR) not in state.legal_actions()
    with pytest.raises(IllegalAction):
        state.apply(Action("play", FOUR))
    duel(state, DYNAMITE, THREE)
    assert Action("play", FOUR) in state.legal_actions()  # Dynamite has no value


def test_when_every_card_is_one_higher_any_card_may_be_played():
    state = ready(([THREE, FOUR, BOUNTY], [ONE, TWO, THREE]))
    duel(state, THREE, ONE)
    state.hands[0] = [FOUR]
    assert state.legal_actions() == [Action("play", FOUR)]


def test_most_gold_wins_the_round_and_two_rounds_win_the_duel():
    state = ready(([FIVE, ONE], [TWO, THREE]), round_no=2)
    state.round_wins = [1, 1]
    state.duel_no = state.duels - 1
    duel(state, FIVE, TWO)
    assert state.is_over and state.final()["winner"] == 0
    assert state.final()["round_wins"] == [2, 1]


def test_a_tied_round_is_won_by_nobody():
    state = ready(([FIVE, ONE], [FIVE, THREE]))
    state.duel_no = state.duels - 1
    duel(state, FIVE, FIVE)
    assert state.round_wins == [0, 0] and state.round_no == 1


def test_the_first_card_stays_face_down_for_the_second_player():
    state = ready(([FIVE, ONE], [TWO, THREE]))
    state.apply(Action("play", FIVE))
    view = state.view(1)
    assert view["opponent_has_selected"]
    assert view["played"] == [[], []] and "hands" not in view
