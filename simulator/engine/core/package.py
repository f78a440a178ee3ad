"""A small game's package functions, built from its state class and registered in one call.

A game package's `__init__.py` says `SPEC = register_game(DuelState, Action, bots=BOTS)` and
takes its `new_game`, `replay` and `narrate` from the spec.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simulator.engine.core.chance import Chance
from simulator.engine.core.registry import GameSpec, register
from simulator.engine.core.replay import narration, replay_record
from simulator.engine.core.state import BaseGameState


def register_game(
    state: type[BaseGameState],
    action: Any,
    *,
    bots: dict[str, Callable[[int, int], Any]],
) -> GameSpec:
    """Register the game that `state` plays, by its `NAME`, `TITLE` and `PLAYERS` bounds.

    The spec's `new_game`, `replay` and `narrate` are the game package's functions; `replay`
    parses the recorded decisions with `action.from_json`.
    """

    def new_game(
        seats: list,
        rules: dict | None = None,
        seed: int = 0,
        record: bool = True,
        *,
        chance: Chance | None = None,
    ) -> BaseGameState:
        """A new game; `chance` overrides the seeded RNG (tests stack the deck)."""
        return state(seats, rules, seed, chance=chance, log=[] if record else None)

    def replay(
        record_json: dict,
        *,
        story: list[str] | None = None,
        before_each: Callable[[BaseGameState], None] | None = None,
    ) -> BaseGameState:
        """Rebuild a game from its record with no RNG; RecordError if it is corrupt or tampered.
        `before_each(state)`: called with the state before each recorded decision."""
        return replay_record(
            record_json,
            game=state.NAME,
            build=lambda record, chance, log: state(
                record.seats, state.recorded_rules(record.rules), record.seed, chance, log, story
            ),
            action_from_json=action.from_json,
            before_each=before_each,
        )

    def narrate(record_json: dict) -> list[str]:
        """The game told as a list of sentences, from its record."""
        return narration(replay, record_json)

    low, high = state.PLAYERS
    return register(
        GameSpec(
            name=state.NAME,
            title=state.TITLE,
            new_game=new_game,
            replay=replay,
            narrate=narrate,
            bots=bots,
            min_players=low,
            max_players=high,
            summary=state.SUMMARY,
        )
    )
