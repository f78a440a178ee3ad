"""Stepping through a stored game record turn by turn, for the replay viewer.

Each game's service spec makes the frames (`GameService.replay`): High Stakes Drifter's
(simulator/specs/drifter.py) replays the record with no RNG and takes a frame at every turn,
with the table as `table_of` draws it; other games show their own narration, one frame per
sentence, with the final result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Frame:
    """One step of the viewer: a title, the table as the engine left it, what was said."""

    title: str
    lines: list[str]
    table: dict[str, Any] | None = None


@dataclass
class Replay:
    game: str
    players: list[str]
    final: dict[str, Any]
    frames: list[Frame] = field(default_factory=list)


def _dude(state: Any, card: Any) -> dict[str, Any]:
    return {
        "name": card.defn.name,
        "owner": card.owner,
        "revealed": card.revealed,
        "chips": card.chips,
        # A concealed dude shows no stats in play; the narrator names what is printed on it.
        "stats": list(state.stats(card) if card.revealed else card.defn.stats),
        "gear": [
            {"name": g.defn.name, "revealed": g.revealed, "chips": g.chips} for g in card.gear
        ],
        "kickers": [
            f"{k.defn.sides[k.side][0]} {k.defn.sides[k.side][1]:+d}" for k in card.kickers
        ],
    }


def table_of(state: Any) -> dict[str, Any]:
    """What is on the table now (the narrator sees concealed cards too)."""
    return {
        "saloon": [_dude(state, c) for c in state.saloon],
        "street": [_dude(state, c) for c in state.street],
        "fortunes": [{"name": f.defn.name, "owner": f.owner} for f in state.fortunes],
        "stakes": list(state.stake),
        "pot": state.pot,
        "carried": state.carried,
        "hands": [len(h) for h in state.hand],
        "decks": [len(d) for d in state.deck],
        "turn": state.turns,
    }


def build_replay(record: dict[str, Any], catalogue: Any = None) -> Replay:
    """The frames of a game record (RecordError if it does not replay), by its game's service
    spec; `catalogue` is the card catalogue of a game that plays with one (default: the
    database's)."""
    from simulator.specs import service_for

    return service_for(str(record.get("game"))).replay(record, catalogue)
