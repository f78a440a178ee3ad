"""The metagame lab's sampler against spreading the games evenly (issue #28).

    python benchmarks/metagame.py [--seeds 50] [--first-seed 0] [--quick] [--jobs 2]
                                  [--budget 200000] [--fields "a tournament meta" ...]
                                  [--targets best support] [--oracle] [--confidence 0.95]

Synthetic fields of ten decks whose true win chances are known (no Django, no engine: a game
is a coin flip with the pair's true chance):

- "a few strong": three decks stronger than the rest (logistic in strength differences, with
  matchup noise), picked so that the best deck leads by 1.5 to 2.5 points of expected win
  rate and the equilibrium mixes three decks or more, each at 10% or more;
- "rock-paper-scissors": decks 0 → 1 → 2 → 0 each win 60% of their cycle's matchup and beat
  the other seven, which are level among themselves up to noise;
- "a clear best": deck 0 wins about 62% against every other deck (a lead of 5 points or
  more);
- "a tournament meta": the shares of a real event's field, a few decks holding most of it and
  a tail of rogue decks (fixed, `TOURNAMENT_SHARES`), the most played decks stronger on
  average but not always, the tail's strength spread wide, matchup noise; the best deck leads
  by 1.5 to 3 points and the equilibrium mixes three decks or more, each at 10% or more.

The first three fields' shares are drawn once (Dirichlet(2): fairly even, and so nearly every
pair weighs on "which deck is best"); the tournament meta's are fixed. Each field's seed is the
first (from 0) that meets its description, so that every question has an answer some number of
games can find. `--fields` runs some of the fields only (all four unless given).
With each field comes what placing the games can save on "which deck is best" at most, as
the confidence goes to 1 (`best_bound`): the games of the best fixed split of them, knowing
the true chances, over even play's. A sampler that has to learn the chances as it goes cannot
beat it on average in that limit (Garivier and Kaufmann's lower bound for finding the best
arm). At 95% it binds nobody: `--oracle` also plays "which deck is best" with that split (the
true chances known, the same rule and rounds, `run_adaptive(strategy="fixed")`) and prints
its games against even play's and the sampler's; `--confidence` runs the rule at another
confidence, to watch the oracle and the sampler approach the bound as it grows.
For each field, question ("best": the best deck against the field, "support": the decks of the
equilibrium mix; `--targets` one of them) and seed, `run_adaptive` runs twice at confidence
0.95 on the same budget,
rounds (250 games, or a tenth of the games so far when that is more) and seed: the adaptive
sampler, and the same stopping rule with the games spread evenly. A run that runs out of
budget counts its whole budget in the medians. Printed per field and question: the median
games to stop (adaptive, even, their ratio with a 95% bootstrap interval over the seeds), how
often each ran out of budget, and the error rate of the runs the rule stopped (answer ≠ the
truth of the true matrix), then the error rates pooled with exact intervals, against the
stated 5%. The games a question takes vary tenfold from seed to seed, so a median of 50 seeds
moves by a fifth or more: the interval says how far, and `--first-seed` runs other seeds than
the usual 0 to 49 to check a change on fresh ones. Figures and dates belong in
docs/metagame.md, not here.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from statistics import median

import numpy as np
from scipy.optimize import minimize
from scipy.stats import binomtest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simulator.metagame.analysis import Equilibrium, nash_equilibrium  # noqa: E402
from simulator.metagame.sampler import run_adaptive  # noqa: E402

DECKS = 10
CONFIDENCE = 0.95
ROUND_GAMES = 250
GROWTH = 0.1
TARGETS = ("best", "support")
STRATEGIES = ("adaptive", "even")


@dataclass(frozen=True)
class Field:
    """A field with its true win chances, its shares and the true answers."""

    name: str
    chances: np.ndarray
    shares: np.ndarray
    seed: int

    @property
    def best(self) -> int:
        return int(np.argmax(self.chances @ self.shares))

    @property
    def lead(self) -> float:
        """The best deck's lead in expected win rate over the second."""
        e = np.sort(self.chances @ self.shares)
        return float(e[-1] - e[-2])

    @property
    def equilibrium(self) -> Equilibrium:
        return nash_equilibrium(self.chances)

    @property
    def margin(self) -> float:
        """How far the decks outside the support are from joining it (their least loss
        against the mix), or 1 when every deck is in it."""
        eq = self.equilibrium
        edge = np.array(eq.weights) @ (self.chances - 0.5)
        outside = [j for j in range(len(edge)) if j not in eq.support]
        return float(edge[outside].min()) if outside else 1.0

    def truth(self, target: str) -> int | list[int]:
        return self.best if target == "best" else list(self.equilibrium.support)


