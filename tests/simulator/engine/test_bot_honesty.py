"""Bots decide only from what they may know (issue #25 §4), for every bot of every game.

At many decision points, everything the seat to act cannot see is dealt again (honesty.py:
other hands and face-down cards, deck orders, future chance) and a fresh bot of the same factory,
seat and seed must decide the same; the two views and menus must be equal too. A planted bot that
peeks at hidden cards fails the same check, in every game.
"""

from __future__ import annotations

import random
from functools import partial

import pytest

from simulator.engine.core.registry import games
from simulator.engine.drifter.bots import SearchBot

from .honesty import (
    REDEALS,
    assert_honest,
    comparable,
    honest,
    honesty_mismatches,
    new_game,
    peeking,
)

SEEDS = range(4)
# the seat counts played: heads-up, and three and four for the games that seat more
SEATS = {"drifter": (2, 3, 4), "tabletown": (2, 3, 4)}
# a decision point checked every `EVERY` decisions (a drifter game runs to about 150)
EVERY = {"drifter": 3, "tabletown": 3}
# the search bots with a small budget: the same bots, fast enough to check often


def _small_ismcts(game: str, seat: int, seed: int):
    return games()[game].bots["ismcts"](seat, seed, 4)


SMALL_BUDGET = {
    ("drifter", "search"): lambda seat, seed: SearchBot(seed, rollouts=4),
    **{(game, "ismcts"): partial(_small_ismcts, game) for game in sorted(games())},
}
# Known leaks: bots that read what their seat may not know (issue #25 §4 found them). Their
# cases are reported as xfail with the reason; test_the_known_leaks_are_still_there fails once
# one is fixed, so that its entry goes too and the bot is held to the check like the others.
KNOWN_LEAKS: dict[tuple[str, str], str] = {}


def factory(game: str, bot: str):
    """The registered factory of a bot (the search bot with a small rollout budget)."""
    registered = games()[game].bots[bot]
    small = SMALL_BUDGET.get((game, bot))
    if small is None:
        return registered
    assert type(registered(0, 0)) is type(small(0, 0))  # the same bot, a smaller budget
    return small


def cases():
    for game, spec in sorted(games().items()):
        for bot in spec.bots:
            for seats in SEATS.get(game, (2,)):
                yield pytest.param(game, bot, seats, id=f"{game}-{bot}-{seats}")


def test_every_game_has_a_redeal():
    assert set(REDEALS) == set(games())


@pytest.mark.parametrize(("game", "bot", "seats"), list(cases()))
def test_every_bot_decides_only_from_what_its_seat_may_know(game, bot, seats):
    every = EVERY.get(game, 2)
    try:
        checked = assert_honest(game, honest(factory(game, bot)), SEEDS, seats=seats, every=every)
    except AssertionError as exc:
        if (game, bot) in KNOWN_LEAKS and "changed when only what the seat" in str(exc):
            pytest.xfail(f"known leak: {KNOWN_LEAKS[game, bot]} ({exc})")
        raise
    assert checked >= 40  # many decision points, not a handful


def test_the_known_leaks_are_still_there():
    """Once a known leak is fixed, this fails: take its entry out of KNOWN_LEAKS. (None is
    known now: the loop, not a parametrization, so that an empty list is no skipped test.)"""
    for game, bot in sorted(KNOWN_LEAKS):
        make = honest(factory(game, bot))
        found = []
        for seats in SEATS.get(game, (2,)):
            for seed in SEEDS:
                found += honesty_mismatches(game, make, seats=seats, seed=seed, every=3)[0]
        assert found, f"{game} {bot} decides only from its view now: drop it from KNOWN_LEAKS"


def test_the_quick_start_game_deals_its_shared_deck_again_too():
    for bot in ("random", "heuristic"):
        make = honest(factory("drifter", bot))
        assert assert_honest("drifter", make, SEEDS, seats=2, every=3, quick_start=True) >= 40


@pytest.mark.parametrize(
    ("game", "bot", "seats"),
    [
        (game, bot, seats[-1])
        for game, spec in sorted(games().items())
        for bot in spec.bots
        for seats in [SEATS.get(game, (2,))]
    ],
)
def test_a_planted_bot_that_peeks_fails_the_check(game, bot, seats):
    """The cheat is built with a reference to the live state (the small games' dict views have
    no way back to it); it reads its opponents' hands and lets them change its decision."""
    cheat = peeking(game, factory(game, bot))
    with pytest.raises(AssertionError, match="changed when only what the seat cannot see"):
        assert_honest(game, cheat, SEEDS, seats=seats, every=EVERY.get(game, 2))
    found, checked = honesty_mismatches(game, cheat, seats=seats, seed=0, every=1)
    assert len(found) >= checked // 5  # caught at many points, not by luck


def test_a_drifter_bot_can_peek_through_its_view_and_is_caught():
    """A drifter View reads the live state lazily, so a bot holding one can reach the state
    (`view._s`): nothing stops a bot from peeking but this check."""
    cheat = peeking("drifter", factory("drifter", "heuristic"), through_view=True)
    with pytest.raises(AssertionError, match="changed when only what the seat cannot see"):
        assert_honest("drifter", cheat, SEEDS, seats=2, every=3)


def test_a_view_that_shows_a_hidden_card_is_caught(monkeypatch):
    """The check compares the two views: a view that changes when only hidden things were
    dealt again leaks them, whatever the bot does."""
    from simulator.engine.quickdraw.game import QuickdrawState

    real_view = QuickdrawState.view

    def leaky(self, player):
        view = real_view(self, player)
        view["opponent_top_card"] = self.hands[1 - player][-1] if self.hands[1 - player] else -1
        return view

    monkeypatch.setattr(QuickdrawState, "view", leaky)
    with pytest.raises(AssertionError, match="view changed when only hidden things"):
        assert_honest("quickdraw", honest(factory("quickdraw", "random")), SEEDS, every=1)


@pytest.mark.parametrize("game", sorted(games()))
def test_a_redeal_changes_what_the_seat_cannot_see_and_only_that(game):
    """The redeal is not a copy: over a game's decision points, other hands are dealt again at
    most of them (what the planted bot reads); the seat's view never changes."""
    state = new_game(game, SEATS.get(game, (2,))[-1], seed=5)
    bot = games()[game].bots["random"]
    players = [bot(i, i) for i in range(len(state.seats))]
    rng = random.Random(5)
    points = changed = 0
    while not state.is_over and points < 60:
        p = state.to_act
        other = REDEALS[game](state, p, rng)
        assert comparable(other.view(p)) == comparable(state.view(p))
        points += 1
        changed += _other_hands(game, other, p) != _other_hands(game, state, p)
        state.apply(players[p].choose(state.view(p), state.legal_actions()))
    assert changed >= points // 2


def _other_hands(game, state, p):
    if game == "drifter":
        return [[c.printed.code for c in state.hand[q]] for q in range(state.n) if q != p]
    return [list(hand) for q, hand in enumerate(state.hands) if q != p]
