"""What collections take from the apps above them without importing them.

The apps form layers (docs/collections.md): `cards` (the catalogue) <- `collecting` <- `decks`
<- `simulator`, and a layer imports only those below it (import-linter checks this in
`make lint`). Two things collections need are the decks app's, so `decks` hands them in when it
starts (`DecksConfig.ready`):

- the copies of a card an owner's decks use, which a trade list keeps by default;
- the engine's catalogue (decks' adapter from the database), which practice boosters open.

Without the decks app a trade list keeps a playset and practice boosters are refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.core.exceptions import ImproperlyConfigured
from django.db.models import Expression, IntegerField, Value

if TYPE_CHECKING:
    from simulator.engine.drifter.cards import Catalogue

# owner id -> an expression over the outer card (`OuterRef("pk")`): copies the owner's decks use
DeckUse = Callable[[int], Expression]

_deck_use: DeckUse | None = None
_engine_catalogue: Callable[[], Catalogue] | None = None


def provide(*, deck_use: DeckUse, engine_catalogue: Callable[[], Catalogue]) -> None:
    """Called once by the decks app when it is ready."""
    global _deck_use, _engine_catalogue
    _deck_use, _engine_catalogue = deck_use, engine_catalogue


def deck_use(owner_id: int) -> Expression:
    """Copies of the outer card the owner's decks use (0 without the decks app)."""
    if _deck_use is None:
        return Value(0, output_field=IntegerField())
    return _deck_use(owner_id)


def engine_catalogue() -> Catalogue:
    """The engine's catalogue built from the database (the decks app's adapter)."""
    if _engine_catalogue is None:
        raise ImproperlyConfigured("No engine catalogue: the decks app is not installed.")
    return _engine_catalogue()
