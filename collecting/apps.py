from django.apps import AppConfig


class CollectingConfig(AppConfig):
    """What collectors own: collections of cards and chips, wishlists, trade lists, openings
    and scans. Above the catalogue (`cards`), below `decks` (docs/collections.md)."""

    name = "collecting"
    verbose_name = "Collections"
