"""The metagame lab as people read it: a field's decks and settings in words, a field run's
answer in sentences, its charts (chart specs that config/static/drifter/results.js draws) and
its matchup grid's colours. Presentation only, built on the stored field and the run's result
(`services._result`, `analysis.analyse`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db.models import Sum

from cards.models import StarterDeck
from decks.models import Deck
from simulator.common.numbers import percent_text
from simulator.games import deck_game
from simulator.metagame.models import Field, FieldRun, FieldStage, Target
from simulator.runs.pages import bot_name, heat_colour

Chart = dict[str, Any]

# Pixel heights of a bar chart (the script grows the box to fit wrapped names).
ROW = 30
FRAME = 90
#: A deck below this share of the players after the drift counts as gone.
GONE = 0.005
#: Where the replicator chart samples its generations: every step up to this many points.
LINE_POINTS = 101

TARGET_WORDS: dict[str, str] = {
    Target.BEST: "the best deck to bring",
    Target.SUPPORT: "the decks of the equilibrium (the mix nobody can exploit)",
}
STATUS_WORDS = {
    "settled": "settled",
    "still moving": "still moving",
    "oscillating": "going round in circles",
}


def chance_text(p: float | None) -> str:
    """A probability for people: "83%", "under 1%", "over 99%"."""
    if p is None:
        return "—"
    if p < 0.01:
        return "under 1%"
    if p > 0.99:
        return "over 99%"
    return percent_text(p)


def interval_text(low: float, high: float) -> str:
    """An interval of two proportions: "52% to 61%"."""
    return f"{percent_text(low)} to {percent_text(high)}"


def bot_words(bot: str) -> str:
    """A bot as a sentence names it: "the heuristic bot"."""
    return f"the {bot_name(bot).lower()}"


def format_words(fmt: str) -> str:
    """A format by its name: "Standard", "Stud (sealed) + On Your Lonesome"."""
    formats = deck_game().formats
    fmt = fmt or next(iter(formats))  # blank: the game's default, its first format
    return " + ".join(formats.get(part, part) for part in fmt.split("+"))


def and_list(words: Sequence[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def table_words(size: int) -> str:
    """A table size in words: "heads-up", "tables of 4 players"."""
    return "heads-up" if size <= 2 else f"tables of {size} players"


def table_size_choices(current: Any = None) -> list[tuple[str, str]]:
    """The table sizes the form offers: heads-up, then 3 to 8 players as far as the game seats
    them (and a size the field holds that the game no longer seats, so it shows)."""
    spec = deck_game().spec
    high = min(8, spec.max_players)
    options = [("2", "Heads-up: two players, every pair of decks")]
    options += [(str(k), f"{k} players, tables drawn from the field") for k in range(3, high + 1)]
    if isinstance(current, int) and str(current) not in dict(options):
        options.append((str(current), f"{current} players"))
    return options


def settings_words(of: Field | FieldRun) -> list[str]:
    """A field's (or a field run's: the field as it started) settings, one phrase each."""
    return [
        format_words(of.format),
        table_words(of.table_size),
        f"decks played by {bot_words(of.bot or deck_game().default_bot())} unless a deck says "
        "otherwise",
        f"up to {of.budget:,} games",
        f"answered at {percent_text(of.confidence)} confidence",
        f"finds {TARGET_WORDS.get(of.target, of.target)}",
    ]


# --- a field's decks -----------------------------------------------------------------------


def _deck_of(entry: Mapping[str, Any]) -> Deck | None:
    if "deck" in entry:
        return Deck.objects.filter(pk=entry["deck"]).select_related("owner").first()
    if "public_deck" in entry:
        return Deck.objects.filter(slug=entry["public_deck"]).select_related("owner").first()
    return None


def entry_words(entry: Mapping[str, Any], viewer: Any) -> dict[str, Any]:
    """A field's deck as the viewer may know it: its name, what it is ("starter deck", "your
    deck", "public deck by kit") and a link; someone's private deck only as such."""
    if "starter" in entry:
        starter = StarterDeck.objects.filter(code=entry["starter"]).first()
        name = starter.name if starter else "A starter deck no longer sold"
        return {"name": name, "what": "starter deck", "link": None}
    deck = _deck_of(entry)
    if deck is None:
        return {"name": "A deck since deleted", "what": "", "link": None}
    if deck.owner_id == viewer.pk:
        return {"name": deck.name, "what": "your deck", "link": deck.get_absolute_url()}
    if deck.is_public:  # someone else's deck has its public page, by its link's slug
        what = f"public deck by {deck.owner.username}"
        return {"name": deck.name, "what": what, "link": deck.get_public_url()}
    return {"name": "A private deck of its owner's", "what": "", "link": None}


