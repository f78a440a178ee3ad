"""The metagame lab's pages (#28): your fields and others' public ones, the field form (new
and edit), a field with its runs, and a field run: its progress, then which deck to bring,
the tier list, the matchups, the equilibrium and where the meta goes. Thin: the writes are
simulator/metagame/services.py, the reads selectors.py, the words and charts pages.py."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from config.api import DomainError
from config.pages import show_problems
from decks.selectors import deck_list
from simulator.common.numbers import percent_text
from simulator.engine.core.registry import bot_label
from simulator.games import deck_game
from simulator.games.pages import deck_choices, int_param
from simulator.metagame import pages, selectors
from simulator.metagame import services as metagame
from simulator.metagame.models import Field, FieldRun, Target

ROWS = 8
BUDGETS = (1_000, 2_000, 6_000, 12_000, 30_000, 100_000)
DEFAULT_BUDGET = 6_000
CONFIDENCES = ((0.9, "90%"), (0.95, "95%"), (0.99, "99%"))
ATTR_WORDS = {
    "name": "Name",
    "format": "Format",
    "bot": "Played by",
    "budget": "Budget",
    "confidence": "Confidence",
    "target": "What to find",
    "public": "Public",
    "entries": "Decks",
    "table_size": "Players at a table",
}
PART_WORDS = {"share": "'s share", "bot": "'s bot", "budget": "'s bot budget"}
SOURCES = ("starter", "deck", "public_deck")


# --- the field form ----------------------------------------------------------------------------


def _where(attr: str | None) -> tuple[str, int | None]:
    """The input a problem names, in the form's words ("Deck 3's share", "Budget"), and the row
    it is on (the form's rows are the field's decks in order: entry k is row k)."""
    if not attr:
        return "", None
    parts = attr.split(".")
    if parts[0] == "entries" and len(parts) > 1 and parts[1].isdigit():
        row = int(parts[1])
        return f"Deck {row + 1}{PART_WORDS.get(parts[2], '') if len(parts) > 2 else ''}", row
    return ATTR_WORDS.get(parts[0], ""), None


def _number(text: str) -> Any:
    """A typed number as the service takes it (a whole number as an int); what is not a
    number stays text, for the service to refuse in words; blank is None."""
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        return text
    return int(value) if value.is_integer() else value


def _choice(entry: dict[str, Any]) -> str:
    """A field entry's deck as the deck select's value: "starter:HSD-S1", "deck:4"."""
    return next((f"{k}:{entry[k]}" for k in SOURCES if k in entry), "")


def _entry(row: dict[str, str]) -> dict[str, Any]:
    """A form row as a field entry (the service checks it)."""
    kind, _, value = row["choice"].partition(":")
    entry: dict[str, Any] = {}
    if kind in SOURCES and value:
        entry[kind] = int(value) if kind == "deck" and value.isdigit() else value
    if row["bot"]:
        entry["bot"] = row["bot"]
    if row["budget"].isdigit():
        entry["budget"] = int(row["budget"])
    share = _number(row["share"])
    if share is not None:
        entry["share"] = share
    return entry


def _posted_rows(post) -> list[dict[str, str]]:
    """The rows that name a deck, in order (a row left without a deck is no deck)."""
    count = min(int_param(post.get("rows"), ROWS) or ROWS, metagame.MAX_DECKS)
    rows = [
        {k: post.get(f"{k}_{i}", "").strip() for k in ("choice", "share", "bot", "budget")}
        for i in range(count)
    ]
    return [row for row in rows if row["choice"]]


def _posted_values(post) -> dict[str, Any]:
    """The form's field settings as the service takes them (it checks them)."""
    budget = _number(post.get("budget", ""))
    confidence = _number(post.get("confidence", ""))
    table_size = _number(post.get("table_size", "")) or metagame.HEADS_UP
    return {
        "table_size": table_size,
        "name": post.get("name", ""),
        "format": post.get("format", ""),
        "bot": post.get("bot", ""),
        "budget": budget if budget is not None else 0,
        "confidence": confidence if confidence is not None else "",
        "target": post.get("target", Target.BEST),
        "public": post.get("public") == "on",
    }


def _field_rows(field: Field | None) -> list[dict[str, str]]:
    if field is None:  # two starter decks to begin with
        return [
            {"choice": f"starter:{code}", "share": "1", "bot": "", "budget": ""}
            for code in ("HSD-S1", "HSD-S2")
        ]
    return [
        {"choice": _choice(e), "share": f"{e['share']:g}", "bot": e.get("bot", ""),
         "budget": str(e.get("budget", ""))}
        for e in field.entries
    ]  # fmt: skip


