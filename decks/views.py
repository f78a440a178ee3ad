"""Deck pages: my decks, the builder (htmx), the deck page with charts, sealed and draft."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from cards import selectors as card_selectors
from cards.models import Card, CardSet, KickerChip
from cards.query import QuerySyntaxError
from config.api import DomainError
from config.pages import show_problems
from decks import exports, ownership, selectors, services
from decks.charts import deck_charts
from decks.models import Deck, DraftPod
from decks.ownership import deck_wishlist_missing
from simulator.engine.drifter import formats
from simulator.engine.drifter.sealed import Draft

SEARCH_PAGE = 24
MAX_COPY_BUTTONS = 3


def _int(value: str | None, default: int = 0) -> int:
    try:
        return int(value or default)
    except ValueError:
        return default


def _format_options(pool_kind: str | None, current: str | None = None) -> list[dict[str, str]]:
    """The formats to offer, by their human names with a line on what each changes."""
    keys = formats.format_choices(pool_kind)
    if current and current not in keys:
        keys = [current, *keys]
    return [
        {
            "key": key,
            "label": formats.format_label(key),
            "description": formats.format_description(key),
        }
        for key in keys
    ]


IMPORT_DRAFT = "decks.import_draft"


@login_required
@require_GET
def deck_list(request):
    """My decks, with the new-deck and import forms; an import that failed comes back once with
    its problems and what was typed (kept in the session across the redirect)."""
    return render(
        request,
        "decks/list.html",
        {
            "decks": selectors.deck_list(owner=request.user),
            "format_options": _format_options(None),
            "pools": selectors.pool_list(owner=request.user)[:10],
            "form": request.session.pop(IMPORT_DRAFT, {}),
        },
    )


@login_required
@require_POST
def deck_new(request):
    try:
        deck = services.deck_create(
            owner=request.user,
            name=request.POST.get("name", "") or "Untitled deck",
            fmt=request.POST.get("format", formats.STANDARD),
        )
    except DomainError as exc:
        show_problems(request, exc)
        return redirect("decks:list")
    return redirect("decks:builder", pk=deck.pk)


@login_required
@require_POST
def deck_import(request):
    """Import a deck list; on an error the page comes back with every problem (and the closest
    card names) and with what was typed, so nothing has to be pasted again."""
    text, name = request.POST.get("text", ""), request.POST.get("name", "")
    fmt = request.POST.get("format", "")
    try:
        deck = services.deck_import_text(owner=request.user, text=text, name=name, fmt=fmt)
    except DomainError as exc:
        request.session[IMPORT_DRAFT] = {
            "import_errors": exc.problems,
            "import_text": text,
            "import_name": name,
            "import_format": fmt,
        }
        return redirect(reverse("decks:list") + "#import")
    messages.success(request, f"Imported {deck.name}.")
    return redirect("decks:detail", pk=deck.pk)


def _variants(deck: Deck) -> frozenset[str]:
    variants, _ = formats.parse_format(deck.format)
    return variants


def _copy_buttons(deck: Deck, card: Card, variants: frozenset[str]) -> list[int]:
    """The 1/2/3 copy buttons a card gets: up to the format's copy limit (and for a pool deck,
    the copies in the pool), at most three."""
    limit = formats.copy_limit(card.rarity, variants) or MAX_COPY_BUTTONS
    if deck.pool is not None:
        limit = min(limit, int(deck.pool.cards.get(card.code, 0)))
    return list(range(1, min(limit, MAX_COPY_BUTTONS) + 1))


def _chip_budget(deck: Deck, stats: dict) -> dict:
    """The $50 rule as the chips fill it (no rule for Stud and Draw decks)."""
    value = stats["kicker_chips"]["value"]
    if _variants(deck) & formats.POOL_FORMATS:
        return {"rule": False, "value": value}
    return {
        "rule": True,
        "value": value,
        "target": formats.KICKER_VALUE,
        "left": formats.KICKER_VALUE - value,
        "over": value - formats.KICKER_VALUE,
        "percent": min(100, round(100 * value / formats.KICKER_VALUE)),
    }


def _pictures() -> dict[str, str]:
    """A card picture's address by size with CODE for the card: reversed once per response,
    not once per card (the builder shows dozens)."""
    return {size: reverse("cards:card-image", args=["CODE", size]) for size in ("full", "thumb")}


def _with_pictures(rows: list[dict]) -> list[dict]:
    pictures = _pictures()
    for row in rows:
        code = row["card"].code
        row["full"] = pictures["full"].replace("CODE", code)
        row["thumb"] = pictures["thumb"].replace("CODE", code)
    return rows


def _grouped(rows: list[dict]) -> list[dict]:
    """The deck's cards grouped by type (dudes, gear, fortunes), each with its count."""
    groups: list[dict] = []
    for row in rows:
        kind = row["card"].type
        if not groups or groups[-1]["type"] != kind:
            label = selectors.TYPE_LABELS.get(kind, kind).capitalize()
            groups.append({"type": kind, "label": label, "count": 0, "rows": []})
        groups[-1]["count"] += row["qty"]
        groups[-1]["rows"].append(row)
    return groups


