from django.apps import AppConfig


class DecksConfig(AppConfig):
    """Decks, formats, import/export, statistics, sealed pools and draft pods."""

    name = "decks"

    def ready(self) -> None:
        # Collections sit below decks and do not import them; hand them what they take from
        # decks (collecting/hooks.py).
        from cards import panels  # models: after the app registry
        from collecting import hooks  # models: after the app registry
        from decks import card_page  # models: after the app registry
        from decks.engine_catalogue import engine_catalogue  # models: after the app registry
        from decks.ownership import deck_use  # models: after the app registry

        hooks.provide(deck_use=deck_use, engine_catalogue=engine_catalogue)
        # The card page shows my decks that use a card and adds it to one (cards/panels.py).
        panels.provide("decks", card_page.panel)
