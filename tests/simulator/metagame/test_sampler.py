"""The metagame lab's sampler (simulator/metagame/sampler.py): where a round's games go, when
it stops, and a question driven to its end on planted fields."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.metagame.sampler import (
    FLOOR,
    MIRROR,
    even_round,
    fixed_round,
    plan_round,
    run_adaptive,
    spread,
)

CLEAR_BEST = np.array(
    [
        [0.5, 0.75, 0.7, 0.8, 0.72],
        [0.25, 0.5, 0.55, 0.45, 0.5],
        [0.3, 0.45, 0.5, 0.52, 0.48],
        [0.2, 0.55, 0.48, 0.5, 0.53],
        [0.28, 0.5, 0.52, 0.47, 0.5],
    ]
)
RPS = np.array(
    [
        [0.5, 0.65, 0.35, 0.7],
        [0.35, 0.5, 0.65, 0.7],
        [0.65, 0.35, 0.5, 0.7],
        [0.3, 0.3, 0.3, 0.5],
    ]
)


def planted(chances: np.ndarray, games: int) -> tuple[np.ndarray, np.ndarray]:
    """Counts with every pair at `games` games and exactly its true share of wins."""
    g = np.full(chances.shape, games)
    np.fill_diagonal(g, 0)
    return chances * g, g


def coin(chances: np.ndarray, seed: int):
    """A synthetic oracle: each game a coin flip with the pair's true chance."""
    rng = np.random.default_rng(seed)
    return lambda i, j, k: float(rng.binomial(k, chances[i, j]))


def upper_sum(allocation) -> int:
    a = np.asarray(allocation)
    return int(np.triu(a, 1).sum())


# --- a round's games ------------------------------------------------------------------------


@pytest.mark.parametrize("target", ["best", "support"])
@pytest.mark.parametrize("games", [0, 7, 40])
def test_a_round_spends_exactly_its_games_on_pairs_only_and_symmetrically(target, games):
    rng = np.random.default_rng(games)
    chances = np.triu(rng.uniform(0.3, 0.7, (6, 6)), 1)
    chances = chances + np.tril(1 - chances.T, -1)
    np.fill_diagonal(chances, 0.5)
    w, g = planted(chances, games)
    plan = plan_round(w, g, [3, 1, 2, 1, 1, 2], target=target, round_games=997, seed=1)
    a = np.asarray(plan.allocation)
    assert not plan.stop
    assert upper_sum(a) == 997
    assert (np.diag(a) == 0).all() and (a == a.T).all() and (a >= 0).all()
    assert all(plan.reasons[i][i] == MIRROR for i in range(6))
    assert all(plan.reasons[i][j] for i in range(6) for j in range(6))


def test_the_two_leading_decks_get_the_most_games_and_hopeless_pairs_none():
    chances = np.full((5, 5), 0.5)
    chances[0, 2:] = chances[1, 2:] = 0.75  # decks 0 and 1 level at the top
    chances[2:, 0] = chances[2:, 1] = 0.25
    w, g = planted(chances, 200)
    plan = plan_round(w, g, [1, 1, 1, 1, 1], target="best", round_games=1000, seed=3)
    a = np.asarray(plan.allocation)
    assert plan.reasons[0][1] == "decides between the two leading decks"
    assert a[0, 1] == a.max()
    assert a[2, 3] == a[2, 4] == a[3, 4] == 0
    assert plan.reasons[2][3] == "nobody in contention plays this pair"


def test_on_a_three_way_race_nearly_every_game_goes_to_the_racing_decks_pairs():
    # Decks 0 → 1 → 2 → 0 win 60% of their cycle's matchup and 57% against the four others,
    # which are level among themselves: the race for best is between the three.
    chances = np.full((7, 7), 0.5)
    chances[:3, 3:], chances[3:, :3] = 0.57, 0.43
    for a, b in ((0, 1), (1, 2), (2, 0)):
        chances[a, b], chances[b, a] = 0.6, 0.4
    w, g = planted(chances, 40)
    plan = plan_round(w, g, [1] * 7, target="best", round_games=1000, seed=0)
    a = np.asarray(plan.allocation)
    upper_i, upper_j = np.triu_indices(7, 1)
    racing = upper_i < 3  # the pairs with a deck of the cycle
    assert a[upper_i, upper_j][racing].sum() >= 950
    assert min(a[0, 1], a[1, 2], a[0, 2]) > a[:3, 3:].max()
    assert a[3:, 3:].sum() // 2 <= FLOOR * 1000  # the four others: a few games to check
    assert "decides between" in plan.reasons[0][1]


