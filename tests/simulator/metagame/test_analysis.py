"""The metagame lab's analysis (simulator/metagame/analysis.py): planted fields whose answers
are known, an independent equilibrium solver (nashpy), properties over random fields."""

from __future__ import annotations

import itertools
import json
import time
import warnings

import nashpy
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import beta, betabinom

from simulator.metagame import analysis
from simulator.metagame.analysis import (
    analyse,
    cell_table,
    cycles,
    equilibria,
    expected_win_rates,
    nash_equilibrium,
    p_best,
    posterior,
    replicator,
    support_stability,
    tier_list,
)

RPS = np.array([[0.5, 0.9, 0.1], [0.1, 0.5, 0.9], [0.9, 0.1, 0.5]])


def planted(chances: np.ndarray, games: int) -> tuple[np.ndarray, np.ndarray]:
    """The counts a field would show if every pair played `games` games and won exactly its
    true share of them (wins may be fractional, as ties make them)."""
    n = len(chances)
    g = np.full((n, n), games)
    np.fill_diagonal(g, 0)
    w = np.asarray(chances) * g
    return w, g


def antisymmetric(rng: np.random.Generator, n: int, low: float = 0.2, high: float = 0.8):
    """A random win-chance matrix: p_ij uniform in [low, high], p_ji = 1 - p_ij."""
    p = np.triu(rng.uniform(low, high, (n, n)), 1)
    p = p + np.tril(1 - p.T, -1)
    np.fill_diagonal(p, 0.5)
    return p


@st.composite
def fields(draw, max_decks: int = 6):
    """Random consistent counts (ties as half wins) with random shares, some of them zero."""
    n = draw(st.integers(1, max_decks))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    g = np.triu(rng.integers(0, 40, (n, n)), 1)
    g = g + g.T
    w = np.triu(rng.integers(0, 81, (n, n)) / 2, 1)
    w = np.minimum(w, np.triu(g, 1))
    w = w + np.tril(g - w.T, -1)
    shares = rng.integers(0, 4, n).astype(float)
    shares[draw(st.integers(0, n - 1))] += 1
    return w, g, shares


# --- the posterior --------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(fields())
def test_posterior_draws_are_antisymmetric_about_a_half_with_the_mirror_at_a_half(field):
    w, g, _ = field
    draws = posterior(w, g, 50, seed=1)
    n = len(w)
    assert draws.shape == (50, n, n)
    assert np.allclose(draws + draws.transpose(0, 2, 1), 1.0)
    assert (draws[:, range(n), range(n)] == 0.5).all()
    assert ((draws > 0) & (draws < 1)).all()


def test_the_spread_s_weights_are_the_beta_binomial_likelihood_of_every_pair_s_games():
    # An independent reckoning: scipy's beta-binomial pmf per pair, multiplied over the pairs,
    # on the same grid (the binomial coefficients cancel in the normalisation).
    rng = np.random.default_rng(7)
    g = np.triu(rng.integers(0, 30, (5, 5)), 1)
    w = np.triu(rng.binomial(g, 0.6), 1).astype(float)
    w, g = w + np.tril((g - w).T, -1), g + g.T
    i, j = np.triu_indices(5, 1)
    half = analysis.KAPPA[:, None] / 2
    log = betabinom.logpmf(w[i, j], g[i, j], half, half).sum(axis=1)
    expected = np.exp(log - log.max())
    assert analysis.spread_weights(w) == pytest.approx(expected / expected.sum(), abs=1e-12)
    # No games: the prior, even over the grid.
    assert np.allclose(analysis.spread_weights(np.zeros((3, 3))), 1 / analysis.SPREAD_POINTS)


def test_a_pair_s_draws_follow_the_mixture_over_the_spread():
    w, g = np.array([[0, 30], [10, 0]]), np.array([[0, 40], [40, 0]])
    draws = posterior(w, g, 40_000, seed=5)[:, 0, 1]
    q = analysis.spread_weights(w)
    half = analysis.KAPPA / 2
    mean = q @ ((half + 30) / (analysis.KAPPA + 40))
    second = q @ (beta(half + 30, half + 10).var() + ((half + 30) / (analysis.KAPPA + 40)) ** 2)
    assert draws.mean() == pytest.approx(mean, abs=0.002)
    assert draws.var() == pytest.approx(second - mean**2, rel=0.05)
    assert analysis.posterior_mean(w, g)[0, 1] == pytest.approx(mean, abs=1e-12)
    assert analysis.posterior_moments(w, g)[1][0, 1] == pytest.approx(second - mean**2, abs=1e-12)
    # Drawn towards a half, but not past the uniform prior's (1 + 30) / (2 + 40).
    assert 0.5 < mean < 30 / 40


