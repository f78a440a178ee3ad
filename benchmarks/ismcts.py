"""The ISMCTS bot (issue #25 §2) against each game's other bots: win rates and ms per decision.

    .venv/bin/python benchmarks/ismcts.py [--games 200] [--only drifter] [--against search]
                                          [--iterations 40] [--jobs 1]

High Stakes Drifter is played heads-up on the starter decks (HSD-S1 in seat 0, HSD-S2 in seat 1)
with the ISMCTS bot's seat alternating, against the search bot (24 rollouts) and against the
heuristic; the four small games against their heuristic. Each line gives the ISMCTS bot's wins
of the games played (a draw or a shared win is not a win) with a 95% Wilson interval, and the
median and 90th percentile of its milliseconds per decision over the decisions where it had a
choice (one legal action is answered at once and not counted). Games are seeded by their index,
so a line is reproducible; the milliseconds are not (two shared cores).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.games import wilson
from simulator.engine.core import get_game
from simulator.engine.core.ismcts import ISMCTSBot

SMALL = ("gunfighter", "duel", "quickdraw", "tabletown")


def _drifter_game(seed: int):
    from simulator.engine.drifter import Rules, new_game, starter_seat
    from simulator.engine.drifter.cards import load_catalogue

    cat = load_catalogue()
    seats = [
        starter_seat(f"P{i}", deck, catalogue=cat) for i, deck in enumerate(("HSD-S1", "HSD-S2"))
    ]
    return new_game(seats, rules=Rules(), seed=seed, record=False, catalogue=cat)


TUNING: dict = {}  # --exploration, --bias, --widening, --horizon: the bot's settings to try


def _ismcts(game: str, seat: int, seed: int, iterations: int) -> ISMCTSBot:
    from importlib import import_module

    bot = import_module(f"simulator.engine.{game}.bots").ismcts(seat, seed, iterations)
    for name in ("exploration", "bias", "widening"):
        if TUNING.get(name) is not None:
            setattr(bot, name, TUNING[name])
    if TUNING.get("horizon") is not None:
        bot.game = dataclasses.replace(bot.game, horizon=TUNING["horizon"])
    if TUNING.get("policy") is not None:  # another of the game's bots guides the tree
        policy = import_module(f"simulator.engine.{game}.bots").FACTORIES[TUNING["policy"]]
        bot.game = dataclasses.replace(bot.game, policy=policy)
    return bot


def play(args: tuple[str, str, int, int, dict]) -> tuple[float, list[float]]:
    """One game: (the ISMCTS bot's win, 1 or 0, and its ms per decision with a choice)."""
    game, against, iterations, index, tuning = args
    TUNING.update(tuning)
    spec = get_game(game)
    mine = index % 2
    seed = 1000 + index
    if game == "drifter":
        state = _drifter_game(seed)
    else:
        state = spec.new_game([{"name": f"P{i}"} for i in range(2)], None, seed, False)
    bots = [
        _ismcts(game, q, seed * 31 + q, iterations)
        if q == mine
        else spec.bots[against](q, seed * 31 + q)
        for q in range(2)
    ]
    times: list[float] = []
    while not state.is_over:
        p = state.to_act
        legal = state.legal_actions()
        start = time.perf_counter()
        action = bots[p].choose(state.view(p), legal)
        if p == mine and len(legal) > 1:
            times.append((time.perf_counter() - start) * 1000)
        state.apply(action)
    final = state.final()
    if "winners" in final:
        won = final["winners"] == [mine]
    else:
        won = final["winner"] == mine
    return float(won), times


def match(game: str, against: str, iterations: int, games: int, jobs: int) -> None:
    jobs_args = [(game, against, iterations, i, dict(TUNING)) for i in range(games)]
    start = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(play, jobs_args, chunksize=2))
    else:
        results = [play(a) for a in jobs_args]
    wins = int(sum(r[0] for r in results))
    times = sorted(t for r in results for t in r[1])
    low, high = wilson(wins, games)
    p90 = times[int(0.9 * (len(times) - 1))] if times else 0.0
    print(
        f"{game:10} ismcts({iterations}{_tuning()}) vs {against:9}: "
        f"{wins}/{games} = {wins / games:.1%} "
        f"[{low:.1%}, {high:.1%}]  ms/decision median {statistics.median(times or [0]):.1f}, "
        f"p90 {p90:.1f} over {len(times)} decisions  ({time.perf_counter() - start:.0f} s)",
        flush=True,
    )


def _tuning() -> str:
    return "".join(f", {k} {v}" for k, v in TUNING.items() if v is not None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", choices=("drifter", *SMALL))
    parser.add_argument("--against", choices=("search", "heuristic", "random"))
    parser.add_argument("--iterations", type=int, help="default: each game's own default")
    parser.add_argument("--jobs", type=int, default=1)
    for name in ("exploration", "bias", "widening"):
        parser.add_argument(f"--{name}", type=float, help="the bot's own unless given")
    parser.add_argument(
        "--horizon", type=int, help="rollout decisions; the game's own unless given"
    )
    parser.add_argument("--policy", help="the bot that guides the tree and plays the rollouts")
    args = parser.parse_args()
    keys = ("exploration", "bias", "widening", "horizon", "policy")
    TUNING.update({k: getattr(args, k) for k in keys})
    for game in [args.only] if args.only else ["drifter", *SMALL]:
        opponents = (
            [args.against]
            if args.against
            else (["search", "heuristic"] if game == "drifter" else ["heuristic"])
        )
        iterations = args.iterations or _default(game)
        for against in opponents:
            match(game, against, iterations, args.games, args.jobs)


def _default(game: str) -> int:
    if game == "drifter":
        from simulator.engine.drifter.bots import ISMCTS_ITERATIONS

        return int(ISMCTS_ITERATIONS)
    from importlib import import_module

    return int(import_module(f"simulator.engine.{game}.bots").ISMCTS_ITERATIONS)


if __name__ == "__main__":
    main()
