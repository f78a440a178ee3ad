"""Tabletown (John Reyman): the fastest draw in the West, for 2 to 8 gunslingers."""

from simulator.engine.core import register_game
from simulator.engine.tabletown.bots import BOTS, HeuristicBot
from simulator.engine.tabletown.game import Action, TabletownState

SPEC = register_game(TabletownState, Action, bots=BOTS)
new_game, replay, narrate = SPEC.new_game, SPEC.replay, SPEC.narrate

__all__ = ["SPEC", "Action", "HeuristicBot", "TabletownState", "narrate", "new_game", "replay"]
