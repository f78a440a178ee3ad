"""The card duel: two cowboys, three rounds of simultaneous duels for gold."""

from simulator.engine.core import GameSpec, register
from simulator.engine.duel.bots import BOTS, HeuristicBot
from simulator.engine.duel.game import Action, DuelState, narrate, new_game, replay

SPEC = register(
    GameSpec(
        name="duel",
        title="The Duel",
        new_game=new_game,
        replay=replay,
        bots=BOTS,
        min_players=2,
        max_players=2,
        needs_decks=False,
    )
)

__all__ = ["SPEC", "Action", "DuelState", "HeuristicBot", "narrate", "new_game", "replay"]
