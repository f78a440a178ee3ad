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
    "records": "5eef550a0550e2a79ab7f1dd7e4376346703762680a70298bed796d0d738d749",
    "narration": "be0fd2cccd00060130a478c252e00f454f6be668dcc14d238d365ec8be371c90",
    "seat0": "22853836eb8e1a6597cca6f96b3762f6570d7e540d0398f774e3588d56bd5048",
    "labels": "03cf0beca37bb29fbafcf090971a117f7cd3a83f5c4690f966165326db8ab358",
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
