"""Replaying a game from its record, the way every game of the engine does it.

A game hands `replay_record` its name, how to start a state from a record's header (with a
`ReplayChance` for its random outcomes and a log to record into) and how to parse an action;
the record is then checked, the game rebuilt decision by decision and its final compared.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from simulator.engine.core.chance import ReplayChance
from simulator.engine.core.errors import IllegalAction, RecordError, RulesError
from simulator.engine.core.game import GameState
from simulator.engine.core.record import GameRecord

S = TypeVar("S", bound=GameState)
A = TypeVar("A", bound=Any)


def seat_names(seats: Sequence[Any]) -> list[str]:
    """What the narration calls each seat: its "name", else "Seat N"."""
    return [
        s["name"] if isinstance(s, dict) and isinstance(s.get("name"), str) else f"Seat {i}"
        for i, s in enumerate(seats)
    ]


def parse_action(cls: type[A], data: Any, *, game: str, kinds: Sequence[str]) -> A:
    """An action of dataclass `cls` (a `kind`, then integer fields with defaults) from JSON.

    Fields left out take their defaults; IllegalAction if `data` is not an object with a known
    kind ("not a <game> action") or has unknown keys or non-integer values ("malformed").
    """
    if not isinstance(data, dict) or data.get("kind") not in kinds:
        raise IllegalAction(f"not a {game} action: {data!r}")
    defaults = {f.name: f.default for f in dataclasses.fields(cls) if f.name != "kind"}
    if set(data) - {"kind", *defaults}:
        raise IllegalAction(f"malformed {game} action: {data!r}")
    values = {name: data.get(name, default) for name, default in defaults.items()}
    if any(type(value) is not int for value in values.values()):
        raise IllegalAction(f"malformed {game} action: {data!r}")
    return cls(data["kind"], **values)


def replay_record(
    record_json: dict,
    *,
    game: str,
    build: Callable[[GameRecord, ReplayChance, list], S],
    action_from_json: Callable[[Any], Any],
) -> S:
    """Rebuild a game of `game` from its record with no RNG.

    `build(record, chance, log)` starts the state from the record's header, drawing every random
    outcome from `chance` and logging into `log`; each recorded decision is then parsed with
    `action_from_json` and applied by the seat to act. RecordError if the record is corrupt or
    tampered with: a bad checksum, another game, a decision out of turn, an illegal action or
    rules, or a final that differs from the recorded one.
    """
    record = GameRecord.from_json(record_json)
    if record.game != game:
        raise RecordError(f"not a {game} record: {record.game!r}")
    log: list = []
    chance = ReplayChance(record.events, log=log)
    try:
        state = build(record, chance, log)
        while (step := chance.next_action()) is not None:
            player, data = step
            if state.is_over or player != state.to_act:
                raise RecordError(f"decision out of turn: seat {player}")
            state.apply(action_from_json(data))
    except (IllegalAction, RulesError) as exc:
        raise RecordError(f"record does not replay: {exc}") from exc
    if state.final() != record.final:
        raise RecordError("the replayed final differs from the recorded one")
    return state


def narration(replay: Callable[..., Any], record_json: dict) -> list[str]:
    """The sentences `replay(record_json, story=...)` tells while it rebuilds the game."""
    story: list[str] = []
    replay(record_json, story=story)
    return story
