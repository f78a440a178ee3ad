"""The bot protocol and the bot every game has: random among the legal actions."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from simulator.engine.core.draws import below

T = TypeVar("T")


class Bot(Protocol):
    """Chooses an action from what its player may see."""

    name: str

    def choose(self, view: Any, legal_actions: list[Any]) -> Any:
        """One of `legal_actions`, decided from `view` alone."""


class RandomBot:
    """Uniformly random among the legal actions, seeded, so games are reproducible: every game's
    `random` bot.

    It draws as `random.Random(seed).randrange(len(legal_actions))` does (every record made
    with that still replays), but without random.py's interpreted frames, which cost a
    random-bot shootout of the compiled Drifter engine more than a tenth of its time
    (`draws.below`; tests/simulator/engine/test_core.py compares the two)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._bits: Callable[[int], int] = self.rng.getrandbits  # looked up once

    def choose(self, view: object, legal_actions: Sequence[T]) -> T:
        """One of `legal_actions`, at random; ValueError if there is none."""
        n = len(legal_actions)
        if n == 0:
            raise ValueError("no legal action to choose from")
        return legal_actions[below(self._bits, n)]
