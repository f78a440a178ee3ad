"""A run's headline (who is ahead, or what a what-if change does) and the verdict of checking
it with stronger bots: the same question played again with a stronger bot in every seat.

Pure Python (no Django), built on the run's counts and `stats`: the selectors read them from
a run's aggregate (`selectors.run_headline`), the deck doctor from its stage runs.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from simulator.runs.stats import paired_test, rate

Verdict = Literal["holds", "weaker", "reverses", "unclear"]
VERDICTS: tuple[Verdict, ...] = ("holds", "weaker", "reverses", "unclear")


class Share(TypedDict):
    """The leader's share with its 95% interval: a win rate, or what a change adds to one."""

    rate: float | None
    low: float | None
    high: float | None


class Headline(TypedDict):
    """What a run says. `leader` is the index of the player ahead (for a what-if, 1 when the
    changed deck does better, 0 when deck A does); `runner_up` the next one; `significant`
    whether the lead is more than chance (the leader's interval above every other player's, or
    the paired test's p < 0.05); `share` the leader's win rate (what-if: its advantage)."""

    kind: Literal["leader", "change"]
    leader: int | None
    runner_up: int | None
    share: Share
    significant: bool
    games: int


class LabelledHeadline(Headline):
    """A run's headline with the label of the player ahead (None: nobody is)."""

    label: str | None


class BotUsed(TypedDict):
    """A bot a run's players were played by, and its budget (None: the bot's default)."""

    bot: str
    budget: int | None


class Comparison(TypedDict):
    """A run (`original`) and a run checking its headline with stronger bots (`run`), side by
    side, with the verdict; `original_headline` is None while the check plays (unread then)."""

    original: int | None
    run: int
    bot: str
    budget: int | None
    games: int
    status: str
    verdict: Verdict
    original_bots: list[BotUsed]
    original_headline: LabelledHeadline | None
    check_headline: LabelledHeadline | None


NO_SHARE: Share = {"rate": None, "low": None, "high": None}


def measured_with(players: list[Any]) -> list[BotUsed]:
    """The bots (and budgets) a run's plan players were played by, each once, in the players'
    order: what its headline was measured with."""
    out: list[BotUsed] = []
    for player in players:
        used: BotUsed = {"bot": player["bot"], "budget": player.get("budget")}
        if used not in out:
            out.append(used)
    return out


def leader_headline(wins: list[float], games: list[float]) -> Headline:
    """Who is ahead among players who won `wins[i]` of `games[i]`: the best win rate, clearly
    ahead when its 95% interval is above every other player's (the results page's words)."""
    rates = [rate(w, n) for w, n in zip(wins, games, strict=True)]
    playing = [i for i, r in enumerate(rates) if r["rate"] is not None]
    total = int(max(games, default=0))
    if len(playing) < 2:
        return {"kind": "leader", "leader": None, "runner_up": None, "share": NO_SHARE,
                "significant": False, "games": total}  # fmt: skip
    ranked = sorted(playing, key=lambda i: (-(rates[i]["rate"] or 0.0), i))
    best, second = ranked[0], ranked[1]
    low = rates[best]["low"] or 0.0
    significant = all((rates[i]["high"] or 0.0) < low for i in ranked[1:])
    r = rates[best]
    share: Share = {"rate": r["rate"], "low": r["low"], "high": r["high"]}
    return {"kind": "leader", "leader": best, "runner_up": second, "share": share,
            "significant": significant, "games": total}  # fmt: skip


def change_headline(
    n: float, sum_d: float, sum_d2: float, a_only: float, b_only: float
) -> Headline:
    """What a what-if change does, from its paired games: the changed deck (1) ahead when it
    scores more on the same shuffles, deck A (0) when less; significant at p < 0.05."""
    test = paired_test(n, sum_d, sum_d2, a_only, b_only)
    mean, low, high = test["mean"], test["low"], test["high"]
    if mean is None or mean == 0:
        return {"kind": "change", "leader": None, "runner_up": None, "share": NO_SHARE,
                "significant": False, "games": int(n)}  # fmt: skip
    sign = 1 if mean > 0 else -1
    ends = (
        (low, high)
        if sign > 0
        else (None if high is None else -high, None if low is None else -low)
    )
    share: Share = {"rate": sign * mean, "low": ends[0], "high": ends[1]}
    return {"kind": "change", "leader": 1 if sign > 0 else 0, "runner_up": 0 if sign > 0 else 1,
            "share": share, "significant": bool(test["significant"]), "games": int(n)}  # fmt: skip


def check_verdict(original: Headline, check: Headline | None, *, finished: bool = True) -> Verdict:
    """The verdict of checking `original` with stronger bots (`check`, the same question):

    - `holds`: the check puts the same side ahead and is significant on its own, its lead not
      shrunk below the original's interval;
    - `weaker`: the original was significant and the check is not, or the check agrees but its
      lead shrank beyond the intervals (its top end below the original's bottom end);
    - `reverses`: the check significantly favours another side;
    - `unclear`: the check has not finished (or played no game), or neither run is significant.
    """
    if not finished or check is None or check["leader"] is None or original["leader"] is None:
        return "unclear"
    if check["significant"]:
        if check["leader"] != original["leader"]:
            return "reverses"
        shrank = (
            original["significant"]
            and check["share"]["high"] is not None
            and original["share"]["low"] is not None
            and check["share"]["high"] < original["share"]["low"]
        )
        return "weaker" if shrank else "holds"
    return "weaker" if original["significant"] else "unclear"
