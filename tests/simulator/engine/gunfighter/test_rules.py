"""Gunfighter's rules, one scenario each, with stacked decks and dice."""

from __future__ import annotations

import pytest

from simulator.engine.core import IllegalAction, ReplayChance
from simulator.engine.gunfighter import Action, new_game
from simulator.engine.gunfighter.cards import CARDS, STAREDOWN

QUICK_SHOT, QUICK_SHOT_3, STEADY_SHOT, DOUBLE_TAP, FAN_THE_HAMMER = 0, 1, 4, 10, 12
DIVE_FOR_COVER, TAKE_AIM_1, TAKE_AIM_2, DRAW_A_BEAD, FOCUS_1, FOCUS_6 = 14, 24, 25, 28, 31, 33
FOCUS_5, RELOAD, SPEED_LOADER, SCAVENGE, SPOOK, CALL_OUT = 32, 34, 38, 40, 45, 48


def deck_order(top_first: list[int]) -> list[int]:
    """A deck shuffle that puts `top_first` on top, first card first."""
    return [c for c in range(len(CARDS)) if c not in top_first] + list(reversed(top_first))


def ready(
    hands: tuple[list[int], list[int]],
    *,
    bullets: tuple[int, int] = (2, 2),
    accuracy: tuple[int, int] = (2, 2),
    health: tuple[int, int] = (2, 2),
    deck_top: list[int] = (),
    discard: list[int] = (),
    events: list[list] = (),
):
    """A game at the start of a turn with the given hands (plus Staredowns), stats and stacked
    chance: the deck holds every other card with `deck_top` on top."""
    state = new_game([{"name": "Ada"}, {"name": "Bo"}], seed=0, record=False)
    state.phase, state.actor = "select", 0
    state.hands = [[*hands[0], STAREDOWN], [*hands[1], STAREDOWN]]
    used = {*hands[0], *hands[1], *deck_top, *discard}
    state.discard = list(discard)
    state.deck = [c for c in range(len(CARDS)) if c not in used] + list(reversed(deck_top))
    state.bullets, state.accuracy, state.health = list(bullets), list(accuracy), list(health)
    state.chance = ReplayChance([list(e) for e in events])
    return state


def play_turn(state, first: int, second: int) -> None:
    state.apply(Action("select", first))
    state.apply(Action("select", second))


def test_each_player_draws_eight_and_a_hand_without_shoot_and_dodge_is_redrawn():
    aim_only = [24, 25, 26, 27, 28, 29, 30, 31]
    good_for_bo = [0, 15, 34, 35, 36, 37, 42, 43]
    first = deck_order(aim_only + good_for_bo)
    first_left = [1, 14] + [c for c in first[:-16] if c not in (1, 14)]
    first = first_left + first[-16:]
    # After Ada's hand goes back, the deck is shuffled: this order puts its bottom card on top.
    second = list(reversed(range(len(first_left) + 8)))
    chance = ReplayChance([["shuffle", "deck", first], ["shuffle", "deck", second]])
    state = new_game([{}, {}], seed=0, record=False, chance=chance)
    assert sorted(state.hands[1]) == sorted(good_for_bo)
    assert state.hands[0] == first_left[:8]
    assert chance.pos == 2


def test_each_player_discards_two_face_up_then_takes_a_staredown():
    state = new_game([{}, {}], seed=3)
    for player in (0, 0, 1):
        assert state.to_act == player
        state.apply(state.legal_actions()[0])
    # Ada's discards stay hidden from Bo until both have discarded.
    assert state.view(1)["discard"] == []
    state.apply(state.legal_actions()[0])
    assert len(state.discard) == 4
    assert all(len(hand) == 7 and STAREDOWN in hand for hand in state.hands)
    assert state.phase == "select"


def test_each_gunfighter_starts_with_two_accuracy_two_bullets_and_two_health():
    state = new_game([{}, {}], seed=3)
    assert (state.accuracy, state.bullets, state.health) == ([2, 2], [2, 2], [2, 2])


def test_the_staredown_can_never_be_discarded():
    state = new_game([{}, {}], seed=3)
    assert all(a.card != STAREDOWN for a in state.legal_actions())


