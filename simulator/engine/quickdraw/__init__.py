"""Quickdraw: a two-player duel with a deck of playing cards and a bad attitude."""

from simulator.engine.core import GameSpec, register
from simulator.engine.quickdraw.bots import BOTS, HeuristicBot
from simulator.engine.quickdraw.game import Action, QuickdrawState, narrate, new_game, replay

SPEC = register(
    GameSpec(
        name="quickdraw",
        title="Quickdraw",
        new_game=new_game,
        replay=replay,
        bots=BOTS,
        min_players=2,
        max_players=2,
        needs_decks=False,
    )
)

__all__ = ["SPEC", "Action", "HeuristicBot", "QuickdrawState", "narrate", "new_game", "replay"]
