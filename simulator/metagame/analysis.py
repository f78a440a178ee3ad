"""What a field's heads-up results say about which deck to bring, with their uncertainty.

The input is a field of N decks: `wins[i][j]` the games deck i won against deck j (a tie half a
win to each side), `games[i][j]` the games they played (both halves stored, so
`wins[i][j] + wins[j][i] == games[i][j] == games[j][i]`), and `shares`, how much of the field
plays each deck. The diagonal is the mirror match: a deck against itself wins half its games by
symmetry, so it is 0.5 exactly, never estimated and never sampled.

The uncertainty is carried by one posterior, hierarchical: the pairs' win chances are drawn
from one Beta(κ/2, κ/2) around a half, and how spread out this field's matchups are (κ) is
learnt from the games. The spread's prior is uniform on 1/√κ (about uniform on the standard
deviation of a matchup, Gelman et al., Bayesian Data Analysis, 3rd ed., §5.3), over a grid
from κ = 2 (the uniform prior, a matchup anywhere from 0 to 1) to one so large that every
matchup is a coin toss. Given κ, each pair's p_ij is Beta(κ/2 + wins_ij, κ/2 + wins_ji),
independently of the other pairs; p_ji = 1 - p_ij. So a pair with few games is as uncertain
as this field's matchups are, not as uncertain as any chance from 0 to 1, and a pair with many
games is its own. Every figure that depends on the whole matrix (the expected win rate against
the field, the chance of being best, the equilibrium's support, the cycles) is computed on
draws of that posterior (a draw picks κ, then every pair), so a pair with few games widens
every answer it touches. docs/metagame.md has the formulas for people.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

#: Anything numpy reads as an N×N table: nested lists or an array.
Table = Sequence[Sequence[float]] | np.ndarray
#: A weight at or below this is cleaned to 0 (the LP's round-off).
CLEAN = 1e-9
#: A deck is in an equilibrium's support when its weight is above this.
SUPPORT = 1e-6
#: Two expected win rates within this are a tie for best (split evenly).
TIE = 1e-12
#: The spread's grid: u = 1/√κ evenly over (0, 1/√2], so κ from 2 (the uniform prior) up.
SPREAD_POINTS = 100
KAPPA = 1 / ((np.arange(SPREAD_POINTS) + 0.5) / SPREAD_POINTS / np.sqrt(2)) ** 2
MIRROR_NOTE = (
    "A deck against itself wins half its games by symmetry: the mirror match counts 0.5, "
    "is never played for the estimate and never sampled."
)
PRIOR_NOTE = (
    "Before the games every pair's win chance is drawn around a half, Beta(κ/2, κ/2), and how "
    "spread out this field's matchups are (κ) is learnt from all the pairs' games: a pair with "
    "few games is as uncertain as this field's matchups are, a pair with many is its own."
)
INTERVAL_NOTE = (
    "A pair's interval is the Jeffreys interval (quantiles of Beta(wins + 1/2, losses + 1/2)); "
    "the deck figures' intervals are quantiles of the posterior draws."
)


def check_counts(wins: Table, games: Table) -> tuple[np.ndarray, np.ndarray]:
    """The results as float arrays, or ValueError saying what is wrong with them: the caller
    turns it into a 4xx, so the message names the problem in the caller's words."""
    w, g = _square("wins", wins), _square("games", games)
    if w.shape != g.shape:
        n, m = len(w), len(g)
        raise ValueError(f"wins is {n}×{n} but games is {m}×{m}: they must be the same size")
    if (w < 0).any() or (g < 0).any():
        raise ValueError("wins and games must not be negative")
    off = ~np.eye(len(g), dtype=bool)
    if not np.allclose(g[off], g.T[off]):
        raise ValueError("games must be symmetric: games[i][j] == games[j][i]")
    if not np.allclose((w + w.T)[off], g[off]):
        raise ValueError("wins[i][j] + wins[j][i] must equal games[i][j] (a tie is half a win)")
    return w, g