def _field_values(field: Field | None) -> dict[str, Any]:
    if field is None:
        return {"name": "", "format": "", "bot": deck_game().default_bot(),
                "budget": DEFAULT_BUDGET, "confidence": 0.95, "target": Target.BEST,
                "public": False, "table_size": metagame.HEADS_UP}  # fmt: skip
    values = {k: getattr(field, k) for k in metagame.FIELD_COLUMNS if k != "entries"}
    return {**values, "bot": field.bot or deck_game().default_bot()}  # blank: the default


def _deck_options(user, rows: list[dict[str, str]]) -> list[tuple[str, list[tuple[str, str]]]]:
    """The deck select's groups (starters, yours, public ones), and a deck a row already has
    that they do not list (a public deck by its link, one no longer public) under its name."""
    groups = deck_choices(user)
    listed = {value for _, options in groups for value, _ in options}
    extra = []
    for row in rows:
        if row["choice"] not in listed:
            kind, _, value = row["choice"].partition(":")
            words = pages.entry_words({kind: int(value) if value.isdigit() else value}, user)
            extra.append((row["choice"], words["name"]))
            listed.add(row["choice"])
    return [("Already in this field", extra), *groups] if extra else groups


def _with_current(options: list[tuple[str, str]], current: Any, words) -> list[tuple[str, str]]:
    """A select's options, with the field's own value among them where the API saved one the
    form does not offer (a budget of 300, a confidence of 80%)."""
    if isinstance(current, int | float) and str(current) not in dict(options):
        return sorted([*options, (str(current), words(current))], key=lambda o: float(o[0]))
    return options


def _form_context(
    request, *, field: Field | None, values: dict[str, Any], rows: list[dict[str, str]],
    problems: list[dict[str, Any]], count: int,
) -> dict[str, Any]:  # fmt: skip
    bad_rows = {p["row"]: p["detail"] for p in problems if p["row"] is not None}
    blank = {"choice": "", "share": "1", "bot": "", "budget": ""}
    shown = rows + [blank] * max(0, count - len(rows))
    bots = [(b, bot_label(b)[0]) for b in sorted(deck_game().spec.bots)]
    return {
        "field": field,
        "values": {
            **values,
            "budget": str(values["budget"]),
            "confidence": str(values["confidence"]),
            "table_size": str(values.get("table_size")),
            "format": values["format"] or next(iter(deck_game().formats)),
        },
        "rows": [{**row, "index": i, "problem": bad_rows.get(i)} for i, row in enumerate(shown)],
        "count": len(shown),
        "more": len(shown) < metagame.MAX_DECKS,
        "max_rows": metagame.MAX_DECKS,
        "decks": _deck_options(request.user, rows),
        "formats": list(deck_game().formats.items()),
        "bots": bots,
        "budgets": _with_current(
            [(str(b), f"{b:,}") for b in BUDGETS], values["budget"], lambda b: f"{b:,}"
        ),
        "confidences": _with_current(
            [(str(c), label) for c, label in CONFIDENCES], values["confidence"], percent_text
        ),
        "targets": Target.choices,
        "table_sizes": pages.table_size_choices(values.get("table_size")),
        "problems": problems,
    }


def _save(user, field: Field | None, values: dict[str, Any], entries: list[dict]) -> Field:
    if field is None:
        return metagame.field_create(owner=user, entries=entries, **values)
    return metagame.field_update(field=field, entries=entries, **values)


def _field_form(request, field: Field | None):
    """The field form, new (`field` None) or editing one: a POST saves it and shows it, or
    shows every problem beside its input with nothing saved. "More rows" keeps what was
    typed and shows all the rows a field may have."""
    post = request.POST if request.method == "POST" else None
    problems: list[dict[str, Any]] = []
    if post is None:
        values, rows = _field_values(field), _field_rows(field)
        count = int_param(request.GET.get("rows"), ROWS) or ROWS
    else:
        values, rows = _posted_values(post), _posted_rows(post)
        count = int_param(post.get("rows"), ROWS) or ROWS
        if "more_rows" in post:
            count = metagame.MAX_DECKS
        else:
            try:
                saved = _save(request.user, field, values, [_entry(r) for r in rows])
            except DomainError as exc:
                for p in exc.problems:
                    where, row = _where(p.get("attr"))
                    problems.append({"where": where, "row": row, "detail": p["detail"]})
            else:
                messages.success(request, f"Saved the field {saved.name}.")
                return redirect("simulator:field", pk=saved.pk)
    count = max(min(count, metagame.MAX_DECKS), len(rows), 2)
    context = _form_context(
        request, field=field, values=values, rows=rows, problems=problems, count=count
    )
    return render(request, "simulator/metagame/form.html", context, status=400 if problems else 200)


@login_required
@require_http_methods(["GET", "POST"])
def field_new(request):
    """A new field: its decks with their shares, and how its runs play."""
    return _field_form(request, None)


@login_required
@require_http_methods(["GET", "POST"])
def field_edit(request, pk: int):
    """Change a field of yours (its runs keep the field as it was when each started)."""
    return _field_form(request, selectors.field_get(owner=request.user, pk=pk))


