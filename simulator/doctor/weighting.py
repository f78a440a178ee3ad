"""The deck doctor against a field (#28): the pooling over the opponents, weighted by the
field's shares. Pure Python on plain counts (no Django), so the numbers are tested by hand.

A swap's change against a field is the share-weighted mean of its change against each deck of
the field, Δ = Σ wᵢ d̄ᵢ, with variance Σ wᵢ² Var(d̄ᵢ), Var(d̄ᵢ) = sᵢ² / nᵢ (sᵢ² the sample
variance of opponent i's paired differences): the swap's effect against the field as the field
is played, whatever number of games each deck got. The cut ranking pools the round-0 games the
same way: each game against deck i counts wᵢ / nᵢ (docs/doctor.md, "Against a field").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from simulator.runs.stats import Z95, normal_two_sided_p

PAIR_KEYS = ("n", "sum_d", "sum_d2", "a_only", "b_only")


def normalised(shares: Sequence[float]) -> list[float]:
    """The shares divided by their sum (their sum must be above zero)."""
    total = float(sum(shares))
    return [s / total for s in shares]


def field_games(total: int, weights: Sequence[float], least: int) -> list[int]:
    """Games for each deck of the field out of `total`: `least` each, the rest in proportion
    to the weights (rounded down), so they add up to `total` at most (`least` each when
    `total` cannot give that). In proportion, not evenly: with the same spread of paired
    differences against every deck, Σ wᵢ² s² / nᵢ is smallest for nᵢ ∝ wᵢ (Cauchy–Schwarz),
    s² / N, against s² k Σ wᵢ² / N for even games (equal only when the shares are)."""
    rest = max(0, total - least * len(weights))
    return [least + math.floor(rest * w) for w in weights]


def weighted_paired_test(
    per: Sequence[dict[str, float]], weights: Sequence[float]
) -> dict[str, Any]:
    """The paired comparison of the swap against the deck, one opponent's counts (`PAIR_KEYS`)
    each, pooled as the share-weighted mean of the opponents' mean differences: `mean`, its
    95% normal interval (`low`, `high`), `t` (mean over its standard error) and the two-sided
    `p`, as `stats.paired_test` gives them for one pool. An opponent of weight 0 plays no part;
    while any other has fewer than two games the variance is unknown (`t` None)."""
    mean, variance, known = 0.0, 0.0, True
    for counts, w in zip(per, weights, strict=True):
        if w <= 0:
            continue
        n = counts["n"]
        if n < 1:
            return _unknown(per, mean=None)
        m = counts["sum_d"] / n
        mean += w * m
        if n < 2:
            known = False
            continue
        var = max(0.0, (counts["sum_d2"] - n * m * m) / (n - 1))
        variance += w * w * var / n
    if not known:
        return _unknown(per, mean=mean)
    se = math.sqrt(variance)
    t = mean / se if se > 0 else 0.0
    out = _unknown(per, mean=mean)
    out.update(
        low=mean - Z95 * se, high=mean + Z95 * se, se=se, t=t,
        p=normal_two_sided_p(t) if se > 0 else 1.0,
    )  # fmt: skip
    out["significant"] = out["p"] < 0.05
    return out


def _unknown(per: Sequence[dict[str, float]], *, mean: float | None) -> dict[str, Any]:
    n = sum(c["n"] for c in per)
    return {
        "n": n, "mean": mean, "low": None, "high": None, "se": None, "t": None, "p": None,
        "enough": n >= 30, "significant": False,
        "a_only": sum(c["a_only"] for c in per), "b_only": sum(c["b_only"] for c in per),
    }  # fmt: skip


def weighted_cut_ranking(
    deck_cards: dict[str, int], opponents: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The deck's cards, worst first (never played, then by impact), from round-0 games
    against each deck of a field: `opponents` holds per deck its `weight`, the deck's `games`
    and `wins` against it and `cards` ({code: {"played": {"n", "k"}}}, the run's per-card
    rows). Each game against deck i counts wᵢ / nᵢ: a card's win rate when played is
    Σ cᵢ kᵢ / Σ cᵢ nᵢ, likewise when not played, and its variance p (1 − p) / n_eff with
    Kish's effective size n_eff = (Σ cᵢ nᵢ)² / Σ cᵢ² nᵢ (the plain n when every c is equal)."""
    ranked = []
    for code in deck_cards:
        sides: dict[str, list[float]] = {"played": [0.0, 0.0, 0.0], "not_played": [0.0, 0.0, 0.0]}
        played = 0
        for opp in opponents:
            if opp["weight"] <= 0 or not opp["games"]:
                continue
            c = opp["weight"] / opp["games"]
            row = (opp["cards"].get(code) or {}).get("played") or {"n": 0, "k": 0}
            played += row["n"]
            for side, n, k in (
                ("played", row["n"], row["k"]),
                ("not_played", opp["games"] - row["n"], opp["wins"] - row["k"]),
            ):
                sides[side][0] += c * k
                sides[side][1] += c * n
                sides[side][2] += c * c * n
        impact = se = None
        if played and all(s[1] > 0 for s in sides.values()):
            rates = {side: s[0] / s[1] for side, s in sides.items()}
            impact = rates["played"] - rates["not_played"]
            se = math.sqrt(
                sum(rates[side] * (1 - rates[side]) * s[2] / s[1] ** 2 for side, s in sides.items())
            )
        ranked.append({"code": code, "impact": impact, "se": se, "played": played})
    ranked.sort(key=lambda c: (c["impact"] is not None, c["impact"] or 0.0, c["code"]))
    return ranked
