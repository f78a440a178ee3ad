"""Deck pages: my decks, the builder (htmx), the deck page with charts, sealed and draft."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from cards import selectors as card_selectors
from cards.models import Card, KickerChip
from cards.query import QuerySyntaxError
from config.api import DomainError
from decks import exports, selectors, services
from decks.charts import deck_charts
from decks.models import Deck, DraftPod
from simulator.engine.drifter import formats

SEARCH_PAGE = 24


def _errors(request: HttpRequest, exc: DomainError) -> None:
    for error in exc.problems:
        messages.error(request, error["detail"])


def _int(value: str | None, default: int = 0) -> int:
    try:
        return int(value or default)
    except ValueError:
        return default


@login_required
@require_GET
def deck_list(request):
    decks = selectors.deck_list(owner=request.user)
    return render(
        request,
        "decks/list.html",
        {
            "decks": decks,
            "formats": formats.FORMAT_LABELS,
            "pools": selectors.pool_list(owner=request.user)[:10],
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
        _errors(request, exc)
        return redirect("decks:list")
    return redirect("decks:builder", pk=deck.pk)


@login_required
@require_POST
def deck_import(request):
    try:
        deck = services.deck_import_text(
            owner=request.user,
            text=request.POST.get("text", ""),
            name=request.POST.get("name", "") or "Imported deck",
            fmt=request.POST.get("format", formats.STANDARD),
        )
    except DomainError as exc:
        _errors(request, exc)
        return redirect("decks:list")
    messages.success(request, f"Imported {deck.name}.")
    return redirect("decks:detail", pk=deck.pk)


def _panel_context(deck: Deck) -> dict:
    problems = selectors.deck_problems(deck)
    stats = selectors.deck_statistics(deck)
    chips = list(deck.chip_entries.select_related("kicker_chip").order_by("kicker_chip__code"))
    return {
        "deck": deck,
        "rows": selectors.deck_rows(deck),
        "chip_rows": chips,
        "problems": problems,
        "legal": not problems,
        "stats": stats,
        "charts": deck_charts(stats)[:1],
        "formats": formats.FORMAT_LABELS,
        "variants": set(deck.format.split("+")),
    }


@login_required
@require_GET
def deck_builder(request, pk: int):
    """Search on the left, the deck on the right; every change re-renders the deck panel."""
    deck = selectors.deck_get(owner=request.user, pk=pk)
    context = _panel_context(deck)
    context.update(_search_context(request, deck))
    chips = KickerChip.objects.order_by("card_set__order", "code")
    if deck.pool is not None:
        chips = chips.filter(code__in=list(deck.pool.kicker_chips))
    context["chips"] = chips
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
    return {"q": q, "results": page, "search_error": error}


@login_required
@require_GET
def deck_search(request, pk: int):
    deck = selectors.deck_get(owner=request.user, pk=pk)
    return render(request, "decks/_search.html", {"deck": deck, **_search_context(request, deck)})


@login_required
@require_POST
def deck_edit(request, pk: int):
    """One builder edit (htmx): add/remove a card or chip, or change the format; answers the
    re-rendered deck panel."""
    deck = selectors.deck_get(owner=request.user, pk=pk)
    cards, chips = selectors.deck_contents(deck)
    try:
        if "format" in request.POST or "variant" in request.POST:
            fmt = "+".join(request.POST.getlist("variant")) or request.POST.get(
                "format", "standard"
            )
            services.deck_update(deck=deck, fmt=fmt)
        elif request.POST.get("name"):
            services.deck_update(deck=deck, name=request.POST["name"])
        else:
            card, chip = request.POST.get("card"), request.POST.get("kicker_chip")
            current = cards.get(card, 0) if card else chips.get(chip, 0)
            services.deck_set_quantity(
                deck=deck,
                card=card,
                kicker_chip=chip,
                qty=max(current + _int(request.POST.get("delta"), 1), 0),
            )
    except DomainError as exc:
        _errors(request, exc)
    deck.refresh_from_db()
    return render(request, "decks/_panel.html", _panel_context(deck))


@login_required
@require_GET
def deck_detail(request, pk: int):
    deck = selectors.deck_get(owner=request.user, pk=pk)
    return _detail(request, deck, owner=True)


def _detail(request, deck: Deck, *, owner: bool) -> HttpResponse:
    stats = selectors.deck_statistics(deck)
    problems = selectors.deck_problems(deck)
    versions = list(selectors.version_list(deck)[:50]) if owner else []
    diff = None
    if owner and request.GET.get("from"):
        a = selectors.version_get(deck, _int(request.GET.get("from")))
        b = selectors.version_get(deck, _int(request.GET.get("to"), deck.version))
        diff = selectors.version_diff(a, b)
    return render(
        request,
        "decks/detail.html",
        {
            "deck": deck,
            "owner": owner,
            "rows": selectors.deck_rows(deck),
            "chip_rows": deck.chip_entries.select_related("kicker_chip"),
            "problems": problems,
            "legal": not problems,
            "stats": stats,
            "charts": deck_charts(stats),
            "versions": versions,
            "diff": diff,
            "format_label": formats.format_label(deck.format),
            "missing": _missing(request, deck) if owner else None,
        },
    )


def _missing(request, deck: Deck):
    try:
        from decks import ownership
    except ImportError:  # pragma: no cover - collections not available
        return None
    return ownership.missing_for_page(owner=request.user, deck=deck)


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
        _errors(request, exc)
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
        _errors(request, exc)
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
            _errors(request, exc)
            return redirect("decks:sealed")
        return redirect(pool.get_absolute_url())
    from cards.models import CardSet

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
            _errors(request, exc)
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
            _errors(request, exc)
            return redirect("decks:draft-list")
        return redirect(pod.get_absolute_url())
    from cards.models import CardSet

    return render(
        request,
        "decks/draft_list.html",
        {"pods": selectors.pod_list(user=request.user), "sets": CardSet.objects.all()},
    )


def _table_context(request, pod: DraftPod) -> dict:
    from simulator.engine.drifter.sealed import Draft

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
            _errors(request, exc)
        if not request.htmx:
            return redirect(pod.get_absolute_url())
    template = "decks/_draft_table.html" if request.htmx else "decks/draft.html"
    return render(request, template, _table_context(request, pod))


@login_required
@require_POST
def deck_wishlist(request, pk: int):
    """Add every card and chip the deck needs beyond my collections to my wishlist."""
    from decks.ownership import deck_wishlist_missing

    deck = selectors.deck_get(owner=request.user, pk=pk)
    count = deck_wishlist_missing(owner=request.user, deck=deck)
    messages.success(request, f"Added {count} line{'s' if count != 1 else ''} to your wishlist.")
    return redirect("decks:detail", pk=deck.pk)