# --- fields ------------------------------------------------------------------------------------


@login_required
def field_list(request):
    """Your fields with their last run's answer; others' public fields to read and copy."""
    mine = list(selectors.field_list(user=request.user))
    latest: dict[int, FieldRun] = {}
    for run in FieldRun.objects.filter(owner=request.user, field__in=mine).order_by(
        "-created_at", "-id"
    ):
        latest.setdefault(run.field_id, run)
    rows = [
        {"field": f, "run": latest.get(f.pk), "answer": pages.run_answer(latest.get(f.pk))}
        for f in mine
    ]
    others = selectors.field_list(user=request.user, public=True).exclude(owner=request.user)[:50]
    return render(request, "simulator/metagame/list.html", {"rows": rows, "others": others})


@login_required
def field_detail(request, pk: int):
    """A field: its decks and shares, its settings, your runs of it, and what you may do."""
    field = selectors.field_visible(user=request.user, pk=pk)
    runs = selectors.field_run_list(owner=request.user, field=field)[:20]
    context = {
        "field": field,
        "mine": field.owner_id == request.user.pk,
        "decks": pages.field_decks(field, request.user),
        "settings": pages.settings_words(field),
        "runs": [{"run": run, "answer": pages.run_answer(run)} for run in runs],
        # A double-clicked "Run it" sends the same key twice: one run.
        "idempotency_key": uuid.uuid4().hex,
        # The deck doctor measures swaps heads-up: offered for a heads-up field only.
        "my_decks": deck_list(owner=request.user) if field.table_size == 2 else [],
    }
    return render(request, "simulator/metagame/detail.html", context)


@login_required
def field_doctor(request, pk: int):
    """The field page's "doctor my deck against this field": the deck doctor's form for one of
    your decks with the field chosen (the doctor's own page checks the rest as it always does)."""
    field = selectors.field_visible(user=request.user, pk=pk)
    deck_id = int_param(request.GET.get("deck")) or 0
    if field.table_size != 2 or not deck_list(owner=request.user).filter(pk=deck_id).exists():
        raise Http404("No such deck of yours, or not a heads-up field.")
    return redirect(f"{reverse('simulator:doctor-new', args=[deck_id])}?field={field.pk}")


@login_required
@require_POST
def field_copy(request, pk: int):
    """Copy a field (someone's public one, or yours) to your own fields."""
    field = selectors.field_visible(user=request.user, pk=pk)
    try:
        copied = metagame.field_copy(field=field, owner=request.user)
    except DomainError as exc:
        show_problems(request, exc)
        return redirect("simulator:field", pk=field.pk)
    messages.success(request, f"Copied to your fields as {copied.name}: yours to change and run.")
    return redirect("simulator:field", pk=copied.pk)


@login_required
@require_POST
def field_delete(request, pk: int):
    field = selectors.field_get(owner=request.user, pk=pk)
    name = field.name
    metagame.field_delete(field=field)
    messages.info(request, f"Deleted the field {name} and its runs.")
    return redirect("simulator:fields")


# --- field runs --------------------------------------------------------------------------------


@login_required
@require_POST
def field_run_start(request, pk: int):
    """Run a field of yours: its decks are checked again, then its first round starts."""
    field = selectors.field_get(owner=request.user, pk=pk)
    try:
        field_run, _ = metagame.field_run_create(
            field=field, idempotency_key=request.POST.get("idempotency_key") or None
        )
    except DomainError as exc:
        show_problems(request, exc)
        return redirect("simulator:field", pk=field.pk)
    return redirect("simulator:field-run", pk=field_run.pk)


def _run_context(field_run: FieldRun) -> dict[str, Any]:
    done = field_run.status == FieldRun.Status.DONE and bool(field_run.result)
    return {
        "run": field_run,
        "field": field_run.field,
        "decks": pages.run_decks(field_run),
        "settings": pages.settings_words(field_run),
        "progress": pages.progress(field_run),
        "page": pages.result_page(field_run) if done else None,
    }


@login_required
def field_run_detail(request, pk: int):
    """A field run: its progress, then its answer and the evidence, section by section."""
    field_run = selectors.field_run_get(owner=request.user, pk=pk)
    return render(request, "simulator/metagame/run.html", _run_context(field_run))


@login_required
def field_run_progress(request, pk: int):
    """The htmx fragment the page polls every second while the run plays (its answer once
    done, and then no more polling)."""
    field_run = selectors.field_run_get(owner=request.user, pk=pk)
    return render(request, "simulator/metagame/_run_progress.html", _run_context(field_run))


@login_required
@require_POST
def field_run_cancel(request, pk: int):
    field_run = metagame.field_run_cancel(
        field_run=selectors.field_run_get(owner=request.user, pk=pk)
    )
    messages.info(request, f"The field run is {field_run.get_status_display().lower()}.")
    return redirect("simulator:field-run", pk=field_run.pk)
