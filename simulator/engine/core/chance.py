"""Chance made explicit.

Every random outcome in a game (a shuffle, a kicker chip flip, a die roll) goes through a
`Chance` and becomes an event `[kind, label, value]` in the game record. Playing live,
`RecordedChance` draws from a per-game seeded `random.Random` and logs each outcome; replaying,
`ReplayChance` hands back the logged outcomes in order and needs no random numbers at all, so a
record replays identically in any process under any PYTHONHASHSEED.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from simulator.engine.core.draws import below, shuffled_order
from simulator.engine.core.errors import RecordError

T = TypeVar("T")


class Chance(Protocol):
    """The source of every random outcome of one game."""

    def shuffle(self, items: Sequence[T], label: str) -> list[T]:
        """A new list holding `items` in a random order."""

    def randint(self, low: int, high: int, label: str) -> int:
        """A whole number from `low` to `high` inclusive (a die is randint(1, 6))."""

    def choice_index(self, n: int, label: str) -> int:
        """An index from 0 to n - 1, uniformly (a coin is choice_index(2))."""


class RecordedChance:
    """Draws from a seeded RNG and writes every outcome to `events`.

    `log` is the list the game record keeps (shared with the action log so the order of
    chance and decisions is preserved). Pass `log=None` to keep no events (fast batches that
    will never be replayed).
    """

    __slots__ = ("log", "rng")

    def __init__(self, seed: int, log: list | None) -> None:
        self.rng = random.Random(seed)
        self.log = log

    def _below(self, n: int) -> int:
        return below(self.rng.getrandbits, n)

    def shuffle(self, items: Sequence[T], label: str) -> list[T]:
        order = shuffled_order(self.rng.getrandbits, len(items))
        if self.log is not None:
            self.log.append(["shuffle", label, order])
        return [items[i] for i in order]

    def randint(self, low: int, high: int, label: str) -> int:
        if high < low:
            raise ValueError(f"empty range for randint({low}, {high})")
        value = low + self._below(high - low + 1)
        if self.log is not None:
            self.log.append(["roll", label, value])
        return value

    def choice_index(self, n: int, label: str) -> int:
        if n <= 0:
            raise ValueError(f"empty range for choice_index({n})")
        value = self._below(n)
        if self.log is not None:
            self.log.append(["pick", label, value])
        return value


class ReplayChance:
    """Hands back recorded chance outcomes in order; any mismatch is a `RecordError`.

    `events` is the record's event list; `pos` walks it. Decision events are consumed by the
    replay driver through `next_action`, chance events by the game through the methods below.
    """

    __slots__ = ("events", "log", "pos")

    def __init__(self, events: list, log: list | None = None) -> None:
        self.events = events
        self.pos = 0
        self.log = log

    def _take(self, kind: str, label: str) -> Any:
        if self.pos >= len(self.events):
            raise RecordError(f"record ends where a {kind} ({label}) was expected")
        event = self.events[self.pos]
        if not isinstance(event, list) or len(event) != 3 or event[0] != kind or event[1] != label:
            raise RecordError(f"event {self.pos}: expected a {kind} ({label}), found {event!r}")
        self.pos += 1
        if self.log is not None:
            self.log.append(event)
        return event[2]

    def shuffle(self, items: Sequence[T], label: str) -> list[T]:
        order = self._take("shuffle", label)
        if not isinstance(order, list) or sorted(order) != list(range(len(items))):
            raise RecordError(f"event {self.pos - 1}: shuffle of {len(items)} is not a permutation")
        return [items[i] for i in order]

    def randint(self, low: int, high: int, label: str) -> int:
        value = self._take("roll", label)
        if type(value) is not int or not low <= value <= high:
            raise RecordError(f"event {self.pos - 1}: roll {value!r} outside {low}..{high}")
        return value

    def choice_index(self, n: int, label: str) -> int:
        value = self._take("pick", label)
        if type(value) is not int or not 0 <= value < n:
            raise RecordError(f"event {self.pos - 1}: pick {value!r} outside 0..{n - 1}")
        return value

    def next_action(self) -> tuple[int, dict] | None:
        """The next recorded decision `(player, action)`, or None at the end of the record."""
        if self.pos >= len(self.events):
            return None
        event = self.events[self.pos]
        if not isinstance(event, list) or len(event) != 3 or event[0] != "act":
            raise RecordError(f"event {self.pos}: expected a decision, found {event!r}")
        _, player, action = event
        if type(player) is not int or not isinstance(action, dict):
            raise RecordError(f"event {self.pos}: malformed decision {event!r}")
        self.pos += 1
        return player, action