def test_a_pair_without_games_is_as_uncertain_as_the_field_s_matchups_are():
    # Nine decks whose 35 other pairs played 400 games each: close matchups (48-52%) teach
    # that this field's pairs are close, wide ones (20-80%) that they are not; the unplayed
    # pair (0, 1) sits at a half either way, with a spread to match the others'.
    rng = np.random.default_rng(3)
    for low, high, sd_low, sd_high in ((0.48, 0.52, 0.0, 0.05), (0.2, 0.8, 0.15, 0.3)):
        w, g = planted(antisymmetric(rng, 9, low, high), 400)
        w[0, 1] = w[1, 0] = g[0, 1] = g[1, 0] = 0
        draws = posterior(w, g, 4000, seed=1)[:, 0, 1]
        assert draws.mean() == pytest.approx(0.5, abs=0.02)
        assert sd_low < draws.std() < sd_high
        assert np.sqrt(analysis.posterior_moments(w, g)[1][0, 1]) == pytest.approx(
            draws.std(), rel=0.05
        )
    # A pair with many games is nearly its own, whatever the others say: 75% in 2,000 games
    # among pairs within 2 points of a half is drawn towards a half by a point or two.
    w, g = planted(antisymmetric(rng, 9, 0.48, 0.52), 400)
    w[0, 1], w[1, 0], g[0, 1], g[1, 0] = 1500, 500, 2000, 2000
    assert 0.72 < analysis.posterior_mean(w, g)[0, 1] < 0.75
    # No games anywhere: every pair at a half, the mirror too.
    assert np.allclose(
        analysis.posterior_mean(np.zeros((3, 3)), np.zeros((3, 3))), np.full((3, 3), 0.5)
    )


def test_the_same_seed_gives_the_same_draws_and_another_seed_others():
    w, g = planted(RPS, 10)
    assert np.array_equal(posterior(w, g, 20, 3), posterior(w, g, 20, 3))
    assert not np.array_equal(posterior(w, g, 20, 3), posterior(w, g, 20, 4))


# --- the pairs' table -----------------------------------------------------------------------


def test_a_pair_s_interval_is_the_jeffreys_interval():
    cells = cell_table([[0, 7], [3, 0]], [[0, 10], [10, 0]], confidence=0.9)
    cell = cells[0][1]
    assert cell["estimate"] == 0.7
    assert cell["low"] == pytest.approx(beta.ppf(0.05, 7.5, 3.5))
    assert cell["high"] == pytest.approx(beta.ppf(0.95, 7.5, 3.5))
    assert cell["games"] == 10 and cell["mirror"] is False


def test_a_pair_never_played_sits_at_a_half_with_an_interval_of_almost_everything():
    cell = cell_table([[0, 0], [0, 0]], [[0, 0], [0, 0]])[0][1]
    assert cell["estimate"] == 0.5
    assert cell["low"] < 0.01 and cell["high"] > 0.99


def test_a_clean_sweep_reaches_one_and_the_mirror_is_a_half_by_symmetry():
    cells = cell_table([[0, 20], [0, 0]], [[0, 20], [20, 0]])
    assert cells[0][1]["high"] == 1.0 and cells[0][1]["low"] > 0.85
    assert cells[1][0]["low"] == 0.0
    assert cells[0][0] == {
        "games": 0,
        "wins": 0.0,
        "estimate": 0.5,
        "low": 0.5,
        "high": 0.5,
        "mirror": True,
    }


# --- the decks against the field ------------------------------------------------------------


def test_the_expected_win_rate_counts_the_mirror_at_a_half_with_its_own_share():
    chances = np.array([[0.5, 0.7], [0.3, 0.5]])
    e = expected_win_rates(chances, np.array([0.25, 0.75]))
    assert e == pytest.approx([0.25 * 0.5 + 0.75 * 0.7, 0.25 * 0.3 + 0.75 * 0.5])


def test_a_tie_for_best_is_split_evenly():
    assert p_best(np.array([[0.6, 0.6, 0.4], [0.7, 0.5, 0.5]])).tolist() == [0.75, 0.25, 0.0]