def _panel_context(deck: Deck) -> dict:
    problems = selectors.deck_problems(deck)
    stats = selectors.deck_statistics(deck)
    chips = list(
        deck.chip_entries.select_related("kicker_chip").order_by(
            "kicker_chip__value", "kicker_chip__code"
        )
    )
    return {
        "deck": deck,
        "groups": _grouped(_with_pictures(selectors.deck_rows(deck))),
        "chip_rows": chips,
        "edit_url": reverse("decks:edit", args=[deck.pk]),
        "chip_budget": _chip_budget(deck, stats),
        "problems": problems,
        "legal": not problems,
        "stats": stats,
        "charts": deck_charts(stats)[:1],
        "format_label": formats.format_label(deck.format),
        "format_options": _format_options(
            deck.pool.kind if deck.pool else None, current=deck.format
        ),
    }


CHIP_COLOURS = [c for c, _ in KickerChip.Color.choices]


def _chip_groups(deck: Deck) -> list[dict]:
    """The kicker chips to pick from, grouped by colour (and so value), cheapest first."""
    chips = KickerChip.objects.order_by("value", "card_set__order", "code")
    if deck.pool is not None:
        chips = chips.filter(code__in=list(deck.pool.kicker_chips))
    groups: dict[str, dict] = {}
    for chip in chips:
        group = groups.setdefault(
            chip.color,
            {"color": chip.color, "label": chip.get_color_display(), "chips": []},
        )
        group["chips"].append(chip)
    return sorted(groups.values(), key=lambda g: CHIP_COLOURS.index(g["color"]))


@login_required
@require_GET
def deck_builder(request, pk: int):
    """Search with card pictures on the left; the deck, grouped by type, stays in view on the
    right (stacked on a phone); every click re-renders the deck panel."""
    deck = selectors.deck_get(owner=request.user, pk=pk)
    context = _panel_context(deck)
    context.update(_search_context(request, deck))
    context["chip_groups"] = _chip_groups(deck)
    return render(request, "decks/builder.html", context)


def _search_context(request, deck: Deck) -> dict:
    """Catalogue search results; a Stud or Draw deck searches only its pool."""
    q = request.GET.get("q", "")
    error = None
    try:
        cards = card_selectors.card_list(q=q)
    except QuerySyntaxError as exc:
        cards, error = Card.objects.none(), exc
    if deck.pool is not None:
        cards = cards.filter(code__in=list(deck.pool.cards))
    page = Paginator(cards, SEARCH_PAGE).get_page(request.GET.get("page"))
    in_deck, _ = selectors.deck_contents(deck)
    variants = _variants(deck)
    results = _with_pictures(
        [
            {
                "card": card,
                "qty": in_deck.get(card.code, 0),
                "buttons": _copy_buttons(deck, card, variants),
            }
            for card in page
        ]
    )
    return {
        "q": q,
        "page": page,
        "results": results,
        "search_error": error,
        "edit_url": reverse("decks:edit", args=[deck.pk]),
        "search_url": reverse("decks:search", args=[deck.pk]),
    }


@login_required
@require_GET
def deck_search(request, pk: int):
    deck = selectors.deck_get(owner=request.user, pk=pk)
    return render(request, "decks/_search.html", {"deck": deck, **_search_context(request, deck)})


def _edit(request, deck: Deck, notices: list[dict[str, str]]) -> dict[str, Any] | None:
    """Apply one builder edit; what changed for the search results to show (a card's copies)."""
    post = request.POST
    if "save_version" in post:
        version = services.deck_version_save(deck=deck, note=post.get("note", ""))
        notices.append({"level": "success", "text": f"Saved as version {version.number}."})
        return None
    if "format" in post or "variant" in post:
        fmt = "+".join(post.getlist("variant")) or post.get("format", formats.STANDARD)
        services.deck_update(deck=deck, fmt=fmt, keep_version=False)
        return None
    if post.get("name"):
        services.deck_update(deck=deck, name=post["name"], keep_version=False)
        return None
    cards, chips = selectors.deck_contents(deck)
    card, chip = post.get("card"), post.get("kicker_chip")
    current = cards.get(card, 0) if card else chips.get(chip, 0)
    if "qty" in post:
        qty = _int(post.get("qty"), -1)
    else:
        qty = max(current + _int(post.get("delta"), 1), 0)
    services.deck_set_quantity(deck=deck, card=card, kicker_chip=chip, qty=qty)
    return {"card": card, "qty": qty} if card else None


