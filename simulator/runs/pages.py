"""The runs as people read them: players named for the pages, the results page's summary in
sentences, its matchup grid's colours and charts, a run's rules in words. Presentation, built on
the selectors' report (`selectors.run_report`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from decks.models import Deck
from simulator.engine.core.registry import bot_label
from simulator.games import service_for
from simulator.runs.headlines import BotUsed, Comparison, LabelledHeadline
from simulator.runs.models import SimulationRun
from simulator.runs.selectors import run_bots, run_checks, run_report


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
        deck = Deck.objects.filter(pk=int(ref)).only("owner_id", "is_public", "slug").first()
        if deck is None:
            return "a deck since deleted", None
        if deck.owner_id == owner.pk:
            return "your deck", deck.get_absolute_url()
        return ("a public deck", deck.get_public_url()) if deck.is_public else ("a deck", None)
    return "", None


def heat_colour(value: float) -> str:
    """The colour of a share from 0 to 1 in a grid: rust below one half, sage above."""
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
                    else {"rate": cell, "colour": heat_colour(cell["rate"]), "against": names[j]}
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


# --- what a run's headline was measured with, and its checks with stronger bots -------------

# What a budgeted bot's budget counts, in the pages' words.
BUDGET_UNITS = {"search": "rollouts", "ismcts": "iterations"}


def bots_text(bots: Sequence[BotUsed]) -> str:
    """The bots a headline was measured with, in words: "heuristic bots", "search bots at 96
    rollouts a decision", "heuristic and random bots"."""
    words = []
    for used in bots:
        name = bot_label(used["bot"])[0].lower()
        budget = used.get("budget")
        unit = BUDGET_UNITS.get(used["bot"], "tries")
        words.append(f"{name} bots at {budget} {unit} a decision" if budget else f"{name} bots")
    if len(words) > 1 and all(w.endswith(" bots") for w in words):
        names = [w.removesuffix(" bots") for w in words]
        return ", ".join(names[:-1]) + " and " + names[-1] + " bots"
    return " and ".join(words)


def _side(
    run_id: int | None, headline: LabelledHeadline | None, bots: str, names: list[str]
) -> dict[str, Any]:
    """One run of a comparison as the page shows it: who leads, by how much, how sure."""
    leader = None
    if headline is not None and headline["leader"] is not None:
        leader = _leader_name(headline, names)
    return {"run": run_id, "bots": bots, "headline": headline, "leader": leader}


def _leader_name(headline: LabelledHeadline, names: list[str]) -> str:
    """Who a headline puts ahead, named as the page names the players (`names`, the same
    players in both runs of a comparison)."""
    index = headline["leader"] or 0
    if headline["kind"] == "change":
        return "the changed deck" if index == 1 else "deck A, unchanged"
    return names[index] if index < len(names) else headline["label"] or ""


def verdict_text(comparison: Comparison, names: list[str]) -> str:
    """The verdict of a check with stronger bots in a player's words."""
    verdict = comparison["verdict"]
    before, after = comparison["original_headline"], comparison["check_headline"]
    bots = f"with {bot_name(comparison['bot']).lower()}s in every seat"
    if comparison["status"] in SimulationRun.ACTIVE:
        return f"The check is still playing {bots}: no verdict yet."
    if before is None or after is None or before["leader"] is None:
        return f"The check {bots} did not finish: no verdict."
    was = _leader_name(before, names)
    now = _leader_name(after, names) if after["leader"] is not None else ""
    if verdict == "holds":
        return f"It holds: {bots}, {now} is still clearly ahead."
    if verdict == "reverses":
        return f"It turns around: {bots}, {now} comes out ahead instead of {was}."
    if verdict == "weaker":
        if after["significant"]:
            return f"It is weaker: {bots}, {now} still leads, but by clearly less."
        return f"It is weaker: {bots}, {was} is no longer clearly ahead: too close to call."
    return f"Unclear: {bots} as before, neither run tells the players apart from chance."


def check_page(run: SimulationRun) -> dict[str, Any]:
    """The results page's checks with stronger bots: what the run was measured with, the run
    it checks (if it is a check) and its checks side by side with their verdicts, whether one
    turned the result around, and the bot a new check would play."""
    checks = run_checks(run)
    names = player_names(run.plan["players"])
    rows = []
    for c in ([checks["check"]] if checks["check"] else []) + checks["checked_by"]:
        check_bots = bots_text([{"bot": c["bot"], "budget": c["budget"]}])
        rows.append(
            {
                "comparison": c,
                "is_this": c["run"] == run.pk,
                "original": _side(c["original"], c["original_headline"],
                                  bots_text(c["original_bots"]), names),
                "check": _side(c["run"], c["check_headline"], check_bots, names),
                "playing": c["status"] in SimulationRun.ACTIVE,
                "text": verdict_text(c, names),
            }
        )  # fmt: skip
    stronger = None
    if run.status == SimulationRun.Status.DONE:
        stronger = service_for(run.game).stronger_bot(p["bot"] for p in run.plan["players"])
    for row in rows:
        row["check"]["is_check"] = True
        row["sides"] = [row["original"], row["check"]]
    return {
        "measured": bots_text(run_bots(run)),
        "comparisons": rows,
        # A check of this run that turned its result around: the page says so first.
        "reversed_by": [
            r for r in rows if not r["is_this"] and r["comparison"]["verdict"] == "reverses"
        ],
        "stronger": bot_name(stronger).lower() if stronger else "",
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