def _noise(rng: np.random.Generator, sd: float) -> np.ndarray:
    """Antisymmetric matchup noise on the logit scale."""
    e = np.triu(rng.normal(0, sd, (DECKS, DECKS)), 1)
    return e - e.T


def _chances(logit: np.ndarray) -> np.ndarray:
    p = 1 / (1 + np.exp(-logit))
    np.fill_diagonal(p, 0.5)
    return p


def few_strong(rng: np.random.Generator) -> np.ndarray:
    strength = rng.normal(0, 0.2, DECKS)
    strength[:3] += 0.3
    return _chances(strength[:, None] - strength[None, :] + _noise(rng, 0.25))


def rock_paper_scissors(rng: np.random.Generator) -> np.ndarray:
    logit = _noise(rng, 0.15)
    logit[:3, 3:] += 0.3  # the cycle's decks beat the rest (about 57%)
    logit[3:, :3] -= 0.3
    for a, b in ((0, 1), (1, 2), (2, 0)):
        logit[a, b], logit[b, a] = 0.405, -0.405  # 60%
    return _chances(logit)


def clear_best(rng: np.random.Generator) -> np.ndarray:
    logit = _noise(rng, 0.25)
    logit[0, 1:] = 0.5 + rng.normal(0, 0.05, DECKS - 1)
    logit[1:, 0] = -logit[0, 1:]
    return _chances(logit)


# A tournament's field, most played deck first: a quarter of the field on the top deck, the
# top three holding over half (56%) and the top five three quarters (74%), then a Zipf-like
# tail of rogue decks at 4% to 7% each (26% in all): the skew of a real event's field, where a
# few established decks take most seats and the rest spreads thinly (the profile of issue #28's
# discussion, a little flatter at the top than Zipf's 1/rank: 34%, 17%, 11%, ...). It was
# chosen before any run of this benchmark on it, not fitted to results.
# Against such a field a deck's expected win rate is mostly its matchups against the top
# three or four decks; a pair of two tail decks barely moves either's (0.04 a point).
TOURNAMENT_SHARES = np.array([0.24, 0.18, 0.14, 0.10, 0.08, 0.07, 0.06, 0.05, 0.04, 0.04])


def tournament(rng: np.random.Generator) -> np.ndarray:
    """Strengths on the logit scale: on average 0.15 per unit of log share (the most played
    deck +0.16, the least -0.11 from the geometric mean: about 54% and 47% against an average
    deck), because players pick the decks that win; plus noise from 0.1 for the most played
    (its strength is well known) to 0.3 for the least (rogue decks are bad or, now and then, a
    strong deck few have found), so the popular decks tend to be the strongest, not always: in
    2,000 draws the strongest deck is one of the three most played in 43% (30% by chance).
    Matchup noise as the few strong's (0.25)."""
    log_share = np.log(TOURNAMENT_SHARES)
    strength = 0.15 * (log_share - log_share.mean())
    strength += rng.normal(0, 1, DECKS) * np.linspace(0.1, 0.3, DECKS)
    return _chances(strength[:, None] - strength[None, :] + _noise(rng, 0.25))


