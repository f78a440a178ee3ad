"""Reads of the simulation service: runs scoped to their owner, and the report of a run.

The report is computed from the run's merged aggregate (sums, counts and exact-value
histograms) on every read: nothing per game is stored but the sampled records.
"""

from __future__ import annotations

from typing import Any, cast

from django.db.models import Q, QuerySet
from django.http import Http404

from simulator.games import service_for
from simulator.games.plans import (
    CardRow,
    Length,
    MatchupAggregate,
    MatchupRow,
    Plan,
    PlanPlayer,
    PlayerRow,
    PositionAggregate,
    Rate,
    Report,
    RunAggregate,
    WhatIfRow,
)
from simulator.runs.followers import Part, followers
from simulator.runs.headlines import (
    BotUsed,
    Comparison,
    Headline,
    LabelledHeadline,
    change_headline,
    check_verdict,
    leader_headline,
    measured_with,
)
from simulator.runs.models import GameSample, SimulationRun
from simulator.runs.stats import (
    histogram_bins,
    mean_interval,
    mean_of,
    merge_all,
    paired_test,
    quantiles,
    rate,
)


def run_list(*, owner, stages: bool = False) -> QuerySet[SimulationRun]:
    """`owner`'s runs, newest first (anonymous: none): the runs they started, and with
    `stages` also the runs that features built on runs started as their stages (a field run's
    rounds, a deck doctor's; each is listed on its feature's page)."""
    if not getattr(owner, "is_authenticated", False):
        return SimulationRun.objects.none()
    runs = SimulationRun.objects.filter(owner=owner).defer("aggregate")
    return runs if stages else runs.exclude(stage_runs())


def parts_of(run_ids: list[int]) -> dict[int, Part]:
    """For the runs among `run_ids` that are some feature's stages: what they are part of, as
    each follower says (followers.py: `part_of`)."""
    parts: dict[int, Part] = {}
    for follower in followers():
        if follower.part_of is not None:
            parts |= follower.part_of(run_ids)
    return parts


def stage_runs() -> Q:
    """The runs that are some feature's stages (followers.py: each follower's `stage_runs`)."""
    q = Q(pk__in=[])
    for follower in followers():
        if follower.stage_runs is not None:
            q |= follower.stage_runs
    return q


def run_get(*, owner, pk: Any, with_results: bool = True) -> SimulationRun:
    """One of `owner`'s runs; Http404 for anyone else's (it is nobody else's business), and for
    a `pk` that is no run's. `with_results=False` leaves the merged results unread (a status
    read)."""
    if not getattr(owner, "is_authenticated", False):
        raise Http404("No such run.")
    runs = SimulationRun.objects.filter(owner=owner)
    try:
        return (runs if with_results else runs.defer("aggregate")).get(pk=int(pk))
    except (SimulationRun.DoesNotExist, ValueError, TypeError):
        raise Http404("No such run.") from None


def sample_get(*, run: SimulationRun, pk: Any) -> GameSample:
    """A sampled game record of `run`; Http404 if there is no such sample."""
    try:
        return run.samples.get(pk=int(pk))
    except (GameSample.DoesNotExist, ValueError, TypeError):
        raise Http404("No such game.") from None


def _player_rates(entry: PositionAggregate) -> dict[str, Any]:
    games = entry["games"]
    return {
        "games": games,
        "wins": entry["wins"],
        "losses": entry["losses"],
        "ties": entry["ties"],
        "win_rate": rate(entry["wins"], games),
        "first": rate(entry["first_wins"], entry["first_games"]),
        "other": rate(entry["other_wins"], entry["other_games"]),
    }


