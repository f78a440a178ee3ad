"""The simulator app's models, for Django: each room of `simulator/` keeps its own tables in its
`models.py` (the same database tables as before the rooms: docs/architecture.md); this module
only gathers them, so that Django finds every model of the app. Code imports a model from its
room, never from here."""

from simulator.doctor.models import DoctorRun, DoctorStage
from simulator.ladder.models import BotLadder
from simulator.metagame.models import Field, FieldRun, FieldStage
from simulator.runs.models import (
    ChunkResult,
    GameSample,
    SimulationChunk,
    SimulationRun,
    WorkerPing,
)
from simulator.table.models import TableGame, TableMessage, TableSeat

__all__ = [
    "BotLadder",
    "ChunkResult",
    "DoctorRun",
    "DoctorStage",
    "Field",
    "FieldRun",
    "FieldStage",
    "GameSample",
    "SimulationChunk",
    "SimulationRun",
    "TableGame",
    "TableMessage",
    "TableSeat",
    "WorkerPing",
]