@login_required
@require_POST
def deck_edit(request, pk: int):
    """One builder edit (htmx): set a card's copies (`qty`) or step a card or chip (`delta`),
    change the format or name, or save a version (`save_version`, optional `note`); answers the
    re-rendered deck panel, and tells the page which card's copies changed (`deckChanged`)."""
    deck = selectors.deck_get(owner=request.user, pk=pk)
    changed = None
    notices: list[dict[str, str]] = []
    try:
        changed = _edit(request, deck, notices)
    except DomainError as exc:
        notices += [{"level": "error", "text": text} for text in show_problems(None, exc)]
    deck.refresh_from_db()
    context = {**_panel_context(deck), "notices": notices, "oob": True}
    response = render(request, "decks/_panel.html", context)
    if changed:
        response["HX-Trigger"] = json.dumps({"deckChanged": changed})
    return response


@login_required
@require_GET
def deck_detail(request, pk: int):
    deck = selectors.deck_get(owner=request.user, pk=pk)
    return _detail(request, deck, owner=True)


VERSIONS_PAGE = 20


def _versions(request, deck: Deck) -> dict[str, Any]:
    """Every version: a page of the history with notes, both compare pickers over all of them
    (keeping the choice made), and the diff asked for."""
    history = Paginator(selectors.version_list(deck), VERSIONS_PAGE).get_page(
        request.GET.get("versions")
    )
    numbers = list(selectors.version_list(deck).values_list("number", "note"))
    latest = deck.version
    chosen_to = _int(request.GET.get("to"), latest)
    chosen_from = _int(request.GET.get("from"), max(latest - 1, 1))
    diff = None
    if request.GET.get("from"):
        a = selectors.version_get(deck, chosen_from)
        b = selectors.version_get(deck, chosen_to)
        diff = selectors.version_diff(a, b)
    return {
        "history": history,
        "version_choices": numbers,
        "chosen_from": chosen_from,
        "chosen_to": chosen_to,
        "diff": diff,
    }


def _detail(request, deck: Deck, *, owner: bool) -> HttpResponse:
    stats = selectors.deck_statistics(deck)
    problems = selectors.deck_problems(deck)
    context: dict[str, Any] = {
        "deck": deck,
        "owner": owner,
        "groups": _grouped(selectors.deck_rows(deck)),
        "chip_rows": deck.chip_entries.select_related("kicker_chip").order_by(
            "kicker_chip__value", "kicker_chip__code"
        ),
        "problems": problems,
        "legal": not problems,
        "stats": stats,
        "charts": deck_charts(stats),
        "format_label": formats.format_label(deck.format),
        "format_description": formats.format_description(deck.format),
        "missing": _missing(request, deck) if owner else None,
    }
    if owner:
        context.update(_versions(request, deck))
    return render(request, "decks/detail.html", context)


def _missing(request, deck: Deck):
    return ownership.missing_for_page(owner=request.user, deck=deck)


@login_required
@require_POST
def deck_version_save(request, pk: int):
    """ "Save version" on the deck page: the deck as it stands, with an optional note."""
    deck = selectors.deck_get(owner=request.user, pk=pk)
    try:
        version = services.deck_version_save(deck=deck, note=request.POST.get("note", ""))
    except DomainError as exc:
        show_problems(request, exc)
    else:
        messages.success(request, f"Saved version {version.number}.")
    return redirect("decks:detail", pk=deck.pk)


@login_required
@require_POST
def deck_settings(request, pk: int):
    deck = selectors.deck_get(owner=request.user, pk=pk)
    try:
        services.deck_update(
            deck=deck,
            name=request.POST.get("name", deck.name),
            description=request.POST.get("description", deck.description),
            is_public=request.POST.get("is_public") == "on",
            listed=request.POST.get("listed") == "on",
        )
    except DomainError as exc:
        show_problems(request, exc)
    return redirect("decks:detail", pk=deck.pk)


@login_required
@require_POST
def deck_delete(request, pk: int):
    deck = selectors.deck_get(owner=request.user, pk=pk)
    services.deck_delete(deck=deck)
    messages.success(request, f"Deleted {deck.name}.")
    return redirect("decks:list")


@login_required
@require_GET
def deck_export(request, pk: int, kind: str):
    deck = selectors.deck_get(owner=request.user, pk=pk)
    try:
        return exports.export_response(deck, kind)
    except DomainError as exc:
        show_problems(request, exc)
        return redirect("decks:detail", pk=deck.pk)


# --- Sealed -----------------------------------------------------------------------------------


