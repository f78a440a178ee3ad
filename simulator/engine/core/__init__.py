"""What every game of the engine shares: errors, recorded chance, records, bots, the registry,
and for the small games a base state class and the package functions built from it."""

from simulator.engine.compiled import use_compiled

# First of all: the compiled build of `bots`, if `make engine` built it from exactly this source
# (simulator/engine/compiled.py); otherwise the .py file loads as usual.
use_compiled(__name__, __path__)

from simulator.engine.core.action import GameAction  # noqa: E402
from simulator.engine.core.bots import Bot, RandomBot  # noqa: E402
from simulator.engine.core.chance import Chance, RecordedChance, ReplayChance  # noqa: E402
from simulator.engine.core.errors import EngineError, IllegalAction, RecordError  # noqa: E402
from simulator.engine.core.game import GameState  # noqa: E402
from simulator.engine.core.package import register_game  # noqa: E402
from simulator.engine.core.record import RECORD_VERSION, GameRecord  # noqa: E402
from simulator.engine.core.registry import GameSpec, games, get_game, register  # noqa: E402
from simulator.engine.core.replay import narration, parse_action, replay_record, seat_names  # noqa: E402
from simulator.engine.core.state import OVER, BaseGameState  # noqa: E402

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
