"""Gunfighter (Derrick Hwang): a two-player card duel of accuracy, bullets and health."""

from simulator.engine.core import register_game
from simulator.engine.gunfighter.bots import BOTS, HeuristicBot
from simulator.engine.gunfighter.game import Action, GunfighterState

SPEC = register_game(GunfighterState, Action, bots=BOTS)
new_game, replay, narrate = SPEC.new_game, SPEC.replay, SPEC.narrate

__all__ = ["SPEC", "Action", "GunfighterState", "HeuristicBot", "narrate", "new_game", "replay"]
