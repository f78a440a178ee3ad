"""The figures of tables of 3 to 8 seats (#28 §1.5, simulator/metagame/tables.py): drawing
tables from the field, the Jeffreys interval against scipy, the chance of being best on
planted results, mean places, the stopping rule; and the runner's places and shared wins."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import beta

from simulator.games.plans import GameFacts
from simulator.games.runner import _record_game, empty_matchup, finishing_places
from simulator.metagame import tables

# --- drawing tables ----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    shares=st.lists(st.sampled_from([0, 0, 0.5, 1, 3]), min_size=2, max_size=10).filter(
        lambda s: sum(s) > 0
    ),
    k=st.integers(3, 8),
    count=st.integers(0, 40),
    seed=st.integers(0, 2**32 - 1),
)
def test_every_table_drawn_has_k_seats_of_decks_with_a_share(shares, k, count, seed):
    drawn = tables.draw_tables(shares, k, count, seed)
    assert len(drawn) == count
    for table in drawn:
        assert len(table) == k and list(table) == sorted(table)
        assert all(0 <= d < len(shares) and shares[d] > 0 for d in table)
    grouped = tables.compositions(drawn)
    assert sum(times for _, times in grouped) == count
    assert [seats for seats, _ in grouped] == sorted({tuple(t) for t in drawn})
    assert tables.draw_tables(shares, k, count, seed) == drawn  # the same seed, the same tables


def test_tables_are_drawn_by_the_shares():
    drawn = tables.draw_tables([3, 1, 0], 4, 5000, seed=1)
    seats = np.bincount(np.array(drawn).ravel(), minlength=3) / (4 * 5000)
    assert seats == pytest.approx([0.75, 0.25, 0.0], abs=0.01)


@pytest.mark.parametrize("k", [2, 9, 3.0, "4"])
def test_a_table_has_three_to_eight_seats(k):
    with pytest.raises(ValueError, match="3 to 8 seats"):
        tables.draw_tables([1, 1], k, 3, seed=0)


# --- the figures -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wins", "n", "confidence"),
    [(30, 100, 0.95), (12.5, 40, 0.9), (1, 7, 0.99), (199.5, 200, 0.95), (0, 10, 0.95)],
)
def test_the_jeffreys_interval_is_scipys_beta_quantiles(wins, n, confidence):
    low, high = tables.jeffreys(wins, n, confidence)
    alpha = 1 - confidence
    a, b = wins + 0.5, n - wins + 0.5
    assert low == (pytest.approx(beta.ppf(alpha / 2, a, b), abs=1e-12) if wins else 0.0)
    assert high == pytest.approx(beta.ppf(1 - alpha / 2, a, b), abs=1e-12)
    assert tables.jeffreys(n, n, confidence)[1] == 1.0


def test_exact_numbers_for_one_deck():
    rows = tables.deck_rates([30], [100], 4, confidence=0.95)
    row = rows[0]
    assert row["estimate"] == 0.3 and row["edge"] == pytest.approx(0.05)
    assert row["low"] == pytest.approx(beta.ppf(0.025, 30.5, 70.5))
    assert row["high"] == pytest.approx(beta.ppf(0.975, 30.5, 70.5))
    assert row["mean_place"] is None


def test_a_deck_that_always_wins_is_surely_the_best():
    # Four decks at tables of 4; deck 2 wins every game it sits in (planted).
    seats = [400, 400, 400, 400]
    wins = [80, 70, 400, 50]
    report = tables.analyse_tables(wins, seats, [1, 1, 1, 1], 4, seed=3)
    assert report["p_best"][2] == pytest.approx(1.0, abs=1e-3)
    assert sum(report["p_best"]) == pytest.approx(1.0)
    assert report["best"]["deck"] == 2 and report["tiers"][0]["deck"] == 2
    assert report["tiers"][0]["tier"] == 1 and all(t["tier"] > 1 for t in report["tiers"][1:])
    assert report["baseline"] == 0.25
    assert "does not describe games of 4 seats" in report["notes"]["matrix"]
    stop, leader, certainty = tables.stop_rule(report["p_best"], 0.95)
    assert stop and leader == 2 and certainty > 0.99


def test_close_decks_share_the_chance_and_the_rule_waits():
    report = tables.analyse_tables([100, 101, 20], [400, 400, 400], [1, 1, 1], 3, seed=1)
    assert report["p_best"][0] == pytest.approx(report["p_best"][1], abs=0.1)
    assert report["p_best"][2] < 1e-3
    assert not tables.stop_rule(report["p_best"], 0.95)[0]
    assert {t["deck"] for t in report["tiers"] if t["tier"] == 1} == {0, 1}


def test_a_deck_with_no_share_is_never_seated_and_has_no_chance():
    report = tables.analyse_tables([50, 0, 10], [200, 0, 100], [2, 0, 1], 3, seed=0)
    rates = report["rates"]
    assert not rates[1]["played"] and rates[1]["estimate"] == pytest.approx(1 / 3)
    assert report["p_best"][1] == 0.0 and 1 not in {t["deck"] for t in report["tiers"]}


def test_mean_places_and_their_interval():
    # Deck 0: places 1, 1, 2, 3 (sum 7, squares 15); deck 1 none placed.
    report = tables.analyse_tables(
        [2, 0], [4, 4], [1, 1], 3, place_sum=[7, 0], place_sq=[15, 0], placed=[4, 0], seed=0
    )
    row = report["rates"][0]
    assert row["mean_place"] == pytest.approx(1.75)
    sd = np.std([1, 1, 2, 3], ddof=1)
    assert row["place_high"] == pytest.approx(min(3, 1.75 + 1.959963984540054 * sd / 2))
    assert row["place_low"] == 1.0  # clipped at first place
    assert report["rates"][1]["mean_place"] is None and report["places"]
    no_places = tables.analyse_tables([2, 1], [4, 4], [1, 1], 3)
    assert not no_places["places"] and no_places["rates"][0]["mean_place"] is None


@pytest.mark.parametrize(
    ("wins", "seats", "error"),
    [([5, 1], [4, 4], "cannot win more"), ([1], [4, 4], "one count"), ([-1, 0], [4, 4], "zero")],
)
def test_bad_counts_are_refused(wins, seats, error):
    with pytest.raises(ValueError, match=error):
        tables.analyse_tables(wins, seats, [1, 1], 3)


@settings(max_examples=40, deadline=None)
@given(
    played=st.lists(st.integers(0, 300), min_size=2, max_size=8),
    fraction=st.floats(0, 1),
    seed=st.integers(0, 1000),
)
def test_chances_sum_to_one_and_intervals_hold_the_estimate(played, fraction, seed):
    wins = [round(s * fraction * 2) / 2 for s in played]
    report = tables.analyse_tables(wins, played, [1] * len(played), 5, seed=seed, draws=200)
    assert sum(report["p_best"]) == pytest.approx(1.0)
    for row in report["rates"]:
        assert 0 <= row["low"] <= row["high"] <= 1
        if row["played"]:
            assert row["low"] - 1e-9 <= row["estimate"] <= row["high"] + 1e-9


# --- what the runner records at a table of more than two seats ---------------------------------


def test_finishing_places_by_stake_share_ties():
    assert finishing_places([10, 50, 30, 30]) == [4, 1, 2.5, 2.5]
    assert finishing_places([5, 5, 5]) == [2, 2, 2]


def test_the_runner_records_shared_wins_and_places_at_tables_of_more_seats():
    agg = empty_matchup(3)
    # Seats 0 and 2 share the win with 40 chips; seat 1 is last. Order: seat s holds position.
    _record_game(agg, [0, 1, 2], [2, 0, 1], GameFacts(winners=[0, 2], first=0,
                                                       stakes=[40, 10, 40]))  # fmt: skip
    positions = agg["positions"]
    assert positions[2]["shared_wins"] == {"2": 1} and positions[2]["places"] == {"1.5": 1}
    assert positions[1]["shared_wins"] == {"2": 1} and positions[1]["places"] == {"1.5": 1}
    assert "shared_wins" not in positions[0] and positions[0]["places"] == {"3": 1}
    heads_up = empty_matchup(2)
    _record_game(heads_up, [0, 1], [0, 1], GameFacts(winners=[0], first=0, stakes=[50, 10]))
    assert "places" not in heads_up["positions"][0]  # heads-up aggregates are as they were
