"""Statistics of simulation runs: mergeable aggregates, Wilson intervals, paired tests.

Pure Python (no Django). A chunk's aggregate is a tree of dicts and lists whose leaves are
numbers; `merge` adds two trees leaf by leaf, so the aggregate of a whole run is the same
whether it was computed in one loop or merged from any number of chunks in any order.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from simulator.games.plans import Bin, MeanInterval, Rate

# The two-sided 95% normal quantile.
Z95 = 1.959963984540054
# Below this many games a per-card rate is shown greyed out, not as a finding.
MIN_SAMPLE = 30


def merge(a: Any, b: Any) -> Any:
    """`a` + `b` leaf by leaf: numbers add, dicts merge by key, lists add element-wise.

    Returns a new tree (neither argument is modified), so it is safe on rows loaded from JSON.
    """
    if a is None:
        return _copy(b)
    if b is None:
        return _copy(a)
    return _add_into(_copy(a), b)


def _add_into(out: Any, b: Any) -> Any:
    """`b` added into `out`, a tree of our own (a fresh copy): its dicts and lists are
    updated in place, and whatever `b` adds is copied, so each node is copied once (merging
    into a copy that was then copied again, level by level, made a run's per-chunk merge the
    costliest step of counting a chunk). Leaves add as `out + b`, as `merge` does."""
    if b is None:
        return out
    if out is None:
        return _copy(b)
    if isinstance(out, dict):
        for key, value in b.items():
            out[key] = _add_into(out.get(key), value)
        return out
    if isinstance(out, list):
        for i, value in enumerate(b):
            if i < len(out):
                out[i] = _add_into(out[i], value)
            else:
                out.append(_copy(value))
        return out
    return out + b


def _copy(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _copy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_copy(v) for v in x]
    return x


def merge_all(trees: Iterable[Any]) -> Any:
    """Every tree of `trees` merged (None for none)."""
    out = None
    for tree in trees:
        out = _add_into(out, tree)
    return out


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (Wilson 1927): (low, high); (0, 1) for n = 0.

    Unlike p ± z·sqrt(p(1-p)/n) it stays inside [0, 1] and is honest at 0 or n successes.
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(successes: float, n: float) -> Rate:
    """A proportion with its 95% Wilson interval and whether the sample is big enough."""
    low, high = wilson(successes, n)
    return {
        "n": n,
        "k": successes,
        "rate": successes / n if n else None,
        "low": low,
        "high": high,
        "enough": n >= MIN_SAMPLE,
    }


def mean_interval(n: float, total: float, total_sq: float) -> MeanInterval:
    """Mean with a 95% normal interval from the count, sum and sum of squares."""
    if n <= 0:
        return {"n": 0, "mean": None, "low": None, "high": None, "enough": False}
    mean = total / n
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n) if n > 1 else float("inf")
    return {
        "n": n,
        "mean": mean,
        "low": mean - half if n > 1 else None,
        "high": mean + half if n > 1 else None,
        "enough": n >= MIN_SAMPLE,
    }


def normal_two_sided_p(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def paired_test(
    n: float, sum_d: float, sum_d2: float, a_only: float, b_only: float
) -> dict[str, Any]:
    """Paired comparison of B against A on the same seeds (common random numbers).

    `d` is B's score minus A's in the same game (win 1, tie ½, loss 0). Reports the mean
    difference with a 95% interval and the paired t statistic (normal approximation, the
    samples being large), plus McNemar's test on the games exactly one of them won.
    """
    out: dict[str, Any] = dict(mean_interval(n, sum_d, sum_d2))
    if n > 1:
        var = max(0.0, (sum_d2 - n * (sum_d / n) ** 2) / (n - 1))
        se = math.sqrt(var / n)
        t = (sum_d / n) / se if se > 0 else 0.0
        out["t"] = t
        out["p"] = normal_two_sided_p(t) if se > 0 else 1.0
    else:
        out["t"], out["p"] = None, None
    discordant = a_only + b_only
    if discordant > 0:
        # Continuity-corrected McNemar statistic, chi-square with one degree of freedom.
        chi2 = (abs(a_only - b_only) - 1) ** 2 / discordant
        out["mcnemar_chi2"] = chi2
        out["mcnemar_p"] = normal_two_sided_p(math.sqrt(chi2))
    else:
        out["mcnemar_chi2"], out["mcnemar_p"] = 0.0, 1.0
    out["a_only"], out["b_only"] = a_only, b_only
    out["significant"] = out["p"] is not None and out["p"] < 0.05
    return out


def histogram_bins(counts: Mapping[str, int], bins: int = 20) -> list[Bin]:
    """Exact value counts ({"37": 4, ...}) grouped into at most `bins` equal-width bins."""
    if not counts:
        return []
    values = {int(k): v for k, v in counts.items()}
    lo, hi = min(values), max(values)
    width = max(1, math.ceil((hi - lo + 1) / bins))
    out: dict[int, int] = {}
    for value, count in values.items():
        start = lo + (value - lo) // width * width
        out[start] = out.get(start, 0) + count
    return [
        {"low": start, "high": start + width - 1, "count": out.get(start, 0)}
        for start in range(lo, hi + 1, width)
    ]


def quantiles(counts: Mapping[str, int], qs: Iterable[float] = (0.5,)) -> list[float | None]:
    """Quantiles of exact value counts (lower value at a boundary)."""
    items = sorted((int(k), v) for k, v in counts.items())
    total = sum(v for _, v in items)
    out: list[float | None] = []
    for q in qs:
        if not total:
            out.append(None)
            continue
        target, seen = q * total, 0
        for value, count in items:
            seen += count
            if seen >= target:
                out.append(value)
                break
    return out


def mean_of(counts: Mapping[str, int]) -> float | None:
    """The mean of exact value counts."""
    total = sum(counts.values())
    return sum(int(k) * v for k, v in counts.items()) / total if total else None


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of `p_values` (same order): family-wise error control.

    Sorted ascending, the k-th smallest (from 0) is multiplied by (m − k), made monotone and
    capped at 1; a hypothesis is rejected at level α when its adjusted p is below α.
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (m - k) * p_values[i]))
        adjusted[i] = running
    return adjusted
