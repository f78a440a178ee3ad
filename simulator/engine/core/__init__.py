"""What every game of the engine shares: errors, recorded chance, records, bots, the registry,
and for the small games a base state class and the package functions built from it."""

from simulator.engine.core.action import GameAction
from simulator.engine.core.bots import Bot, RandomBot
from simulator.engine.core.chance import Chance, RecordedChance, ReplayChance
from simulator.engine.core.errors import EngineError, IllegalAction, RecordError
from simulator.engine.core.game import GameState
from simulator.engine.core.package import register_game
from simulator.engine.core.record import RECORD_VERSION, GameRecord
from simulator.engine.core.registry import GameSpec, games, get_game, register
from simulator.engine.core.replay import narration, parse_action, replay_record, seat_names
from simulator.engine.core.state import OVER, BaseGameState

__all__ = [
    "OVER",
    "RECORD_VERSION",
    "BaseGameState",
    "Bot",
    "Chance",
    "EngineError",
    "GameAction",
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
    "register_game",
    "replay_record",
    "seat_names",
]
