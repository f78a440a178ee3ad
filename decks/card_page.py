"""The decks' part of a card's page (`cards.panels`): my decks that use the card, and a form
that adds one copy of it to one of my decks."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q, Sum
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from cards.models import Card
from config.api import DomainError
from config.pages import show_problems
from decks import selectors, services


def panel(request: HttpRequest, card: Card) -> str:
    """ "In my decks" and "Add to a deck" for a signed-in user; nothing for a visitor."""
    if not request.user.is_authenticated:
        return ""
    decks = list(
        selectors.deck_list(owner=request.user)
        .annotate(copies=Sum("entries__qty", filter=Q(entries__card__name=card.name)))
        .order_by("-updated")
    )
    context = {
        "card": card,
        "decks": decks,
        "using": [d for d in decks if d.copies],
    }
    return render_to_string("decks/_card_panel.html", context, request=request)


@login_required
@require_POST
def add_card(request: HttpRequest, code: str) -> HttpResponseRedirect:
    """Add one copy of the card to the deck chosen (one of mine: anyone else's is a 404), then
    back to the card's page, saying what happened."""
    card = get_object_or_404(Card, code=code)
    try:
        deck_id = int(request.POST.get("deck", ""))
    except ValueError:
        messages.error(request, "Choose one of your decks.")
        return HttpResponseRedirect(card.get_absolute_url())
    deck = selectors.deck_get(owner=request.user, pk=deck_id)
    try:
        qty = services.deck_add_card(deck=deck, card=card)
    except DomainError as exc:
        show_problems(request, exc)
    else:
        copies = "1 copy" if qty == 1 else f"{qty} copies"
        messages.success(request, f"Added {card.name} to {deck.name}: {copies} now.")
    return HttpResponseRedirect(card.get_absolute_url())
