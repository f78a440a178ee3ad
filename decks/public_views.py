"""Public deck pages, open to everyone: the list of decks their owners made public and listed
(searched by card, format and faction), a public deck's page, and copying it to my decks."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from decks import selectors, services
from decks.charts import deck_charts
from simulator.engine.drifter import formats

PUBLIC_PAGE = 20


@require_GET
def public_deck_list(request):
    """Public decks, newest change first, 20 a page; unknown filter values find nothing."""
    card = request.GET.get("card", "").strip()[:100]
    fmt = request.GET.get("format", "")
    faction = request.GET.get("faction", "")
    known_factions = selectors.factions()
    fmt = fmt if fmt in formats.FORMAT_LABELS else ""
    faction = faction if faction in known_factions else ""
    decks = selectors.public_deck_list(card=card, fmt=fmt, faction=faction)
    page = Paginator(decks, PUBLIC_PAGE).get_page(request.GET.get("page"))
    by_deck = selectors.deck_factions([d.pk for d in page])
    rows = [
        {
            "deck": d,
            "format_label": formats.format_label(d.format),
            "factions": by_deck.get(d.pk, []),
        }
        for d in page
    ]
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "page": page,
        "rows": rows,
        "card": card,
        "format": fmt,
        "format_label": formats.FORMAT_LABELS.get(fmt, ""),
        "faction": faction,
        "formats": formats.FORMAT_LABELS,
        "factions": known_factions,
        "query": query.urlencode(),
    }
    return render(request, "decks/public/list.html", context)


@require_GET
def public_deck(request, slug: str):
    """A public deck by its link: cards with pictures, curve and statistics, legality."""
    deck = selectors.deck_public(slug=slug)
    stats = selectors.deck_statistics(deck)
    problems = selectors.deck_problems(deck)
    context = {
        "deck": deck,
        "format_label": formats.format_label(deck.format),
        "groups": selectors.deck_groups(deck),
        "chip_rows": deck.chip_entries.select_related("kicker_chip").order_by("kicker_chip__code"),
        "problems": problems,
        "legal": not problems,
        "stats": stats,
        "charts": deck_charts(stats),
        "is_owner": request.user.is_authenticated and deck.owner_id == request.user.pk,
    }
    return render(request, "decks/public/detail.html", context)


@login_required
@require_POST
def public_deck_copy(request, slug: str):
    """Copy a public deck into my decks and open the copy."""
    deck = selectors.deck_public(slug=slug)
    copy = services.deck_copy(deck=deck, owner=request.user)
    messages.success(request, f"Copied {deck.name} to your decks.")
    return redirect("decks:detail", pk=copy.pk)