def test_dodge_resolves_before_shoot_even_against_more_bullets():
    state = ready(([QUICK_SHOT], [DIVE_FOR_COVER]), bullets=(3, 0))
    play_turn(state, QUICK_SHOT, DIVE_FOR_COVER)
    assert state.health == [2, 2]
    assert state.bullets == [2, 0]  # the bullet is spent even though the shot is dodged
    assert state.chance.pos == 0  # a dodged shot rolls no die


def test_most_bullets_resolves_first_and_a_dead_gunfighter_does_not_shoot():
    state = ready(
        ([QUICK_SHOT], [QUICK_SHOT_3]), bullets=(3, 2), health=(2, 1), events=[["roll", "shot", 1]]
    )
    play_turn(state, QUICK_SHOT, QUICK_SHOT_3)
    assert state.is_over and state.final()["winner"] == 0
    assert state.health == [2, 0]
    assert state.bullets == [2, 2]


def test_equal_bullets_the_higher_top_card_die_roll_resolves_first():
    state = ready(
        ([QUICK_SHOT], [QUICK_SHOT_3]),
        health=(1, 2),
        deck_top=[TAKE_AIM_1, FOCUS_6],
        events=[["roll", "shot", 1]],
    )
    play_turn(state, QUICK_SHOT, QUICK_SHOT_3)
    assert state.final()["winner"] == 1
    assert state.discard == [TAKE_AIM_1, FOCUS_6]


def test_equal_top_card_die_rolls_are_discarded_again():
    deck_top = [TAKE_AIM_1, FOCUS_1, FOCUS_6, FOCUS_5]  # 1 and 1, then 6 and 5
    state = ready(
        ([QUICK_SHOT], [QUICK_SHOT_3]),
        health=(2, 1),
        deck_top=deck_top,
        events=[["roll", "shot", 2]],
    )
    play_turn(state, QUICK_SHOT, QUICK_SHOT_3)
    assert state.final()["winner"] == 0
    assert state.discard == deck_top


@pytest.mark.parametrize(("roll", "hit"), [(1, True), (3, True), (4, False), (6, False)])
def test_a_shot_hits_when_the_roll_is_at_most_the_accuracy(roll, hit):
    state = ready(
        ([QUICK_SHOT], [TAKE_AIM_1]),
        bullets=(3, 2),
        accuracy=(3, 2),
        events=[["roll", "shot", roll]],
    )
    play_turn(state, QUICK_SHOT, TAKE_AIM_1)
    assert state.health[1] == (1 if hit else 2)


def test_a_card_whose_bullet_cost_is_not_paid_is_not_used():
    state = ready(([DOUBLE_TAP], [TAKE_AIM_1]), bullets=(1, 2))
    play_turn(state, DOUBLE_TAP, TAKE_AIM_1)
    assert state.bullets[0] == 1 and state.accuracy[0] == 2
    assert DOUBLE_TAP in state.hands[0]
    assert state.chance.pos == 0


def test_an_enemy_card_can_leave_you_unable_to_pay():
    state = ready(([SPOOK], [QUICK_SHOT]), bullets=(2, 1))
    play_turn(state, SPOOK, QUICK_SHOT)
    assert state.bullets == [2, 0]
    assert state.accuracy == [2, 1]
    assert state.health == [2, 2]


def test_stats_stop_at_zero_and_six():
    # The rulebook's example: accuracy 1, a Shoot card that loses 4 accuracy leaves 0.
    state = ready(
        ([FAN_THE_HAMMER], [SPEED_LOADER]),
        bullets=(3, 4),
        accuracy=(1, 2),
        events=[["roll", "shot", 6]] * 3,
    )
    play_turn(state, FAN_THE_HAMMER, SPEED_LOADER)
    assert state.accuracy[0] == 0
    assert state.bullets == [0, 6]


def test_played_cards_return_to_hand_unless_the_card_says_discard():
    state = ready(([FOCUS_1], [TAKE_AIM_1]), deck_top=[TAKE_AIM_2, FOCUS_6])
    play_turn(state, FOCUS_1, TAKE_AIM_1)
    assert FOCUS_1 in state.discard and FOCUS_1 not in state.hands[0]
    assert TAKE_AIM_1 in state.hands[1]
    assert state.accuracy == [5, 4]


