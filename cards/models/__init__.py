"""The cards app's models: the catalogue (what collectors own is the `collecting` app's)."""

from cards.models.catalogue import Card, CardSet, CatalogueVersion, KickerChip, StarterDeck

__all__ = ["Card", "CardSet", "CatalogueVersion", "KickerChip", "StarterDeck"]
