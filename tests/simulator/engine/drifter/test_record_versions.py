"""Older records still replay, each by the rulings its game was played under.

`records/version2-*.json` were written by the engine as it was before record version 3 (commit
4dd86d0), by random and heuristic bots over the test set below; each is a game that today's
rulings play otherwise (its name says which ruling: docs/rules/high-stakes-drifter.md,
"Rulings"). They are kept as written: never regenerate them."""

import json
from pathlib import Path

import pytest

from simulator.engine.core.errors import RecordError
from simulator.engine.core.record import RECORD_VERSION, GameRecord
from simulator.engine.drifter import Rules, replay
from simulator.engine.drifter.variants import LEGACY_RULINGS, RULINGS

from .factory import BASIC, BASIC_CHIPS, catalogue, dude

RECORDS = sorted((Path(__file__).parent / "records").glob("version2-*.json"))
WALT = dude(
    40,
    "Walt",
    5,
    2,
    4,
    3,
    abilities=[
        {
            "timing": "as_gear",
            "effects": [{"kind": "stat_mod", "stat": "skill", "amount": 1, "target": "self"}],
        }
    ],
    text="☆ Gear: This dude gets +1 skill.",
)


def cat():
    return catalogue([*BASIC, WALT], BASIC_CHIPS)


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def with_rules(record: dict, **changes) -> dict:
    """The record with changed rules, re-signed (as a forger, or a careless converter, would)."""
    return GameRecord(
        record["game"], dict(record["rules"], **changes), record["seats"], record["seed"],
        record["events"], record["final"],
    ).to_json()  # fmt: skip


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_a_version_2_record_replays_by_the_legacy_rulings(path):
    record = load(path)
    assert record["version"] == 2 and "rulings" not in record["rules"]
    state = replay(record, catalogue=cat())
    assert state.rules.rulings == LEGACY_RULINGS and state.final() == record["final"]


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_the_same_decisions_under_todays_rulings_are_another_game(path):
    """So the replay above really plays by the old rulings (each record was picked for it)."""
    with pytest.raises(RecordError):
        replay(with_rules(load(path), rulings=RULINGS), catalogue=cat())


def test_a_replayed_old_record_is_written_again_as_the_current_version_with_its_rulings():
    old = load(RECORDS[0])
    again = replay(old, catalogue=cat()).record()
    assert again["version"] == RECORD_VERSION == 3
    assert again["rules"]["rulings"] == LEGACY_RULINGS and again["events"] == old["events"]
    assert replay(again, catalogue=cat()).final() == old["final"]


def test_rules_written_before_rulings_existed_are_the_legacy_rulings():
    assert Rules.from_json({}).rulings == LEGACY_RULINGS
    assert Rules().rulings == RULINGS and Rules.from_json(Rules().to_json()) == Rules()
