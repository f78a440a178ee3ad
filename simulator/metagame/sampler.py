"""Where the next games go: rounds of games spent where they can change the answer.

A deck tester asks one question of a field, which deck is best against it (`target="best"`) or
which decks make up the mix nobody can exploit, the equilibrium's support (`"support"`), and
wants it answered at a confidence with as few games as possible. Each round looks at the
posterior (analysis.py: each pair's win chance Beta(κ/2 + wins, κ/2 + losses), the spread κ
learnt from the whole field) and:

- stops when the answer is known at the confidence: for "best", one deck's chance of being
  best is at least `confidence`; for "support", every deck is in the support in at least
  `confidence` of the posterior draws or in at most 1 - `confidence` of them;
- otherwise gives each pair an *influence*: the part of the answer's remaining uncertainty that
  the pair's own uncertainty explains (below), and spreads the round's games to shrink the
  total most. A pair's posterior variance after m more games is about its variance now times
  n / (n + m), with n its effective games, mean · (1 - mean) / variance of its posterior (a
  Beta's α + β + 1: the games plus what the field's spread says, `Assessment.size`), and so is
  its influence; minimising
  Σ influence · n / (n + m) over the round's games gives n + m ∝ √(influence · n) (water
  filling: pairs already known well enough get none). A twentieth of the round is spread
  evenly over every pair with any influence, so that none is starved by a poor first estimate.

Influence for "best": in each posterior draw the race for best is between the draw's two decks
with the highest expected win rates; r_ab is the share of the draws in which it is between
decks a and b. A pair (i, j) moves deck i's expected win rate by s_j per unit of p_ij and deck
j's by -s_i, so its share of the variance of the difference E_a - E_b is
(∂(E_a - E_b)/∂p_ij)² · Var(p_ij) / Var(E_a - E_b); its influence is that share summed over
the races, each weighted by r_ab. The leading decks' pairs weigh most, but every deck that
comes second in some draws (behind a clear leader, each of the trailing decks) keeps the pairs
that can show it cannot catch up. The contenders named in the reasons are the fewest leading
decks (by chance of being best) that hold all but half the allowed doubt, at least two.

Influence for "support": for each deck still undecided, the squared correlation, across the
posterior draws, between the pair's win chance and the deck being in that draw's support,
times the deck's in/out variance q(1 - q) (the part of "is it in?" the pair explains, to first
order), less its sampling noise 1/draws; summed over the undecided decks.

The stopping rule checks a posterior probability after every round; that is not a frequentist
guarantee of a 5% error at confidence 0.95 (checking repeatedly and a prior that does not
match the field both move it). benchmarks/metagame.py measures the error on fields with a
known truth; docs/metagame.md has the figures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from simulator.metagame.analysis import (
    SUPPORT,
    Table,
    check_confidence,
    check_counts,
    check_shares,
    equilibria,
    expected_win_rates,
    nash_equilibrium,
    p_best,
    posterior,
    posterior_moments,
)

#: The questions: the best deck against the field, or the decks of the equilibrium mix. Taken
#: as plain strings (they come from a request) and checked at run time.
TARGETS = ("best", "support")
Target = Literal["best", "support"]
STRATEGIES = ("adaptive", "even", "fixed")
#: The share of a round spread evenly over every pair with any influence.
FLOOR = 0.05
#: A pair's influence below this share of the largest counts as none.
RELEVANT = 1e-3
DRAWS = 1000
SUPPORT_DRAWS = 400
MIRROR = "a deck against itself: even by definition, never played"


@dataclass(frozen=True)
class Assessment:
    """Where a question stands: whether to stop, the answer so far, how sure (for "best" the
    leader's chance of being best, for "support" the least decided deck's in-or-out share),
    per deck its chance (of being best / of being in the support), and each pair's influence
    (upper triangle) with what the reasons need."""

    stop: bool
    answer: int | list[int]
    certainty: float
    chances: np.ndarray
    influence: np.ndarray
    contenders: tuple[int, ...]
    size: np.ndarray


@dataclass(frozen=True)
class RoundPlan:
    """The next round: `allocation[i][j]` games of deck i against deck j (symmetric, zero on
    the diagonal; the pairs i < j sum to the round's games, or to 0 when `stop`), and per pair
    a reason in a deck tester's words."""

    target: str
    stop: bool
    answer: int | list[int]
    certainty: float
    chances: list[float]
    allocation: list[list[int]]
    reasons: list[list[str]]

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "stop": self.stop,
            "answer": self.answer,
            "certainty": self.certainty,
            "chances": self.chances,
            "allocation": self.allocation,
            "reasons": self.reasons,
        }