def _cards(entry: PositionAggregate, names: dict[str, str]) -> list[CardRow]:
    """Per card: win rate when played vs not, and chips won per shootout it took part in."""
    rows: list[CardRow] = []
    for code, card in entry["cards"].items():
        played = rate(card["wins"], card["games"])
        not_played = rate(entry["wins"] - card["wins"], entry["games"] - card["games"])
        delta = (
            played["rate"] - not_played["rate"]
            if played["rate"] is not None and not_played["rate"] is not None
            else None
        )
        rows.append(
            {
                "code": code,
                "name": names.get(code, code),
                "played": played,
                "not_played": not_played,
                "delta": delta,
                "enough": played["enough"] and not_played["enough"],
                "chips_per_shootout": mean_interval(
                    card["shootouts"], card["chips"], card["chips_sq"]
                ),
            }
        )
    rows.sort(key=lambda r: (not r["enough"], -(r["delta"] or 0), r["code"]))
    return rows


def _length(counts: dict[str, int]) -> Length | None:
    if not counts:
        return None
    median, p90 = quantiles(counts, (0.5, 0.9))
    return {
        "mean": mean_of(counts),
        "median": median,
        "p90": p90,
        "histogram": histogram_bins(counts),
    }


def run_report(run: SimulationRun) -> Report:
    """Everything the results page and the API show, computed from the merged aggregate."""
    plan: Plan = run.plan
    players = plan["players"]
    matchups = plan["matchups"]
    agg = cast(RunAggregate, run.aggregate or {})
    magg = agg.get("matchups") or []
    per_player = _per_player(len(players), matchups, magg)
    codes = {c for m in magg for pos in m["positions"] for c in pos["cards"]}
    names = service_for(run.game).card_names(codes)
    report_players = [
        _player_row(index, player, merge_all(per_player[index]), names)
        for index, player in enumerate(players)
    ]
    turns = merge_all(m["turns"] for m in magg) or {}
    shootouts = merge_all(m["shootouts"] for m in magg) or {}
    matchup_rows = _matchup_rows(players, matchups, magg)
    report: Report = {
        "games": agg.get("games", 0),
        "players": report_players,
        "turns": _length(turns),
        "shootouts": _length(shootouts),
        "matchups": matchup_rows,
        "matrix": None,
        "what_if": _what_if(plan, agg, matchup_rows),
    }
    if run.kind in (SimulationRun.Kind.ROUND_ROBIN, SimulationRun.Kind.GAUNTLET):
        report["matrix"] = _matrix(len(players), matchup_rows)
    return report


def _per_player(
    n_players: int, matchups: list[list[int]], magg: list[MatchupAggregate]
) -> list[list[PositionAggregate]]:
    """Each player's aggregates, one per matchup it sat in that has played."""
    per_player: list[list[PositionAggregate]] = [[] for _ in range(n_players)]
    for m, matchup in enumerate(matchups):
        if m >= len(magg):
            continue
        for pos, p in enumerate(matchup):
            per_player[p].append(magg[m]["positions"][pos])
    return per_player


def _player_row(
    index: int, player: PlanPlayer, entry: PositionAggregate | None, names: dict[str, str]
) -> PlayerRow:
    """A player's row of the report, from its merged aggregate (None: it played no game)."""
    row: PlayerRow = {
        "index": index,
        "label": player["label"],
        "bot": player["bot"],
        "source": player.get("source"),
        "games": 0,
    }
    if entry is None:
        return row
    row.update(_player_rates(entry))  # type: ignore[typeddict-item]
    row["stakes"] = {
        "mean": mean_of(entry["stakes"]),
        "histogram": histogram_bins(entry["stakes"]),
    } if entry["stakes"] else None  # fmt: skip
    row["shootouts_by_stat"] = {
        stat: rate(won, total) for stat, (won, total) in sorted(entry["shootouts_by_stat"].items())
    }
    row["cards"] = _cards(entry, names)
    return row


