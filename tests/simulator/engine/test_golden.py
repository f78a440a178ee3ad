"""The records, narration and button labels of a fixed set of varied games are the ones the
engine wrote before: a refactor of the engine (or of the table's labels) changes none of them.

`benchmarks/golden.py` plays the games (all five games; High Stakes Drifter with 2 to 8 seats,
every play variant, quick-start and the search bot) and prints these digests. A change that
means to alter records or narration bumps the record version where old records must still
replay (docs/game-record.md) and updates the digests here, saying why in its commit.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

GOLDEN = {
    "records": "acb1b1a61f497a2427c1fa4903c334b4a132fa7025c74e6c8ea27d7bbb8cfde7",
    "narration": "4835a2cfeb5db7137dc90e4f62920ab5c9f2dd054da5b396f36edf62b86decdd",
    "seat0": "efee20ba91794e100f30c31c5dac714449d9b7a0699470b6ba85062fae706e1c",
    "labels": "7f6400d828aa8c2c251ae5d168a24dedca418f8f038eb7e2da5f89c5717c93f1",
}


@pytest.fixture(scope="module")
def digests() -> dict[str, str]:
    path = Path(__file__).resolve().parents[3] / "benchmarks" / "golden.py"
    spec = importlib.util.spec_from_file_location("golden", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.digests()


@pytest.mark.parametrize("part", sorted(GOLDEN))
def test_the_engine_writes_and_tells_the_games_it_did(digests, part):
    assert digests[part] == GOLDEN[part]
