"""The cards app's models: the catalogue here, what collectors own in collection.py."""

from cards.models.catalogue import Card, CardSet, CatalogueVersion, KickerChip, StarterDeck
from cards.models.collection import (
    CardScan,
    Collection,
    CollectionChip,
    CollectionEntry,
    Condition,
    ProductOpening,
    TradeKeep,
    WishlistEntry,
)

__all__ = [
    "Card",
    "CardScan",
    "CardSet",
    "CatalogueVersion",
    "Collection",
    "CollectionChip",
    "CollectionEntry",
    "Condition",
    "KickerChip",
    "ProductOpening",
    "StarterDeck",
    "TradeKeep",
    "WishlistEntry",
]
