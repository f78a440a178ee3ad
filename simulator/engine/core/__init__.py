"""What every game of the engine shares: errors, recorded chance, records, bots, the registry."""

from simulator.engine.core.bots import Bot, RandomBot
from simulator.engine.core.chance import Chance, RecordedChance, ReplayChance
from simulator.engine.core.errors import EngineError, IllegalAction, RecordError
from simulator.engine.core.game import GameState
from simulator.engine.core.record import RECORD_VERSION, GameRecord
from simulator.engine.core.registry import GameSpec, games, get_game, register
from simulator.engine.core.replay import narration, parse_action, replay_record, seat_names

__all__ = [
    "RECORD_VERSION",
    "Bot",
    "Chance",
    "EngineError",
    "GameRecord",
    "GameSpec",
    "GameState",
    "IllegalAction",
    "RandomBot",
    "RecordError",
    "RecordedChance",
    "ReplayChance",
    "games",
    "get_game",
    "narration",
    "parse_action",
    "register",
    "replay_record",
    "seat_names",
]
