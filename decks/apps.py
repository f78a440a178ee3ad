from django.apps import AppConfig


class DecksConfig(AppConfig):
    """Decks, formats, import/export, statistics, sealed pools and draft pods."""

    name = "decks"
