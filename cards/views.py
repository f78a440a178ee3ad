"""Catalogue pages: the card grid with live search, card and set pages, and images."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.views.decorators.http import require_GET

from cards import images, panels, selectors
from cards.models import Card, CardSet, KickerChip
from cards.paging import CappedPaginator
from cards.query import QuerySyntaxError

PAGE_SIZE = 60


@require_GET
def card_grid(request):
    """The card grid; htmx requests get only the results fragment. Its count stops at 1,000
    matches ("1,000+ cards"), as the API's does (`cards.paging.CappedPaginator`)."""
    q = request.GET.get("q", "")
    error = None
    try:
        cards = selectors.card_list(q=q)
    except QuerySyntaxError as exc:
        cards, error = Card.objects.none(), exc
    page = CappedPaginator(cards, PAGE_SIZE).get_page(request.GET.get("page"))
    context = {"q": q, "page": page, "error": error}
    template = "cards/_grid.html" if request.htmx else "cards/grid.html"
    return render(request, template, context)


@require_GET
def card_detail(request, code: str):
    """A card: its face and facts, the cards before and after it in its set, and what the apps
    above the catalogue add (your decks and collections: `cards.panels`)."""
    card = get_object_or_404(Card.objects.select_related("card_set"), code=code)
    in_set = Card.objects.filter(card_set=card.card_set_id).only("code", "name", "number")
    context = {
        "card": card,
        "previous": in_set.filter(number__lt=card.number).order_by("-number").first(),
        "next": in_set.filter(number__gt=card.number).order_by("number").first(),
        "panels": panels.render(request, card),
    }
    return render(request, "cards/card_detail.html", context)


@require_GET
def set_detail(request, code: str):
    card_set = get_object_or_404(CardSet, code=code)
    cards = card_set.cards.all()
    return render(
        request,
        "cards/set_detail.html",
        {"set": card_set, "cards": cards, "chips": card_set.kicker_chips.all()},
    )


@require_GET
def set_list(request):
    return render(request, "cards/set_list.html", {"sets": selectors.set_list()})


@require_GET
def chip_detail(request, code: str):
    chip = get_object_or_404(KickerChip, code=code)
    return render(request, "cards/chip_detail.html", {"chip": chip})


def accepts_webp(request) -> bool:
    """Whether the client prefers WebP to PNG (Accept names image/webp, as browsers that show
    it do); a bare */* (curl, most API clients) or no Accept keeps getting PNG."""
    return request.get_preferred_type(["image/png", "image/webp"]) == "image/webp"


def _image(request, etag: str, png) -> HttpResponse:
    """A picture at its .png address: WebP to a client that accepts it, PNG otherwise, with
    `Vary: Accept` so that caches keep the two apart. Each has its own ETag, and a client
    holding the one it would get is answered 304 (Django's conditional check: a weak match
    counts)."""
    as_webp = accepts_webp(request)
    quoted = f'"{images.webp_etag(etag)}"' if as_webp else f'"{etag}"'
    response = get_conditional_response(request, etag=quoted)
    if response is None:
        response = HttpResponse(
            images.webp_of(etag, png) if as_webp else png(),
            content_type="image/webp" if as_webp else "image/png",
        )
        response["X-Content-Type-Options"] = "nosniff"
    response["ETag"] = quoted
    response["Cache-Control"] = "public, max-age=86400"
    patch_vary_headers(response, ["Accept"])
    return response


@require_GET
def card_image(request, code: str, size: str):
    card = get_object_or_404(Card, code=code)
    return _image(
        request,
        images.card_etag(card, size),
        lambda: images.card_png(card, size),
    )


@require_GET
def card_back(request, size: str):
    """The back every card shares (the table shows it for concealed cards)."""
    return _image(
        request,
        images.back_etag(size),
        lambda: images.back_png(size),
    )


@require_GET
def chip_image(request, code: str, side: int):
    chip = get_object_or_404(KickerChip, code=code)
    return _image(
        request,
        images.chip_etag(chip, side),
        lambda: images.chip_png(chip, side),
    )
