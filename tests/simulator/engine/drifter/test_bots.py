"""Bots choose legal actions from their view, and searching never disturbs the real game."""

import json

import pytest

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


def test_determinize_deals_opponents_kicker_stacks_again_by_value_only():
    """Player 0 sees how many chips player 1 holds and their colours (values), not their
    sides: each sampled world deals player 1's stack again within each value, and leaves
    player 0's own stack and the real game alone."""
    import random

    from simulator.engine.drifter import starter_seat

    g = new_game([starter_seat("A", "HSD-S1"), starter_seat("B", "HSD-S2")], seed=7)
    real = [(k.uid, k.defn.code) for k in g.chips[1]]
    mine = [(k.uid, k.defn.code) for k in g.chips[0]]
    assert real, "the starter seats hold kicker chips"
    changed = False
    for seed in range(20):
        sim = determinize(g.view(0), random.Random(seed))
        theirs = [(k.uid, k.defn.code) for k in sim.chips[1]]
        assert [u for u, _ in theirs] == [u for u, _ in real]
        assert [g.kickers[u].defn.value for u, _ in real] == [k.defn.value for k in sim.chips[1]]
        assert [(k.uid, k.defn.code) for k in sim.chips[0]] == mine
        changed |= theirs != real
        assert sim.total_chips() == g.total_chips()
    assert changed
    assert [(k.uid, k.defn.code) for k in g.chips[1]] == real


def _choices(bots, decisions):
    g = fresh(7)
    for _ in range(decisions):
        if g.is_over:
            break
        g.apply(bots[g.to_act].choose(g.view(g.to_act), g.legal_actions()))
    return g.record()


@pytest.mark.parametrize(
    ("name", "kind", "decisions"),
    [("random", RandomBot, 60), ("heuristic", HeuristicBot, 60), ("search", SearchBot, 6)],
)
def test_each_registered_bot_name_builds_that_bot_seeded_by_the_seed(name, kind, decisions):
    """The service builds bots by name as `factory(seat, seed)`: the bot of that kind, whose
    choices follow the seed and not the seat."""
    factory = get_game("drifter").bots[name]
    built = [factory(0, 11), factory(1, 12)]
    assert all(type(b) is kind for b in built)
    record = _choices(built, decisions)
    assert record == _choices([kind(11), kind(12)], decisions)
    assert record == _choices([factory(5, 11), factory(6, 12)], decisions)
    assert record != _choices([factory(0, 13), factory(1, 14)], decisions)


def _heuristic_game(seats, seed):
    g = new_game(seats, seed=seed, record=False)
    bots = [HeuristicBot(seed * 2), HeuristicBot(seed * 2 + 1)]
    accepted = challenges = 0
    while not g.is_over:
        action = bots[g.to_act].choose(g.view(g.to_act), g.legal_actions())
        challenges += action.kind == "challenge"
        accepted += action.kind == "accept"
        g.apply(action)
    return g, challenges, accepted


def test_heuristic_games_end_well_before_the_turn_cap():
    from simulator.engine.drifter import starter_seat

    seats = [starter_seat("A", "HSD-S1"), starter_seat("B", "HSD-S2")]
    turns = challenges = accepted = 0
    for seed in range(30):
        g, c, a = _heuristic_game(seats if seed % 2 else seats[::-1], seed)
        assert not g.final()["cap_hit"]
        turns += g.turns
        challenges += c
        accepted += a
    assert turns / 30 < 60
    assert accepted / challenges > 0.25  # refused challenges only trade antes back and forth


def test_heuristic_accepts_a_challenge_it_is_likely_to_win():
    g = fresh(11)
    bots = [HeuristicBot(1), HeuristicBot(2)]
    seen = []
    while not g.is_over and len(seen) < 40:
        p = g.to_act
        view, legal = g.view(p), g.legal_actions()
        action = bots[p].choose(view, legal)
        if g.phase == "accept" and any(a.kind == "accept" for a in legal):
            challenger = view.street_dude(view.challenger)
            stat = bots[p]._stat(view)
            _, _, chance = bots[p]._best_accept(view, legal, stat, challenger, doubt=False)
            seen.append((chance, action.kind))
        g.apply(action)
    likely = [kind for p, kind in seen if p >= 0.6]
    assert likely and all(kind == "accept" for kind in likely)
