"""A card that holds no gear, kicker chips or marks shares one empty list of each with every
other card (pieces.NO_CARDS, NO_KICKERS, NO_MARKS), so nothing may ever grow those lists in
place: a card that gains one gets a list of its own. Played out over varied games, step by
step, including clones (a search's determinizations) played on."""

import random

from simulator.engine.drifter import new_game, pieces
from simulator.engine.drifter.bots import FACTORIES
from simulator.engine.drifter.cards import load_catalogue
from simulator.engine.drifter.variants import PLAY_VARIANTS, Rules
from simulator.engine.training import random_seat


def _check(state, seen):
    assert pieces.NO_CARDS == [] and pieces.NO_KICKERS == [] and pieces.NO_MARKS == []
    owners = {}
    for card in state.cards:
        for name in ("gear", "kickers", "marks"):
            held = getattr(card, name)
            if held:
                seen[name] += 1
                # a list that holds something belongs to one card alone
                assert owners.setdefault(id(held), (card.uid, name)) == (card.uid, name)
    for dude in state.cards:
        for g in dude.gear:
            assert g.host is dude


def test_shared_empty_lists_stay_empty_and_held_ones_are_never_shared():
    cat = load_catalogue()
    rng = random.Random(7)
    seen = {"gear": 0, "kickers": 0, "marks": 0}
    for seed in range(24):
        size = 2 + seed % 3
        bot = ("heuristic", "random")[seed % 2]
        seats = [random_seat(f"P{i}", rng, cat, bot) for i in range(size)]
        variants = frozenset([PLAY_VARIANTS[seed % len(PLAY_VARIANTS)]] if seed % 3 else [])
        state = new_game(seats, rules=Rules(variants=variants), seed=seed, catalogue=cat)
        bots = [FACTORIES[bot](i, seed * 8 + i) for i in range(size)]
        step = 0
        while not state.is_over:
            p = state.actor
            state.apply(bots[p].choose(state.view(p), state.legal_actions()))
            step += 1
            _check(state, seen)
            if step % 40 == 0:  # a clone plays on from here, apart from the game
                twin = state.clone()
                _check(twin, dict(seen))
                for _ in range(3):
                    if not twin.is_over:
                        twin.apply(twin.legal_actions()[-1])
                        _check(twin, dict(seen))
                _check(state, dict(seen))
    # the games put gear, kicker chips and marks on cards: the check above saw each
    assert min(seen.values()) > 0, seen


def test_a_card_that_leaves_play_goes_back_to_the_shared_lists():
    cat = load_catalogue()
    card = pieces.Card(1, cat.cards[0], 0)
    assert card.gear is pieces.NO_CARDS and card.kickers is pieces.NO_KICKERS
    assert card.marks is pieces.NO_MARKS
    card.gear = [*card.gear, pieces.Card(2, cat.cards[1], 0)]
    assert pieces.NO_CARDS == [] and len(card.gear) == 1
    card.reset()
    assert card.gear is pieces.NO_CARDS and card.marks is pieces.NO_MARKS
