"""The ISMCTS bot (issue #25 §2): deterministic under a seed, always legal, any budget, stronger
than random, and its determinizations agree with the view they are drawn from."""

from __future__ import annotations

import importlib
import random

import pytest

from simulator.engine.core.ismcts import ISMCTSBot, outcome
from simulator.engine.core.registry import games

from .honesty import comparable, new_game

SMALL = ("gunfighter", "duel", "quickdraw", "tabletown")


def _ismcts(game: str, seat: int, seed: int, iterations: int) -> ISMCTSBot:
    bot = games()[game].bots["ismcts"](seat, seed, iterations)
    assert isinstance(bot, ISMCTSBot) and bot.iterations == iterations
    return bot


def _play(game: str, seed: int, iterations: int, against: str = "heuristic", seats: int = 2):
    """One game of an ISMCTS bot in seat 0 against `against`: (its decisions, the final)."""
    state = new_game(game, seats, seed)
    spec = games()[game]
    bots = [_ismcts(game, 0, seed, iterations)] + [
        spec.bots[against](q, seed + q) for q in range(1, seats)
    ]
    decisions = []
    while not state.is_over:
        p = state.to_act
        legal = state.legal_actions()
        action = bots[p].choose(state.view(p), list(legal))
        assert action in legal
        if p == 0:
            decisions.append(action)
        state.apply(action)
    return decisions, state.final()


@pytest.mark.parametrize("game", ["drifter", *SMALL])
def test_every_game_registers_the_bot(game):
    assert isinstance(games()[game].bots["ismcts"](0, 0), ISMCTSBot)


@pytest.mark.parametrize("game", ["drifter", *SMALL])
def test_the_same_seed_makes_the_same_decisions_and_only_legal_ones(game):
    first = _play(game, seed=3, iterations=6)
    assert first == _play(game, seed=3, iterations=6)
    assert first[0]


@pytest.mark.parametrize("game", ["drifter", *SMALL])
def test_a_budget_of_one_iteration_still_plays(game):
    decisions, final = _play(game, seed=1, iterations=1)
    assert decisions and final


def test_another_seed_may_decide_otherwise():
    """The same decision points, two seeds: somewhere they differ (the search samples deals)."""
    state = new_game("quickdraw", 2, seed=4)
    driver = games()["quickdraw"].bots["heuristic"](0, 0)
    differ = 0
    while not state.is_over:
        p, legal = state.to_act, state.legal_actions()
        view = state.view(p)
        a = _ismcts("quickdraw", p, 1, 3).choose(view, list(legal))
        b = _ismcts("quickdraw", p, 2, 3).choose(view, list(legal))
        differ += a != b
        state.apply(driver.choose(view, legal))
    assert differ


def test_it_beats_the_random_bot_clearly():
    """A behaviour test with fixed seeds: 10 games of Gunfighter, seats alternating."""
    wins = 0
    spec = games()["gunfighter"]
    for seed in range(10):
        mine = seed % 2
        state = spec.new_game([{"name": "a"}, {"name": "b"}], None, seed, False)
        bots = [None, None]
        bots[mine] = _ismcts("gunfighter", mine, seed, 20)
        bots[1 - mine] = spec.bots["random"](1 - mine, seed)
        while not state.is_over:
            p = state.to_act
            state.apply(bots[p].choose(state.view(p), state.legal_actions()))
        wins += outcome(state)[mine] == 1.0
    assert wins >= 9


@pytest.mark.parametrize("game", SMALL)
@pytest.mark.parametrize("driver", ["heuristic", "random"])
def test_a_determinization_agrees_with_the_view_it_is_drawn_from(game, driver):
    """At every decision of a few games: the view and the menu of the determinized game are the
    seat's own (a determinization is one of the games the seat could be in), and it plays on."""
    module = importlib.import_module(f"simulator.engine.{game}.bots")
    spec = games()[game]
    rng = random.Random(game)
    for seed in range(4):
        seats = 2 + seed % 3 if game == "tabletown" else 2
        state = new_game(game, seats, seed)
        bots = [spec.bots[driver](q, seed + q) for q in range(seats)]
        while not state.is_over:
            p = state.to_act
            view, legal = state.view(p), state.legal_actions()
            sim = module.determinize(view, rng)
            assert comparable(sim.view(p)) == comparable(view)
            assert sim.legal_actions() == legal
            sim.apply(bots[p].choose(sim.view(p), sim.legal_actions()))
            state.apply(bots[p].choose(view, legal))


def test_the_tree_counts_availability_and_visits():
    """Every iteration visits one root child; a child is available at least as often as it
    is visited."""
    state = new_game("duel", 2, seed=2)
    bot = _ismcts("duel", 0, 0, 40)
    bot.choose(state.view(0), state.legal_actions())
    root = bot.last_root
    assert root is not None
    assert sum(child.visits for child in root.children.values()) == 40
    assert all(child.avail >= child.visits >= 1 for child in root.children.values())