@login_required
def sealed(request):
    """Open six boosters into a Stud pool; list my pools."""
    if request.method == "POST":
        try:
            seed = request.POST.get("seed") or None
            pool = services.pool_open_stud(
                owner=request.user,
                set_codes=request.POST.get("set", "HSD"),
                seed=_int(seed) if seed else None,
            )
        except DomainError as exc:
            show_problems(request, exc)
            return redirect("decks:sealed")
        return redirect(pool.get_absolute_url())

    return render(
        request,
        "decks/sealed.html",
        {"pools": selectors.pool_list(owner=request.user), "sets": CardSet.objects.all()},
    )


@login_required
def pool_detail(request, pk: int):
    pool = selectors.pool_get(owner=request.user, pk=pk)
    if request.method == "POST":
        try:
            deck = services.deck_from_pool(
                owner=request.user,
                pool=pool,
                variants=request.POST.getlist("variant"),
                auto=request.POST.get("auto") != "0",
            )
        except DomainError as exc:
            show_problems(request, exc)
            return redirect(pool.get_absolute_url())
        return redirect("decks:builder", pk=deck.pk)
    cards = {c.code: c for c in Card.objects.filter(code__in=list(pool.cards))}
    boosters = [
        {"cards": [cards[c] for c in b["cards"] if c in cards], "kicker_chips": b["kicker_chips"]}
        for b in pool.boosters
    ]
    return render(
        request,
        "decks/pool.html",
        {"pool": pool, "boosters": boosters, "decks": pool.decks.filter(owner=request.user)},
    )


# --- Draft ------------------------------------------------------------------------------------


@login_required
def draft_list(request):
    if request.method == "POST":
        try:
            pod = services.draft_pod_create(
                owner=request.user,
                seats=_int(request.POST.get("seats"), 4),
                set_codes=request.POST.get("set", "HSD"),
            )
        except DomainError as exc:
            show_problems(request, exc)
            return redirect("decks:draft-list")
        return redirect(pod.get_absolute_url())

    return render(
        request,
        "decks/draft_list.html",
        {"pods": selectors.pod_list(user=request.user), "sets": CardSet.objects.all()},
    )


def _table_context(request, pod: DraftPod) -> dict:
    pod.refresh_from_db()
    services.draft_bot_decks_build(pod=pod)  # a pod that ended before bot decks were kept
    seats = list(pod.seat_set.select_related("user", "deck"))
    me = next((s for s in seats if s.user_id == request.user.pk), None)
    draft = Draft.from_json(pod.state) if pod.state else None
    pack, picked = [], []
    if draft and me:
        codes = draft.pack(me.number)
        picked_codes = draft.picked(me.number)
        by_code = {c.code: c for c in Card.objects.filter(code__in=codes + picked_codes)}
        pack = [by_code[c] for c in codes]
        picked = [by_code[c] for c in picked_codes]
    return {
        "pod": pod,
        "seats": seats,
        "me": me,
        "draft": draft,
        "pack": pack,
        "picked": picked,
        "picked_groups": selectors.cards_by_type(picked),
        "round": draft.round + 1 if draft and not draft.is_over else None,
        "direction": (
            ("left" if draft.direction(draft.round) > 0 else "right")
            if draft and not draft.is_over
            else None
        ),
        "bot_decks": selectors.pod_bot_decks(pod=pod, user=request.user),
        # A double-clicked "test" sends the same key twice: one run, not two.
        "idempotency_key": uuid.uuid4().hex,
    }


@login_required
def draft_detail(request, pk: int):
    """The draft table: seats, the pack in front of me, my picks. htmx re-renders the table."""
    pod = selectors.pod_get(user=request.user, pk=pk)
    if request.method == "POST":
        try:
            what = request.POST.get("action")
            if what == "join":
                services.draft_pod_join(pod=pod, user=request.user)
            elif what == "start":
                services.draft_pod_start(pod=pod, user=request.user)
            elif what == "pick":
                services.draft_pick(pod=pod, user=request.user, code=request.POST.get("card", ""))
        except DomainError as exc:
            show_problems(request, exc)
        if not request.htmx:
            return redirect(pod.get_absolute_url())
    template = "decks/_draft_table.html" if request.htmx else "decks/draft.html"
    return render(request, template, _table_context(request, pod))


@login_required
@require_POST
def deck_wishlist(request, pk: int):
    """Add every card and chip the deck needs beyond my collections to my wishlist."""
    deck = selectors.deck_get(owner=request.user, pk=pk)
    count = deck_wishlist_missing(owner=request.user, deck=deck)
    messages.success(request, f"Added {count} line{'s' if count != 1 else ''} to your wishlist.")
    return redirect("decks:detail", pk=deck.pk)
