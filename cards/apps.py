from django.apps import AppConfig


class CardsConfig(AppConfig):
    """The catalogue (sets, cards, kicker chips, products) and what collectors own."""

    name = "cards"
    verbose_name = "Cards and collections"