def assess(
    wins: Table,
    games: Table,
    shares: Sequence[float] | np.ndarray,
    *,
    target: str,
    confidence: float,
    seed: int | np.random.Generator,
    draws: int = DRAWS,
    support_draws: int = SUPPORT_DRAWS,
) -> Assessment:
    """Where the question stands after the games so far (module docstring: the stopping rule
    and the influence of each pair)."""
    w, g = check_counts(wins, games)
    s = check_shares(shares, len(w))
    confidence = check_confidence(confidence)
    rng = np.random.default_rng(seed)
    moments = posterior_moments(w, g)
    if target == "best":
        return _assess_best(s, confidence, posterior(w, g, draws, rng), moments)
    if target == "support":
        return _assess_support(confidence, posterior(w, g, support_draws, rng), moments)
    raise ValueError(f"target must be 'best' or 'support', got {target!r}")


def _size(mean: np.ndarray, var: np.ndarray) -> np.ndarray:
    """Each pair's effective games, mean · (1 - mean) / variance of its posterior (for a
    Beta(α, β), α + β + 1): its games plus what the field's spread teaches about it. 1 on the
    diagonal, never used."""
    return np.divide(mean * (1 - mean), var, out=np.ones_like(var), where=var > 0)


def _assess_best(
    s: np.ndarray, confidence: float, draws: np.ndarray, moments: tuple[np.ndarray, np.ndarray]
) -> Assessment:
    """The "best" question: stop when a deck's chance of being best reaches `confidence`."""
    expected = expected_win_rates(draws, s)
    chances = p_best(expected)
    order = np.argsort(-chances, kind="stable")
    held = np.cumsum(chances[order])
    count = max(2, int(np.searchsorted(held, 1 - (1 - confidence) / 2)) + 1)
    return Assessment(
        stop=bool(chances.max() >= confidence),
        answer=int(order[0]),
        certainty=float(chances.max()),
        chances=chances,
        influence=_race_influence(_races(expected), s, moments[1]),
        contenders=tuple(int(d) for d in order[: min(count, len(s))]),
        size=_size(*moments),
    )


def _races(expected: np.ndarray) -> np.ndarray:
    """Per pair of decks a < b (upper triangle), the share of the draws (rows of `expected`,
    shape (D, N)) in which they are the two decks with the highest expected win rates: how
    often the race for best is between those two."""
    n = expected.shape[1]
    out = np.zeros((n, n))
    if n < 2:
        return out
    top = np.argsort(-expected, axis=1, kind="stable")[:, :2]
    np.add.at(out, (top.min(axis=1), top.max(axis=1)), 1.0 / len(expected))
    return out


def _race_influence(race: np.ndarray, s: np.ndarray, var: np.ndarray) -> np.ndarray:
    """Each pair's influence on "which deck is best": over the races (a, b), the race's share
    of the draws times the pair's share of the variance of E_a - E_b (module docstring)."""
    n = len(s)
    influence = np.zeros((n, n))
    for a, b in zip(*np.nonzero(race), strict=True):
        # ∂(E_a - E_b)/∂p_ij for every pair i < j (the upper triangle is what counts).
        slope = np.zeros((n, n))
        slope[a, :] += s
        slope[:, a] -= s
        slope[b, :] -= s
        slope[:, b] += s
        part = np.triu(slope**2 * var, 1)
        if part.sum() > 0:
            influence += race[a, b] * part / part.sum()
    return influence


