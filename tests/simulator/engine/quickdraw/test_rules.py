"""Quickdraw's rules, one scenario each, with a stacked deck."""

from __future__ import annotations

import pytest

from simulator.engine.core import ReplayChance
from simulator.engine.core.errors import RulesError
from simulator.engine.quickdraw import Action, new_game
from simulator.engine.quickdraw.cards import CARDS, RANKING, STRENGTHS

# Spades: A=0, 2=1, ... 10=9, J=10, Q=11, K=12; hearts add 13; the Jokers are 52 and 53.
ACE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING = range(13)
HEARTS = 13
JOKER_1, JOKER_2 = 52, 53
KEEP, RELOAD = Action("keep"), Action("reload")


def order(top_first: list[int]) -> list[int]:
    """A shuffle outcome with `top_first` on top of the deck, first card first."""
    return [c for c in range(len(CARDS)) if c not in top_first] + list(reversed(top_first))


def dealt(ada: list[int], bo: list[int], *events: list):
    """A duel whose deal gives Ada and Bo these six cards each; both keep their hands."""
    chance = ReplayChance([["shuffle", "deck", order(ada + bo)], *[list(e) for e in events]])
    state = new_game([{"name": "Ada"}, {"name": "Bo"}], seed=0, record=False, chance=chance)
    return state


def fire(state, mine: int, theirs: int) -> None:
    state.apply(Action("fire", mine))
    state.apply(Action("fire", theirs))


ADA = [ACE, KING, TEN, NINE, EIGHT, SEVEN]
BO = [JACK, QUEEN, TWO, THREE, FOUR, FIVE]


def test_the_deck_is_52_cards_and_both_jokers():
    assert len(CARDS) == 54 and sum(c.rank == "Joker" for c in CARDS) == 2


def test_the_ranking_is_exactly_as_written_ace_best_joker_worst():
    assert RANKING == (
        "A",
        "J",
        "Q",
        "K",
        "10",
        "9",
        "8",
        "7",
        "6",
        "5",
        "4",
        "3",
        "2",
        "1",
        "Joker",
    )
    spades_and_joker = sorted([*range(13), JOKER_1], key=lambda c: -STRENGTHS[c])
    assert [CARDS[c].rank for c in spades_and_joker] == [r for r in RANKING if r != "1"]


def test_each_player_loads_six_bullets():
    state = dealt(ADA, BO)
    assert state.hands == [ADA, BO]


def test_a_reload_in_step_one_draws_six_new_cards_once():
    # After Ada's hand goes back, this shuffle keeps the deck as it is: her old hand on top.
    state = dealt(ADA, BO, ["shuffle", "reload", list(range(48))])
    state.apply(RELOAD)
    assert sorted(state.hands[0]) == sorted(ADA) and len(state.deck) == 42
    assert state.to_act == 1 and state.legal_actions() == [KEEP, RELOAD]
    state.apply(KEEP)
    assert state.phase == "fire" and all(a.kind == "fire" for a in state.legal_actions())


@pytest.mark.parametrize(
    ("better", "worse"),
    [(ACE, JACK), (JACK, QUEEN), (QUEEN, KING), (KING, TEN), (TEN, NINE), (TWO, JOKER_1)],
)
def test_the_better_card_wins_both_played_cards(better, worse):
    ada = [better, 26, 27, 28, 29, 30]  # fillers: diamonds A to 5
    bo = [worse, 40, 41, 42, 43, 44]  # clubs 2 to 6
    state = dealt(ada, bo)
    state.apply(KEEP)
    state.apply(KEEP)
    fire(state, better, worse)
    assert state.stacks == [[better, worse], []]


def test_a_tie_gives_each_player_his_own_card_back_face_up():
    state = dealt(ADA, [ACE + HEARTS, *BO[1:]])
    state.apply(KEEP)
    state.apply(KEEP)
    fire(state, ACE, ACE + HEARTS)
    assert state.stacks == [[ACE], [ACE + HEARTS]]


def test_a_pair_of_jokers_makes_both_reload_at_once():
    ada, bo = [JOKER_1, *ADA[1:]], [JOKER_2, *BO[1:]]
    # The ten cards left in hand go back; this shuffle keeps the deck's order.
    state = dealt(ada, bo, ["shuffle", "reload", list(range(52))])
    state.apply(KEEP)
    state.apply(KEEP)
    fire(state, JOKER_1, JOKER_2)
    assert state.stacks == [[JOKER_1], [JOKER_2]]
    assert [len(h) for h in state.hands] == [6, 6] and len(state.deck) == 40
    assert state.phase == "fire" and state.to_act == 0


def test_with_empty_hands_the_bigger_stack_wins():
    state = dealt(ADA, BO)
    state.apply(KEEP)
    state.apply(KEEP)
    for mine, theirs in zip(ADA, BO):
        fire(state, mine, theirs)
    # Ace beats Jack; King loses to Queen; 10, 9, 8, 7 beat 2, 3, 4, 5.
    assert state.is_over and state.final() == {
        "winner": 0,
        "stacks": [10, 2],
        "hands_dealt": 1,
        "deck_ran_short": False,
    }


def test_tied_stacks_reload_both_hands_and_fire_on():
    bo = [ACE + HEARTS, KING + HEARTS, TEN + HEARTS, NINE + HEARTS, EIGHT + HEARTS, SEVEN + HEARTS]
    state = dealt(ADA, bo)
    state.apply(KEEP)
    state.apply(KEEP)
    for mine, theirs in zip(ADA, bo):
        fire(state, mine, theirs)
    assert not state.is_over and [len(h) for h in state.hands] == [6, 6]
    assert state.final()["hands_dealt"] == 2 and state.phase == "fire"


def test_a_deck_too_short_to_reload_ends_the_duel():
    bo = [ACE + HEARTS, KING + HEARTS, TEN + HEARTS, NINE + HEARTS, EIGHT + HEARTS, SEVEN + HEARTS]
    state = dealt(ADA, bo)
    state.apply(KEEP)
    state.apply(KEEP)
    state.deck = state.deck[:11]
    for mine, theirs in zip(ADA, bo):
        fire(state, mine, theirs)
    assert state.is_over
    assert state.final() == {
        "winner": None,
        "stacks": [6, 6],
        "hands_dealt": 1,
        "deck_ran_short": True,
    }


def test_the_first_card_stays_hidden_until_both_fire():
    state = dealt(ADA, BO)
    state.apply(KEEP)
    state.apply(KEEP)
    state.apply(Action("fire", ACE))
    view = state.view(1)
    assert view["opponent_has_selected"] and view["fired"] == [] and view["selected"] == -1
    assert "hands" not in view and ACE not in view["hand"]


@pytest.mark.parametrize(
    ("seats", "rules"), [([{}], None), ([{}, {}, {}], None), ([{}, {}], {"x": 1})]
)
def test_two_players_and_no_rule_options(seats, rules):
    with pytest.raises(RulesError):
        new_game(seats, rules)
