from django.apps import AppConfig


class CollectingConfig(AppConfig):
    """What collectors own: collections of cards and chips, wishlists, trade lists, openings
    and scans. Above the catalogue (`cards`), below `decks` (docs/collections.md)."""

    name = "collecting"
    verbose_name = "Collections"

    def ready(self) -> None:
        # The card page shows my copies of a card and adds one (cards/panels.py).
        from cards import panels  # models: after the app registry
        from collecting import card_page  # models: after the app registry

        panels.provide("collections", card_page.panel)