@settings(max_examples=40, deadline=None)
@given(fields())
def test_the_chances_of_being_best_sum_to_one(field):
    w, g, shares = field
    report = analyse(w, g, shares, draws=200, equilibrium_draws=20, generations=5)
    assert sum(report["p_best"]) == pytest.approx(1.0)
    assert all(0 <= p <= 1 for p in report["p_best"])


def test_the_expected_win_rate_interval_holds_the_estimate_and_narrows_with_games():
    few = analyse(*planted(RPS, 20), [1, 2, 3], seed=1)["expected"]
    many = analyse(*planted(RPS, 2000), [1, 2, 3], seed=1)["expected"]
    for a, b in zip(few, many):
        assert a["low"] <= a["estimate"] <= a["high"]
        assert b["high"] - b["low"] < (a["high"] - a["low"]) / 5


def test_decks_whose_intervals_reach_the_top_s_share_its_tier_and_the_rest_tier_below():
    decks = [
        {"deck": 0, "estimate": 0.60, "low": 0.58, "high": 0.62, "p_best": 0.6},
        {"deck": 1, "estimate": 0.59, "low": 0.57, "high": 0.61, "p_best": 0.4},
        {"deck": 2, "estimate": 0.50, "low": 0.49, "high": 0.51, "p_best": 0.0},
        {"deck": 3, "estimate": 0.49, "low": 0.40, "high": 0.59, "p_best": 0.0},
        {"deck": 4, "estimate": 0.40, "low": 0.39, "high": 0.41, "p_best": 0.0},
    ]
    tiers = {d["deck"]: (d["tier"], d["rank"]) for d in tier_list(decks)}
    # Deck 3 (wide: few games) may be as good as the top deck; deck 2 above it may not.
    assert tiers == {0: (1, 1), 1: (1, 2), 3: (1, 4), 2: (2, 3), 4: (3, 5)}


def test_the_best_response_is_the_deck_that_beats_the_field_most():
    chances = np.array([[0.5, 0.4, 0.8], [0.6, 0.5, 0.45], [0.2, 0.55, 0.5]])
    report = analyse(*planted(chances, 5000), [0.1, 0.1, 0.8], seed=2)
    assert report["best_response"]["deck"] == 0
    assert report["p_best"][0] > 0.99
    assert [t["deck"] for t in report["tiers"] if t["tier"] == 1] == [0]


# --- the equilibrium ------------------------------------------------------------------------


def test_rock_paper_scissors_mixes_all_three_decks_a_third_each():
    eq = nash_equilibrium(RPS)
    assert eq.weights == pytest.approx([1 / 3] * 3, abs=1e-9)
    assert eq.support == (0, 1, 2)
    assert eq.value == 0.0


def test_a_deck_every_other_deck_beats_gets_no_weight():
    chances = np.array(
        [[0.5, 0.9, 0.1, 0.6], [0.1, 0.5, 0.9, 0.7], [0.9, 0.1, 0.5, 0.55], [0.4, 0.3, 0.45, 0.5]]
    )
    eq = nash_equilibrium(chances)
    assert eq.weights[3] == 0.0
    assert eq.support == (0, 1, 2)


def test_a_deck_that_beats_every_other_deck_is_the_whole_mix():
    chances = antisymmetric(np.random.default_rng(3), 5)
    chances[2, :] = [0.6, 0.7, 0.5, 0.55, 0.8]
    chances[:, 2] = 1 - chances[2, :]
    eq = nash_equilibrium(chances)
    assert eq.weights == (0.0, 0.0, 1.0, 0.0, 0.0)
    assert eq.support == (2,)


def test_a_single_deck_is_its_own_equilibrium():
    assert nash_equilibrium(np.array([[0.5]])).to_json() == {
        "weights": [1.0],
        "support": [0],
        "value": 0.0,
    }


def _nashpy_unique(chances: np.ndarray) -> np.ndarray | None:
    """The row player's strategy when nashpy's support enumeration finds exactly one
    equilibrium of the zero-sum game (A, -A), else None."""
    a = chances - 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = list(nashpy.Game(a, -a).support_enumeration())
    return found[0][0] if len(found) == 1 else None


def test_the_lp_agrees_with_nashpy_on_random_games_with_one_equilibrium():
    rng = np.random.default_rng(11)
    compared = 0
    for n in (3, 4, 5, 6) * 5:
        chances = antisymmetric(rng, n)
        theirs = _nashpy_unique(chances)
        if theirs is None:
            continue
        compared += 1
        assert np.asarray(nash_equilibrium(chances).weights) == pytest.approx(theirs, abs=1e-6)
    assert compared >= 15