@dataclass(frozen=True)
class Kind:
    """How a kind of field is drawn and what it must look like: the best deck's lead (points
    of expected win rate, low and high) and whether its equilibrium mixes three decks or more.
    Every kind's equilibrium decks hold 10% or more and its outsiders lose 1.5 points or more
    against the mix, so that every question has an answer some number of games can find.
    `shares`: the field's shares, fixed, or None to draw them (Dirichlet(2))."""

    build: Callable[[np.random.Generator], np.ndarray]
    lead: tuple[float, float]
    mixed: bool
    shares: np.ndarray | None = None

    def fits(self, field: Field) -> bool:
        eq = field.equilibrium
        weights = [eq.weights[d] for d in eq.support]
        low, high = self.lead
        return (
            low <= field.lead <= high
            and min(weights) >= 0.1
            and field.margin >= 0.015
            and (len(eq.support) >= 3) == self.mixed
        )


KINDS = {
    "a few strong": Kind(few_strong, (0.015, 0.025), mixed=True),
    "rock-paper-scissors": Kind(rock_paper_scissors, (0.015, 0.05), mixed=True),
    "a clear best": Kind(clear_best, (0.05, 1.0), mixed=False),
    # A lead like the few strong's, so that the question is not settled by a glance; a mixed
    # equilibrium, since a deck that beats every other one head to head is the clear best's
    # field (in a real format, one that gets a card banned).
    "a tournament meta": Kind(tournament, (0.015, 0.03), mixed=True, shares=TOURNAMENT_SHARES),
}


@functools.cache
def make_field(name: str) -> Field:
    """The first field (field seed 0, 1, ...) of the kind that fits its description."""
    kind = KINDS[name]
    for seed in range(10_000):
        rng = np.random.default_rng(seed)
        chances = kind.build(rng)
        shares = rng.dirichlet(2 * np.ones(DECKS)) if kind.shares is None else kind.shares
        field = Field(name, chances, shares, seed)
        if kind.fits(field):
            return field
    raise SystemExit(f"no field fits {name}")


def one(task: tuple[str, str, str, int, int, float]) -> tuple[str, str, str, int, str, bool]:
    """One question answered once: (field, target, strategy, games used, stopped by, right)."""
    name, target, strategy, seed, budget, confidence = task
    field = make_field(name)
    coin = np.random.default_rng([seed, 1])

    def play(i: int, j: int, k: int) -> float:
        return float(coin.binomial(k, field.chances[i, j]))

    run = run_adaptive(
        play,
        DECKS,
        field.shares,
        target=target,  # type: ignore[arg-type]
        confidence=confidence,
        budget=budget,
        round_games=ROUND_GAMES,
        seed=seed,
        strategy="fixed" if strategy == "oracle" else strategy,
        growth=GROWTH,
        split=best_split(name)[1] if strategy == "oracle" else None,
    )
    return name, target, strategy, run.games_used, run.stopped_by, run.answer == field.truth(target)


def best_bound(field: Field) -> float:
    """What placing the games can save on "which deck is best" at most, as the confidence goes
    to 1: the games of the best fixed split of them, knowing the true chances, over even
    play's (`best_split`)."""
    return best_split(field.name)[0]


@functools.cache
def best_split(name: str) -> tuple[float, np.ndarray]:
    """(the bound, the split): the best fixed split of the games for "which deck is best",
    knowing the true chances, and its games over even play's as the confidence goes to 1.
    A split w (shares of the games over the pairs) needs about max_b T_b(w) games,
    T_b = Σ_pairs (∂(E_a - E_b)/∂p)² p(1 - p) / (w_pair (E_a - E_b)²) for the best deck a and
    each other deck b (Garivier and Kaufmann's characteristic time for normal means). By
    minimax duality, min over w of max over b is the max over weights λ of the rivals
    (Σ_pairs √(Σ_b λ_b c_b,pair))², a concave problem in as many unknowns as rivals, and the
    best split puts w_pair in proportion to √(Σ_b λ_b c_b,pair) (an n × n table, symmetric)."""
    field = make_field(name)
    n, s = DECKS, field.shares
    e = field.chances @ s
    a = field.best
    upper_i, upper_j = np.triu_indices(n, 1)
    p = field.chances[upper_i, upper_j]
    rivals = [b for b in range(n) if b != a]
    slope = np.zeros((len(rivals), n, n))
    for k, b in enumerate(rivals):
        slope[k, a, :] += s
        slope[k, :, a] -= s
        slope[k, b, :] -= s
        slope[k, :, b] += s
    cost = slope[:, upper_i, upper_j] ** 2 * p * (1 - p) / (e[a] - e[rivals])[:, None] ** 2
    cost /= len(p) * cost.sum(axis=1).max()  # even play's games: 1
    result = minimize(
        lambda lam: -np.sqrt(np.maximum(lam @ cost, 1e-300)).sum(),
        np.full(len(rivals), 1 / len(rivals)),
        method="SLSQP",
        bounds=[(0, 1)] * len(rivals),
        constraints=[{"type": "eq", "fun": lambda lam: lam.sum() - 1}],
        options={"ftol": 1e-14, "maxiter": 500},
    )
    weight = np.sqrt(np.maximum(result.x @ cost, 0.0))
    split = np.zeros((n, n))
    split[upper_i, upper_j] = weight / weight.sum()
    return float(result.fun**2), split + split.T


