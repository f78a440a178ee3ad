"""Where common random numbers help (issue #28: "common random numbers across a row where they
help"): how strongly the results of two decks against the same opponent move together when
their games share seeds.

    python benchmarks/crn.py [--games 4000] [--triples 4]

For a triple of decks (a, b, j), each game index k is played as a against j and as b against
j with the same seed (the same shuffles for j, the same bots' seeds, j in the same seat) and,
as the peer, b against j with an unrelated seed. Printed: the correlation of the two results
(1 a win, 0.5 a tie, 0 a loss) with its 95% interval (Fisher's z), the peer's correlation
(about 0), and what it is worth: comparing a's and b's win rates against j with n paired games
has the variance of 1 / (1 - rho) times as many independent games.

Two kinds of pairs: two unrelated random legal decks (what a metagame field compares: two
contenders' rows), and a deck against the same deck with one card changed (what the deck
doctor compares: a swap's what-if run). Heuristic bots, High Stakes Drifter, the compiled
engine where built. Not a test; figures belong in docs/metagame.md.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.engine import random_deck  # noqa: E402
from simulator.engine.drifter import Seat, new_game  # noqa: E402
from simulator.engine.drifter.bots import HeuristicBot  # noqa: E402
from simulator.engine.drifter.cards import load_catalogue  # noqa: E402


def play(mine: Seat, theirs: Seat, seed: int, catalogue) -> float:
    """Mine against theirs, seats alternating by seed: 1 a win for mine, 0.5 shared, 0 lost."""
    seats = [mine, theirs] if seed % 2 == 0 else [theirs, mine]
    state = new_game(seats, seed=seed, record=False, catalogue=catalogue)
    bots = [HeuristicBot(seed * 16), HeuristicBot(seed * 16 + 1)]
    while not state.is_over:
        p = state.actor
        state.apply(bots[p].choose(state.view(p), state.legal_actions()))
    me = seed % 2
    winners = list(state.winners)
    return 1.0 if winners == [me] else (0.5 if me in winners else 0.0)


def correlation(x: list[float], y: list[float]) -> float:
    return statistics.correlation(x, y)


def interval(rho: float, n: int) -> tuple[float, float]:
    z, half = math.atanh(rho), 1.96 / math.sqrt(n - 3)
    return math.tanh(z - half), math.tanh(z + half)


def one_card_changed(seat: Seat, rng: random.Random) -> Seat:
    """The deck with one card replaced by a copy of another of its cards (still 54 cards)."""
    deck = list(seat.deck)
    i, j = rng.sample(range(len(deck)), 2)
    deck[i] = deck[j]
    return Seat(seat.name + "'", tuple(deck), seat.chips)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--triples", type=int, default=4)
    args = parser.parse_args()
    catalogue = load_catalogue()
    rng = random.Random(7)
    n = args.games
    kinds = ("two different decks (a field's rows)", "a deck and its one-card change (a what-if)")
    for kind in kinds:
        for t in range(args.triples):
            a, other, j = (Seat(name, *random_deck(rng, catalogue)) for name in "ABJ")
            b = other if kind.startswith("two") else one_card_changed(a, rng)
            x = [play(a, j, s, catalogue) for s in range(n)]
            same = [play(b, j, s, catalogue) for s in range(n)]
            unrelated = [play(b, j, s + 10**7, catalogue) for s in range(n)]
            rho, peer = correlation(x, same), correlation(x, unrelated)
            low, high = interval(rho, n)
            print(
                f"{kind}, triple {t}: same seeds rho {rho:+.3f} ({low:+.3f} to {high:+.3f}), "
                f"unrelated seeds {peer:+.3f}; worth {1 / (1 - rho):.2f}x the games for a's "
                f"rate minus b's (win rates {statistics.fmean(x):.3f}, "
                f"{statistics.fmean(same):.3f})",
                flush=True,
            )


if __name__ == "__main__":
    main()
