"""Peer throughput: OpenSpiel's heads-up fixed-limit Texas hold'em, random play.

    python benchmarks/openspiel_flhe.py [hands]

The game is OpenSpiel 2.0.2's C++ `universal_poker` loaded with OpenSpiel's own heads-up limit
hold'em definition, `pyspiel.hulh_game_string("fcpa")`: blinds 5/10, bets 10/10/20/20,
maxRaises 3/4/4/4, the small blind first to act preflop and the big blind first after it (in a
limit game the "fcpa" abstraction is fold, check or call, bet or raise; OpenSpiel has no
`limit_holdem` preset). A hand is played from the deal to its end: at a chance node (one card
dealt) an outcome is drawn by its probability from `state.chance_outcomes()` with a seeded
`random.Random`, walking the cumulative sum as OpenSpiel's own `SampleAction` does; at a
decision node a legal action is chosen uniformly.

The loop is Python calling the compiled C++ state through pyspiel, one call per step, as the
figure in issue #27 was measured; Drifter's shootouts in benchmarks/engine.py are driven the
same way, from a Python loop calling its compiled engine and bots. Compare ratios taken in the
same run, never absolute times. Prints one line: hands/s and decisions/s;
`hands_per_second()` returns the figures for callers.
"""

from __future__ import annotations

import random
import sys
import time

import pyspiel

GAME = pyspiel.load_game(pyspiel.hulh_game_string("fcpa"))


def sample(outcomes: list[tuple[int, float]], r: float) -> int:
    """The outcome where `r` (uniform in [0, 1)) falls in the cumulative probabilities."""
    for action, probability in outcomes:
        r -= probability
        if r < 0.0:
            return action
    return outcomes[-1][0]  # rounding left r >= 0


def play_hand(rng: random.Random) -> int:
    """One hand with random play; returns the number of decisions."""
    state = GAME.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample(state.chance_outcomes(), rng.random()))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    assert sum(state.returns()) == 0.0  # chips conserved
    return decisions


def hands_per_second(hands: int = 5000, seed: int = 1) -> tuple[float, float]:
    """(hands/s, decisions/s) over `hands` hands, after 200 hands of warm-up."""
    rng = random.Random(seed)
    for _ in range(200):
        play_hand(rng)
    start = time.perf_counter()
    decisions = sum(play_hand(rng) for _ in range(hands))
    elapsed = time.perf_counter() - start
    return hands / elapsed, decisions / elapsed


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    hps, dps = hands_per_second(n)
    print(
        f"OpenSpiel {pyspiel.__version__} universal_poker heads-up limit hold'em, random play:"
        f" {hps:,.0f} hands/s {dps:,.0f} decisions/s"
    )