def share_text(share: float) -> str:
    """A share of the field in percent, to a tenth where it is not whole: "25%", "33.3%"."""
    whole = abs(100 * share - round(100 * share)) < 0.05
    return percent_text(share, 0 if whole else 1)


def shares_of(entries: Sequence[Mapping[str, Any]]) -> list[float]:
    """Each deck's share of the field, as a fraction of all the shares (0 when they are all
    0, which a saved field never is)."""
    total = sum(float(e.get("share") or 0) for e in entries)
    return [float(e.get("share") or 0) / total if total else 0.0 for e in entries]


def field_decks(field: Field, viewer: Any) -> list[dict[str, Any]]:
    """A field's decks for its page: name, what it is, its bot in words and its share of the
    field in percent."""
    fallback = field.bot or deck_game().default_bot()
    return [
        {
            **entry_words(entry, viewer),
            "bot": bot_name(entry.get("bot") or fallback),
            "own_bot": bool(entry.get("bot")),
            "share": entry["share"],
            "percent": share_text(share),
        }
        for entry, share in zip(field.entries, shares_of(field.entries), strict=True)
    ]


def run_deck_names(field_run: FieldRun) -> list[str]:
    """A field run's decks as its answers name them: the stored labels, a bot named beside a
    repeated deck in words ("Boomtown Law (heuristic bot)")."""
    names = []
    for entry in field_run.entries:
        label, bot = entry["label"], entry.get("bot", "")
        suffix = f" ({bot})"
        if bot and suffix in label:
            label = label.replace(suffix, f" ({bot_name(bot).lower()})", 1)
        # A deck the field holds twice is told apart by its place: "Boomtown Law (deck 5)".
        head, hash_, place = label.rpartition(" #")
        names.append(f"{head} (deck {place})" if hash_ and place.isdigit() else label)
    return names


def run_answer(field_run: FieldRun | None) -> str:
    """A field run's answer in a few words, for the lists."""
    if field_run is None:
        return "Not run yet"
    if field_run.is_active:
        return f"Playing: {field_run.games_spent:,} of {field_run.budget:,} games"
    if field_run.status != FieldRun.Status.DONE or not field_run.result:
        return field_run.get_status_display()
    result, names = field_run.result, run_deck_names(field_run)
    if "table" in result:
        best = result["table"]["best"]
        return (
            f"Bring {names[best['deck']]} (wins {percent_text(best['estimate'])} at "
            f"{table_words(field_run.table_size)})"
        )
    if field_run.target == Target.SUPPORT:
        support = [names[i] for i in result["nash"]["support"]]
        return f"The equilibrium: {and_list(support)}"
    best = result["best_response"]
    return f"Bring {names[best['deck']]} ({percent_text(best['estimate'])} against the field)"


def progress(field_run: FieldRun) -> dict[str, Any]:
    """The progress bar's figures and the round in words. A field run counts its games when a
    round ends; while one plays, the games its runs have played so far are added, so the bar
    moves within a long round too."""
    played = field_run.games_spent
    if field_run.is_active:
        live = FieldStage.objects.filter(field_run=field_run, round=field_run.round).aggregate(
            games=Sum("run__games_done")
        )
        played += live["games"] or 0
    budget = field_run.budget or 1
    return {
        "played": min(played, field_run.budget),
        "percent": round(100 * min(1.0, played / budget)),
        "status": ("Playing" if played else "Queued")
        if field_run.is_active
        else field_run.get_status_display(),
        "round_text": _round_text(field_run),
    }


def _round_text(field_run: FieldRun) -> str:
    """The round being played, in words."""
    k, first = field_run.table_size, field_run.round == 0
    if k > 2:
        if first:
            return f"the first round: tables of {k} drawn from the field"
        return f"round {field_run.round + 1}: more tables of {k} drawn from the field"
    if first and field_run.counts.get("reused"):
        return "the first round: the pairs without games from the earlier run"
    if first:
        return "the first round: every pair gets games"
    return f"round {field_run.round + 1}: games where they can change the answer"


