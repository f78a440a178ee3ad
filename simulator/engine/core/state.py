"""The base of the small games' states: what a game that records itself does the same way.

A game's state subclass names its game and its bounds in class attributes and writes only what is
its own: `parse_rules` (if it has rule options), `_set_up` (the table and its first deal, draw or
roll), `legal_actions`, `_apply_legal` (a decision already checked and logged), `view` and
`final`. The base keeps the
record's header (seats, rules, seed), the chance (seeded, or given: a replay or a test's stacked
deck), the log of decisions and chance outcomes, the narration, `record()` and the checks before
a decision. High Stakes Drifter keeps a state of its own: its records, rules and narration differ.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from simulator.engine.core.chance import Chance, RecordedChance
from simulator.engine.core.errors import IllegalAction, RecordError, RulesError
from simulator.engine.core.record import GameRecord
from simulator.engine.core.replay import seat_names

OVER = "over"  # the phase of a game that has ended


class BaseGameState(ABC):
    """One game in progress, whose every decision and chance outcome goes into its record.

    `log` is the record's event list (None: the game keeps no record), `story` a list the
    narration's sentences are appended to (None: nothing is told). `phase` is the game's step,
    `OVER` once it has ended, and `actor` the seat whose decision is next.
    """

    NAME: ClassVar[str]  # the registered game name, written into its records
    TITLE: ClassVar[str]  # the game's title, as the registry shows it
    SUMMARY: ClassVar[str] = ""  # the game in one line, for people choosing what to simulate
    PLAYERS: ClassVar[tuple[int, int]] = (2, 2)  # the fewest and the most seats
    PLAYERS_ERROR: ClassVar[str]  # why another number of seats cannot play
    OVER_ERROR: ClassVar[str]  # why a game that has ended takes no decision

    phase: str
    actor: int

    def __init__(
        self,
        seats: list,
        rules: dict | None,
        seed: int,
        chance: Chance | None = None,
        log: list | None = None,
        story: list[str] | None = None,
    ) -> None:
        low, high = self.PLAYERS
        if not low <= len(seats) <= high:
            raise RulesError(self.PLAYERS_ERROR)
        self.seats = list(seats)
        self.names = seat_names(self.seats)
        self.rules = self.parse_rules(rules)
        self.seed = seed
        self._log = log
        self.story = story
        self.chance: Chance = chance if chance is not None else RecordedChance(seed, log)
        self._set_up()

    def parse_rules(self, rules: dict | None) -> dict:
        """The rules the game is played and recorded with; RulesError if `rules` cannot be.

        A game without rule options keeps this one: it refuses any option.
        """
        if rules:
            raise RulesError(f"{self.TITLE} has no rule options: {sorted(rules)}")
        return {}

    @classmethod
    def recorded_rules(cls, rules: dict) -> dict:
        """The rules a record was played by, from the ones it wrote, before `parse_rules`.

        A game that has since added a rule reads its absence in an old record as the engine's
        reading of that time, so the record replays as it was played (Tabletown's `rulings`).
        """
        return rules

    @abstractmethod
    def _set_up(self) -> None:
        """Lay out the game up to its first decision, every random outcome from `self.chance`."""

    # -- the protocol -------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.phase == OVER

    @property
    def to_act(self) -> int:
        """The seat whose decision is next."""
        return self.actor

    @abstractmethod
    def legal_actions(self) -> list[Any]:
        """Every action the player to act may take now."""

    def apply(self, action: Any) -> None:
        """Apply the decision of the player to act; IllegalAction (state unchanged) if illegal:
        anything that is not one of `legal_actions()` (the game's own action class, every field
        equal and of the same type) is refused."""
        if self.phase == OVER:
            raise IllegalAction(self.OVER_ERROR)
        if not any(_same_action(legal, action) for legal in self.legal_actions()):
            raise IllegalAction(f"{action!r} is not legal for seat {self.actor} now")
        if self._log is not None:
            self._log.append(["act", self.actor, action.to_json()])
        self._apply_legal(action)

    @abstractmethod
    def _apply_legal(self, action: Any) -> None:
        """Carry out a legal decision of the player to act (`apply` has logged it)."""

    @abstractmethod
    def view(self, player: int) -> dict:
        """What `player` may know now."""

    def record(self) -> dict:
        """The JSON-able game record."""
        if self._log is None:
            raise RecordError("this game was played with record=False")
        return GameRecord(
            game=self.NAME,
            rules=self.rules,
            seats=self.seats,
            seed=self.seed,
            events=list(self._log),  # a snapshot: the game may go on
            final=self.final() if self.is_over else None,
        ).to_json()

    @abstractmethod
    def final(self) -> dict:
        """A JSON-able summary of the end state: equal for a replay."""

    def _say(self, text: str, *args: Any) -> None:
        """Tell a sentence of the narration (only when it is being told)."""
        if self.story is not None:
            self.story.append(text.format(*args))


def _same_action(legal: Any, action: Any) -> bool:
    """Whether `action` is the legal action `legal`. `in` alone would take anything that says it
    equals everything (`unittest.mock.ANY`), or a field of another type that compares equal
    (`True == 1`, `1.0 == 1`), which the record would keep and its replay refuse."""
    return (
        type(action) is type(legal)
        and action == legal
        and all(
            type(getattr(action, f.name)) is type(getattr(legal, f.name))
            for f in dataclasses.fields(legal)
        )
    )
