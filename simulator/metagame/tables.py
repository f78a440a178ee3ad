"""What a field's tables of k seats (3 to 8) say about which deck to bring, with their
uncertainty. Pure numpy and scipy on plain data, no Django (docs/metagame.md, "Tables of k
seats").

A table is k seats, each drawn from the field by the shares, independently and with
replacement: a deck may hold several seats of one table, and a deck nobody plays (share 0) is
never drawn. Seen from one seat of deck i, the other k - 1 seats are then k - 1 independent
draws from the field, so deck i's results over every seat it held estimate one number: its win
rate at a table of this field. The input, per deck:

* `seats[i]`: the seat-games it played (a game where it held two seats counts two);
* `wins[i]`: its wins among them, a win being finishing first; a win shared by t seats counts
  1/t to each (no winner at all: 1/k to every seat);
* `place_sum[i]`, `place_sq[i]`, `placed[i]`: the sum and sum of squares of its finishing
  places and the seat-games they were counted over, where the game ranks its players (High
  Stakes Drifter by the ending stakes; tied seats share the mean of their places).

A random seat wins 1/k of the games, so 1/k is the baseline: a deck's edge is its win rate
minus 1/k. There is no matchup matrix: who beats whom at a table of k depends on everyone
seated, so the pairwise matrix (and the equilibrium and drift read from it) does not describe
these games, and nothing here pretends it does.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from simulator.metagame.analysis import check_confidence, check_shares, p_best, tier_list

MIN_SEATS = 3
MAX_SEATS = 8
#: Posterior draws behind the chance of being best.
DRAWS = 2000
NO_MATRIX_NOTE = (
    "The pairwise matrix does not describe games of {k} seats: who wins a table depends on "
    "everyone at it, so there is no matchup matrix, equilibrium or drift for this field."
)
BASELINE_NOTE = (
    "A seat drawn at random wins 1/{k} of the games ({baseline:.1%}): a deck's edge is its win "
    "rate less 1/{k}."
)
INTERVAL_NOTE = (
    "A win rate's interval is the Jeffreys interval (quantiles of Beta(wins + 1/2, seats - wins "
    "+ 1/2)), counting every seat-game as one trial; a mean place's is the normal interval "
    "(mean ± z·sd/√n)."
)
PLACES_NOTE = "Places rank the seats by their ending stakes, 1 the biggest; tied seats share."
NO_PLACES_NOTE = "The game does not rank its players beyond the winners: no places."
TABLES_NOTE = (
    "Every table is drawn from the field by its shares and gets the same number of games: "
    "giving the leading decks' tables more games would change the tables each deck meets, and "
    "so the question. The run stops as soon as one deck is the best at the confidence asked."
)
UNPLAYED_NOTE = "A deck with no share of the field is never drawn to a table: it has no figures."


def check_table_size(k: int) -> int:
    """The table size, 3 to 8 seats, or ValueError."""
    if type(k) is not int or not MIN_SEATS <= k <= MAX_SEATS:
        raise ValueError(f"a table has {MIN_SEATS} to {MAX_SEATS} seats, got {k!r}")
    return k


def draw_tables(
    shares: Sequence[float], k: int, tables: int, seed: int | np.random.Generator
) -> list[tuple[int, ...]]:
    """`tables` tables of `k` seats, each seat drawn from the field by the shares (with
    replacement: a deck may hold several seats), as sorted tuples of deck indices."""
    s = check_shares(shares, len(shares))
    check_table_size(k)
    if tables < 0:
        raise ValueError("tables must be zero or more")
    rng = np.random.default_rng(seed)
    drawn = rng.choice(len(s), size=(tables, k), p=s)
    return [tuple(sorted(int(d) for d in row)) for row in drawn]


def compositions(tables: Sequence[Sequence[int]]) -> list[tuple[tuple[int, ...], int]]:
    """The tables drawn grouped by composition (the decks seated, in order): each with how
    many times it was drawn, in the order of the compositions."""
    counted = Counter(tuple(sorted(t)) for t in tables)
    return sorted(counted.items())


def jeffreys(wins: float, n: float, confidence: float = 0.95) -> tuple[float, float]:
    """The Jeffreys interval of `wins` successes in `n` trials (wins may be fractional: shared
    wins): the equal-tailed quantiles of Beta(wins + ½, n - wins + ½), the low end 0 after no
    wins and the high end 1 after no losses."""
    # scipy where it is used: the runs' followers import this module in every worker and web
    # process, which start without it (as analysis.cell_table)
    from scipy.stats import beta

    alpha = 1 - check_confidence(confidence)
    if n < 0 or wins < 0 or wins > n:
        raise ValueError(f"wins must be between 0 and n, got {wins} of {n}")
    low = float(beta.ppf(alpha / 2, wins + 0.5, n - wins + 0.5)) if wins > 0 else 0.0
    high = float(beta.ppf(1 - alpha / 2, wins + 0.5, n - wins + 0.5)) if wins < n else 1.0
    return low, high


def _checked(name: str, values: Sequence[float], n: int) -> np.ndarray:
    a = np.asarray(values, dtype=float)
    if a.shape != (n,) or not np.isfinite(a).all() or (a < 0).any():
        raise ValueError(f"{name} must hold one count, zero or more, per deck ({n})")
    return a


def _place(
    i: int, place_sum: np.ndarray | None, place_sq: np.ndarray | None, placed: np.ndarray | None,
    z: float, k: int,
) -> dict[str, Any]:  # fmt: skip
    """Deck i's mean finishing place and its normal interval (clipped to 1..k); None where the
    game ranks no places or the deck has none."""
    if place_sum is None or place_sq is None or placed is None or placed[i] <= 0:
        return {"mean_place": None, "place_low": None, "place_high": None}
    n = float(placed[i])
    mean = float(place_sum[i]) / n
    var = max(0.0, float(place_sq[i]) / n - mean * mean) * n / max(1.0, n - 1)
    half = z * math.sqrt(var / n)
    return {
        "mean_place": mean,
        "place_low": max(1.0, mean - half),
        "place_high": min(float(k), mean + half),
    }


def deck_rates(
    wins: Sequence[float], seats: Sequence[float], k: int, *, confidence: float = 0.95,
    place_sum: Sequence[float] | None = None, place_sq: Sequence[float] | None = None,
    placed: Sequence[float] | None = None,
) -> list[dict[str, Any]]:  # fmt: skip
    """Per deck: its seat-games, wins, win rate (wins / seats; 1/k with no seats), Jeffreys
    interval, edge over 1/k, and its mean finishing place with an interval where places are
    given."""
    # scipy where it is used (see jeffreys)
    from scipy.stats import norm

    n = len(seats)
    s, w = _checked("seats", seats, n), _checked("wins", wins, n)
    if (w > s).any():
        raise ValueError("a deck cannot win more seat-games than it played")
    psum, psq, pn = (
        None if a is None else _checked(name, a, n)
        for name, a in (("place_sum", place_sum), ("place_sq", place_sq), ("placed", placed))
    )
    z = float(norm.ppf(0.5 + check_confidence(confidence) / 2))
    out = []
    for i in range(n):
        low, high = jeffreys(float(w[i]), float(s[i]), confidence)
        rate = float(w[i] / s[i]) if s[i] > 0 else 1 / k
        out.append({
            "deck": i, "seats": _whole(s[i]), "wins": float(w[i]), "estimate": rate,
            "low": low, "high": high, "edge": rate - 1 / k, "played": bool(s[i] > 0),
            **_place(i, psum, psq, pn, z=z, k=k),
        })  # fmt: skip
    return out


def _whole(x: float) -> int | float:
    return int(x) if float(x).is_integer() else float(x)


def chances_best(
    wins: Sequence[float], seats: Sequence[float], draws: int, seed: int | np.random.Generator
) -> np.ndarray:
    """Per deck, its chance of having the highest win rate at these tables: the share of
    `draws` posterior draws (each deck's rate ~ Beta(wins + ½, seats - wins + ½), the
    Jeffreys posterior, independently) in which it is highest, a tie split. A deck that never
    sat at a table takes no part (chance 0); with none played every deck is as likely."""
    n = len(seats)
    s, w = _checked("seats", seats, n), _checked("wins", wins, n)
    played = s > 0
    if not played.any():
        return np.full(n, 1 / n)
    rng = np.random.default_rng(seed)
    sample = np.full((draws, n), -1.0)
    sample[:, played] = rng.beta(
        w[played] + 0.5, s[played] - w[played] + 0.5, size=(draws, int(played.sum()))
    )
    return p_best(sample)


def analyse_tables(
    wins: Sequence[float], seats: Sequence[float], shares: Sequence[float], k: int, *,
    confidence: float = 0.95, seed: int = 0, draws: int = DRAWS,
    place_sum: Sequence[float] | None = None, place_sq: Sequence[float] | None = None,
    placed: Sequence[float] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Every figure of a field's tables of k seats: per deck its win rate with its interval,
    edge over 1/k, mean place with its interval (where places are given) and chance of being
    best; the tier list (the heads-up rule, on these intervals); the best deck; and the notes
    that say what the figures are, and that no matchup matrix describes these games."""
    check_table_size(k)
    n = len(seats)
    s = check_shares(shares, n)
    rates = deck_rates(wins, seats, k, confidence=confidence, place_sum=place_sum,
                       place_sq=place_sq, placed=placed)  # fmt: skip
    best = chances_best(wins, seats, draws, seed)
    for row, chance in zip(rates, best, strict=True):
        row["p_best"] = float(chance)
    tiers = tier_list([r for r in rates if r["played"]])
    top = max((r for r in rates if r["played"]), key=lambda r: (r["estimate"], r["p_best"]),
              default=rates[0])  # fmt: skip
    ranks = placed is not None
    return {
        "table_size": k, "baseline": 1 / k, "shares": [float(x) for x in s],
        "confidence": confidence, "seed": seed, "draws": draws, "rates": rates,
        "p_best": [float(x) for x in best], "tiers": tiers, "best": top,
        "places": ranks,
        "notes": {
            "matrix": NO_MATRIX_NOTE.format(k=k),
            "baseline": BASELINE_NOTE.format(k=k, baseline=1 / k),
            "interval": INTERVAL_NOTE,
            "places": PLACES_NOTE if ranks else NO_PLACES_NOTE,
            "tables": TABLES_NOTE,
            "unplayed": UNPLAYED_NOTE,
        },
    }  # fmt: skip


def stop_rule(p_best_values: Sequence[float], confidence: float) -> tuple[bool, int, float]:
    """Whether the question "which deck is best at these tables?" is answered: (stop, the
    deck most likely best, its chance), stopping when that chance reaches the confidence."""
    chances = np.asarray(p_best_values, dtype=float)
    leader = int(np.argmax(chances))
    certainty = float(chances[leader])
    return certainty >= confidence, leader, certainty
