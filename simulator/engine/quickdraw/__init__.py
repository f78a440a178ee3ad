"""Quickdraw: a two-player duel with a deck of playing cards and a bad attitude."""

from simulator.engine.core import register_game
from simulator.engine.quickdraw.bots import BOTS, HeuristicBot
from simulator.engine.quickdraw.game import Action, QuickdrawState

SPEC = register_game(QuickdrawState, Action, bots=BOTS)
new_game, replay, narrate = SPEC.new_game, SPEC.replay, SPEC.narrate

__all__ = ["SPEC", "Action", "HeuristicBot", "QuickdrawState", "narrate", "new_game", "replay"]
