"""The cards app's models: the catalogue (what collectors own is the `collecting` app's)."""

from cards.models.catalogue import Card, CardSet, KickerChip, StarterDeck

__all__ = ["Card", "CardSet", "KickerChip", "StarterDeck"]
