"""The games an instrumented engine build plays so that the C compiler can lay out the final
build by how the engine really runs (profile-guided optimisation: compiled.py's `build`).

    python -m simulator.engine.training   # what compiled.build runs, in a process of its own

A fixed mix of what the service plays, all from fixed seeds: heads-up games of the starter
decks with the heuristic and the random bot (the simulations' bread and butter), random legal
decks, tables of three to five, every play variant, games kept with their record and
narration and replayed, the sharp bot and a few search-bot decisions. The mix only steers
where the compiler spends its effort (which branches are laid out straight, which calls are
inlined): a game plays the same with or without it, and the compiled build is checked against
the pure source by the same tests either way. It runs the build it finds, so run it only
through compiled.build.
"""

from __future__ import annotations

import random
import sys
import time

from simulator.engine.drifter import new_game, play, replay, starter_seat
from simulator.engine.drifter.bots import FACTORIES
from simulator.engine.drifter.cards import Catalogue, load_catalogue
from simulator.engine.drifter.formats import copy_limit
from simulator.engine.drifter.pieces import Seat
from simulator.engine.drifter.variants import PLAY_VARIANTS, Rules

STARTERS = ("HSD-S1", "HSD-S2")
STANDARD: frozenset[str] = frozenset()  # the standard format: no deck variant


def random_seat(name: str, rng: random.Random, catalogue: Catalogue, bot: str) -> Seat:
    """A random deck within the standard copy limits, with $50 of kicker chips or less."""
    names: dict[str, int] = {}
    deck: list[str] = []
    while len(deck) < 54:
        c = rng.choice(catalogue.cards)
        if names.get(c.name, 0) < (copy_limit(c.rarity, STANDARD) or 54):
            names[c.name] = names.get(c.name, 0) + 1
            deck.append(c.code)
    chips, left = [], 50
    for k in rng.sample(catalogue.chips, len(catalogue.chips)):
        if k.value <= left:
            chips.append(k.code)
            left -= k.value
    return Seat(name, tuple(deck), tuple(chips), bot)


def _bots(seats: list[Seat], seed: int) -> list:
    return [FACTORIES[s.bot](i, seed * 8 + i) for i, s in enumerate(seats)]


def train(scale: float = 1.0) -> int:
    """Play the mix; returns the number of games played. `scale` shrinks or grows it."""
    cat = load_catalogue()
    rng = random.Random(2005)
    starters = [starter_seat(code, code, catalogue=cat) for code in STARTERS]
    games = 0

    def n(count: int) -> int:
        return max(1, round(count * scale))

    for bot, count in (("heuristic", 240), ("random", 400)):
        seats = [Seat(s.name, s.deck, s.chips, bot) for s in starters]
        for seed in range(n(count)):
            play(new_game(seats, seed=seed, record=False, catalogue=cat), _bots(seats, seed))
            games += 1
    for seed in range(n(120)):
        size = 2 + seed % 4
        bot = ("heuristic", "random", "sharp")[seed % 3]
        seats = [random_seat(f"P{i}", rng, cat, bot) for i in range(size)]
        variants = frozenset([PLAY_VARIANTS[seed % len(PLAY_VARIANTS)]] if seed % 2 else [])
        state = new_game(
            seats, rules=Rules(variants=variants), seed=seed, record=seed % 4 == 0, catalogue=cat
        )
        play(state, _bots(seats, seed))
        games += 1
        if state.events is not None:
            replay(state.record(), catalogue=cat, narrate=True)
    # the search bot: a few decisions of one game (each plays rollouts with the heuristic bot)
    seats = [Seat(s.name, s.deck, s.chips, "search") for s in starters]
    state = new_game(seats, seed=1, record=False, catalogue=cat)
    bots = _bots(seats, 1)
    for _ in range(n(12)):
        if state.is_over:
            break
        p = state.actor
        state.apply(bots[p].choose(state.view(p), state.legal_actions()))
    return games


def main() -> None:
    start = time.perf_counter()
    scale = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    games = train(scale)
    print(f"training: {games} games in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