def _matchup_rows(
    players: list[PlanPlayer], matchups: list[list[int]], magg: list[MatchupAggregate]
) -> list[MatchupRow]:
    """A row per matchup that has played: its games, draws and each seat's win rate."""
    matchup_rows: list[MatchupRow] = []
    for m, matchup in enumerate(matchups):
        if m >= len(magg):
            continue
        positions = magg[m]["positions"]
        matchup_rows.append(
            {
                "index": m,
                "players": matchup,
                "labels": [players[p]["label"] for p in matchup],
                "games": magg[m]["games"],
                "draws": magg[m]["draws"],
                "win_rates": [rate(pos["wins"], pos["games"]) for pos in positions],
            }
        )
    return matchup_rows


def _matrix(n: int, matchup_rows: list[MatchupRow]) -> list[list[Rate | None]]:
    """Player i's win rate against player j, of a run of heads-up matchups."""
    matrix: list[list[Rate | None]] = [[None] * n for _ in range(n)]
    for mrow in matchup_rows:
        i, j = mrow["players"]
        matrix[i][j] = mrow["win_rates"][0]
        matrix[j][i] = mrow["win_rates"][1]
    return matrix


def _what_if(plan: Plan, agg: RunAggregate, matchup_rows: list[MatchupRow]) -> list[WhatIfRow]:
    """Per what-if pair that has played: A's and B's win rates and the paired test of B - A."""
    players = plan["players"]
    matchups = plan["matchups"]
    rows: list[WhatIfRow] = []
    for k, (a, b) in enumerate(plan.get("pairs", [])):
        pairs = agg.get("pairs") or []
        pair = pairs[k] if k < len(pairs) else None
        if pair is None or a >= len(matchup_rows):
            continue
        opponent = matchups[a][1]
        rows.append(
            {
                "opponent": players[opponent]["label"],
                "a": matchup_rows[a]["win_rates"][0],
                "b": matchup_rows[b]["win_rates"][0],
                "difference": paired_test(
                    pair["n"], pair["sum_d"], pair["sum_d2"], pair["a_only"], pair["b_only"]
                ),
            }
        )
    return rows


# --- a run's headline and its checks with stronger bots ------------------------------------


def run_bots(run: SimulationRun) -> list[BotUsed]:
    """The bots (and budgets) a run's headline was measured with (`headlines.measured_with`)."""
    return measured_with(run.plan["players"])


def run_headline(run: SimulationRun) -> LabelledHeadline:
    """What the run says (`headlines`): who is ahead, or for a what-if what the change does
    over every opponent's paired games; from the merged counts alone (no card is read)."""
    plan: Plan = run.plan
    agg = cast(RunAggregate, run.aggregate or {})
    headline: Headline
    if run.kind == SimulationRun.Kind.WHAT_IF:
        pooled = merge_all(agg.get("pairs") or []) or {}
        keys = ("n", "sum_d", "sum_d2", "a_only", "b_only")
        headline = change_headline(*(pooled.get(k, 0) for k in keys))
    else:
        n = len(plan["players"])
        wins, games = [0.0] * n, [0.0] * n
        for m, matchup in enumerate(plan["matchups"][: len(agg.get("matchups") or [])]):
            for pos, p in enumerate(matchup):
                entry = agg["matchups"][m]["positions"][pos]
                wins[p] += entry["wins"]
                games[p] += entry["games"]
        headline = leader_headline(wins, games)
    leader = headline["leader"]
    label = None if leader is None else plan["players"][leader]["label"]
    return cast(LabelledHeadline, {**headline, "label": label})


def run_checks(run: SimulationRun) -> dict[str, Any]:
    """`check`: the comparison of the run `run` checks with `run` (None if it checks none);
    `checked_by`: the comparisons of `run` with each run checking it, newest first.

    A run still playing checks nothing yet and nothing checks it: no query. Otherwise one, of
    the runs together, with their merged counts."""
    if run.is_active:
        check = _comparison(None, run) if run.checks_id else None
        return {"check": check, "checked_by": []}
    related = Q(pk=run.pk) | Q(checks_id=run.pk)
    if run.checks_id:
        related |= Q(pk=run.checks_id)
    rows = {r.pk: r for r in SimulationRun.objects.filter(related).order_by("-pk")}
    me = rows[run.pk]
    original = rows.get(run.checks_id) if run.checks_id else None
    return {
        "check": _comparison(original, me) if run.checks_id else None,
        "checked_by": [_comparison(me, r) for r in rows.values() if r.checks_id == run.pk],
    }