def _assess_support(
    confidence: float, draws: np.ndarray, moments: tuple[np.ndarray, np.ndarray]
) -> Assessment:
    """The "support" question: stop when every deck is in, or out of, the support of at least
    `confidence` of the draws' equilibria. The shares play no part: the mix nobody can exploit
    does not depend on who plays what. The answer is the decks in half the draws' supports or
    more (the point estimate's support if no deck is)."""
    n = draws.shape[1]
    point = nash_equilibrium(moments[0])
    inside = equilibria(draws, point.support) > SUPPORT
    chances = inside.mean(axis=0)
    decided = (chances >= confidence) | (chances <= 1 - confidence)
    upper_i, upper_j = np.triu_indices(n, 1)
    influence = np.zeros((n, n))
    undecided = np.flatnonzero(~decided)
    if len(undecided) and len(upper_i):
        p = draws[:, upper_i, upper_j]
        z_p = (p - p.mean(axis=0)) / p.std(axis=0)
        q = inside[:, undecided].astype(float)
        z_q = (q - q.mean(axis=0)) / q.std(axis=0)
        corr2 = np.maximum((z_p.T @ z_q / len(draws)) ** 2 - 1 / len(draws), 0.0)
        influence[upper_i, upper_j] = corr2 @ (chances[undecided] * (1 - chances[undecided]))
    return Assessment(
        stop=bool(decided.all()),
        answer=[int(d) for d in np.flatnonzero(chances >= 0.5)] or list(point.support),
        certainty=float(np.maximum(chances, 1 - chances).min()),
        chances=chances,
        influence=influence,
        contenders=tuple(int(d) for d in undecided),
        size=_size(*moments),
    )


def plan_round(
    wins: Table,
    games: Table,
    shares: Sequence[float] | np.ndarray,
    *,
    target: str,
    confidence: float = 0.95,
    round_games: int,
    seed: int | np.random.Generator,
    draws: int = DRAWS,
    support_draws: int = SUPPORT_DRAWS,
) -> RoundPlan:
    """The next round of `round_games` games for the question `target` at `confidence`, or
    stop (module docstring: the rule, and how the games are spread). Deterministic given the
    seed; ValueError on bad input."""
    if round_games < 1:
        raise ValueError("round_games must be at least 1")
    w, g = check_counts(wins, games)
    state = assess(
        w,
        g,
        shares,
        target=target,
        confidence=confidence,
        seed=seed,
        draws=draws,
        support_draws=support_draws,
    )
    n = len(w)
    floor = filled = np.zeros((n, n), dtype=int)
    if not state.stop:
        floor, filled = _spread(state.influence, g, round_games, state.size)
    allocation = floor + filled
    return RoundPlan(
        target=target,
        stop=state.stop,
        answer=state.answer,
        certainty=state.certainty,
        chances=[float(c) for c in state.chances],
        allocation=allocation.tolist(),
        reasons=_reasons(state, target, floor, filled, check_shares(shares, n)),
    )


def spread(
    influence: np.ndarray, games: np.ndarray, total: int, size: np.ndarray | None = None
) -> np.ndarray:
    """`total` games over the pairs (symmetric int matrix) by their influence (upper
    triangle): a twentieth evenly over every pair with any, the rest water-filled so that
    n + m ∝ √(influence · n), n a pair's effective games (`size`, Assessment.size; games + 3,
    the uniform prior's, unless given). No influence anywhere: evenly, as even_round."""
    floor, filled = _spread(influence, games, total, size)
    return floor + filled


