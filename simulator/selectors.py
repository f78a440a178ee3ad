"""Reads of the simulation service: runs scoped to their owner, and the report of a run.

The report is computed from the run's merged aggregate (sums, counts and exact-value
histograms) on every read: nothing per game is stored but the sampled records.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from django.db.models import Case, QuerySet, When
from django.http import Http404
from django.shortcuts import get_object_or_404

from simulator.engine.core.registry import bot_label
from simulator.models import DoctorRun, GameSample, SimulationRun, TableGame
from simulator.plans import (
    CardRow,
    Length,
    MatchupRow,
    Plan,
    PlayerRow,
    PositionAggregate,
    Rate,
    Report,
    RunAggregate,
)
from simulator.specs import service_for
from simulator.stats import (
    histogram_bins,
    mean_interval,
    mean_of,
    merge_all,
    paired_test,
    quantiles,
    rate,
)


def run_list(*, owner) -> QuerySet[SimulationRun]:
    """`owner`'s runs, newest first (anonymous: none)."""
    if not getattr(owner, "is_authenticated", False):
        return SimulationRun.objects.none()
    return SimulationRun.objects.filter(owner=owner).defer("aggregate")


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


def table_game_list(*, owner) -> QuerySet[TableGame]:
    """`owner`'s games at the table: unfinished first, then the most recently played."""
    if not getattr(owner, "is_authenticated", False):
        return TableGame.objects.none()
    return TableGame.objects.filter(owner=owner).order_by(
        Case(When(status=TableGame.Status.OVER, then=1), default=0), "-updated_at", "-id"
    )


def table_game_get(*, owner, pk: Any, for_update: bool = False) -> TableGame:
    """One of `owner`'s games at the table (locked for a write with `for_update`); Http404 for
    anyone else's."""
    if not getattr(owner, "is_authenticated", False):
        raise Http404("No such game.")
    rows = TableGame.objects.select_for_update() if for_update else TableGame.objects
    try:
        return rows.get(owner=owner, pk=int(pk))
    except (TableGame.DoesNotExist, ValueError, TypeError, OverflowError):
        raise Http404("No such game.") from None


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
    per_player: list[list[PositionAggregate]] = [[] for _ in players]
    for m, matchup in enumerate(matchups):
        if m >= len(magg):
            continue
        for pos, p in enumerate(matchup):
            per_player[p].append(magg[m]["positions"][pos])
    codes = {c for m in magg for pos in m["positions"] for c in pos["cards"]}
    names = service_for(run.game).card_names(codes)
    report_players: list[PlayerRow] = []
    for index, player in enumerate(players):
        entry: PositionAggregate | None = merge_all(per_player[index])
        row: PlayerRow = {
            "index": index,
            "label": player["label"],
            "bot": player["bot"],
            "source": player.get("source"),
            "games": 0,
        }
        if entry is None:
            report_players.append(row)
            continue
        row.update(_player_rates(entry))  # type: ignore[typeddict-item]
        row["stakes"] = {
            "mean": mean_of(entry["stakes"]),
            "histogram": histogram_bins(entry["stakes"]),
        } if entry["stakes"] else None  # fmt: skip
        row["shootouts_by_stat"] = {
            stat: rate(won, total)
            for stat, (won, total) in sorted(entry["shootouts_by_stat"].items())
        }
        row["cards"] = _cards(entry, names)
        report_players.append(row)
    turns = merge_all(m["turns"] for m in magg) or {}
    shootouts = merge_all(m["shootouts"] for m in magg) or {}
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
    report: Report = {
        "games": agg.get("games", 0),
        "players": report_players,
        "turns": _length(turns),
        "shootouts": _length(shootouts),
        "matchups": matchup_rows,
        "matrix": None,
        "what_if": [],
    }
    if run.kind in (SimulationRun.Kind.ROUND_ROBIN, SimulationRun.Kind.GAUNTLET):
        n = len(players)
        matrix: list[list[Rate | None]] = [[None] * n for _ in range(n)]
        for mrow in matchup_rows:
            i, j = mrow["players"]
            matrix[i][j] = mrow["win_rates"][0]
            matrix[j][i] = mrow["win_rates"][1]
        report["matrix"] = matrix
    for k, (a, b) in enumerate(plan.get("pairs", [])):
        pairs = agg.get("pairs") or []
        pair = pairs[k] if k < len(pairs) else None
        if pair is None or a >= len(matchup_rows):
            continue
        opponent = matchups[a][1]
        report["what_if"].append(
            {
                "opponent": players[opponent]["label"],
                "a": matchup_rows[a]["win_rates"][0],
                "b": matchup_rows[b]["win_rates"][0],
                "difference": paired_test(
                    pair["n"], pair["sum_d"], pair["sum_d2"], pair["a_only"], pair["b_only"]
                ),
            }
        )
    return report


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