def checks_of(run_ids: list[int]) -> dict[int, list[Comparison]]:
    """The checks with stronger bots of each of the runs `run_ids` (finished or not), newest
    first, each beside the run it checks: one query (the deck doctor's proven swaps)."""
    out: dict[int, list[Comparison]] = {pk: [] for pk in run_ids}
    if not run_ids:
        return out
    rows = SimulationRun.objects.filter(Q(pk__in=run_ids) | Q(checks_id__in=run_ids))
    by_pk = {r.pk: r for r in rows.order_by("-pk")}
    for r in by_pk.values():
        if r.checks_id in out:
            out[r.checks_id].append(_comparison(by_pk.get(r.checks_id), r))
    return out


def _comparison(original: SimulationRun | None, check: SimulationRun) -> Comparison:
    """`original` and `check` side by side with the verdict (`original` None: unread, the
    check still playing, or deleted)."""
    player = check.plan["players"][0]
    done = check.status == SimulationRun.Status.DONE
    before = run_headline(original) if original is not None else None
    after = run_headline(check) if done else None
    return {
        "original": check.checks_id,
        "run": check.pk,
        "bot": player["bot"],
        "budget": player.get("budget"),
        "games": check.games,
        "status": check.status,
        "verdict": check_verdict(before, after, finished=done) if before else "unclear",
        "original_bots": run_bots(original) if original is not None else [],
        "original_headline": before,
        "check_headline": after,
    }


def _pct(r: Rate | None) -> str:
    if not r or r["rate"] is None or r["low"] is None or r["high"] is None:
        return "   -  "
    return f"{100 * r['rate']:5.1f}% [{100 * r['low']:4.1f}, {100 * r['high']:4.1f}]"


def report_text(run: SimulationRun) -> str:
    """The report as plain text (the `simulate` command prints it)."""
    report = run_report(run)
    lines = [
        f"Run {run.pk}: {run.get_kind_display()} of {run.game}, {run.games_done:,} of "
        f"{run.total_games:,} games, seed {run.seed}, {run.status}",
        "",
        f"{'player':32} {'games':>7} {'W':>6} {'L':>6} {'T':>5}  win rate [95% CI]",
    ]
    for p in report["players"]:
        if not p.get("games"):
            continue
        lines.append(
            f"{p['label'][:32]:32} {p['games']:7d} {p.get('wins', 0):6d} "
            f"{p.get('losses', 0):6d} {p.get('ties', 0):5d}  {_pct(p.get('win_rate'))}  "
            f"first {_pct(p.get('first'))}  other {_pct(p.get('other'))}"
        )
    for key, length in (("turns", report["turns"]), ("shootouts", report["shootouts"])):
        if length:
            lines.append(
                f"{key}: mean {length['mean']:.1f}, median {length['median']}, "
                f"90% below {length['p90']}"
            )
    if len(report["matchups"]) > 1:
        lines.append("")
        for row in report["matchups"]:
            lines.append(
                f"  {' vs '.join(row['labels'])}: {_pct(row['win_rates'][0])} ({row['games']})"
            )
    for w in report["what_if"]:
        d = w["difference"]
        lines.append(
            f"what-if vs {w['opponent']}: A {_pct(w['a'])}, changed {_pct(w['b'])}, "
            f"difference {d['mean']:+.3f} (p = {d['p']:.3g})"
            if d["mean"] is not None
            else f"what-if vs {w['opponent']}: no games"
        )
    return "\n".join(lines)
