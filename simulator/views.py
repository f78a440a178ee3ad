"""Simulation pages: the new-run form, the run page with a live progress bar (htmx polling),
results as SVG charts, and the replay viewer. Thin: services write, selectors read."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from simulator import selectors, services
from simulator.adapters import RunRefused
from simulator.engine.core.errors import EngineError
from simulator.models import SimulationRun
from simulator.specs import service_for, service_specs

MAX_PLAYERS = 8
DEFAULT_GAME = "drifter"  # the form's first choice (and the API's default)


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
    specs = service_specs()
    bots = sorted({bot for game in specs.values() for bot in game.spec.bots})
    # The formats and play variants of every game that has them (the form shows them when
    # a game played with decks is chosen).
    formats = {key: label for game in specs.values() for key, label in game.formats.items()}
    play_variants = list(dict.fromkeys(v for game in specs.values() for v in game.play_variants))
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
            {
                "name": g.name,
                "title": g.title,
                "needs_decks": g.spec.needs_decks,
                "bots": sorted(g.spec.bots),
            }
            for g in specs.values()
        ],
        "kinds": SimulationRun.Kind.choices,
        "formats": formats,
        "play_variants": play_variants,
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
        game = post.get("game", DEFAULT_GAME)
        spec = service_specs().get(game)
        needs_decks = spec.spec.needs_decks if spec else True
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
            errors = exc.problems
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
    context: dict[str, Any] = {"run": run, "report": report, "players": players}
    context |= service_for(run.game).charts(report)
    context["samples"] = run.samples.all()[:40]
    return render(request, "simulator/_results.html", context)


@login_required
@require_POST
def run_cancel(request, pk: int):
    run = services.run_cancel(run=selectors.run_get(owner=request.user, pk=pk))
    messages.info(request, f"Run {run.pk} is {run.status}.")
    return redirect("simulator:detail", pk=run.pk)


LOG_LINES = 40  # the narration beside the table: its last lines, newest first


def render_replay(request, record: dict[str, Any], *, heading: str, back_url: str, back_label: str):
    """The replay viewer for any game record: the game's table stepped one decision at a time.

    `?step=k` is the game after its first k decisions (0: the deal), `?seat=i` one seat's view
    (its hand, the public table, every other card face down; the default is seat 0), `?seat=all`
    every card face up. The result shows only at the last step. An htmx request gets the
    stepped fragment alone. A record that does not replay is a 422 page saying why.
    Reused by every page that shows a finished game (simulation samples, played games)."""
    from simulator.replays import replay_step

    seat_param = request.GET.get("seat", "0")
    seat = None if seat_param == "all" else _int(seat_param, 0)
    try:
        step = replay_step(record, _int(request.GET.get("step"), 0) or 0, seat)
    except EngineError as exc:
        failed = {"error": str(exc), "back_url": back_url, "back_label": back_label}
        return render(request, "simulator/replay.html", failed, status=422)
    context: dict[str, Any] = {
        "replay": step,
        "seat_param": "all" if step.seat is None else str(step.seat),
        "log_tail": list(reversed(step.log[-LOG_LINES:])),
        "log_more": max(len(step.log) - LOG_LINES, 0),
        "heading": heading,
        "back_url": back_url,
        "back_label": back_label,
    }
    if request.htmx:
        return render(request, "simulator/table/_replay.html", context)
    return render(request, "simulator/replay.html", context)


@login_required
def replay(request, pk: int, sample_id: int):
    """A stored game of a simulation on the replay viewer (`render_replay`)."""
    run = selectors.run_get(owner=request.user, pk=pk)
    sample = selectors.sample_get(run=run, pk=sample_id)
    return render_replay(
        request,
        sample.record,
        heading=f"Game {sample.index + 1} of matchup {sample.matchup + 1}",
        back_url=reverse("simulator:detail", args=[run.pk]),
        back_label=f"Run #{run.pk}",
    )
