"""Simulation pages: the new-run form, the run page with a live progress bar (htmx polling),
results with charts (Chart.js), and the replay viewer. Thin: services write, selectors read."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from config.api import DomainError
from config.pages import show_problems
from simulator.engine.core.registry import BOT_LABELS, bot_label
from simulator.games import GameService, service_specs
from simulator.games import pages as game_pages
from simulator.games.pages import budget_fields, int_param, posted_budget, render_replay
from simulator.games.problems import RunRefused
from simulator.runs import pages, selectors, services
from simulator.runs.models import SimulationRun

MAX_PLAYERS = 8
DEFAULT_GAME = "drifter"  # the form's first choice (and the API's default)
# What the form calls each field a problem may be about (`attr` of the error shape).
FIELD_NAMES = {"game": "Game", "kind": "Kind of run", "games": "Games", "seed": "Seed",
               "format": "Format", "variants": "Variants", "players": "Players"}  # fmt: skip


def _problem_labels(problems: list[dict[str, Any]], rows: list[int]) -> list[dict[str, Any]]:
    """Each problem with the words of the row or field it is about: "Player 4's deck", not
    `players.3.cards`. `rows[i]` is the form row of the run's player i (empty rows skipped)."""
    out = []
    for problem in problems:
        attr = problem.get("attr") or ""
        head, _, rest = attr.partition(".")
        where, row = FIELD_NAMES.get(head, ""), None
        if head == "players" and rest:
            index, _, field = rest.partition(".")
            if index.isdigit() and int(index) < len(rows):
                row = rows[int(index)]
                # a budget is the bot's; every other field of a player is about its deck
                where = f"Player {row + 1}" + (
                    "'s bot" if field in ("bot", "budget") else "'s deck" if field else ""
                )
        out.append({"where": where, "detail": problem.get("detail", ""), "row": row})
    return out


