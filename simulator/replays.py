"""Stepping through a stored game record turn by turn, for the replay viewer.

High Stakes Drifter: the record is replayed with no RNG (the engine's `ReplayChance`) and a
frame is taken at every turn: the saloon, the street, each player's stake, the pot and the
narration of what happened since the previous frame. Other games: their own narration, one
frame per sentence, with the final result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simulator.engine.core import get_game


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
    final: dict
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


def _table(state: Any) -> dict[str, Any]:
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


def _drifter(record: dict, catalogue: Any) -> Replay:
    from simulator.engine.core import GameRecord, ReplayChance
    from simulator.engine.drifter import Action, Rules, Seat, replay
    from simulator.engine.drifter.narrate import narrate_events
    from simulator.engine.drifter.state import DrifterState

    # Verify the whole record first (checksum, final): the viewer only shows honest games.
    final = replay(record, catalogue=catalogue).final()
    rec = GameRecord.from_json(record)
    seats = [Seat.from_json(s) for s in rec.seats]
    names = [s.name for s in seats]
    log: list = []
    chance = ReplayChance(rec.events, log=log)
    state = DrifterState(
        catalogue, seats, Rules.from_json(rec.rules), rec.seed, chance=chance, events=log,
        narrate=True,
    )  # fmt: skip
    frames: list[Frame] = []
    said = 0
    turn = state.turns

    def take(title: str, final: bool = False) -> None:
        # A frame ends where the next turn is announced: that line opens the next frame.
        nonlocal said
        events = state.log[said:]
        cut = len(events)
        if not final:
            starts = [i for i, ev in enumerate(events) if ev and ev[0] == "turn"]
            if starts and starts[-1] > 0:
                cut = starts[-1]
        frames.append(Frame(title, narrate_events(events[:cut], names), _table(state)))
        said += cut

    take("Setup")
    while (step := chance.next_action()) is not None:
        _player, data = step
        state.apply(Action.from_json(data))
        if state.turns != turn:
            take(f"Turn {turn}")
            turn = state.turns
    take(f"Turn {turn}: the end", final=True)
    return Replay("drifter", names, final, frames)


def build_replay(record: dict, catalogue: Any = None) -> Replay:
    """The frames of a game record (RecordError if it does not replay)."""
    game = record.get("game")
    if game == "drifter":
        if catalogue is None:
            # The same catalogue the simulation played with (the database's), not the files.
            from decks.engine_catalogue import engine_catalogue

            catalogue = engine_catalogue()
        return _drifter(record, catalogue)
    spec = get_game(str(game))
    state = spec.replay(record)
    story = spec.narrate(record) if spec.narrate is not None else []
    names = [str(s.get("name", f"Player {i + 1}")) for i, s in enumerate(record.get("seats", []))]
    frames = [Frame(f"Step {i + 1}", [line]) for i, line in enumerate(story)] or [
        Frame("The game", [])
    ]
    return Replay(spec.name, names, state.final(), frames)
