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
from simulator.engine.core.errors import EngineError, IllegalAction, RecordError
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
    final: Callable[[S, GameRecord], dict] | None = None,
    before_each: Callable[[S], None] | None = None,
) -> S:
    """Rebuild a game of `game` from its record with no RNG: the one replay loop of every game.

    `build(record, chance, log)` starts the state from the record's header, drawing every random
    outcome from `chance` and logging into `log`; each recorded decision is then parsed with
    `action_from_json` and applied by the seat to act. `final(state, record)` is the state's
    final as the record's version wrote it (default: `state.final()`). A record written before
    its game ended (no final) replays to the point it reached. `before_each(state)` sees the
    state before each decision is applied (the state the record's prefix up to it replays to).

    RecordError if the record is corrupt or tampered with: a bad checksum, another game, a
    decision out of turn or after the end, an illegal action or rules, events the replay does
    not make itself, or a final that differs from the recorded one.
    """
    record = GameRecord.from_json(record_json)
    if record.game != game:
        raise RecordError(f"not a {game} record: {record.game!r}")
    log: list = []
    chance = ReplayChance(record.events, log=log)
    try:
        state = build(record, chance, log)
        while True:
            at = chance.pos
            step = chance.next_action()
            if step is None:
                break
            player, data = step
            if state.is_over:
                raise RecordError(f"event {at}: a decision after the game ended")
            if player != state.to_act:
                raise RecordError(f"event {at}: seat {player} acts but seat {state.to_act} is due")
            if before_each is not None:
                before_each(state)
            state.apply(action_from_json(data))
    except RecordError:
        raise
    except EngineError as exc:
        raise RecordError(f"the record does not replay: {exc}") from exc
    except (KeyError, IndexError, TypeError, ValueError) as exc:  # a re-signed forgery's data
        raise RecordError(f"the record does not replay: {exc!r}") from exc
    if log != record.events:
        raise RecordError("the replayed events differ from the record")
    _check_final(state, record, final)
    return state


def _check_final(
    state: S, record: GameRecord, final: Callable[[S, GameRecord], dict] | None
) -> None:
    """RecordError unless the replayed game ends as the record says (or, with no final in the
    record, has not ended)."""
    if record.final is None:
        if state.is_over:
            raise RecordError("the record has no final result for a finished game")
    elif not state.is_over:
        raise RecordError("the record has a final result but its decisions stop before the end")
    else:
        ends = final(state, record) if final is not None else state.final()
        if ends != record.final:
            raise RecordError(
                "the replayed final differs from the recorded one:"
                f" the replay ends {ends} but the record says {record.final}"
            )


def narration(replay: Callable[..., Any], record_json: dict) -> list[str]:
    """The sentences `replay(record_json, story=...)` tells while it rebuilds the game."""
    story: list[str] = []
    replay(record_json, story=story)
    return story
