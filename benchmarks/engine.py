"""Drifter's rules engine against PokerKit, measured in the same run on one core.

    python benchmarks/engine.py [--quick] [--strength GAMES]

Prints heads-up shootouts/s (whole shootouts, challenge to showdown, from saved positions) and
full games/s with random-legal and heuristic bots, PokerKit's heads-up fixed-limit hold'em
hands/s, and the ratios. Only ratios travel between machines. `--strength N` also plays N
heads-up games per pairing and prints bot win rates (heuristic vs random, search vs
heuristic), seats alternating.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT.parent / "shared" / "peers"))

from simulator.engine.drifter import new_game, starter_seat  # noqa: E402
from simulator.engine.drifter.actions import Action  # noqa: E402
from simulator.engine.drifter.bots import HeuristicBot, RandomBot, SearchBot  # noqa: E402
from simulator.engine.drifter.cards import load_catalogue  # noqa: E402

SEATS = [starter_seat("A", "HSD-S1"), starter_seat("B", "HSD-S2")]


def play_game(seed: int, kinds: tuple[type, type]):
    state = new_game(SEATS, seed=seed, record=False)
    bots = [kinds[0](seed * 2), kinds[1](seed * 2 + 1)]
    while not state.over:
        p = state.actor
        state.apply(bots[p].choose(state.view(p), state.legal_actions()))
    return state


def games_per_second(kind: type, games: int) -> tuple[float, float, int]:
    """Full heads-up games per second, shootouts per second inside them, cap hits."""
    play_game(10_000, (kind, kind))  # warm up
    start = time.perf_counter()
    shootouts = caps = 0
    for seed in range(games):
        state = play_game(seed, (kind, kind))
        shootouts += state.shootouts
        caps += state.cap_hit
    elapsed = time.perf_counter() - start
    return games / elapsed, shootouts / elapsed, caps


def saved_challenges(count: int, kind: type) -> list:
    """Positions just before an accepted challenge, with the challenge action."""
    out = []
    seed = 0
    while len(out) < count:
        state = new_game(SEATS, seed=50_000 + seed, record=False)
        bots = [kind(seed), kind(seed + 1)]
        seed += 1
        while not state.over and len(out) < count:
            p = state.actor
            action = bots[p].choose(state.view(p), state.legal_actions())
            if action.kind == "challenge":
                out.append((state.clone(), action, seed))
            state.apply(action)
    return out


def shootouts_per_second(kind: type, count: int) -> tuple[float, float]:
    """Challenges resolved per second (ante to showdown and reinvest) from saved positions,
    and contested shootouts (somebody accepted) per second of that same time."""
    positions = [
        (base.clone(), challenge, [kind(seed), kind(seed + 7)])
        for base, challenge, seed in saved_challenges(count, kind)
    ]
    contested = 0
    start = time.perf_counter()
    for state, challenge, bots in positions:
        state.apply(challenge)
        counted = False
        while state.shooting and not state.over:
            if not counted and state.phase not in ("accept", "shotgun"):
                counted = True
                contested += len(state.street) > 1
            p = state.actor
            state.apply(bots[p].choose(state.view(p), state.legal_actions()))
    elapsed = time.perf_counter() - start
    return count / elapsed, contested / elapsed


def win_rate(first: type, second: type, games: int, **kw) -> float:
    """Share of heads-up games `first` wins (seats alternate; shared wins count half)."""
    score = 0.0
    for seed in range(games):
        flip = seed % 2
        kinds = (second, first) if flip else (first, second)
        state = new_game(SEATS if not flip else SEATS[::-1], seed=seed, record=False)
        bots = [
            k(seed * 2 + i, **kw) if k is SearchBot else k(seed * 2 + i)
            for i, k in enumerate(kinds)
        ]
        while not state.over:
            p = state.actor
            state.apply(bots[p].choose(state.view(p), state.legal_actions()))
        me = flip
        if me in state.winners:
            score += 1.0 / len(state.winners)
    return score / games


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller samples")
    parser.add_argument("--strength", type=int, default=0, help="games per bot pairing")
    parser.add_argument("--search-rollouts", type=int, default=24)
    args = parser.parse_args()
    scale = 0.2 if args.quick else 1.0
    load_catalogue()
    assert isinstance(Action("end_turn"), Action)

    from pokerkit_flhe import hands_per_second

    poker_hps, _ = hands_per_second(int(5000 * scale))
    print(f"PokerKit heads-up fixed-limit hold'em: {poker_hps:,.0f} hands/s")
    for name, kind in (("random-legal", RandomBot), ("heuristic", HeuristicBot)):
        sps, contested = shootouts_per_second(kind, int(2000 * scale))
        gps, in_game_sps, caps = games_per_second(kind, int(300 * scale))
        print(
            f"Drifter {name:12s}: {sps:,.0f} challenges/s resolved from saved positions "
            f"(of which contested shootouts {contested:,.0f}/s); {gps:,.1f} full games/s "
            f"({in_game_sps:,.0f} challenges/s inside games, {caps} turn-cap hits)"
        )
        print(
            f"  ratio challenges/s : PokerKit hands/s = {sps / poker_hps:.2f}"
            f"  (contested only: {contested / poker_hps:.2f})"
        )
    if args.strength:
        n = args.strength
        print(f"heuristic beats random in {win_rate(HeuristicBot, RandomBot, n):.1%} of {n} games")
        m = max(n // 10, 20)
        rate = win_rate(SearchBot, HeuristicBot, m, rollouts=args.search_rollouts)
        print(f"search beats heuristic in {rate:.1%} of {m} games")


if __name__ == "__main__":
    main()