def _square(name: str, table: Table) -> np.ndarray:
    """A non-empty square table of finite numbers, or ValueError."""
    try:
        a = np.asarray(table, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a square table of numbers") from None
    if a.ndim != 2 or a.shape[0] != a.shape[1] or a.shape[0] == 0:
        raise ValueError(f"{name} must be a square N×N table with N ≥ 1, got shape {a.shape}")
    if not np.isfinite(a).all():
        raise ValueError(f"{name} must hold finite numbers")
    return a


def check_shares(shares: Sequence[float] | np.ndarray, n: int) -> np.ndarray:
    """The shares normalised to sum to 1, or ValueError (wrong length, negative, all zero)."""
    try:
        s = np.asarray(shares, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("shares must be a list of numbers") from None
    if s.shape != (n,):
        raise ValueError(f"shares must hold one number per deck ({n}), got shape {s.shape}")
    if not np.isfinite(s).all():
        raise ValueError("shares must be finite numbers")
    if (s < 0).any():
        raise ValueError("shares must not be negative")
    if s.sum() <= 0:
        raise ValueError("at least one deck must have a share of the field above zero")
    return s / s.sum()


def check_confidence(confidence: float) -> float:
    """The confidence level, strictly between 0 and 1, or ValueError."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    return float(confidence)


def spread_weights(wins: Table) -> np.ndarray:
    """The posterior of the spread: per value of KAPPA, its probability given every pair's
    games (prior uniform over the grid, which is uniform on 1/√κ). The likelihood of κ is the
    product over the pairs of the beta-binomial chance of their results,
    B(κ/2 + wins_ij, κ/2 + wins_ji) / B(κ/2, κ/2) up to a factor without κ; a pair with no
    games says nothing. No games at all: the prior."""
    from scipy.special import betaln  # imported where used: see cell_table

    w = np.asarray(wins, dtype=float)
    upper_i, upper_j = np.triu_indices(len(w), 1)
    a, b = w[upper_i, upper_j], w[upper_j, upper_i]
    played = a + b > 0
    half = KAPPA[:, None] / 2
    log = (betaln(half + a[played], half + b[played]) - betaln(half, half)).sum(axis=1)
    weights = np.exp(log - log.max())
    return np.asarray(weights / weights.sum())


def posterior(wins: Table, games: Table, draws: int, seed: int | np.random.Generator) -> np.ndarray:
    """`draws` win-chance matrices, shape (draws, N, N), from the posterior (module
    docstring): each draw picks a spread κ by spread_weights, then for each pair i < j
    p_ij ~ Beta(κ/2 + wins_ij, κ/2 + wins_ji); p_ji = 1 - p_ij, and 0.5 on the diagonal.
    Antisymmetric about 0.5 by construction, as a heads-up zero-sum game is."""
    w, _ = check_counts(wins, games)
    if draws < 1:
        raise ValueError("draws must be at least 1")
    rng = np.random.default_rng(seed)
    n = len(w)
    upper_i, upper_j = np.triu_indices(n, 1)
    half = KAPPA[rng.choice(SPREAD_POINTS, size=draws, p=spread_weights(w))][:, None] / 2
    p = rng.beta(half + w[upper_i, upper_j], half + w[upper_j, upper_i])
    out = np.full((draws, n, n), 0.5)
    out[:, upper_i, upper_j] = p
    out[:, upper_j, upper_i] = 1 - p
    return out


def posterior_moments(wins: Table, games: Table) -> tuple[np.ndarray, np.ndarray]:
    """Each pair's posterior mean and variance of p_ij, the mixture over the spread (0.5 and 0
    on the diagonal). The mean is the point estimate: a pair with no games sits at 0.5, a pair
    with many at its observed share, one with a few between, drawn towards a half as much as
    this field's spread says (the mean over κ of (κ/2 + wins) / (κ + games)). The variance is
    the sampler's measure of how much a pair's games can still teach."""
    w, _ = check_counts(wins, games)
    q = spread_weights(w)
    half = KAPPA[:, None, None] / 2
    a, b = half + w, half + w.T
    mean = a / (a + b)
    first = np.tensordot(q, mean, 1)
    var = np.maximum(np.tensordot(q, mean * (a + 1) / (a + b + 1), 1) - first**2, 0.0)
    np.fill_diagonal(first, 0.5)
    np.fill_diagonal(var, 0.0)
    return np.asarray(first), np.asarray(var)


def posterior_mean(wins: Table, games: Table) -> np.ndarray:
    """The posterior mean matrix (posterior_moments), 0.5 on the diagonal."""
    return posterior_moments(wins, games)[0]


def cell_table(wins: Table, games: Table, confidence: float = 0.95) -> list[list[dict[str, Any]]]:
    """Per pair: games, wins, the observed share (0.5 with no games) and its Jeffreys interval
    at `confidence` (equal tails of Beta(wins + ½, losses + ½), the low end 0 after no wins and
    the high end 1 after no losses). Jeffreys rather than Clopper-Pearson: its coverage is close
    to the stated level rather than above it, and it stays sensible at 0 or all wins. With no
    games it spans almost [0, 1]: nothing is known yet."""
    # scipy is imported where it is used (here, nash_equilibrium, _block_lp): the runs'
    # followers import this module in every worker and web process, which start without it
    from scipy.stats import beta

    w, g = check_counts(wins, games)
    alpha = 1 - check_confidence(confidence)
    losses = g - w
    low = np.where(w > 0, beta.ppf(alpha / 2, w + 0.5, losses + 0.5), 0.0)
    high = np.where(losses > 0, beta.ppf(1 - alpha / 2, w + 0.5, losses + 0.5), 1.0)
    share = np.divide(w, g, out=np.full_like(w, 0.5), where=g > 0)
    n = len(w)
    return [
        [
            {"games": 0, "wins": 0.0, "estimate": 0.5, "low": 0.5, "high": 0.5, "mirror": True}
            if i == j
            else {
                "games": _number(g[i, j]),
                "wins": float(w[i, j]),
                "estimate": float(share[i, j]),
                "low": float(low[i, j]),
                "high": float(high[i, j]),
                "mirror": False,
            }
            for j in range(n)
        ]
        for i in range(n)
    ]


def _number(x: float) -> int | float:
    """A count as an int when it is whole (the usual case), else as a float."""
    return int(x) if float(x).is_integer() else float(x)


def expected_win_rates(matrix: np.ndarray, shares: np.ndarray) -> np.ndarray:
    """E_i = Σ_j s_j p_ij for a matrix (N, N) or for each of a stack of draws (D, N, N): the
    win rate of deck i against an opponent drawn from the field. The mirror counts at 0.5
    with its own share, since a player of deck i meets the other players of deck i as often
    as the field plays it."""
    return np.asarray(matrix @ shares)


def p_best(expected: np.ndarray) -> np.ndarray:
    """Per deck, the share of draws (rows of `expected`, shape (D, N)) in which it has the
    highest expected win rate; a tie splits the draw evenly. Sums to 1."""
    top = expected.max(axis=1, keepdims=True)
    leads = expected >= top - TIE
    return np.asarray((leads / leads.sum(axis=1, keepdims=True)).mean(axis=0))


def deck_figures(
    mean: np.ndarray, draws: np.ndarray, shares: np.ndarray, confidence: float
) -> list[dict[str, Any]]:
    """Per deck: its expected win rate against the field (from the posterior mean matrix; the
    posterior mean of E, as E is linear in the matrix), its interval (equal-tailed quantiles
    of the draws' E at `confidence`) and its chance of being the best deck."""
    alpha = 1 - confidence
    point = expected_win_rates(mean, shares)
    e = expected_win_rates(draws, shares)
    low, high = np.quantile(e, [alpha / 2, 1 - alpha / 2], axis=0)
    best = p_best(e)
    return [
        {
            "deck": i,
            "estimate": float(point[i]),
            "low": float(low[i]),
            "high": float(high[i]),
            "p_best": float(best[i]),
        }
        for i in range(len(point))
    ]


def tier_list(decks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Decks in tiers: tier 1 is the deck with the highest estimate and every deck whose
    interval reaches the top deck's interval (its high end at or above the top's low end: it
    may be as good); the rest are tiered the same way, tier 2 led by the best of them, and so
    on. Listed by tier, then estimate; `rank` is the place by estimate alone, so a deck with a
    wide interval (few games) can sit in a higher tier than a deck ranked above it."""
    by_estimate = sorted(decks, key=lambda d: (-d["estimate"], d["deck"]))
    rank = {d["deck"]: r for r, d in enumerate(by_estimate, start=1)}
    left, tiers, tier = by_estimate, [], 0
    while left:
        tier += 1
        top = left[0]
        tiers += [
            {**d, "rank": rank[d["deck"]], "tier": tier} for d in left if d["high"] >= top["low"]
        ]
        left = [d for d in left if d["high"] < top["low"]]
    return tiers


@dataclass(frozen=True)
class Equilibrium:
    """A symmetric equilibrium of "which deck to bring": the mix of decks (weights summing to
    1) that no single deck beats on average, its support and the game's value (0)."""

    weights: tuple[float, ...]
    support: tuple[int, ...]
    value: float

    def to_json(self) -> dict[str, Any]:
        return {"weights": list(self.weights), "support": list(self.support), "value": self.value}


def nash_equilibrium(matrix: np.ndarray) -> Equilibrium:
    """The maximin mix of the zero-sum game with payoff A = P - 0.5 (the row deck's edge), by
    scipy's HiGHS LP: maximise v subject to Σ_i x_i A_ij ≥ v for every deck j, Σ x = 1, x ≥ 0.
    A is antisymmetric, so the value is 0 and a maximin mix is an equilibrium of the symmetric
    game. When equilibria are not unique (ties, such as pairs never played sitting at exactly
    0.5) the LP returns one vertex of the set of equilibria, not a chosen one; a generic matrix
    (every posterior draw, almost surely) has exactly one."""
    from scipy.optimize import linprog  # imported where used: see cell_table

    a = np.asarray(matrix, dtype=float) - 0.5
    n = len(a)
    cost = np.zeros(n + 1)
    cost[-1] = -1.0
    result = linprog(
        cost,
        A_ub=np.hstack([-a.T, np.ones((n, 1))]),
        b_ub=np.zeros(n),
        A_eq=np.hstack([np.ones((1, n)), np.zeros((1, 1))]),
        b_eq=[1.0],
        bounds=[(0, None)] * n + [(None, None)],
        method="highs",
    )
    if result.status != 0:
        raise RuntimeError(f"the equilibrium LP failed: {result.message}")
    return _equilibrium(np.asarray(result.x[:n]), a)


def _equilibrium(x: np.ndarray, a: np.ndarray) -> Equilibrium:
    """The LP's mix cleaned (round-off below CLEAN to 0, renormalised) with its support and
    value (the worst the mix does against any deck; 0 up to round-off)."""
    x = np.where(x > CLEAN, x, 0.0)
    x = x / x.sum()
    value = float((x @ a).min())
    return Equilibrium(
        weights=tuple(float(v) for v in x),
        support=tuple(int(i) for i in np.flatnonzero(x > SUPPORT)),
        value=0.0 if abs(value) < CLEAN else value,
    )


def equilibria(draws: np.ndarray, guess: Sequence[int], probe: int = 16) -> np.ndarray:
    """An equilibrium mix for each draw (D, N, N) → (D, N), fast enough for hundreds of draws
    a round. A support is tried on every draw left at once: the indifference equations on the
    support are solved and the mix kept where it is ≥ 0 and no deck beats it (Σ_i x_i A_ij ≥ 0
    for every j), which makes it an exact maximin mix by LP duality. First the support `guess`
    (the point estimate's); then, while draws are left, `probe` of them (twice as many each
    time) are solved as one LP, block by block (the blocks are independent, so the joint
    optimum is each draw's optimum), and their supports are tried on the rest. The draws share
    a handful of supports, so a few small LPs answer hundreds of draws."""
    a = draws - 0.5
    out, left = _on_support(a, tuple(guess))
    left = ~left
    while left.any():
        sample = np.flatnonzero(left)[:probe]
        out[sample] = _block_lp(a[sample])
        left[sample] = False
        probe *= 2
        found = (tuple(int(d) for d in np.flatnonzero(mix > SUPPORT)) for mix in out[sample])
        for support in dict.fromkeys(found):
            rest = np.flatnonzero(left)
            x, fits = _on_support(a[rest], support)
            out[rest[fits]] = x[fits]
            left[rest[fits]] = False
    return out


def _block_lp(a: np.ndarray) -> np.ndarray:
    """The maximin mixes of D games (D, N, N) as one block-diagonal LP (nash_equilibrium's,
    once per block: variables x_d and v_d, maximise Σ v_d), cleaned as nash_equilibrium's."""
    from scipy import sparse  # imported where used: see cell_table
    from scipy.optimize import linprog

    d, n = a.shape[:2]
    width = n + 1
    block, i, j = np.meshgrid(np.arange(d), np.arange(n), np.arange(n), indexing="ij")
    # Row (d, j): v_d - Σ_i x_di A_dij ≤ 0.
    rows = np.concatenate([(block * n + j).ravel(), np.arange(d * n)])
    cols = np.concatenate([(block * width + i).ravel(), np.repeat(np.arange(d) * width + n, n)])
    vals = np.concatenate([-a.ravel(), np.ones(d * n)])
    upper = sparse.csr_matrix((vals, (rows, cols)), shape=(d * n, d * width))
    total = sparse.csr_matrix(
        (
            np.ones(d * n),
            (np.repeat(np.arange(d), n), (block[:, :, 0] * width + i[:, :, 0]).ravel()),
        ),
        shape=(d, d * width),
    )
    cost = np.tile(np.r_[np.zeros(n), -1.0], d)
    result = linprog(
        cost,
        A_ub=upper,
        b_ub=np.zeros(d * n),
        A_eq=total,
        b_eq=np.ones(d),
        bounds=([(0, None)] * n + [(None, None)]) * d,
        method="highs",
    )
    if result.status != 0:
        raise RuntimeError(f"the equilibrium LP failed: {result.message}")
    x = np.asarray(result.x).reshape(d, width)[:, :n]
    x = np.where(x > CLEAN, x, 0.0)
    return np.asarray(x / x.sum(axis=1, keepdims=True))


def _on_support(a: np.ndarray, support: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """For each game (D, N, N) the mix whose support is `support` and against which every deck
    of the support does equally (the bordered system [A_SS^T, -1; 1^T, 0][x; v] = [0; 1]), and
    whether it is an equilibrium. An even support cannot be: the bordered matrix is then
    antisymmetric of odd size, so singular (generic equilibria have odd supports)."""
    d, n = a.shape[:2]
    k = len(support)
    fits = np.zeros(d, dtype=bool)
    x = np.zeros((d, n))
    if k == 0 or k % 2 == 0:
        return x, fits
    idx = np.array(support)
    bordered = np.zeros((d, k + 1, k + 1))
    bordered[:, :k, :k] = a[:, idx][:, :, idx].transpose(0, 2, 1)
    bordered[:, :k, k] = -1.0
    bordered[:, k, :k] = 1.0
    rhs = np.zeros(k + 1)
    rhs[k] = 1.0
    try:
        solved = np.linalg.solve(bordered, rhs)
    except np.linalg.LinAlgError:
        return x, fits
    x[:, idx] = solved[:, :k]
    edge = np.einsum("di,dij->dj", x, a)
    fits = np.isfinite(solved).all(axis=1) & (solved[:, :k] > SUPPORT).all(axis=1)
    fits &= (edge >= -CLEAN).all(axis=1)
    return x, fits


def support_stability(draws: np.ndarray, point: Equilibrium, k: int = 200) -> dict[str, Any]:
    """How firmly the equilibrium stands: the equilibrium of each of the first `k` draws; per
    deck the share of them whose support holds it and its mean weight, and the share whose
    support is exactly the point estimate's."""
    mixes = equilibria(draws[:k], point.support)
    inside = mixes > SUPPORT
    same = (inside == np.isin(np.arange(draws.shape[1]), point.support)).all(axis=1)
    return {
        "draws": len(mixes),
        "in_support": [float(v) for v in inside.mean(axis=0)],
        "mean_weight": [float(v) for v in mixes.mean(axis=0)],
        "same_support": float(same.mean()),
    }


def cycles(draws: np.ndarray, threshold: float = 0.5) -> list[dict[str, Any]]:
    """Rock-paper-scissors triangles: every 3-cycle i→j→k→i (each deck beats the next, p > 0.5)
    that holds in at least `threshold` of the draws, most probable first, with each edge's
    chance. Longer cycles are not listed: they add nothing, since a complete set of matchups
    with any cycle has a 3-cycle (a tournament without 3-cycles is a ranking)."""
    n = draws.shape[1]
    if n < 3:
        return []
    beats = draws > 0.5
    edge = beats.mean(axis=0)
    found = []
    for i, j, k in itertools.combinations(range(n), 3):
        for a, b, c in ((i, j, k), (i, k, j)):
            held = float((beats[:, a, b] & beats[:, b, c] & beats[:, c, a]).mean())
            if held >= threshold:
                found.append(
                    {
                        "decks": [a, b, c],
                        "edges": [
                            {"winner": u, "loser": v, "probability": float(edge[u, v])}
                            for u, v in ((a, b), (b, c), (c, a))
                        ],
                        "probability": held,
                    }
                )
    return sorted(found, key=lambda c: (-c["probability"], c["decks"]))


def replicator(
    matrix: np.ndarray, shares: np.ndarray, generations: int = 200, tol: float = 1e-9
) -> dict[str, Any]:
    """The field's drift if players move to what wins: x_i' = x_i f_i / f̄, fitness f_i =
    Σ_j p_ij x_j (the win rate against the field), f̄ = Σ x_i f_i (always 0.5 here, as
    p_ij + p_ji = 1). A deck at share 0 stays at 0: nobody plays it, so nobody can switch to it
    (the equilibrium need not be reached; a share so small it underflows to 0 is gone too).
    Settled: no share moves by `tol` and no deck still played wins more than the average (near
    a corner the shares barely move while a deck at a tiny share is about to grow back: not
    settled). After `generations` without settling, "oscillating" if some deck turned from
    growing to shrinking or back at least twice, once in the last half at least (a cycle, or a
    spiral), else "still moving"."""
    x = np.asarray(shares, dtype=float)
    history, trend = [x.tolist()], []
    status = "still moving"
    for _ in range(generations):
        fitness = matrix @ x
        growth = fitness / (x @ fitness)
        moved = x * growth
        moved /= moved.sum()
        settled = np.abs(moved - x).max() < tol and (growth[x > 0] <= 1 + 1e-6).all()
        trend.append(np.where((x > 0) & (np.abs(growth - 1) > 1e-9), np.sign(growth - 1), 0))
        x = moved
        history.append(x.tolist())
        if settled:
            status = "settled"
            break
    turns = np.array(trend)
    if status != "settled" and _turns(turns) >= 2 and _turns(turns[len(turns) // 2 :]) >= 1:
        status = "oscillating"
    return {
        "generations": len(history) - 1,
        "status": status,
        "final": x.tolist(),
        "history": history,
    }


def _turns(trend: np.ndarray) -> int:
    """The most times any deck turned from growing to shrinking or back along `trend`
    (generations × decks of -1, 0 for still, +1)."""
    most = 0
    for deck in trend.T:
        signs = deck[deck != 0]
        most = max(most, int((signs[1:] != signs[:-1]).sum()))
    return most


def analyse(
    wins: Table,
    games: Table,
    shares: Sequence[float] | np.ndarray,
    confidence: float = 0.95,
    seed: int = 0,
    draws: int = 2000,
    equilibrium_draws: int = 200,
    generations: int = 200,
) -> dict[str, Any]:
    """The whole report on a field, JSON-able, decks by index (names are the caller's): the
    pairs' table, each deck's expected win rate against the field with its interval and chance
    of being best, the tier list, the best response to the field, the equilibrium mix with how
    stable its support is across the posterior, the rock-paper-scissors cycles and the
    replicator drift from the field's shares. The same inputs and seed give the same report."""
    w, g = check_counts(wins, games)
    s = check_shares(shares, len(w))
    confidence = check_confidence(confidence)
    mean = posterior_mean(w, g)
    sample = posterior(w, g, draws, seed)
    decks = deck_figures(mean, sample, s, confidence)
    point = nash_equilibrium(mean)
    best = max(decks, key=lambda d: (d["estimate"], -d["deck"]))
    return {
        "decks": len(w),
        "shares": [float(v) for v in s],
        "confidence": confidence,
        "seed": seed,
        "draws": draws,
        "notes": {"prior": PRIOR_NOTE, "interval": INTERVAL_NOTE, "mirror": MIRROR_NOTE},
        "cells": cell_table(w, g, confidence),
        "expected": decks,
        "p_best": [d["p_best"] for d in decks],
        "tiers": tier_list(decks),
        "best_response": best,
        "nash": point.to_json(),
        "support_stability": support_stability(sample, point, equilibrium_draws),
        "cycles": cycles(sample),
        "replicator": replicator(mean, s, generations),
    }