# --- a finished field run --------------------------------------------------------------------


def _summary(field_run: FieldRun, result: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    """The answer first: what to bring (or the equilibrium's decks), and how the run stopped."""
    best = result["best_response"]
    level = percent_text(field_run.confidence)
    bring = (
        f"Bring {names[best['deck']]}: it wins {percent_text(best['estimate'])} "
        f"({interval_text(best['low'], best['high'])}) against this field; the chance it is "
        f"the best choice is {chance_text(best['p_best'])}."
    )
    tier_one = [names[t["deck"]] for t in result["tiers"] if t["tier"] == 1]
    close = [n for n in tier_one if n != names[best["deck"]]]
    also = f"Also in tier 1, too close to tell apart from it: {and_list(close)}." if close else ""
    if field_run.target == Target.SUPPORT:
        nash = result["nash"]
        mix = [f"{names[i]} ({percent_text(nash['weights'][i])})" for i in nash["support"]]
        headline = (
            f"The equilibrium's decks: {and_list(mix)}. A field in these shares is one no "
            "single deck beats on average."
            if len(mix) > 1
            else f"The equilibrium is one deck: {names[nash['support'][0]]}. It beats or ties "
            "every other deck on average, so a field of it alone is one no deck beats."
        )
        sure = result["support_stability"]["same_support"]
        exactly = "these decks" if len(mix) > 1 else "this deck"
        also = (
            f"The chance the equilibrium has exactly {exactly} is {chance_text(sure)}. "
            f"Against the field as you gave it: {bring[0].lower()}{bring[1:]}"
        )
        question = "the equilibrium's decks were settled"
    else:
        headline, question = bring, "the best deck was known"
    games, budget = result["games"], field_run.budget
    rounds = f"{result['rounds']} round{'s' if result['rounds'] != 1 else ''}"
    if result["stopped_by"] == "rule":
        stopped = (
            f"Answered at the {level} confidence you asked for: {question} after {games:,} of "
            f"the {budget:,} games the budget allowed ({rounds})."
        )
    else:
        stopped = (
            f"The budget ran out before the answer reached {level} confidence: {games:,} of "
            f"{budget:,} games played in {rounds}. The answer above is the best guess so far; "
            "a bigger budget would make it surer."
        )
    answered = result["stopped_by"] == "rule"
    return {
        "headline": headline, "also": also, "stopped": stopped, "answered": answered,
        "reused": reused_text(result.get("reused"), games, names),
    }  # fmt: skip


def reused_text(reused: Mapping[str, Any] | None, games: int, names: list[str]) -> str:
    """What a field run took from an earlier run of the field, in a sentence ("Reused 4,200
    games of the run of 28 Nov for the pairs that did not change; played 900 new ones for Bad
    Hombre's row."); "" when it reused nothing."""
    if not reused:
        return ""
    when = datetime.fromisoformat(reused["reused_from_date"])
    text = (
        f"Reused {int(reused['reused_games']):,} games of the run of {when.day} "
        f"{when:%b %Y} for the pairs that did not change; "
    )
    new = [names[k] for k in reused.get("new_decks", [])]
    if not games:
        return text + "nothing new needed playing."
    if not new:
        return text + f"played {games:,} new ones."
    rows = f"{new[0]}'s row" if len(new) == 1 else f"the rows of {and_list(new)}"
    return text + f"played {games:,} new ones for {rows}."


def _bars(
    labels: list[str], values: list[float], intervals: list[Any], tips: list[str], *, title: str,
    x: str, name: str,
) -> Chart:  # fmt: skip
    """A "rates" chart (results.js): horizontal bars on a 0–100% axis, an interval across each
    bar where there is one."""
    return {
        "kind": "rates",
        "title": title,
        "x": x,
        "labels": labels,
        "series": [{"name": name, "values": values, "intervals": intervals, "tips": tips}],
        "height": FRAME + ROW * max(len(labels), 1),
    }


def _tier_chart(
    rows: list[dict[str, Any]], tips: list[str], *, title: str, x: str, name: str
) -> Chart:
    """A tier list's chart: a bar per deck in tier order ("Tier 1: Boomtown Law"), its
    estimate in percent with its interval across it, and each bar's tip."""
    return _bars(
        [f"Tier {r['tier']}: {r['name']}" for r in rows],
        [round(100 * r["estimate"], 1) for r in rows],
        [[round(100 * r["low"], 1), round(100 * r["high"], 1)] for r in rows],
        tips, title=title, x=x, name=name,
    )  # fmt: skip


def _tiers(result: Mapping[str, Any], names: list[str], confidence: float) -> dict[str, Any]:
    """The tier list: rows in tier order, and its chart."""
    level = percent_text(confidence)
    rows = [
        {
            **t,
            "name": names[t["deck"]],
            "rate": percent_text(t["estimate"]),
            "interval": interval_text(t["low"], t["high"]),
            "chance": chance_text(t["p_best"]),
        }
        for t in result["tiers"]
    ]
    chart = _tier_chart(
        rows,
        [
            f"wins {percent_text(r['estimate'])} ({r['interval']}) against the field; "
            f"the best choice in {r['chance']} of the draws"
            for r in rows
        ],
        title="Win rate against the field",
        x=f"Win rate against the field (bar) and its {level} interval (line)",
        name="Against the field",
    )
    return {"rows": rows, "chart": chart, "tiers": len({r["tier"] for r in rows})}


def _cell(row: str, col: str, cell: Mapping[str, Any], level: str) -> dict[str, Any]:
    if cell["mirror"]:
        return {
            "mirror": True,
            "text": "50%",
            "title": f"{row} against itself: the mirror match, 50% by symmetry, never played",
        }
    games = int(cell["games"])
    interval = interval_text(cell["low"], cell["high"])
    return {
        "mirror": False,
        "text": percent_text(cell["estimate"]),
        "detail": f"{round(100 * cell['low'])}–{round(100 * cell['high'])}",
        "games": games,
        "colour": heat_colour(cell["estimate"]) if games else "",
        "title": f"{row} against {col}: wins {percent_text(cell['estimate'])} "
        f"({level} sure: {interval}) of {games:,} game{'s' if games != 1 else ''}",
    }


def _heatmap(result: Mapping[str, Any], names: list[str], confidence: float) -> list[dict]:
    """The matchup grid: per row deck, per column deck, its win rate coloured (rust below
    even, sage above), its interval and games; the diagonal the mirror match."""
    level = percent_text(confidence)
    return [
        {
            "name": names[i],
            "cells": [_cell(names[i], names[j], cell, level) for j, cell in enumerate(row)],
        }
        for i, row in enumerate(result["cells"])
    ]


def _cycle_text(cycle: Mapping[str, Any], names: list[str]) -> str:
    """ "A beats B, B beats C, C beats A — 83% sure"."""
    beats = ", ".join(f"{names[e['winner']]} beats {names[e['loser']]}" for e in cycle["edges"])
    return f"{beats} — {chance_text(cycle['probability'])} sure"


def _equilibrium(result: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    """The equilibrium's mix (a chart of its decks' weights), how stable its decks are across
    the posterior's draws, the best response to the field and the rock-paper-scissors cycles."""
    nash, stability = result["nash"], result["support_stability"]
    support = list(nash["support"])
    chart = _bars(
        [names[i] for i in support],
        [round(100 * nash["weights"][i], 1) for i in support],
        [[None, None] for _ in support],
        [
            f"{percent_text(nash['weights'][i])} of the mix; in the mix in "
            f"{chance_text(stability['in_support'][i])} of the draws"
            for i in support
        ],
        title="The equilibrium's mix of decks",
        x="Share of the players in the mix",
        name="Share of the mix",
    )
    rows = [
        {
            "name": names[i],
            "weight": percent_text(nash["weights"][i]) if i in support else "—",
            "in_support": chance_text(stability["in_support"][i]),
            "mean": percent_text(stability["mean_weight"][i]),
            "inside": i in support,
        }
        for i in range(len(names))
    ]
    best = result["best_response"]
    return {
        "chart": chart,
        "support": [names[i] for i in support],
        "pure": len(support) == 1,
        "same_support": chance_text(stability["same_support"]),
        "draws": stability["draws"],
        "rows": rows,
        "best": names[best["deck"]],
        "best_rate": percent_text(best["estimate"]),
        "best_interval": interval_text(best["low"], best["high"]),
        "cycles": [_cycle_text(c, names) for c in result["cycles"]],
    }


def _replicator(result: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    """Where the meta goes: a line of each deck's share over the generations, and the state it
    ends in, in words."""
    drift = result["replicator"]
    history = drift["history"]
    step = max(1, -(-(len(history) - 1) // (LINE_POINTS - 1)))
    picked = list(range(0, len(history), step))
    if picked[-1] != len(history) - 1:
        picked.append(len(history) - 1)
    chart = {
        "kind": "lines",
        "title": "Share of the players by generation",
        "x": "Generation",
        "y": "Share of the players",
        "labels": [str(g) for g in picked],
        "series": [
            {"name": name, "values": [round(100 * history[g][i], 2) for g in picked]}
            for i, name in enumerate(names)
        ],
        "height": 360,
    }
    final = drift["final"]
    kept = sorted(
        ((names[i], share) for i, share in enumerate(final) if share >= GONE), key=lambda k: -k[1]
    )
    gone = [names[i] for i, share in enumerate(final) if share < GONE]
    where = and_list([f"{name} {percent_text(share)}" for name, share in kept])
    generations = drift["generations"]
    if drift["status"] == "settled":
        text = f"It settles after {generations} generations: {where}."
    elif drift["status"] == "oscillating":
        text = (
            f"It never settles: the shares rise and fall in turn, round in circles. After "
            f"{generations} generations: {where}."
        )
    else:
        text = f"After {generations} generations it is still moving, at {where} for now."
    if gone:
        text += f" {and_list(gone)} {'dies' if len(gone) == 1 else 'die'} out."
    return {"chart": chart, "text": text, "status": STATUS_WORDS.get(drift["status"], "")}


def _games(field_run: FieldRun, names: list[str]) -> dict[str, Any]:
    """Where the games went: per pair its games in all, in the last round, and the sampler's
    reason for the last round."""
    games = field_run.counts.get("games") or []
    last: dict[str, Any] = (
        field_run.rounds[-1] if field_run.rounds else {"games": [], "reasons": [], "round": 0}
    )
    n = len(names)
    pairs = [
        {
            "a": names[i],
            "b": names[j],
            "games": int(games[i][j]) if games else 0,
            "last": int(last["games"][i][j]) if last["games"] else 0,
            "reason": last["reasons"][i][j] if last["reasons"] else "",
        }
        for i in range(n)
        for j in range(i + 1, n)
    ]
    return {"pairs": pairs, "round": int(last["round"]) + 1, "rounds": len(field_run.rounds)}


def result_page(field_run: FieldRun) -> dict[str, Any]:
    """Everything a finished field run's page shows, section by section (a table run's:
    table_page)."""
    result = field_run.result or {}
    if "table" in result:
        return table_page(field_run)
    names = run_deck_names(field_run)
    return {
        "names": names,
        "summary": _summary(field_run, result, names),
        "tiers": _tiers(result, names, field_run.confidence),
        "heatmap": _heatmap(result, names, field_run.confidence),
        "equilibrium": _equilibrium(result, names),
        "replicator": _replicator(result, names),
        "games": _games(field_run, names),
        "level": percent_text(field_run.confidence),
    }


def run_decks(field_run: FieldRun) -> list[dict[str, Any]]:
    """A field run's decks as it played them: name, bot and share of the field."""
    names = run_deck_names(field_run)
    return [
        {"name": name, "bot": bot_name(entry["bot"]), "percent": share_text(share)}
        for name, entry, share in zip(
            names, field_run.entries, shares_of(field_run.entries), strict=True
        )
    ]


# --- a finished run at tables of more than two seats ------------------------------------------


def place_text(row: Mapping[str, Any]) -> str:
    """A mean finishing place with its interval: "2.31 (2.20 to 2.42)"; "—" without places."""
    if row.get("mean_place") is None:
        return "—"
    return f"{row['mean_place']:.2f} ({row['place_low']:.2f} to {row['place_high']:.2f})"


def _edge_text(edge: float) -> str:
    """A win rate's edge over a random seat's, in points with a true minus sign."""
    points = round(100 * edge, 1)
    sign = "+" if points > 0 else "−" if points < 0 else "±"
    return f"{sign}{abs(points):g} points"


def _table_summary(field_run: FieldRun, result: Mapping[str, Any], names: list[str]) -> dict:
    """The answer first: the deck to bring to these tables, and how the run stopped."""
    table, k = result["table"], field_run.table_size
    best, level = table["best"], percent_text(field_run.confidence)
    headline = (
        f"Bring {names[best['deck']]}: it wins {percent_text(best['estimate'])} "
        f"({interval_text(best['low'], best['high'])}) of its games at tables of {k} drawn from "
        f"this field, where a seat taken at random wins {percent_text(1 / k)}; the chance it "
        f"is the best choice is {chance_text(best['p_best'])}."
    )
    close = [names[t["deck"]] for t in result["tiers"]
             if t["tier"] == 1 and t["deck"] != best["deck"]]  # fmt: skip
    also = f"Also in tier 1, too close to tell apart from it: {and_list(close)}." if close else ""
    games, budget = result["games"], field_run.budget
    rounds = f"{result['rounds']} round{'s' if result['rounds'] != 1 else ''}"
    if result["stopped_by"] == "rule":
        stopped = (
            f"Answered at the {level} confidence you asked for: the best deck was known after "
            f"{games:,} of the {budget:,} games the budget allowed ({rounds})."
        )
    else:
        stopped = (
            f"The budget ran out before the answer reached {level} confidence: {games:,} of "
            f"{budget:,} games played in {rounds}. The answer above is the best guess so far; "
            "a bigger budget would make it surer."
        )
    return {"headline": headline, "also": also, "stopped": stopped,
            "answered": result["stopped_by"] == "rule", "reused": ""}  # fmt: skip


def _table_tiers(result: Mapping[str, Any], names: list[str], confidence: float) -> dict:
    """The tier list at the tables: rows in tier order (win rate, interval, edge over 1/k, mean
    place, chance of being best) and its chart; the decks never seated listed apart."""
    rates = {r["deck"]: r for r in result["table"]["rates"]}
    rows = [
        {**t, "name": names[t["deck"]], "rate": percent_text(t["estimate"]),
         "interval": interval_text(t["low"], t["high"]), "edge": _edge_text(t["edge"]),
         "place": place_text(rates[t["deck"]]), "chance": chance_text(t["p_best"]),
         "seats": int(t["seats"])}
        for t in result["tiers"]
    ]  # fmt: skip
    chart = _tier_chart(
        rows,
        [
            f"wins {r['rate']} ({r['interval']}) of {r['seats']:,} seat-games; the best choice "
            f"in {r['chance']} of the draws"
            for r in rows
        ],
        title="Win rate at these tables",
        x=f"Win rate at the tables (bar) and its {percent_text(confidence)} interval (line)",
        name="At the tables",
    )
    unplayed = [names[i] for i, r in rates.items() if not r["played"]]
    return {"rows": rows, "chart": chart, "unplayed": unplayed}


def _table_games(field_run: FieldRun, result: Mapping[str, Any], names: list[str]) -> dict:
    """Where the games went: per composition drawn, its decks in words and its games, most
    played first; and the reason."""
    compositions = sorted(result["table"]["compositions"], key=lambda c: (-c["games"], c["seats"]))
    rows = []
    for c in compositions:
        counted: dict[int, int] = {}
        for k in c["seats"]:
            counted[k] = counted.get(k, 0) + 1
        words = [f"{n} × {names[k]}" if n > 1 else names[k] for k, n in counted.items()]
        rows.append({"decks": and_list(words), "games": int(c["games"])})
    return {"rows": rows, "reason": result["table"]["notes"]["tables"],
            "rounds": len(field_run.rounds)}  # fmt: skip


def table_page(field_run: FieldRun) -> dict[str, Any]:
    """Everything a finished run at tables of 3 to 8 seats shows: the answer, the tier list
    with each deck's win rate, edge and mean place, what no matchup matrix can say, and the
    games per table composition."""
    result = field_run.result or {}
    names = run_deck_names(field_run)
    k = field_run.table_size
    return {
        "table": True,
        "k": k,
        "baseline": percent_text(1 / k),
        "random_place": f"{(k + 1) / 2:g}",
        "names": names,
        "summary": _table_summary(field_run, result, names),
        "tiers": _table_tiers(result, names, field_run.confidence),
        "places": result["table"]["places"],
        "games": _table_games(field_run, result, names),
        "level": percent_text(field_run.confidence),
    }
