"""Quickdraw's 54-card deck and its ranking, loaded from fixtures/games/quickdraw.json."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "games" / "quickdraw.json"
DATA = json.loads(FIXTURE.read_text())
RANKING: tuple[str, ...] = tuple(DATA["ranking"])
# Strength: the last of the ranking (Joker) is 0, the first (Ace) the highest.
STRENGTH = {rank: len(RANKING) - 1 - i for i, rank in enumerate(RANKING)}


@dataclass(frozen=True, slots=True)
class PlayingCard:
    """One card: `rank` as printed ("A", "10", "Joker"), `suit` ("" for a Joker)."""

    id: int
    rank: str
    suit: str
    strength: int

    @property
    def name(self) -> str:
        """The card as people write it: A♠, 10♥, Joker."""
        return self.rank + self.suit


def _deck() -> tuple[PlayingCard, ...]:
    cards = [
        PlayingCard(len(DATA["ranks"]) * s + r, rank, symbol, STRENGTH[rank])
        for s, (_, symbol) in enumerate(DATA["suits"])
        for r, rank in enumerate(DATA["ranks"])
    ]
    for _ in range(DATA["jokers"]):
        cards.append(PlayingCard(len(cards), "Joker", "", STRENGTH["Joker"]))
    return tuple(cards)


CARDS = _deck()
STRENGTHS = tuple(card.strength for card in CARDS)
HAND_SIZE: int = DATA["hand_size"]
JOKER = STRENGTH["Joker"]
