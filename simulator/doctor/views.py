"""The deck doctor's pages (#18): the form on a deck, the run with its progress and suggestions,
cancel and apply. Thin: the service is simulator/doctor/services.py, the reads
simulator/doctor/selectors.py."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from cards.models import StarterDeck
from config.api import DomainError
from config.pages import show_problems
from decks.models import Deck
from simulator.doctor import selectors
from simulator.doctor import services as doctors
from simulator.doctor.models import DoctorRun
from simulator.engine.core.registry import bot_label
from simulator.games import deck_game
from simulator.games.pages import budget_fields, posted_budget
from simulator.runs.pages import bot_name, bots_text, player_names, verdict_text
from simulator.runs.selectors import checks_of

OPPONENT_ROWS = 3
BUDGETS = (2_000, 6_000, 12_000, 30_000)
ATTR_WORDS = {
    "deck": "Your deck",
    "budget": "Budget",
    "bot_budget": "Your deck's bot",
    "source": "Added cards",
    "format": "Format",
    "field": "Field",
    "gauntlet": "Opponents",
}


def _attr_words(attr: str | None) -> str:
    if not attr:
        return ""
    head, _, rest = attr.partition(".")
    if head == "gauntlet" and rest:
        return f"Opponent {int(rest.split('.')[0]) + 1}"
    return ATTR_WORDS.get(head, "")


def _opponent_choices(user) -> list[tuple[str, str]]:
    starters = [
        (f"starter:{s.code}", f"{s.name} (starter deck)") for s in StarterDeck.objects.all()
    ]
    mine = [
        (f"deck:{d.pk}", f"{d.name} (your deck, version {d.version})")
        for d in Deck.objects.filter(owner=user).order_by("name", "pk")
    ]
    return starters + mine


def _field_choices(user, deck: Deck) -> list[tuple[str, str]]:
    """My fields and everyone's public fields in the deck's format, mine first, by name."""
    game = deck_game()
    names = dict(game.formats)
    out = []
    for field in sorted(
        selectors.visible_fields(user=user).filter(table_size=2),  # the swaps are heads-up
        key=lambda f: (f.owner_id != user.pk, f.name.lower(), f.pk),
    ):
        try:
            fmt = game.prepare_rules(field.format, []).format
        except DomainError:
            continue
        if fmt != deck.format:
            continue
        whose = "your field" if field.owner_id == user.pk else f"public, by {field.owner}"
        decks = len(field.entries) if isinstance(field.entries, list) else 0
        out.append((str(field.pk), f"{field.name} ({whose}, {decks} decks, {names.get(fmt, fmt)})"))
    return out


def _gauntlet_from_post(post) -> list[dict]:
    gauntlet = []
    for row in range(OPPONENT_ROWS):
        choice = post.get(f"opponent_{row}", "")
        kind, _, value = choice.partition(":")
        if kind not in ("starter", "deck") or not value:
            continue
        bot = post.get(f"bot_{row}") or deck_game().default_bot()
        opponent = {kind: int(value) if kind == "deck" and value.isdigit() else value, "bot": bot}
        budget = posted_budget(post, f"budget_{row}", bot, deck_game())
        if budget is not None:
            opponent["budget"] = budget
        gauntlet.append(opponent)
    return gauntlet


@login_required
@require_http_methods(["GET", "POST"])
def doctor_new(request, deck_id: int):
    """The form on one of my decks: format, gauntlet, where added cards come from, budget."""
    deck = get_object_or_404(Deck.objects.filter(owner=request.user), pk=deck_id)
    problems: list[dict] = []
    post = request.POST if request.method == "POST" else None
    if post is not None:
        try:
            budget = int(post.get("budget", ""))
        except ValueError:
            budget = 0
        bot = post.get("bot") or deck_game().default_bot()
        field = post.get("against") == "field"
        try:
            doctor, _ = doctors.doctor_create(
                owner=request.user, deck_id=deck.pk, format=post.get("format", ""),
                gauntlet=None if field else _gauntlet_from_post(post),
                field_id=(post.get("field") or "") if field else None,
                source=post.get("source", ""),
                budget=budget, bot=post.get("bot") or "", chain=post.get("chain") == "on",
                bot_budget=posted_budget(post, "bot_budget", bot, deck_game()),
                idempotency_key=post.get("idempotency_key") or None,
            )  # fmt: skip
            return redirect("simulator:doctor", pk=doctor.pk)
        except DomainError as exc:
            problems = [
                {"where": _attr_words(p.get("attr")), "detail": p["detail"]} for p in exc.problems
            ]
    bots = sorted(deck_game().spec.bots)
    context = {
        "deck": deck,
        "formats": list(deck_game().formats.items()),
        "chosen_format": (post or {}).get("format") or deck.format,
        "sources": DoctorRun.Source.choices,
        "chosen_source": (post or {}).get("source") or DoctorRun.Source.FORMAT,
        "budgets": BUDGETS,
        "chosen_budget": (post or {}).get("budget") or str(BUDGETS[2]),
        "opponents": _opponent_choices(request.user),
        "fields": _field_choices(request.user, deck),
        "chosen_field": (post or request.GET).get("field", ""),
        "against": (post or {}).get("against")
        or ("field" if request.GET.get("field") else "gauntlet"),
        "rows": [
            {
                "index": i,
                "chosen": (post or {}).get(f"opponent_{i}", "starter:HSD-S2" if i == 0 else ""),
                "bot": (post or {}).get(f"bot_{i}", deck_game().default_bot()),
                "budget": (post or {}).get(f"budget_{i}", ""),
            }
            for i in range(OPPONENT_ROWS)
        ],
        "bot_budget": (post or {}).get("bot_budget", ""),
        "bot_budget_fields": budget_fields(deck_game()),
        "bots": [(b, bot_label(b)[0]) for b in bots],
        "default_bot": (post or {}).get("bot") or deck_game().default_bot(),
        "problems": problems,
        "chain": post is None or post.get("chain") == "on",
        "max_steps": doctors.MAX_STEPS,
        "earlier": DoctorRun.objects.filter(owner=request.user, deck=deck)[:10],
    }
    return render(request, "simulator/doctor/new.html", context, status=400 if problems else 200)


def _swap_rows(doctor: DoctorRun, swaps: list[dict], *, number: int, checks: dict) -> list[dict]:
    """A step's swaps for the page, each with a replay that shows the difference and, when
    proven, the index `apply` (step 1) and `check` take and its checks with stronger bots."""
    out = []
    proven = 0
    for swap in swaps:
        stage = doctor.stages.filter(run_id=swap["run"]).select_related("run").first()
        sample = selectors.doctor_replay_sample(stage.run) if stage else None
        index = proven if swap["significant"] else None
        names = player_names(stage.run.plan["players"]) if stage else []
        rows = [
            {"comparison": c, "text": verdict_text(c, names),
             "playing": c["status"] in DoctorRun.ACTIVE}
            for c in checks.get(swap["run"], [])
        ]  # fmt: skip
        out.append(
            {**swap, "apply_index": index if number == 1 else None, "check_index": index,
             "sample": sample, "checks": rows}
        )  # fmt: skip
        proven += 1 if swap["significant"] else 0
    return out


def _steps(doctor: DoctorRun) -> list[dict]:
    """The search's steps in order, each with its swaps; a step after the first that found a
    better swap can be applied with the steps before it (the chain's prefix)."""
    result = doctor.result or {}
    steps = result.get("steps") or [{"step": 1, **result}]
    checks = checks_of(selectors.doctor_swap_runs(doctor))
    out = []
    for step in steps:
        number = step.get("step", 1)
        out.append(
            {
                **step,
                "number": number,
                "rows": _swap_rows(doctor, step.get("swaps", []), number=number, checks=checks),
                "best": step["swaps"][0] if step.get("improved") else None,
            }
        )
    return out


@login_required
def doctor_detail(request, pk: int):
    """A doctor run: what was asked, its progress, and once done the suggestions."""
    doctor = selectors.doctor_get(owner=request.user, pk=pk)
    return render(request, "simulator/doctor/detail.html", _detail_context(doctor))


def _detail_context(doctor: DoctorRun) -> dict:
    names = dict(deck_game().formats)
    bots = selectors.doctor_bots(doctor)
    stronger = deck_game().stronger_bot(b["bot"] for b in bots)
    steps = _steps(doctor) if doctor.status == DoctorRun.Status.DONE and doctor.result else []
    checking = any(c["playing"] for s in steps for row in s["rows"] for c in row["checks"])
    return {
        "doctor": doctor,
        "format_label": names.get(doctor.format, doctor.format),
        "steps": steps,
        # the page keeps polling while the search, or a check of one of its swaps, plays
        "watching": doctor.is_active or checking,
        "chain": doctors.chain_swaps(doctor) if doctor.status == DoctorRun.Status.DONE else [],
        "percent": round(100 * doctor.progress),
        "step": len(doctor.state.get("steps", [])) + 1,
        "look": doctor.round - doctor.state.get("round0", 0),
        "measured": bots_text(bots),
        "field": doctors.doctor_field(doctor),
        "stronger": bot_name(stronger).lower() if stronger else "",
        # A double-clicked "Check with stronger bots" sends the same key twice: one check.
        "idempotency_key": uuid.uuid4().hex,
    }


@login_required
def doctor_progress(request, pk: int):
    """The htmx fragment the page polls every second until the search ends (every two while
    a check of one of its swaps plays)."""
    doctor = selectors.doctor_get(owner=request.user, pk=pk)
    return render(request, "simulator/doctor/_progress.html", _detail_context(doctor))


@login_required
@require_POST
def doctor_cancel(request, pk: int):
    doctor = doctors.doctor_cancel(doctor=selectors.doctor_get(owner=request.user, pk=pk))
    messages.info(request, f"The deck doctor is {doctor.get_status_display().lower()}.")
    return redirect("simulator:doctor", pk=doctor.pk)


@login_required
@require_POST
def doctor_apply(request, pk: int):
    """Make a suggestion, or the chain's first swaps, on the deck: a new version with the note
    "Deck doctor: −1 X, +1 Y" naming every swap."""
    doctor = selectors.doctor_get(owner=request.user, pk=pk)
    try:
        if "steps" in request.POST:
            version = doctors.doctor_apply(doctor=doctor, steps=int(request.POST["steps"]))
        else:
            version = doctors.doctor_apply(doctor=doctor, index=int(request.POST.get("swap", "-1")))
    except (DomainError, ValueError) as exc:
        messages.error(request, getattr(exc, "detail", "No such suggestion."))
        return redirect("simulator:doctor", pk=doctor.pk)
    messages.success(request, f"Saved as version {version.number}: {version.note}.")
    return redirect("decks:detail", pk=doctor.deck_id)


@login_required
@require_POST
def doctor_check(request, pk: int):
    """Check a proven swap with stronger bots (services.doctor_check: the run that proved it,
    checked as any run is); back to the doctor's page, where the check shows beside the swap."""
    doctor = selectors.doctor_get(owner=request.user, pk=pk)
    try:
        check, _ = doctors.doctor_check(
            doctor=doctor, step=int(request.POST.get("step", "1")),
            swap=int(request.POST.get("swap", "0")),
            idempotency_key=request.POST.get("idempotency_key") or None,
        )  # fmt: skip
    except ValueError:
        messages.error(request, "No such swap.")
    except DomainError as exc:
        show_problems(request, exc)
    else:
        messages.info(
            request, f"Checking the swap with stronger bots: run #{check.pk}, its verdict below."
        )
    return redirect("simulator:doctor", pk=doctor.pk)
