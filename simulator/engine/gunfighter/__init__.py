"""Gunfighter (Derrick Hwang): a two-player card duel of accuracy, bullets and health."""

from simulator.engine.core import GameSpec, register
from simulator.engine.gunfighter.bots import BOTS, HeuristicBot
from simulator.engine.gunfighter.game import (
    Action,
    GunfighterState,
    narrate,
    new_game,
    replay,
)

SPEC = register(
    GameSpec(
        name="gunfighter",
        title="Gunfighter",
        new_game=new_game,
        replay=replay,
        bots=BOTS,
        min_players=2,
        max_players=2,
        needs_decks=False,
    )
)

__all__ = ["SPEC", "Action", "GunfighterState", "HeuristicBot", "narrate", "new_game", "replay"]
