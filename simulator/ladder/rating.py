"""Bradley–Terry ratings of a ladder's bots from their heads-up results, with bootstrap intervals.

The fit is choix's (`ilsr_pairwise_dense`: the maximum-likelihood Bradley–Terry strengths, by
iterative Luce spectral ranking), not an optimiser of ours. A tie counts half a win to each
side, and every pair that played gets one virtual drawn game, so a bot that won every game
has a finite rating (a weak prior that any real number of games outweighs). Strengths are
shown on the Elo scale (400 points: ten to one odds), centred on 1500.

The intervals resample each pair's games (as many as were played, multinomially from its
shares of wins, losses and ties, the prior's drawn game included) with a fixed seed, refit,
and take the 2.5th and 97.5th percentiles: the same result and seed give the same intervals.
The superiority matrix is, for each pair, the share of those refits in which the row's bot is
rated above the column's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

import numpy as np

BOOTSTRAP = 1000
PRIOR_GAMES = 1.0  # virtual drawn games per pair that played
SCALE = 400 / math.log(10)  # Elo points per unit of log-strength
CENTRE = 1500.0
MAX_ITER = 10_000


@dataclass(frozen=True)
class PairResult:
    """What entrants `a` and `b` did against each other: games won by each, and ties."""

    a: int
    b: int
    a_wins: int
    b_wins: int
    ties: int

    @property
    def games(self) -> int:
        return self.a_wins + self.b_wins + self.ties


class Rating(TypedDict):
    """An entrant's rating and its 95% bootstrap interval, on the Elo scale."""

    rating: float
    low: float
    high: float


@dataclass(frozen=True)
class Fit:
    """The ratings (by entrant), the superiority matrix (row above column, by entrant; None on
    the diagonal) and the win chance the model gives the row against the column."""

    ratings: list[Rating]
    superiority: list[list[float | None]]
    win_chance: list[list[float | None]]


def _wins_matrix(n: int, pairs: Sequence[tuple[Any, ...]]) -> np.ndarray:
    """`m[i, j]`: the games i won against j, a tie half to each, plus the prior."""
    m = np.zeros((n, n))
    for a, b, a_wins, b_wins, ties in pairs:
        m[a, b] += a_wins + ties / 2 + PRIOR_GAMES / 2
        m[b, a] += b_wins + ties / 2 + PRIOR_GAMES / 2
    return m


def _strengths(m: np.ndarray) -> np.ndarray:
    """Bradley–Terry log-strengths, centred on their mean."""
    # choix brings scipy.stats (0.65 s): imported when a ladder is rated, not by every worker
    # and web process as it starts (the runs' followers import this module)
    import choix

    params = choix.ilsr_pairwise_dense(m, max_iter=MAX_ITER)
    return np.asarray(params) - np.mean(params)


def fit(n: int, results: list[PairResult], *, seed: int, bootstrap: int = BOOTSTRAP) -> Fit:
    """Rate `n` entrants from their pairs' results; ValueError if some entrant played nobody."""
    played = {r.a for r in results if r.games} | {r.b for r in results if r.games}
    if n < 2 or played != set(range(n)):
        raise ValueError("every entrant must have played a game")
    pairs = [(r.a, r.b, r.a_wins, r.b_wins, r.ties) for r in results if r.games]
    point = _strengths(_wins_matrix(n, pairs))
    rng = np.random.default_rng(seed)
    # Drawn from the pair's shares with the prior's drawn game in them, so that a clean sweep
    # is not resampled as a certainty (a zero-width interval).
    draws = [
        rng.multinomial(
            a_w + b_w + t, np.array([a_w, b_w, t + PRIOR_GAMES]) / total, size=bootstrap
        )
        for a, b, a_w, b_w, t in pairs
        for total in [a_w + b_w + t + PRIOR_GAMES]
    ]
    samples = np.empty((bootstrap, n))
    for k in range(bootstrap):
        resampled = [(a, b, *draw[k]) for (a, b, *_), draw in zip(pairs, draws, strict=True)]
        samples[k] = _strengths(_wins_matrix(n, resampled))
    low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    ratings: list[Rating] = [
        {
            "rating": round(CENTRE + SCALE * float(point[i]), 1),
            "low": round(CENTRE + SCALE * float(low[i]), 1),
            "high": round(CENTRE + SCALE * float(high[i]), 1),
        }
        for i in range(n)
    ]
    above = samples[:, :, None] > samples[:, None, :]
    level = samples[:, :, None] == samples[:, None, :]
    share = above.mean(axis=0) + level.mean(axis=0) / 2
    superiority = [[None if i == j else round(float(share[i, j]), 3) for j in range(n)]
                   for i in range(n)]  # fmt: skip
    win_chance = [
        [None if i == j else round(1 / (1 + math.exp(point[j] - point[i])), 3) for j in range(n)]
        for i in range(n)
    ]
    return Fit(ratings=ratings, superiority=superiority, win_chance=win_chance)
