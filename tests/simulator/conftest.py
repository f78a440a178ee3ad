"""Fixtures of the simulator's tests."""

import pytest

from simulator.table import services as table
from tests.simulator.table_play import SEED


@pytest.fixture
def seeded(monkeypatch) -> int:
    """Every new game at the table gets SEED (a real game draws its own)."""
    monkeypatch.setattr(table, "new_seed", lambda: SEED)
    return SEED
