"""The JSON of a small game's actions: a `kind`, then integer fields with defaults."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Self

from simulator.engine.core.replay import parse_action


class GameAction:
    """What a game's frozen action dataclass inherits to be written into and read from records.

    The dataclass declares `kind: str` first, then its integer fields with defaults (the value
    of a field the kind does not use); `GAME` is the game's name, `KINDS` every kind it knows.
    """

    __slots__ = ()

    GAME: ClassVar[str]
    KINDS: ClassVar[tuple[str, ...]]

    def to_json(self) -> dict:
        """The action as a JSON object: its kind and only the fields it uses (not at default)."""
        out: dict[str, Any] = {}
        for field in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, field.name)
            if field.name == "kind" or value != field.default:
                out[field.name] = value
        return out

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """Parse an action; IllegalAction if it is not a well-formed action object."""
        return parse_action(cls, data, game=cls.GAME, kinds=cls.KINDS)