def describe(field: Field) -> str:
    eq = field.equilibrium
    mix = ", ".join(f"{d}: {eq.weights[d]:.2f}" for d in eq.support)
    return (
        f"{field.name} (field seed {field.seed}): best deck {field.best}, lead "
        f"{100 * field.lead:.1f} points; equilibrium {{{mix}}}, outsiders at least "
        f"{100 * field.margin:.1f} points behind it; finding the best deck with the best "
        f"fixed split of the games (the true chances known) takes {best_bound(field):.2f} of "
        "even play's games as the confidence goes to 1"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--first-seed", type=int, default=0, help="seeds first, first + 1, ...")
    parser.add_argument("--quick", action="store_true", help="5 seeds: a smoke run")
    parser.add_argument("--budget", type=int, default=200_000, help="games a question may use")
    parser.add_argument("--confidence", type=float, default=CONFIDENCE, help="the rule's, 0.95")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--fields", nargs="+", choices=list(KINDS), default=list(KINDS), help="all unless given"
    )
    parser.add_argument(
        "--targets", nargs="+", choices=TARGETS, default=list(TARGETS), help="both unless given"
    )
    parser.add_argument(
        "--oracle",
        action="store_true",
        help='"best" also played by the oracle: the best fixed split, knowing the true chances',
    )
    args = parser.parse_args()
    targets = list(dict.fromkeys(args.targets))
    fields = list(dict.fromkeys(args.fields))
    seeds = range(args.first_seed, args.first_seed + (5 if args.quick else args.seeds))
    for name in fields:
        print(describe(make_field(name)))
    tasks = [
        (name, target, strategy, seed, args.budget, args.confidence)
        for name in fields
        for target in targets
        for seed in seeds
        for strategy in _strategies(target, args.oracle)
    ]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(one, tasks, chunksize=2))
    print(
        f"\n{len(seeds)} seeds ({seeds.start} to {seeds.stop - 1}), budget {args.budget:,} games, "
        f"rounds of {ROUND_GAMES:,} games or a tenth of those so far, confidence {args.confidence}"
    )
    print(
        "| field | question | median games: adaptive | even | ratio (95% interval) | out of "
        "budget: adaptive | even | wrong when the rule stopped: adaptive | even |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name in fields:
        for target in targets:
            print(_row(name, target, [r for r in results if r[:2] == (name, target)]))
    if args.oracle and "best" in targets:
        print(
            '\nThe oracle on "which deck is best": the best fixed split (knowing the true '
            "chances), the same rule and rounds\n"
            "| field | bound (confidence to 1) | median games: oracle | even | ratio (95% "
            "interval) | adaptive over oracle | out of budget | wrong when the rule stopped |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for name in fields:
            print(_oracle_row(name, [r for r in results if r[:2] == (name, "best")]))
    print("\nWrong answers among the runs the rule stopped, every field (95% Clopper-Pearson):")
    for target in targets:
        for strategy in _strategies(target, args.oracle):
            stopped = [r for r in results if r[1:3] == (target, strategy) and r[4] == "rule"]
            print(f"  {target}, {strategy}: {_error_rate(stopped)}")
    stated = f"{100 * (1 - args.confidence):.3g}%"
    print(f"  all: {_error_rate([r for r in results if r[4] == 'rule'])} (stated: {stated})")


def _strategies(target: str, oracle: bool) -> tuple[str, ...]:
    """The strategies a question is played by: the oracle too, when asked, on "best" (its
    split is the best one for that question only)."""
    return STRATEGIES + (("oracle",) if oracle and target == "best" else ())


def _error_rate(stopped: list[tuple[str, str, str, int, str, bool]]) -> str:
    """The share of wrong answers with its exact binomial interval."""
    if not stopped:
        return "no run stopped"
    wrong = sum(not r[5] for r in stopped)
    low, high = binomtest(wrong, len(stopped)).proportion_ci(0.95)
    return (
        f"{wrong}/{len(stopped)} = {100 * wrong / len(stopped):.1f}% "
        f"({100 * low:.1f}% to {100 * high:.1f}%)"
    )


def _ratio_interval(adaptive: list[int], even: list[int], resamples: int = 2000) -> str:
    """A 95% bootstrap interval of the ratio of the medians: the seeds drawn again with
    replacement (the same seeds for both strategies), a fixed generator."""
    a, e = np.asarray(adaptive, dtype=float), np.asarray(even, dtype=float)
    pick = np.random.default_rng(0).integers(0, len(a), size=(resamples, len(a)))
    ratios = np.median(a[pick], axis=1) / np.median(e[pick], axis=1)
    low, high = np.percentile(ratios, [2.5, 97.5])
    return f"{low:.2f} to {high:.2f}"


def _row(name: str, target: str, rows: list[tuple[str, str, str, int, str, bool]]) -> str:
    """One line of the table: the two strategies side by side."""
    cells: dict[str, tuple[float, str, str]] = {}
    for strategy in STRATEGIES:
        games, budget, wrong, stopped = _outcome(rows, strategy)
        rate = f"{wrong}/{stopped} ({100 * wrong / stopped:.0f}%)" if stopped else "–"
        cells[strategy] = (median(games), budget, rate)
    a, e = cells["adaptive"], cells["even"]
    interval = _ratio_interval(*(_outcome(rows, s)[0] for s in STRATEGIES))
    return (
        f"| {name} | {target} | {a[0]:,.0f} | {e[0]:,.0f} | {a[0] / e[0]:.2f} ({interval}) "
        f"| {a[1]} | {e[1]} | {a[2]} | {e[2]} |"
    )


def _oracle_row(name: str, rows: list[tuple[str, str, str, int, str, bool]]) -> str:
    """One line of the oracle's table: its games against even play's and the sampler's."""
    games = {s: _outcome(rows, s)[0] for s in ("even", "adaptive")}
    games["oracle"], budget, wrong, stopped = _outcome(rows, "oracle")
    oracle, even = median(games["oracle"]), median(games["even"])
    return (
        f"| {name} | {best_split(name)[0]:.2f} | {oracle:,.0f} | {even:,.0f} "
        f"| {oracle / even:.2f} ({_ratio_interval(games['oracle'], games['even'])}) "
        f"| {median(games['adaptive']) / oracle:.2f} "
        f"({_ratio_interval(games['adaptive'], games['oracle'])}) "
        f"| {budget} | {wrong}/{stopped} |"
    )


def _outcome(
    rows: list[tuple[str, str, str, int, str, bool]], strategy: str
) -> tuple[list[int], str, int, int]:
    """A strategy's runs among `rows`: (the games each used, "out of budget/runs", wrong
    answers among the runs the rule stopped, how many it stopped)."""
    mine = [r for r in rows if r[2] == strategy]
    stopped = [r for r in mine if r[4] == "rule"]
    wrong = sum(not r[5] for r in stopped)
    return [r[3] for r in mine], f"{len(mine) - len(stopped)}/{len(mine)}", wrong, len(stopped)


if __name__ == "__main__":
    main()
