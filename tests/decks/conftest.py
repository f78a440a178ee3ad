"""Deck test helpers: a tiny hand-made catalogue for the pure formats/sealed tests."""

from __future__ import annotations

import pytest

from simulator.engine.drifter.cards import Catalogue, parse_sets


def _card(number: int, name: str, rarity: str, ctype: str = "dude", cost: int = 3) -> dict:
    card = {"number": number, "name": name, "type": ctype, "rarity": rarity, "cost": cost}
    if ctype == "dude":
        card.update(
            smarts=number % 7, skill=(number * 3) % 9, luck=(number * 5) % 8, kicker_limit=10
        )
    return card


def mini_catalogue() -> Catalogue:
    """Set TST: 30 commons (20 dudes, 10 gear), 10 uncommons, 5 rares, 2 fixed, 2 promos (one
    of them a reprint of common #1's name), and one chip of each colour."""
    cards = []
    n = 1
    for i in range(30):
        cards.append(_card(n, f"Common {i}", "common", "dude" if i < 20 else "gear"))
        n += 1
    for i in range(10):
        cards.append(_card(n, f"Uncommon {i}", "uncommon", "fortune" if i < 5 else "dude"))
        n += 1
    for i in range(5):
        cards.append(_card(n, f"Rare {i}", "rare"))
        n += 1
    for i in range(2):
        cards.append(_card(n, f"Fixed {i}", "fixed"))
        n += 1
    cards.append(_card(n, "Promo 0", "promo"))
    cards.append(_card(n + 1, "Common 0", "promo"))  # a promo reprint of Common 0
    chips = [
        {
            "code": f"TST-K0{i}",
            "color": color,
            "sides": [{"stat": "luck", "amount": 1}, {"stat": "skill", "amount": -1}],
        }
        for i, color in enumerate(["white", "red", "blue", "green"], start=1)
    ]
    doc = {
        "code": "TST",
        "name": "Test set",
        "cards": cards,
        "kicker_chips": chips,
        "booster": {
            "slots": [
                {"count": 6, "weights": {"common": 1}},
                {"count": 2, "weights": {"uncommon": 1}},
                {"count": 1, "weights": {"rare": 3, "fixed": 1}},
            ],
            "kicker_chips": 1,
        },
    }
    return parse_sets([doc])


@pytest.fixture(scope="session")
def mini() -> Catalogue:
    return mini_catalogue()


@pytest.fixture
def legal(catalogue) -> dict:
    """A standard-legal deck from the real catalogue: 18 HSD commons x 3, two green chips."""
    from cards.models import Card, KickerChip

    commons = list(
        Card.objects.filter(card_set__code="HSD", rarity="common").order_by("number")[:18]
    )
    green = KickerChip.objects.filter(color="green").order_by("code").first()
    return {"cards": {c.code: 3 for c in commons}, "kicker_chips": {green.code: 2}}


def entries(mapping: dict[str, int]) -> list[dict]:
    return [{"code": c, "qty": q} for c, q in mapping.items()]
