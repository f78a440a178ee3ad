"""factory-boy factories for Django objects used across the tests."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from cards.models import Card, CardSet, KickerChip


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"drifter{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password("saddle-up-partner-1")


class CardSetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CardSet
        django_get_or_create = ("code",)

    code = factory.Sequence(lambda n: f"TS{n}")
    name = factory.LazyAttribute(lambda s: f"Test set {s.code}")
    booster_layout = factory.LazyFunction(
        lambda: {"cards": 9, "kicker_chips": 1, "slots": [{"count": 9, "weights": {"common": 1}}]}
    )


class CardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Card

    card_set = factory.SubFactory(CardSetFactory)
    set_order = factory.LazyAttribute(lambda c: c.card_set.order)
    number = factory.Sequence(lambda n: n + 1)
    code = factory.LazyAttribute(lambda c: f"{c.card_set.code}-{c.number:03d}")
    name = factory.Sequence(lambda n: f"Test Dude {n}")
    type = "dude"
    faction = "Drifters"
    rarity = "common"
    cost = 4
    smarts = 3
    skill = 3
    luck = 3
    kicker_limit = 10


class KickerChipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = KickerChip

    card_set = factory.SubFactory(CardSetFactory)
    code = factory.Sequence(lambda n: f"TS-K{n:02d}")
    color = "white"
    value = 1
    side_a_stat = "luck"
    side_a_amount = 1
    side_b_stat = "skill"
    side_b_amount = -1


class DeckFactory(factory.django.DjangoModelFactory):
    """An empty standard deck (add contents with decks.services.deck_update)."""

    class Meta:
        model = "decks.Deck"

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Deck {n}")
    format = "standard"
