"""A database made before `simulator/` became rooms is read intact by the rooms' models.

The models moved from one `simulator/models.py` to each room's `models.py` (runs, doctor,
table) with the same app, the same tables and the same columns, so the move needs no migration:
the migration history ends where the models now are, and rows written by the models of the
last migration (what the code before the move wrote: simulator 0006) are every one there,
field for field, when the rooms' models read them.
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db.migrations.autodetector import MigrationAutodetector
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.state import ProjectState

from simulator.doctor.models import DoctorRun, DoctorStage
from simulator.runs.models import ChunkResult, GameSample, SimulationChunk, SimulationRun
from simulator.table.models import TableGame

LAST = ("simulator", "0006_doctor_chain")  # the last migration of the code before the rooms
ROOMS = {
    "simulationrun": SimulationRun,
    "simulationchunk": SimulationChunk,
    "chunkresult": ChunkResult,
    "gamesample": GameSample,
    "tablegame": TableGame,
    "doctorrun": DoctorRun,
    "doctorstage": DoctorStage,
}


# Columns later migrations added to the moved tables, each nullable so that a row the old
# models wrote reads whole with NULL there: (column, type, null) by model.
ADDED = {
    "simulationrun": [("checks_id", "ForeignKey", True)],  # 0008: a check's run
    "simulationchunk": [("lease_until", "DateTimeField", True)],  # 0011: a playing chunk's lease
    "doctorrun": [("bot_budget", "PositiveIntegerField", True)],  # 0009: the deck's bot's budget
    # 0010: tables people share; the columns that are not nullable have a database default,
    # which a row written by the old models gets (TABLE_DEFAULTS).
    "tablegame": [
        ("clock_seconds", "PositiveIntegerField", True),
        ("deadline", "DateTimeField", True),
        ("grace_seconds", "PositiveIntegerField", False),
        ("invite_token", "CharField", True),
        ("listed", "BooleanField", False),
        ("on_resign", "CharField", False),
        ("on_timeout", "CharField", False),
        ("pace", "CharField", False),
        ("quick_start", "BooleanField", False),
        ("rematch_of_id", "ForeignKey", True),
        ("spectators", "BooleanField", False),
        ("spectators_talk", "BooleanField", False),
        ("stand_in_moves", "JSONField", True),
        ("started_at", "DateTimeField", True),
        ("to_act", "SmallIntegerField", True),
        ("version", "PositiveIntegerField", False),
    ],
}


def _old_apps():
    return MigrationLoader(None, ignore_no_migrations=True).project_state(LAST).apps


def test_the_move_needs_no_migration_the_last_one_describes_the_rooms_models():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    # Later migrations add rooms' tables (the bots' ladder, 0007) and nullable columns (ADDED).
    (leaf,) = loader.graph.leaf_nodes("simulator")
    assert LAST in loader.graph.forwards_plan(leaf)
    changes = MigrationAutodetector(
        loader.project_state(), ProjectState.from_apps(apps)
    )._detect_changes()
    assert "simulator" not in changes


@pytest.mark.parametrize("name", sorted(ROOMS))
def test_each_rooms_model_keeps_its_table_and_columns(name):
    old = _old_apps().get_model("simulator", name)
    new = ROOMS[name]
    assert new._meta.app_label == "simulator"
    assert new._meta.db_table == old._meta.db_table
    # Sorted: a migration that adds a field puts it last, the model where it reads best.
    columns = sorted(
        [
            RELAXED.get((name, f.column), (f.column, f.get_internal_type(), f.null))
            for f in old._meta.concrete_fields
        ]
        + ADDED.get(name, [])
    )
    assert sorted((f.column, f.get_internal_type(), f.null) for f in new._meta.concrete_fields) == (
        columns
    )


# Columns later migrations made nullable: 0010, a table waiting for players has no record yet.
RELAXED = {("tablegame", "record"): ("record", "JSONField", True)}

TABLE_DEFAULTS = {
    "grace_seconds": 60,
    "listed": False,
    "on_resign": "out",
    "on_timeout": "bot",
    "pace": "live",
    "quick_start": False,
    "spectators": False,
    "spectators_talk": False,
    "version": 0,
}


@pytest.mark.django_db
def test_rows_the_old_models_wrote_are_read_whole_by_the_rooms(django_user_model):
    old = _old_apps()
    owner = django_user_model.objects.create(username="rooms-ann")
    deck = old.get_model("decks", "Deck").objects.create(owner_id=owner.pk, name="Old deck")
    run_model = old.get_model("simulator", "SimulationRun")
    plan = {"game": "drifter", "players": [{"label": "A", "bot": "heuristic", "source": None}]}
    run = run_model.objects.create(
        owner_id=owner.pk, kind="gauntlet", game="drifter", format="draw", games=10,
        total_games=20, seed=7, chunk_size=5, chunk_count=4, plan=plan, status="done",
        games_done=20, chunks_done=4, aggregate={"games": 20},
    )  # fmt: skip
    old.get_model("simulator", "SimulationChunk").objects.create(
        run_id=run.pk, index=0, start=0, end=5, status="done", sends=2, worker="w1@host"
    )
    old.get_model("simulator", "ChunkResult").objects.create(
        run_id=run.pk, chunk_index=0, games=10, seconds=0.5, aggregate={"games": 10}
    )
    old.get_model("simulator", "GameSample").objects.create(
        run_id=run.pk, matchup=1, index=3, seats=[1, 0], record={"game": "drifter"},
        final={"winners": [0]},
    )  # fmt: skip
    old.get_model("simulator", "TableGame").objects.create(
        owner_id=owner.pk, game="duel", seats=[{"label": "me"}], seed=11, record={"e": [1]},
        move=4,
    )  # fmt: skip
    doctor = old.get_model("simulator", "DoctorRun").objects.create(
        owner_id=owner.pk, deck_id=deck.pk, format="standard", gauntlet=[{"starter": "HSD-S2"}],
        source="format", bot="heuristic", budget=2000, seed=5, state={"round": 1},
    )  # fmt: skip
    old.get_model("simulator", "DoctorStage").objects.create(
        doctor_id=doctor.pk, run_id=run.pk, round=1, swap={"cut": "HSD-001", "add": "HSD-002"}
    )

    for name, new in ROOMS.items():
        written = old.get_model("simulator", name).objects.order_by("pk")
        added = [column for column, _type, _null in ADDED.get(name, [])]
        fields = [f.attname for f in new._meta.concrete_fields if f.attname not in added]
        assert list(new.objects.order_by("pk").values_list(*fields)) == list(
            written.values_list(*fields)
        ), name
        for column in added:
            expected = TABLE_DEFAULTS.get(column) if name == "tablegame" else None
            assert set(new.objects.values_list(column, flat=True)) == {expected}, (name, column)
    read = SimulationRun.objects.get(pk=run.pk)
    assert (read.kind, read.plan, read.doctor.swap["add"]) == (
        SimulationRun.Kind.GAUNTLET,
        plan,
        "HSD-002",
    )
    assert TableGame.objects.get().is_over is False
    assert DoctorRun.objects.get().stages.get().run == read