def test_the_batched_equilibria_of_draws_match_one_lp_per_draw():
    rng = np.random.default_rng(4)
    truth = antisymmetric(rng, 8, 0.35, 0.65)
    w, g = planted(truth, 60)
    draws = posterior(w, g, 120, seed=9)
    point = nash_equilibrium(analysis.posterior_mean(w, g))
    fast = equilibria(draws, point.support)
    slow = np.array([nash_equilibrium(d).weights for d in draws])
    assert fast == pytest.approx(slow, abs=1e-9)
    assert fast.sum(axis=1) == pytest.approx(np.ones(len(draws)))


def test_a_well_known_rock_paper_scissors_keeps_its_support_in_every_draw():
    w, g = planted(RPS, 1000)
    draws = posterior(w, g, 300, seed=1)
    stable = support_stability(draws, nash_equilibrium(analysis.posterior_mean(w, g)), k=100)
    assert stable["draws"] == 100
    assert stable["in_support"] == [1.0, 1.0, 1.0]
    assert stable["same_support"] == 1.0
    assert stable["mean_weight"] == pytest.approx([1 / 3] * 3, abs=0.01)


@settings(max_examples=40, deadline=None)
@given(fields(max_decks=8))
def test_equilibrium_weights_are_non_negative_and_sum_to_one(field):
    w, g, shares = field
    nash = analyse(w, g, shares, draws=50, equilibrium_draws=20, generations=2)["nash"]
    assert all(x >= 0 for x in nash["weights"])
    assert sum(nash["weights"]) == pytest.approx(1.0)
    assert nash["support"] == [i for i, x in enumerate(nash["weights"]) if x > 1e-6]
    assert abs(nash["value"]) < 1e-7


# --- cycles ---------------------------------------------------------------------------------


def test_rock_paper_scissors_is_named_as_a_cycle_with_its_edges():
    w, g = planted(RPS, 200)
    found = cycles(posterior(w, g, 500, seed=0))
    assert len(found) == 1
    assert found[0]["decks"] == [0, 1, 2]
    assert [(e["winner"], e["loser"]) for e in found[0]["edges"]] == [(0, 1), (1, 2), (2, 0)]
    assert found[0]["probability"] == 1.0


def test_a_ranking_has_no_cycle_and_a_doubtful_cycle_is_left_out():
    ranked = np.array([[0.5, 0.7, 0.8], [0.3, 0.5, 0.7], [0.2, 0.3, 0.5]])
    assert cycles(posterior(*planted(ranked, 100), 500, seed=0)) == []
    faint = np.array([[0.5, 0.52, 0.48], [0.48, 0.5, 0.52], [0.52, 0.48, 0.5]])
    held = cycles(posterior(*planted(faint, 10), 2000, seed=0), threshold=0.0)
    assert held and held[0]["probability"] < 0.5
    assert cycles(posterior(*planted(faint, 10), 2000, seed=0)) == []


# --- the replicator -------------------------------------------------------------------------


def test_a_dominant_deck_takes_the_whole_field_and_the_drift_settles():
    chances = np.array([[0.5, 0.7, 0.7], [0.3, 0.5, 0.6], [0.3, 0.4, 0.5]])
    drift = replicator(chances, np.array([0.1, 0.45, 0.45]))
    assert drift["status"] == "settled"
    assert drift["final"][0] > 0.999
    assert len(drift["history"]) == drift["generations"] + 1 < 201


def test_a_deck_nobody_plays_never_comes_back_even_when_it_would_win():
    chances = np.array([[0.5, 0.8, 0.8], [0.2, 0.5, 0.6], [0.2, 0.4, 0.5]])
    drift = replicator(chances, np.array([0.0, 0.5, 0.5]))
    assert all(step[0] == 0.0 for step in drift["history"])
    assert drift["final"][1] > 0.99


def test_rock_paper_scissors_away_from_its_balance_keeps_turning():
    drift = replicator(RPS, np.array([0.5, 0.3, 0.2]), generations=200)
    assert drift["status"] == "oscillating"
    assert drift["generations"] == 200
    assert replicator(RPS, np.ones(3) / 3)["status"] == "settled"


@settings(max_examples=40, deadline=None)
@given(fields())
def test_the_replicator_s_shares_stay_on_the_simplex(field):
    w, g, shares = field
    drift = replicator(analysis.posterior_mean(w, g), shares / shares.sum(), generations=30)
    history = np.array(drift["history"])
    assert (history >= 0).all()
    assert history.sum(axis=1) == pytest.approx(np.ones(len(history)))


