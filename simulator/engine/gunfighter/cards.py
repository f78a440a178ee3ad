"""Gunfighter's components, loaded once from fixtures/games/gunfighter.json."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "games" / "gunfighter.json"

CATEGORIES = ("AIM", "DODGE", "GUN BELT", "INTIMIDATE", "SHOOT")


@dataclass(frozen=True, slots=True)
class ActionCard:
    """One printed action card: `die` is its die roll value, `cost` its bullet cost."""

    id: int
    name: str
    category: str
    die: int
    cost: int
    effects: tuple[tuple, ...]
    discard_after_use: bool
    text: str


def load(path: Path = FIXTURE) -> tuple[tuple[ActionCard, ...], dict]:
    """The 50 action cards (id = index) and the rest of the fixture (stats, setup, Staredown)."""
    data = json.loads(path.read_text())
    cards: list[ActionCard] = []
    for design in data["action_cards"]:
        for die in design["die"]:
            cards.append(
                ActionCard(
                    id=len(cards),
                    name=design["name"],
                    category=design["category"],
                    die=die,
                    cost=design["cost"],
                    effects=tuple(tuple(step) for step in design["effects"]),
                    discard_after_use=design.get("discard_after_use", False),
                    text=design["text"],
                )
            )
    return tuple(cards), data


CARDS, FIXTURE_DATA = load()
# Both players own a Staredown card; it shares one id because it never enters the deck.
STAREDOWN = len(CARDS)
STAT_MIN = FIXTURE_DATA["stat_card"]["minimum"]
STAT_MAX = FIXTURE_DATA["stat_card"]["maximum"]


def card_name(card: int) -> str:
    """The printed name of a card id (the Staredown included)."""
    return FIXTURE_DATA["staredown"]["name"] if card == STAREDOWN else CARDS[card].name
