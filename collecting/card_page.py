"""The collections' part of a card's page (`cards.panels`): how many copies each of my
collections holds, and a form that adds one copy to one of them."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q, QuerySet, Sum
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from cards.models import Card
from collecting import services
from collecting.models import Collection
from config.api import DomainError
from config.pages import show_problems


def _mine(request: HttpRequest, card: Card) -> QuerySet[Collection]:
    """My collections, each with `copies`: how many of the card it holds (None: none)."""
    return (
        Collection.objects.filter(owner=request.user.pk)
        .annotate(copies=Sum("entries__quantity", filter=Q(entries__card=card)))
        .order_by("name")
    )


def panel(request: HttpRequest, card: Card) -> str:
    """ "In my collections" and "Add to a collection" for a signed-in user; nothing for a
    visitor."""
    if not request.user.is_authenticated:
        return ""
    collections = list(_mine(request, card))
    context = {
        "card": card,
        "collections": collections,
        "holding": [c for c in collections if c.copies],  # type: ignore[attr-defined]
    }
    return render_to_string("collecting/_card_panel.html", context, request=request)


@login_required
@require_POST
def add_card(request: HttpRequest, code: str) -> HttpResponseRedirect:
    """One more copy (near mint) of the card in the collection chosen (one of mine: anyone
    else's is a 404), then back to the card's page, saying how many it holds now."""
    card = get_object_or_404(Card, code=code)
    try:
        collection_id = int(request.POST.get("collection", ""))
    except ValueError:
        messages.error(request, "Choose one of your collections.")
        return HttpResponseRedirect(card.get_absolute_url())
    collection = get_object_or_404(Collection, pk=collection_id, owner=request.user)
    try:
        services.entry_adjust(collection=collection, card=card, delta=1)
    except DomainError as exc:
        show_problems(request, exc)
    else:
        copies = _mine(request, card).get(pk=collection.pk).copies  # type: ignore[attr-defined]
        plural = "copy" if copies == 1 else "copies"
        messages.success(request, f"Added {card.name} to {collection.name}: {copies} {plural} now.")
    return HttpResponseRedirect(card.get_absolute_url())
