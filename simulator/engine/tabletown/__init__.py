"""Tabletown (John Reyman): the fastest draw in the West, for 2 to 8 gunslingers."""

from simulator.engine.core import GameSpec, register
from simulator.engine.tabletown.bots import BOTS, HeuristicBot
from simulator.engine.tabletown.game import Action, TabletownState, narrate, new_game, replay

SPEC = register(
    GameSpec(
        name="tabletown",
        title="Tabletown",
        new_game=new_game,
        replay=replay,
        bots=BOTS,
        min_players=2,
        max_players=8,
        needs_decks=False,
    )
)

__all__ = ["SPEC", "Action", "HeuristicBot", "TabletownState", "narrate", "new_game", "replay"]