def test_staredown_discards_up_to_three_and_draws_as_many():
    state = ready(
        ([QUICK_SHOT, TAKE_AIM_1, RELOAD], [TAKE_AIM_2]),
        bullets=(1, 2),
        deck_top=[FOCUS_1, FOCUS_6, FOCUS_5],
    )
    play_turn(state, STAREDOWN, TAKE_AIM_2)
    assert state.phase == "staredown" and state.to_act == 0
    state.apply(Action("staredown_discard", TAKE_AIM_1))
    state.apply(Action("staredown_discard", RELOAD))
    state.apply(Action("staredown_done"))
    assert sorted(state.hands[0]) == sorted([QUICK_SHOT, FOCUS_1, FOCUS_6, STAREDOWN])
    assert state.phase == "select"


def test_staredown_ends_by_itself_after_the_third_discard():
    state = ready(
        ([QUICK_SHOT, TAKE_AIM_1, RELOAD], [TAKE_AIM_2]),
        bullets=(1, 2),
        deck_top=[FOCUS_1, FOCUS_6, FOCUS_5],
    )
    play_turn(state, STAREDOWN, TAKE_AIM_2)
    for card in (QUICK_SHOT, TAKE_AIM_1, RELOAD):
        state.apply(Action("staredown_discard", card))
    assert sorted(state.hands[0]) == sorted([FOCUS_1, FOCUS_6, FOCUS_5, STAREDOWN])


def test_hand_above_seven_at_the_end_of_the_turn_discards_down():
    hand = [SCAVENGE, 0, 1, 2, 3, 4]
    state = ready((hand, [TAKE_AIM_2]), bullets=(3, 2), discard=[TAKE_AIM_1])
    play_turn(state, SCAVENGE, TAKE_AIM_2)
    assert state.phase == "hand_limit" and len(state.hands[0]) == 8
    with pytest.raises(IllegalAction):
        state.apply(Action("discard", STAREDOWN))
    state.apply(Action("discard", TAKE_AIM_1))
    assert state.phase == "select" and len(state.hands[0]) == 7


def test_an_empty_deck_is_made_from_the_shuffled_discard_pile():
    state = ready(
        ([DRAW_A_BEAD], [TAKE_AIM_2]),
        bullets=(3, 2),
        discard=[FOCUS_1, FOCUS_6],
        events=[["shuffle", "reshuffle", [1, 0]]],
    )
    state.deck = []
    play_turn(state, DRAW_A_BEAD, TAKE_AIM_2)
    assert FOCUS_1 in state.hands[0] and state.deck == [FOCUS_6]


def test_call_out_discards_a_random_card_but_never_the_staredown():
    state = ready(
        ([CALL_OUT], [TAKE_AIM_2, QUICK_SHOT, RELOAD]),
        bullets=(3, 2),
        events=[["pick", "enemy_discard", 1]],
    )
    play_turn(state, CALL_OUT, TAKE_AIM_2)
    # Bo's hand at that moment: Quick Shot, Reload (Take Aim is on the table).
    assert RELOAD in state.discard and STAREDOWN in state.hands[1]


def test_the_first_choice_stays_face_down_for_the_second_chooser():
    state = ready(([QUICK_SHOT], [TAKE_AIM_2]))
    state.apply(Action("select", QUICK_SHOT))
    view = state.view(1)
    assert view["enemy_selected"] is None and view["enemy_has_selected"]
    assert "hands" not in view and QUICK_SHOT not in view["hand"]


def test_the_turn_cap_ends_the_game_without_a_winner():
    state = new_game([{}, {}], {"max_turns": 1}, seed=1)
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    state.apply(Action("select", STAREDOWN))
    state.apply(Action("select", STAREDOWN))
    state.apply(Action("staredown_done"))
    state.apply(Action("staredown_done"))
    assert state.is_over and state.final()["capped"] and state.final()["winner"] is None