# --- the results page (views.run_results) ---------------------------------------------------


def player_name(player: Mapping[str, Any], index: int) -> str:
    """A player's name as the pages show it: its label, without the bot where the label is
    only the default "Player 2 (random)" (the pages name the bot beside it)."""
    label = player["label"]
    default = f"Player {index + 1} ({player['bot']})"
    return f"Player {index + 1}" if label == default else label


def player_names(players: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every player's name (player_name), two of one name told apart by their bots and, if
    that is not enough, by their numbers: "Frontier Patrol (random bot)"."""
    plain = [player_name(p, i) for i, p in enumerate(players)]
    names = [
        f"{name} ({bot_name(p['bot']).lower()})" if plain.count(name) > 1 else name
        for name, p in zip(plain, players, strict=True)
    ]
    return [f"{n}, player {i + 1}" if names.count(n) > 1 else n for i, n in enumerate(names)]


def bot_name(bot: str) -> str:
    """A bot as people name it: "Heuristic bot" for `heuristic`."""
    return f"{bot_label(bot)[0]} bot"


def _bot_beside(name: str, bot: str) -> str:
    # The bot named beside a player, unless its name already says it (player_names).
    words = bot_name(bot)
    return "" if name.endswith(f"({words.lower()})") else words


def source_text(source: str | None, owner: Any) -> tuple[str, str | None]:
    """(what a player's deck is, a link to it or None) in words: "starter deck", "your deck"
    (linked), "a public deck", "a draft bot's deck"; ("", None) for a game without decks."""
    kind, _, ref = (source or "").partition(":")
    if kind == "starter":
        return "starter deck", None
    if kind == "draft":
        return "a bot's deck from a draft", None
    if kind == "deck" and ref.isdigit():
        from decks.models import Deck

        deck = Deck.objects.filter(pk=int(ref)).only("owner_id", "is_public").first()
        if deck is None:
            return "a deck since deleted", None
        if deck.owner_id == owner.pk:
            return "your deck", deck.get_absolute_url()
        return ("a public deck", deck.get_absolute_url()) if deck.is_public else ("a deck", None)
    return "", None


def _heat(value: float) -> str:
    # Rust below 50%, sage above, paler the closer to even (the site's palette).
    t = max(-1.0, min(1.0, (value - 0.5) * 2))
    base = (79, 107, 74) if t >= 0 else (140, 59, 31)  # --sage, --rust
    r, g, b = (round(255 - (255 - c) * abs(t) * 0.6) for c in base)
    return f"rgb({r} {g} {b})"


def _verdict(ranked: list[dict[str, Any]], games: int) -> str:
    """Whether the best win rate is clearly ahead, in words: who is too close to call."""
    if len(ranked) < 2 or ranked[0]["rate"]["low"] is None:
        return ""
    best = ranked[0]
    close = [
        p["name"]
        for p in ranked[1:]
        if p["rate"]["high"] is None or p["rate"]["high"] >= best["rate"]["low"]
    ]
    if not close:
        return f"{best['name']} is clearly ahead: its interval is above everyone else's."
    who = close[0] if len(close) == 1 else ", ".join(close[:-1]) + " and " + close[-1]
    return (
        f"{best['name']} leads, but {who} {'is' if len(close) == 1 else 'are'} too close to "
        f"call after {games:,} games: more games narrow the intervals."
    )


def _change_text(run: SimulationRun) -> str:
    """A what-if's change to deck A in card names: "+1 Calamity Jane, −1 Doc Holliday"."""
    players = run.plan.get("players", [])
    if run.kind != SimulationRun.Kind.WHAT_IF or len(players) < 2:
        return ""
    change = players[1].get("change")
    if not change:
        return ""
    added, removed = change.get("add") or {}, change.get("remove") or {}
    names = service_for(run.game).card_names(set(added) | set(removed))
    words = [f"+{qty} {names.get(code, code)}" for code, qty in added.items()]
    words += [f"\u2212{qty} {names.get(code, code)}" for code, qty in removed.items()]
    return ", ".join(words)


def results_page(run: SimulationRun) -> dict[str, Any]:
    """Everything the results page shows: the report, the players named for people, a summary
    in sentences (best first), the matchup grid coloured by win rate and the charts."""
    report = run_report(run)
    names = player_names(report["players"])
    players: list[dict[str, Any]] = []
    for p in report["players"]:
        if not p.get("games"):
            continue
        source, link = source_text(p.get("source"), run.owner)
        players.append(
            {
                **p,
                "name": names[p["index"]],
                "bot_name": _bot_beside(names[p["index"]], p["bot"]),
                "source_text": source,
                "link": link,
                "rate": p["win_rate"],
            }
        )
    ranked = sorted(players, key=lambda p: -(p["rate"]["rate"] or 0))
    grid = None
    if report["matrix"] and len(report["matchups"]) > 1:
        grid = [
            {
                "name": names[i],
                "cells": [
                    None
                    if cell is None or cell["rate"] is None
                    else {"rate": cell, "colour": _heat(cell["rate"]), "against": names[j]}
                    for j, cell in enumerate(row)
                ],
            }
            for i, row in enumerate(report["matrix"])
        ]
    samples = []
    for sample in run.samples.all()[:40]:
        labels = (
            [names[p] for p in report["matchups"][sample.matchup]["players"]]
            if sample.matchup < len(report["matchups"])
            else []
        )
        samples.append({"sample": sample, "players": labels})
    return {
        "report": report,
        "change": _change_text(run),
        "names": names,
        "players": players,
        "ranked": ranked,
        "verdict": _verdict(ranked, report["games"]),
        "has_stakes": any(p.get("stakes") for p in players),
        "has_first": any(p["first"]["n"] and p["other"]["n"] for p in players),
        "stats": sorted({s for p in players for s in p.get("shootouts_by_stat") or {}}),
        "grid": grid,
        "samples": samples,
        "charts": service_for(run.game).charts(report, names),
    }


def run_players(run: SimulationRun) -> list[dict[str, Any]]:
    """The run's players as its page lists them: name, bot and deck in words."""
    out = []
    players = run.plan.get("players", [])
    names = player_names(players)
    for i, p in enumerate(players):
        source, link = source_text(p.get("source"), run.owner)
        bot = _bot_beside(names[i], p["bot"])
        out.append({"name": names[i], "bot_name": bot, "source_text": source, "link": link})
    return out


def run_rules_text(run: SimulationRun) -> list[str]:
    """The game, its format and its variants as people name them."""
    service = service_for(run.game)
    parts = [service.title]
    if run.format:
        parts.append(" + ".join(service.formats.get(f, f) for f in run.format.split("+")))
    parts += [service.variant_labels.get(v, v) for v in run.variants or []]
    return parts


def doctor_get(*, owner, pk: Any) -> DoctorRun:
    """One of `owner`'s deck doctor runs (another user's is a 404)."""
    return get_object_or_404(DoctorRun.objects.filter(owner=owner).select_related("deck"), pk=pk)


def doctor_replay_sample(run: SimulationRun) -> GameSample | None:
    """A kept game of a doctor's what-if run that shows the difference: the changed deck's
    game (against the first opponent) whose result differs from the unchanged deck's on the
    same seed, a win it gained first; None when every kept pair ended alike."""

    def won(sample: GameSample, player: int) -> bool:
        final = sample.final or {}
        winners = final.get("winners")
        if winners is None:
            winners = [] if final.get("winner") is None else [final["winner"]]
        return any(sample.seats[w] == player for w in winners)

    samples = {(s.matchup, s.index): s for s in run.samples.filter(matchup__in=[0, 1])}
    differing = []
    for (matchup, index), changed in sorted(samples.items()):
        unchanged = samples.get((0, index))
        if matchup != 1 or unchanged is None:
            continue
        if won(changed, 1) != won(unchanged, 0):
            differing.append((not won(changed, 1), index, changed))
    return min(differing, key=lambda d: d[:2])[2] if differing else None
