"""The shared core: recorded and replayed chance, records with checksums, the registry."""

import pytest

from simulator.engine.core import (
    GameRecord,
    RandomBot,
    RecordedChance,
    RecordError,
    ReplayChance,
    get_game,
)
from simulator.engine.core.errors import RulesError


def test_recorded_chance_logs_every_outcome_and_replay_hands_them_back():
    log: list = []
    live = RecordedChance(7, log)
    order = live.shuffle(["a", "b", "c", "d"], "deck")
    roll = live.randint(1, 6, "die")
    pick = live.choice_index(3, "coin")
    again = ReplayChance(log)
    assert again.shuffle(["a", "b", "c", "d"], "deck") == order
    assert again.randint(1, 6, "die") == roll
    assert again.choice_index(3, "coin") == pick


def test_replay_chance_refuses_a_mismatch():
    with pytest.raises(RecordError, match="expected a roll"):
        ReplayChance([["pick", "x", 0]]).randint(1, 6, "die")
    with pytest.raises(RecordError, match="outside"):
        ReplayChance([["roll", "die", 9]]).randint(1, 6, "die")
    with pytest.raises(RecordError, match="record ends"):
        ReplayChance([]).choice_index(2, "coin")


def test_record_checksum_round_trip_and_tamper():
    rec = GameRecord("g", {"a": 1}, [{"name": "x"}], 3, [["act", 0, {"kind": "x"}]], {"w": 0})
    data = rec.to_json()
    assert GameRecord.from_json(data) == rec
    data["seed"] = 4
    with pytest.raises(RecordError, match="checksum"):
        GameRecord.from_json(data)


def test_registry_knows_drifter_with_its_bots():
    spec = get_game("drifter")
    assert spec.min_players == 2 and spec.max_players == 8
    assert {"random", "heuristic", "search"} <= set(spec.bots)
    with pytest.raises(RulesError):
        get_game("canasta")


def test_random_bot_is_seeded():
    assert [RandomBot(1).choose(None, list(range(10))) for _ in range(3)] == [
        RandomBot(1).choose(None, list(range(10))) for _ in range(3)
    ]
