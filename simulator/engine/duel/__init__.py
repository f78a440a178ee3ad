"""The card duel: two cowboys, three rounds of simultaneous duels for gold."""

from simulator.engine.core import register_game
from simulator.engine.duel.bots import BOTS, HeuristicBot
from simulator.engine.duel.game import Action, DuelState

SPEC = register_game(DuelState, Action, bots=BOTS)
new_game, replay, narrate = SPEC.new_game, SPEC.replay, SPEC.narrate

__all__ = ["SPEC", "Action", "DuelState", "HeuristicBot", "narrate", "new_game", "replay"]