def _spread(
    influence: np.ndarray, games: np.ndarray, total: int, size: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """spread's two parts: the floor's games and the water-filled games."""
    from scipy.optimize import brentq  # imported where used: see analysis.cell_table

    n = len(games)
    upper_i, upper_j = np.triu_indices(n, 1)
    value = influence[upper_i, upper_j]
    if not len(value) or value.max() <= 0:
        return np.zeros((n, n), dtype=int), np.asarray(even_round(games, total))
    played = games[upper_i, upper_j]
    size = played + 3.0 if size is None else np.asarray(size, dtype=float)[upper_i, upper_j]
    relevant = value > RELEVANT * value.max()
    floor = _share_out(int(FLOOR * total), relevant.astype(float), played)
    rate = np.where(relevant, np.sqrt(value * size), 0.0)
    rest = total - int(floor.sum())
    scale = brentq(
        lambda c: np.maximum(c * rate - size, 0.0).sum() - rest,
        0.0,
        (rest + size[relevant].sum()) / rate.sum() + 1.0,
        xtol=1e-12,
    )
    parts = []
    for cells in (floor, _whole(np.maximum(scale * rate - size, 0.0), rest)):
        part = np.zeros((n, n), dtype=int)
        part[upper_i, upper_j] = cells
        parts.append(part + part.T)
    return parts[0], parts[1]


def _share_out(total: int, weight: np.ndarray, games: np.ndarray) -> np.ndarray:
    """`total` games in whole numbers evenly over the cells of positive `weight`, the odd
    games to the cells with the fewest games so far (then the first)."""
    cells = np.flatnonzero(weight > 0)
    out = np.zeros(len(weight), dtype=int)
    if total <= 0 or not len(cells):
        return out
    out[cells] = total // len(cells)
    fewest = cells[np.argsort(games[cells], kind="stable")]
    out[fewest[: total % len(cells)]] += 1
    return out


def _whole(amounts: np.ndarray, total: int) -> np.ndarray:
    """Amounts summing to `total` rounded to whole numbers that still do (largest remainders,
    ties to the first cell)."""
    base = np.floor(amounts).astype(int)
    short = total - int(base.sum())
    order = np.argsort(-(amounts - base), kind="stable")
    base[order[:short]] += 1
    return base


def even_round(games: Table, round_games: int) -> list[list[int]]:
    """The baseline: `round_games` games spread evenly over every pair (symmetric, zero on the
    diagonal, the pairs i < j summing to `round_games`), the odd games to the pairs with the
    fewest games so far, so that rounds of any size keep the pairs level."""
    g = np.asarray(games, dtype=float)
    n = len(g)
    upper_i, upper_j = np.triu_indices(n, 1)
    out = np.zeros((n, n), dtype=int)
    pairs = g[upper_i, upper_j]
    out[upper_i, upper_j] = _share_out(round_games, np.ones(len(pairs)), pairs)
    return (out + out.T).tolist()


def fixed_round(split: np.ndarray, games: np.ndarray, round_games: int) -> np.ndarray:
    """`round_games` games that bring each pair towards its share (`split`, symmetric) of all
    the games played after the round: to the pairs furthest below it, in proportion to how
    far, in whole numbers."""
    n = len(split)
    upper_i, upper_j = np.triu_indices(n, 1)
    share = split[upper_i, upper_j] / split[upper_i, upper_j].sum()
    played = games[upper_i, upper_j]
    short = np.maximum(share * (played.sum() + round_games) - played, 0.0)
    out = np.zeros((n, n), dtype=int)
    if short.sum() > 0:
        out[upper_i, upper_j] = _whole(short * round_games / short.sum(), round_games)
    return out + out.T


def _reasons(
    state: Assessment, target: str, floor: np.ndarray, filled: np.ndarray, shares: np.ndarray
) -> list[list[str]]:
    """Per pair, in a deck tester's words, why it gets games this round or none."""
    n = len(floor)
    relevant = state.influence > RELEVANT * max(float(state.influence.max()), 1e-300)
    reason = _reason_best if target == "best" else _reason_support
    out = [[MIRROR] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if state.stop:
                text = (
                    "the best deck is settled: no more games needed"
                    if target == "best"
                    else "the mix is settled: no more games needed"
                )
            elif filled[i, j] == 0 and floor[i, j] > 0:
                text = "a few games to check it: it matters little to the answer for now"
            elif filled[i, j] == 0 and relevant[i, j]:
                text = "already known well enough for this question"
            else:
                text = reason(state, i, j, bool(filled[i, j]), shares)
            out[i][j] = out[j][i] = text
    return out


def _reason_best(state: Assessment, i: int, j: int, played: bool, shares: np.ndarray) -> str:
    """Why pair (i, j) gets games, or none, for "which deck is best"."""
    inside = [d for d in (i, j) if d in state.contenders]
    if len(inside) == 2:
        if {i, j} == set(state.contenders[:2]):
            return "decides between the two leading decks"
        return "decides between two decks still in the running for best"
    if not inside:
        if played:
            return "two decks behind the leaders: it shows whether either could still catch up"
        return "nobody in contention plays this pair"
    other = j if inside[0] == i else i
    if shares[other] == 0:
        return "nobody in the field plays the other deck, so it cannot change which is best"
    if played:
        percent = round(100 * float(shares[other]))
        return f"a deck in the running for best against a deck {percent}% of the field plays"
    return "matters too little to which deck is best to spend games on"


def _reason_support(state: Assessment, i: int, j: int, played: bool, shares: np.ndarray) -> str:
    """Why pair (i, j) gets games, or none, for "which decks make the mix nobody can exploit"."""
    if not played:
        return "its result does not change which decks belong in the mix nobody can exploit"
    if min(state.chances[i], state.chances[j]) >= 0.5:
        return "two decks of the likely mix: their balance can tip whether a deck belongs in it"
    return "its result can tell whether a deck belongs in the mix nobody can exploit"


@dataclass(frozen=True)
class AdaptiveRun:
    """A question driven to its end: the counts, the rounds and games played, the answer and
    whether the rule stopped it ("rule") or the budget ran out first ("budget")."""

    target: str
    strategy: str
    wins: list[list[float]]
    games: list[list[int]]
    rounds: int
    games_used: int
    answer: int | list[int]
    certainty: float
    stopped_by: str

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "strategy": self.strategy,
            "wins": self.wins,
            "games": self.games,
            "rounds": self.rounds,
            "games_used": self.games_used,
            "answer": self.answer,
            "certainty": self.certainty,
            "stopped_by": self.stopped_by,
        }


def run_adaptive(
    play: Callable[[int, int, int], float],
    n: int,
    shares: Sequence[float] | np.ndarray,
    *,
    target: str,
    confidence: float = 0.95,
    budget: int,
    round_games: int,
    seed: int,
    strategy: str = "adaptive",
    growth: float = 0.0,
    split: np.ndarray | None = None,
) -> AdaptiveRun:
    """Play rounds until the stopping rule answers or `budget` games are spent (the last round
    cut to what is left). `play(i, j, k)` plays k games of deck i against deck j and returns
    deck i's wins (a tie half). Every strategy stops by the same rule and they differ only in
    where the games go: "adaptive" by plan_round, "even" by even_round, the baseline, and
    "fixed" by `split` (an n × n table of each pair's share of the games, symmetric: each round
    brings every pair towards its share of the games so far, as `fixed_round` does; the
    benchmark's oracle, which knows the true chances, plays its best split so). A round plays
    `round_games`, or `growth` times the games so far when that is more: a long question is
    then checked after every tenth more (growth 0.1) rather than every fixed round."""
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    if (strategy == "fixed") != (split is not None):
        raise ValueError("a split goes with strategy 'fixed', and only with it")
    if budget < 0 or round_games < 1:
        raise ValueError("budget must be at least 0 and round_games at least 1")
    rng = np.random.default_rng(seed)
    wins, games = np.zeros((n, n)), np.zeros((n, n), dtype=int)
    used = rounds = 0
    while True:
        state = assess(wins, games, shares, target=target, confidence=confidence, seed=rng)
        if state.stop or used >= budget:
            break
        size = min(max(round_games, int(growth * used)), budget - used)
        if strategy == "adaptive":
            allocation = spread(state.influence, games, size, state.size)
        elif split is not None:
            allocation = fixed_round(split, games, size)
        else:
            allocation = np.asarray(even_round(games, size))
        _play_round(play, allocation, wins, games)
        used, rounds = used + size, rounds + 1
    return AdaptiveRun(
        target=target,
        strategy=strategy,
        wins=wins.tolist(),
        games=games.tolist(),
        rounds=rounds,
        games_used=used,
        answer=state.answer,
        certainty=state.certainty,
        stopped_by="rule" if state.stop else "budget",
    )


def _play_round(
    play: Callable[[int, int, int], float],
    allocation: np.ndarray,
    wins: np.ndarray,
    games: np.ndarray,
) -> None:
    """Play each pair i < j its allocated games and add them to the counts (in place)."""
    n = len(allocation)
    for i in range(n):
        for j in range(i + 1, n):
            k = int(allocation[i, j])
            if k:
                won = float(play(i, j, k))
                wins[i, j] += won
                wins[j, i] += k - won
                games[i, j] += k
                games[j, i] += k
