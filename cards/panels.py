"""What the apps above the catalogue show on a card's page, without the catalogue importing them.

The apps form layers (`cards` <- `collecting` <- `decks` <- `simulator`, checked by
import-linter), so the card page cannot ask the decks app which of your decks use a card. Each
app above hands in a panel when it starts (its `AppConfig.ready`): a function of the request and
the card that returns the HTML of its part of the page ("" to show nothing). The card page shows
them in the order the apps start (collections, then decks). `collecting/hooks.py` is the same
idea for collections.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.http import HttpRequest
from django.utils.safestring import SafeString, mark_safe

if TYPE_CHECKING:
    from cards.models import Card

CardPanel = Callable[[HttpRequest, "Card"], str]

_panels: dict[str, CardPanel] = {}


def provide(name: str, panel: CardPanel) -> None:
    """Add (or replace) the panel `name` on every card page. Called from `AppConfig.ready`."""
    _panels[name] = panel


def render(request: HttpRequest, card: Card) -> list[SafeString]:
    """Each panel's HTML for this card (panels are rendered from templates: already escaped)."""
    rendered = (panel(request, card) for panel in _panels.values())
    return [mark_safe(html) for html in rendered if html.strip()]