def test_behind_a_clear_leader_every_trailing_deck_keeps_games_and_says_why():
    # Deck 0 wins 56% against five decks whose matchups among themselves spread from 40% to
    # 60%, and its row is well known (300 games a pair), the others' pairs not (20): 92% sure
    # deck 0 is best, not yet 95%. What is left to learn is whether a trailing deck could
    # catch up, so each keeps games, and the leader's row gets only the few to check it.
    rng = np.random.default_rng(1)
    chances = np.triu(rng.uniform(0.4, 0.6, (6, 6)), 1)
    chances = chances + np.tril(1 - chances.T, -1)
    np.fill_diagonal(chances, 0.5)
    chances[0, 1:], chances[1:, 0] = 0.56, 0.44
    w, g = planted(chances, 20)
    g[0, 1:] = g[1:, 0] = 300
    w[0, 1:], w[1:, 0] = 0.56 * 300, 0.44 * 300
    plan = plan_round(w, g, [1] * 6, target="best", round_games=300, seed=0)
    a = np.asarray(plan.allocation)
    assert not plan.stop and plan.answer == 0 and 0.9 < plan.certainty < 0.95
    assert a[0].sum() <= FLOOR * 300  # the leader's row: a few games to check it
    assert a[1:, 1:].sum() // 2 >= 0.9 * 300  # the trailing decks' own pairs: nearly all
    assert all(a[d, 1:].sum() > 0 for d in range(1, 6))  # every trailing deck
    behind = "two decks behind the leaders: it shows whether either could still catch up"
    pairs = [(i, j) for i in range(1, 6) for j in range(i + 1, 6)]
    trailing = [(i, j) for i, j in pairs if plan.reasons[i][j] == behind]
    assert trailing and all(a[i, j] > 0 for i, j in trailing)


def test_a_weak_deck_nobody_plays_gets_no_games_when_best_is_asked():
    chances = np.full((4, 4), 0.5)
    chances[3, :3], chances[:3, 3] = 0.2, 0.8
    w, g = planted(chances, 50)
    g[:3, 3] = g[3, :3] = 400
    w[:3, 3], w[3, :3] = 320, 80
    plan = plan_round(w, g, [1, 1, 1, 0], target="best", round_games=600, seed=0)
    a = np.asarray(plan.allocation)
    assert plan.chances[3] == 0.0
    assert (a[:, 3] == 0).all()
    assert plan.reasons[0][3] == (
        "nobody in the field plays the other deck, so it cannot change which is best"
    )
    assert upper_sum(a) == 600


def test_an_answered_question_stops_and_plays_nothing():
    w, g = planted(CLEAR_BEST, 3000)
    plan = plan_round(w, g, [1] * 5, target="best", round_games=500, seed=0)
    assert plan.stop and plan.answer == 0 and plan.certainty >= 0.95
    assert upper_sum(plan.allocation) == 0
    assert plan.reasons[0][1] == "the best deck is settled: no more games needed"


def test_the_same_counts_and_seed_give_the_same_plan():
    w, g = planted(RPS, 30)
    first = plan_round(w, g, [1, 2, 3, 4], target="support", round_games=300, seed=5)
    assert (
        first.to_json()
        == plan_round(w, g, [1, 2, 3, 4], target="support", round_games=300, seed=5).to_json()
    )


def test_spread_water_fills_and_leaves_a_pair_without_influence_empty():
    influence = np.zeros((3, 3))
    influence[0, 1], influence[0, 2] = 4.0, 1.0
    a = spread(influence, np.zeros((3, 3)), 1000)
    floor = FLOOR * 1000 / 2  # each pair with influence gets its share of the floor
    # Then games + 3 ∝ √(influence · 3): twice the games (plus 3) where the influence is 4 times.
    assert a[1, 2] == 0
    assert (a[0, 1] - floor + 3) / (a[0, 2] - floor + 3) == pytest.approx(2.0, rel=0.01)
    assert upper_sum(a) == 1000


def test_even_round_spreads_the_games_evenly_and_the_odd_ones_where_fewest_were_played():
    assert even_round(np.zeros((4, 4)), 12) == [
        [0, 2, 2, 2],
        [2, 0, 2, 2],
        [2, 2, 0, 2],
        [2, 2, 2, 0],
    ]
    games = np.array([[0, 5, 5], [5, 0, 1], [5, 1, 0]])
    assert even_round(games, 4) == [[0, 1, 1], [1, 0, 2], [1, 2, 0]]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"target": "worst", "round_games": 10}, "target"),
        ({"target": "best", "round_games": 0}, "round_games"),
        ({"target": "best", "round_games": 10, "confidence": 1.0}, "confidence"),
    ],
)
def test_a_bad_question_is_refused(kwargs, message):
    w, g = planted(RPS, 10)
    with pytest.raises(ValueError, match=message):
        plan_round(w, g, [1, 1, 1, 1], seed=0, **kwargs)


# --- a question driven to its end -----------------------------------------------------------