def _form_context(
    user, data: Any = None, problems: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The new-run form for the game `data` names (or the first): only that game's options,
    bots and deck pickers, with what `data` holds filled in and each row's problems."""
    specs = service_specs()
    data = data or {}
    chosen = specs.get(data.get("game") or DEFAULT_GAME) or specs[DEFAULT_GAME]
    deck_choices = game_pages.deck_choices(user) if chosen.spec.needs_decks else []
    bots = sorted(
        chosen.spec.bots, key=lambda b: list(BOT_LABELS).index(b) if b in BOT_LABELS else 99
    )
    chosen_format = data.get("format") or "standard"
    chosen_variants = set(data.getlist("variants") if hasattr(data, "getlist") else [])
    return {
        "games": [
            {"name": g.name, "title": g.title, "summary": g.spec.summary} for g in specs.values()
        ],
        "game": chosen,
        "kinds": SimulationRun.Kind.choices,
        "formats": [
            {
                "name": key,
                "label": label,
                "note": chosen.format_notes.get(key, ""),
                "checked": key == chosen_format,
            }
            for key, label in chosen.formats.items()
        ],
        "variants": [
            {
                "name": v,
                "label": chosen.variant_labels.get(v, v),
                "note": chosen.variant_notes.get(v, ""),
                "checked": v in chosen_variants,
            }
            for v in chosen.play_variants
        ],
        "bots": [(b, *bot_label(b)) for b in bots],
        **budget_fields(chosen),
        "deck_choices": deck_choices,
        "rows": _form_rows(chosen, data, deck_choices, problems or []),
        "data": data,
        "problems": problems or [],
        # A double-clicked submit sends the same key twice: one run, not two.
        "idempotency_key": data.get("idempotency_key") or uuid.uuid4().hex,
    }


def _form_rows(
    chosen: GameService,
    data: Any,
    deck_choices: list[tuple[str, list[tuple[str, str]]]],
    problems: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """The form's player rows: each one's deck and bot (what `data` holds, or the defaults)
    and its problems."""
    # The first two starter decks face each other unless the form says otherwise.
    starters = [code for code, _ in deck_choices[0][1]][:2] if deck_choices else []
    default_bot = chosen.default_bot()
    by_row: dict[int, list[str]] = {}
    for problem in problems:
        if problem["row"] is not None:
            by_row.setdefault(problem["row"], []).append(problem["detail"])
    rows = []
    for i in range(MAX_PLAYERS):
        playing = i < max(2, chosen.spec.min_players)
        rows.append(
            {
                "index": i,
                "deck": data.get(f"deck_{i}", starters[i] if i < len(starters) else ""),
                "bot": data.get(f"bot_{i}", default_bot if playing else ""),
                # one budget a row: it counts the chosen bot's rollouts or iterations
                "budget": data.get(f"budget_{i}", ""),
                "problems": by_row.get(i, []),
            }
        )
    return rows


def _players_from_post(
    post, needs_decks: bool, service: GameService | None = None
) -> tuple[list[dict[str, Any]], list[int]]:
    """The players of the form's rows that play (a bot chosen), and the row of each; a row's
    budget goes with a bot of `service` that takes one, and the run service checks it."""
    players, rows = [], []
    for i in range(MAX_PLAYERS):
        bot = post.get(f"bot_{i}", "").strip()
        if not bot:
            continue  # an empty bot: this row does not play
        player: dict[str, Any] = {"bot": bot}
        budget = posted_budget(post, f"budget_{i}", bot, service) if service else None
        if budget is not None:
            player["budget"] = budget
        source = post.get(f"deck_{i}", "")
        if needs_decks and source:
            kind, _, ref = source.partition(":")
            if kind == "starter":
                player["starter"] = ref
            elif kind == "deck" and ref.isdigit():
                player["deck"] = int(ref)
        players.append(player)
        rows.append(i)
    return players, rows


@login_required
def run_list(request):
    """Your runs, newest first, and a link to start one; the runs that field runs and deck
    doctor runs played as their rounds only with `?stages=1` (they are on those pages)."""
    stages = request.GET.get("stages") == "1"
    runs = selectors.run_list(owner=request.user, stages=stages)[:100]
    titles = {name: spec.title for name, spec in service_specs().items()}
    parts = selectors.parts_of([run.pk for run in runs]) if stages else {}
    rows = [(run, titles.get(run.game, run.game), parts.get(run.pk)) for run in runs]
    hidden = (
        0
        if stages
        else selectors.run_list(owner=request.user, stages=True)
        .filter(selectors.stage_runs())
        .count()
    )
    return render(
        request, "simulator/list.html", {"rows": rows, "stages": stages, "hidden": hidden}
    )


@login_required
@require_http_methods(["GET", "POST"])
def run_new(request):
    """The new-run form. It shows only what the chosen game takes; choosing another game
    swaps that part in place (htmx asks with `?game=`; without JavaScript, the "Show this
    game's options" button asks for the whole form)."""
    problems: list[dict[str, Any]] = []
    if request.method == "POST":
        post = request.POST
        game = post.get("game", DEFAULT_GAME)
        spec = service_specs().get(game)
        needs_decks = spec.spec.needs_decks if spec else True
        players, rows = _players_from_post(post, needs_decks, spec)
        try:
            run, _ = services.run_create(
                owner=request.user,
                game=game,
                kind=post.get("kind", "match"),
                format=post.get("format", "standard") if spec and spec.formats else "",
                variants=post.getlist("variants") if spec and spec.play_variants else [],
                games=int_param(post.get("games"), 0) or 0,
                seed=int_param(post.get("seed")),
                players=players,
                idempotency_key=post.get("idempotency_key") or None,
            )
            return redirect("simulator:detail", pk=run.pk)
        except RunRefused as exc:
            problems = _problem_labels(exc.problems, rows)
        context = _form_context(request.user, post, problems=problems)
        return render(request, "simulator/new.html", context, status=400)
    data = request.GET if "game" in request.GET else None
    context = _form_context(request.user, data)
    if request.htmx:
        return render(request, "simulator/_game_options.html", context)
    return render(request, "simulator/new.html", context)


@login_required
def run_detail(request, pk: int):
    """The run page: its players, a live progress bar and, once finished, the results."""
    run = selectors.run_get(owner=request.user, pk=pk)
    context = {
        "run": run,
        "kind": run.get_kind_display().split(" (")[0],
        "rules": pages.run_rules_text(run),
        "players": pages.run_players(run),
        "part": selectors.parts_of([run.pk]).get(run.pk),
    }
    return render(request, "simulator/detail.html", context)


@login_required
def run_progress(request, pk: int):
    """The htmx fragment the run page polls; it stops polling once the run is finished.

    A read and nothing more (the workers reconcile runs on their own timer), of one row
    without its results.
    """
    # any run of theirs: a field run's or a deck doctor's round too (its page polls this)
    run = get_object_or_404(selectors.run_list(owner=request.user, stages=True), pk=pk)
    return render(request, "simulator/_progress.html", {"run": run})


@login_required
def run_results(request, pk: int):
    """The results fragment: a summary first, then the details, charts drawn by Chart.js
    from the data each passes with `json_script` (partial while the run is still going)."""
    run = selectors.run_get(owner=request.user, pk=pk)
    context = {
        "run": run,
        **pages.results_page(run),
        **pages.check_page(run),
        # A double-clicked "Check with stronger bots" sends the same key twice: one check.
        "idempotency_key": uuid.uuid4().hex,
    }
    return render(request, "simulator/_results.html", context)


@login_required
@require_POST
def run_check(request, pk: int):
    """Check a finished run's headline with stronger bots: the same games again with the next
    stronger bot in every seat (services.run_check); the page of the check follows it."""
    run = selectors.run_get(owner=request.user, pk=pk)
    try:
        check, _ = services.run_check(
            run=run, idempotency_key=request.POST.get("idempotency_key") or None
        )
    except DomainError as exc:
        show_problems(request, exc)
        return redirect("simulator:detail", pk=run.pk)
    return redirect("simulator:detail", pk=check.pk)


@login_required
@require_POST
def run_cancel(request, pk: int):
    run = services.run_cancel(run=selectors.run_get(owner=request.user, pk=pk))
    messages.info(request, f"Run {run.pk} is {run.status}.")
    return redirect("simulator:detail", pk=run.pk)


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
