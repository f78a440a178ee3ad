"""Simulation pages: the new-run form, the run page with a live progress bar (htmx polling),
results as SVG charts, and the replay viewer. Thin: services write, selectors read."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from simulator import charts, selectors, services
from simulator.adapters import RunRefused
from simulator.engine.core import games
from simulator.engine.core.errors import EngineError
from simulator.models import SimulationRun

MAX_PLAYERS = 8


def _deck_choices(user) -> list[tuple[str, list[tuple[str, str]]]]:
    from cards.models import StarterDeck
    from decks.models import Deck

    starters = [
        (f"starter:{st.code}", f"{st.name} ({st.code})") for st in StarterDeck.objects.all()
    ]
    mine = [(f"deck:{d.pk}", d.name) for d in Deck.objects.filter(owner=user).order_by("name")]
    public = [
        (f"deck:{d.pk}", f"{d.name} (by {d.owner.username})")
        for d in Deck.objects.filter(is_public=True)
        .exclude(owner=user)
        .select_related("owner")
        .order_by("name")[:50]
    ]
    return [("Starter decks", starters), ("My decks", mine), ("Public decks", public)]


def _form_context(user, data: dict[str, Any] | None = None) -> dict[str, Any]:
    from simulator.engine.drifter import formats, variants

    specs = games()
    bots = sorted({bot for spec in specs.values() for bot in spec.bots})
    data = data or {}
    rows = []
    for i in range(MAX_PLAYERS):
        default_deck = "starter:HSD-S1" if i == 0 else "starter:HSD-S2" if i == 1 else ""
        rows.append(
            {
                "index": i,
                "deck": data.get(f"deck_{i}", default_deck),
                "bot": data.get(f"bot_{i}", "heuristic" if i < 2 else ""),
            }
        )
    return {
        "games": [
            {"name": s.name, "title": s.title, "needs_decks": s.needs_decks, "bots": sorted(s.bots)}
            for s in specs.values()
        ],
        "kinds": SimulationRun.Kind.choices,
        "formats": formats.FORMAT_LABELS,
        "play_variants": variants.PLAY_VARIANTS,
        "bots": bots,
        "deck_choices": _deck_choices(user),
        "rows": rows,
        "data": data,
        # A double-clicked submit sends the same key twice: one run, not two.
        "idempotency_key": data.get("idempotency_key") or uuid.uuid4().hex,
    }


def _players_from_post(post, needs_decks: bool) -> list[dict[str, Any]]:
    players = []
    for i in range(MAX_PLAYERS):
        bot = post.get(f"bot_{i}", "").strip()
        if not bot:
            continue  # an empty bot: this row does not play
        player: dict[str, Any] = {"bot": bot}
        source = post.get(f"deck_{i}", "")
        if needs_decks and source:
            kind, _, ref = source.partition(":")
            if kind == "starter":
                player["starter"] = ref
            elif kind == "deck" and ref.isdigit():
                player["deck"] = int(ref)
        players.append(player)
    return players


def _int(value: str | None, default: int | None = None) -> int | None:
    try:
        return int(value) if value not in (None, "") else default
    except ValueError:
        return default


@login_required
def run_list(request):
    """Your runs, newest first, and a link to start one."""
    runs = selectors.run_list(owner=request.user)[:100]
    return render(request, "simulator/list.html", {"runs": runs})


@login_required
@require_http_methods(["GET", "POST"])
def run_new(request):
    """The new-run form: every registered game; decks only where the game needs them."""
    errors: list[dict[str, Any]] = []
    if request.method == "POST":
        post = request.POST
        game = post.get("game", "drifter")
        spec = games().get(game)
        needs_decks = spec.needs_decks if spec else True
        try:
            run, _ = services.run_create(
                owner=request.user,
                game=game,
                kind=post.get("kind", "match"),
                format=post.get("format", "standard") if needs_decks else "",
                variants=post.getlist("variants") if needs_decks else [],
                games=_int(post.get("games"), 0) or 0,
                seed=_int(post.get("seed")),
                players=_players_from_post(post, needs_decks),
                idempotency_key=post.get("idempotency_key") or None,
            )
            return redirect("simulator:detail", pk=run.pk)
        except RunRefused as exc:
            errors = exc.errors
    context = _form_context(request.user, request.POST if request.method == "POST" else None)
    context["errors"] = errors
    return render(request, "simulator/new.html", context, status=400 if errors else 200)


@login_required
def run_detail(request, pk: int):
    """The run page: its players, a live progress bar and, once finished, the results."""
    run = selectors.run_get(owner=request.user, pk=pk)
    return render(request, "simulator/detail.html", {"run": run})


@login_required
def run_progress(request, pk: int):
    """The htmx fragment the run page polls; it stops polling once the run is finished.

    A read and nothing more (the workers reconcile runs on their own timer), of one row
    without its results.
    """
    run = get_object_or_404(selectors.run_list(owner=request.user), pk=pk)
    return render(request, "simulator/_progress.html", {"run": run})


@login_required
def run_results(request, pk: int):
    """The results fragment: charts and tables (partial while the run is still going)."""
    run = selectors.run_get(owner=request.user, pk=pk)
    report = selectors.run_report(run)
    players = [p for p in report["players"] if p.get("games")]
    labels = [p["label"] for p in report["players"]]
    context: dict[str, Any] = {"run": run, "report": report, "players": players}
    context["win_chart"] = charts.win_rates([(p["label"], p["win_rate"]) for p in players])
    context["first_chart"] = charts.win_rates(
        [(f"{p['label']} first", p["first"]) for p in players]
        + [(f"{p['label']} not first", p["other"]) for p in players],
        title="Win rate going first and otherwise",
    )
    context["stake_charts"] = [
        (p["label"], charts.histogram(p["stakes"]["histogram"], "Ending stake", "stake ($)"))
        for p in players
        if p.get("stakes")
    ]
    if report["turns"]:
        context["turns_chart"] = charts.histogram(
            report["turns"]["histogram"], "Game length", "turns"
        )
    if report["shootouts"]:
        context["shootouts_chart"] = charts.histogram(
            report["shootouts"]["histogram"], "Shootouts per game", "shootouts"
        )
    if report["matrix"]:
        context["heatmap"] = charts.heatmap(report["matrix"], labels)
    context["impact"] = [
        (p["label"], charts.card_impact(p["cards"]), p["cards"][:40]) for p in players if p["cards"]
    ]
    context["samples"] = run.samples.all()[:40]
    return render(request, "simulator/_results.html", context)


@login_required
@require_POST
def run_cancel(request, pk: int):
    run = services.run_cancel(run=selectors.run_get(owner=request.user, pk=pk))
    messages.info(request, f"Run {run.pk} is {run.status}.")
    return redirect("simulator:detail", pk=run.pk)


@login_required
def replay(request, pk: int, sample_id: int):
    """Step through a stored game turn by turn: the table beside the narration."""
    from simulator.replays import build_replay

    run = selectors.run_get(owner=request.user, pk=pk)
    sample = selectors.sample_get(run=run, pk=sample_id)
    catalogue = None
    if run.game == "drifter":
        from decks.engine_catalogue import engine_catalogue

        catalogue = engine_catalogue()
    try:
        game = build_replay(sample.record, catalogue)
    except EngineError as exc:
        return render(request, "simulator/replay.html", {"run": run, "error": str(exc)}, status=422)
    step = max(0, min(_int(request.GET.get("step"), 0) or 0, len(game.frames) - 1))
    frame = game.frames[step]
    players = [
        {"name": name, "stake": frame.table["stakes"][i] if frame.table else None}
        for i, name in enumerate(game.players)
    ]
    return render(
        request,
        "simulator/replay.html",
        {
            "run": run,
            "sample": sample,
            "game": game,
            "frame": frame,
            "players": players,
            "step": step,
            "last": len(game.frames) - 1,
            "story": [(i, f.title) for i, f in enumerate(game.frames)],
        },
    )
