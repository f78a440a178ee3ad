"""Bots choose legal actions from their view, and searching never disturbs the real game."""

import json

from simulator.engine.core.registry import get_game
from simulator.engine.drifter import Seat, new_game
from simulator.engine.drifter.bots import HeuristicBot, RandomBot, SearchBot, determinize

from .factory import BASIC, basic, code

DECK = tuple(code(c["number"]) for c in BASIC) * 4
CHIPS = ("TST-K01", "TST-K02", "TST-K03")


def fresh(seed=1):
    return new_game([Seat("A", DECK, CHIPS), Seat("B", DECK, CHIPS)], seed=seed, catalogue=basic())


def test_every_bot_picks_a_legal_action_until_the_game_ends():
    for kinds in ((HeuristicBot, RandomBot), (SearchBot, HeuristicBot)):
        g = fresh(3)
        bots = [kinds[0](1), kinds[1](2)]
        steps = 0
        while not g.is_over and steps < 3000:
            legal = g.legal_actions()
            choice = bots[g.to_act].choose(g.view(g.to_act), legal)
            assert choice in legal or choice.kind in ("bet", "raise")
            g.apply(choice)
            steps += 1
        assert g.is_over


def test_search_leaves_the_real_game_untouched():
    g = fresh(5)
    bots = [HeuristicBot(1), HeuristicBot(2)]
    while g.phase != "bet" and not g.is_over:
        g.apply(bots[g.to_act].choose(g.view(g.to_act), g.legal_actions()))
    before = json.dumps(g.record(), sort_keys=True)
    state = g.chance.rng.getstate()
    SearchBot(9, rollouts=8).choose(g.view(g.to_act), g.legal_actions())
    assert json.dumps(g.record(), sort_keys=True) == before
    assert g.chance.rng.getstate() == state


def test_determinize_keeps_what_the_player_sees():
    g = fresh(7)
    bots = [RandomBot(1), RandomBot(2)]
    for _ in range(30):
        g.apply(bots[g.to_act].choose(g.view(g.to_act), g.legal_actions()))
    import random

    sim = determinize(g.view(0), random.Random(1))
    assert [c.printed.code for c in sim.hand[0]] == [c.printed.code for c in g.hand[0]]
    assert sim.stake == g.stake and sim.pot == g.pot
    assert len(sim.hand[1]) == len(g.hand[1]) and len(sim.deck[1]) == len(g.deck[1])
    assert sim.total_chips() == g.total_chips()


def test_registry_bot_factories_build_bots():
    spec = get_game("drifter")
    for name in ("random", "heuristic", "search"):
        assert spec.bots[name](0, 1).choose is not None