# --- the report -----------------------------------------------------------------------------


def test_the_same_inputs_and_seed_give_the_same_report_as_json():
    w, g = planted(antisymmetric(np.random.default_rng(2), 6), 30)
    first = analyse(w, g, [1, 2, 3, 1, 0, 2], seed=7, draws=500)
    again = analyse(w.tolist(), g.tolist(), [1, 2, 3, 1, 0, 2], seed=7, draws=500)
    assert json.dumps(first) == json.dumps(again)
    other = analyse(w, g, [1, 2, 3, 1, 0, 2], seed=8, draws=500)
    assert other["p_best"] != first["p_best"]


def test_the_report_names_every_figure_and_says_how_the_mirror_counts():
    report = analyse(*planted(RPS, 100), [1, 1, 1])
    assert set(report) >= {
        "cells",
        "expected",
        "p_best",
        "tiers",
        "best_response",
        "nash",
        "support_stability",
        "cycles",
        "replicator",
        "notes",
    }
    assert "0.5" in report["notes"]["mirror"]
    assert report["shares"] == pytest.approx([1 / 3] * 3)


def test_one_deck_gets_trivial_answers():
    report = analyse([[0]], [[0]], [3])
    assert report["p_best"] == [1.0]
    assert report["nash"]["weights"] == [1.0]
    assert report["tiers"][0]["tier"] == 1
    assert report["cycles"] == []
    assert report["replicator"]["status"] == "settled"


def test_a_field_never_played_has_wide_intervals_and_no_favourite():
    zero = np.zeros((4, 4))
    report = analyse(zero, zero, [1, 1, 1, 1], seed=1)
    assert all(d["high"] - d["low"] > 0.3 for d in report["expected"])
    assert max(report["p_best"]) < 0.4


def test_sixteen_decks_are_analysed_in_well_under_a_second():
    rng = np.random.default_rng(16)
    w, g = planted(antisymmetric(rng, 16, 0.4, 0.6), 300)
    started = time.perf_counter()
    report = analyse(w, g, rng.dirichlet(np.ones(16)), seed=0)
    assert time.perf_counter() - started < 3.0
    assert len(report["expected"]) == 16
    json.dumps(report)


@pytest.mark.parametrize(
    ("wins", "games", "shares", "message"),
    [
        ([[0, 1], [1, 0]], [[0, 2], [2, 0]], [0, 0], "above zero"),
        ([[0, 1], [1, 0]], [[0, 2], [2, 0]], [1, -1], "negative"),
        ([[0, 1], [1, 0]], [[0, 2], [2, 0]], [1, 1, 1], "one number per deck"),
        ([[0, 1], [1, 0]], [[0, 2, 0], [2, 0, 0], [0, 0, 0]], [1, 1], "same size"),
        ([[0, 1, 2], [1, 0, 0]], [[0, 2], [2, 0]], [1, 1], "square"),
        ([[0, 1], [1, 0]], [[0, 2], [3, 0]], [1, 1], "symmetric"),
        ([[0, 2], [1, 0]], [[0, 2], [2, 0]], [1, 1], "must equal games"),
        ([[0, -1], [3, 0]], [[0, 2], [2, 0]], [1, 1], "negative"),
        ([], [], [], "N ≥ 1"),
        ([[0, "x"], [1, 0]], [[0, 2], [2, 0]], [1, 1], "numbers"),
    ],
)
def test_bad_input_is_refused_with_a_message_that_says_what_is_wrong(wins, games, shares, message):
    with pytest.raises(ValueError, match=message):
        analyse(wins, games, shares)


def test_a_confidence_outside_zero_and_one_is_refused():
    with pytest.raises(ValueError, match="confidence"):
        analyse(*planted(RPS, 10), [1, 1, 1], confidence=1.5)


def test_every_three_cycle_of_a_random_field_is_a_cycle_of_its_mean_matrix():
    rng = np.random.default_rng(8)
    chances = antisymmetric(rng, 7)
    found = cycles(posterior(*planted(chances, 400), 400, seed=0))
    expected = {
        (a, b, c)
        for i, j, k in itertools.combinations(range(7), 3)
        for a, b, c in ((i, j, k), (i, k, j))
        if chances[a, b] > 0.55 and chances[b, c] > 0.55 and chances[c, a] > 0.55
    }
    named = {tuple(c["decks"]) for c in found}
    assert expected <= named
