"""Speed and strength of the four Western duel games' engines and bots, on one core.

    .venv/bin/python benchmarks/games.py [--games 2000] [--speed-games 300] [--only tabletown]

Per game it prints games/s with two random bots and with two heuristic bots (record=False,
as simulation batches run), and the heuristic bot's win rate against the random bot over
`--games` games with seats alternating, with a 95% Wilson interval. Machines here are noisy, so
the ratio of heuristic to random speed (same run) is the figure that travels. Tabletown is measured
two-handed and four-handed (one heuristic against three random: 25% is par).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from simulator.engine.core import get_game

GAMES = ("gunfighter", "duel", "quickdraw", "tabletown")


def play(name: str, bots: list[str], seed: int) -> dict:
    """One game without a record; its final."""
    spec = get_game(name)
    state = spec.new_game([{"name": f"seat {i}"} for i in range(len(bots))], None, seed, False)
    players = [spec.bots[bot](seat, seed * 31 + seat) for seat, bot in enumerate(bots)]
    while not state.is_over:
        seat = state.to_act
        state.apply(players[seat].choose(state.view(seat), state.legal_actions()))
    return state.final()


def winners(final: dict) -> list[int]:
    if "winners" in final:
        return final["winners"] if len(final["winners"]) == 1 else []
    return [] if final["winner"] is None else [final["winner"]]


def speed(name: str, bots: list[str], games: int) -> float:
    start = time.perf_counter()
    for seed in range(games):
        play(name, bots, seed)
    return games / (time.perf_counter() - start)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def strength(name: str, players: int, games: int) -> tuple[int, int, int]:
    """(heuristic wins, draws or capped games, games) with the heuristic seat rotating."""
    wins = draws = 0
    for seed in range(games):
        seat = seed % players
        bots = ["random"] * players
        bots[seat] = "heuristic"
        final = play(name, bots, 100_000 + seed)
        won = winners(final)
        wins += won == [seat]
        draws += not won or bool(final.get("capped"))
    return wins, draws, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games for the win rate")
    parser.add_argument("--speed-games", type=int, default=300, help="games timed per line")
    parser.add_argument("--only", choices=GAMES)
    args = parser.parse_args()
    print(f"{'game':<14}{'random g/s':>12}{'heuristic g/s':>15}{'ratio':>7}   heuristic vs random")
    for name in [args.only] if args.only else GAMES:
        tables = [2, 4] if name == "tabletown" else [2]
        for players in tables:
            label = name if players == 2 else f"{name} x{players}"
            fast = speed(name, ["random"] * players, args.speed_games)
            smart = speed(name, ["heuristic"] * players, args.speed_games)
            wins, draws, n = strength(name, players, args.games)
            low, high = wilson(wins, n)
            print(
                f"{label:<14}{fast:>12.0f}{smart:>15.0f}{smart / fast:>7.2f}   {wins / n:6.1%} "
                f"[{low:.1%}, {high:.1%}] of {n} (par {1 / players:.0%}, no winner {draws})",
                flush=True,
            )


if __name__ == "__main__":
    main()