def test_on_a_clear_best_field_the_sampler_stops_and_names_the_best_deck():
    run = run_adaptive(
        coin(CLEAR_BEST, 1), 5, [1, 2, 1, 3, 1], target="best", budget=20_000, round_games=250,
        seed=1,
    )  # fmt: skip
    assert run.stopped_by == "rule"
    assert run.answer == 0
    assert run.games_used < 20_000
    assert run.games_used == upper_sum(run.games)
    assert run.certainty >= 0.95


def test_on_rock_paper_scissors_the_sampler_finds_the_three_decks_of_the_mix():
    run = run_adaptive(
        coin(RPS, 2), 4, [1, 1, 1, 1], target="support", budget=20_000, round_games=200, seed=2
    )
    assert run.stopped_by == "rule"
    assert run.answer == [0, 1, 2]


def test_the_budget_stops_a_question_too_close_to_call():
    level = np.full((3, 3), 0.5)
    run = run_adaptive(
        coin(level, 3), 3, [1, 1, 1], target="best", budget=700, round_games=300, seed=3,
        strategy="even",
    )  # fmt: skip
    assert run.stopped_by == "budget"
    assert run.games_used == 700 and upper_sum(run.games) == 700
    assert run.rounds == 3


def test_both_strategies_stop_by_the_same_rule_and_even_spreads_evenly():
    run = run_adaptive(
        coin(CLEAR_BEST, 4), 5, [1] * 5, target="best", budget=50_000, round_games=100, seed=4,
        strategy="even",
    )  # fmt: skip
    played = np.asarray(run.games)[np.triu_indices(5, 1)]
    assert run.stopped_by == "rule" and run.answer == 0
    assert played.max() - played.min() <= 1


def test_a_fixed_split_brings_every_pair_towards_its_share_of_the_games():
    split = np.array([[0, 3, 1], [3, 0, 0], [1, 0, 0]], dtype=float)  # pair (1, 2): none
    games = np.zeros((3, 3), dtype=int)
    first = fixed_round(split, games, 100)
    assert (first == first.T).all() and upper_sum(first) == 100
    assert (first[0, 1], first[0, 2], first[1, 2]) == (75, 25, 0)
    # a pair behind its share catches up first: (0, 2) has none of the 100 played so far
    behind = np.array([[0, 100, 0], [100, 0, 0], [0, 0, 0]])
    second = fixed_round(split, behind, 100)
    assert (second[0, 1], second[0, 2], second[1, 2]) == (50, 50, 0)


def test_a_fixed_split_stops_by_the_same_rule_and_plays_only_its_pairs():
    split = np.ones((5, 5)) - np.eye(5)
    split[1:, 1:] = 0  # only deck 0's pairs: enough to name deck 0 on this field
    run = run_adaptive(
        coin(CLEAR_BEST, 5), 5, [1] * 5, target="best", budget=50_000, round_games=100, seed=5,
        strategy="fixed", split=split,
    )  # fmt: skip
    played = np.asarray(run.games)
    assert run.stopped_by == "rule" and run.answer == 0 and run.strategy == "fixed"
    assert played[1:, 1:].sum() == 0
    assert played[0, 1:].max() - played[0, 1:].min() <= 1


@pytest.mark.parametrize(
    ("strategy", "split", "message"),
    [
        ("fixed", None, "a split goes with strategy 'fixed'"),
        ("even", np.ones((3, 3)), "a split goes with strategy 'fixed'"),
        ("best", None, "strategy must be one of adaptive, even, fixed"),
    ],
)
def test_a_strategy_and_its_split_must_agree(strategy, split, message):
    with pytest.raises(ValueError, match=message):
        run_adaptive(
            coin(CLEAR_BEST, 6), 3, [1, 1, 1], target="best", budget=100, round_games=50, seed=6,
            strategy=strategy, split=split,
        )  # fmt: skip


def test_spread_weighs_a_pair_by_its_effective_games_when_given():
    # Equal influence, no games, but pair (0, 2) already known as well as 47 games would make
    # it (the field's spread): n + m ∝ √(influence · n) with n = 3 and 48, so c·√3 - 3 and
    # c·√48 - 48 share the 950 games the floor leaves (c = 1001 / (√3 + √48)).
    influence = np.zeros((3, 3))
    influence[0, 1] = influence[0, 2] = 1.0
    size = np.full((3, 3), 3.0)
    size[0, 2] = size[2, 0] = 48.0
    a = spread(influence, np.zeros((3, 3)), 1000, size)
    c = 1001 / (np.sqrt(3) + np.sqrt(48))
    floor = FLOOR * 1000 / 2
    assert a[0, 1] - floor == pytest.approx(c * np.sqrt(3) - 3, abs=1)
    assert a[0, 2] - floor == pytest.approx(c * np.sqrt(48) - 48, abs=1)
    assert a[1, 2] == 0 and upper_sum(a) == 1000
    # Without `size`, the uniform prior's games + 3: the two pairs alike.
    assert spread(influence, np.zeros((3, 3)), 1000)[0, 1] == 500
