"""The bot protocol and the bot every game has: random among the legal actions."""

from __future__ import annotations

import random
from typing import Any, Protocol


class Bot(Protocol):
    """Chooses an action from what its player may see."""

    name: str

    def choose(self, view: Any, legal_actions: list[Any]) -> Any:
        """One of `legal_actions`, decided from `view` alone."""


class RandomBot:
    """Uniformly random among the legal actions (seeded, so games are reproducible)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Any, legal_actions: list[Any]) -> Any:
        return legal_actions[self.rng.randrange(len(legal_actions))]
