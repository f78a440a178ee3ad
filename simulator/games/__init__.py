"""What the simulation service needs from each game, asked by the game's name.

The engine's registry (`simulator.engine.core.registry`) says how to start, replay and bot a
game; a *service spec* (`GameService`) adds what the site needs around it: the rules a run
may ask for, how a seat names its deck or components, the card catalogue a game plays with,
how long a game takes, the card names in a report, the charts and the replay viewer. The
service (adapters, runner, services, selectors, views) asks the spec and never a game's name.

A game played with fixed components needs no spec of its own: `GameService` serves it. A game
that needs more has a module here named after it (`simulator/games/<game>.py`) defining
`Spec`, a subclass of `GameService`; it is found by that name, so adding a game touches its
engine package and its spec only (docs/simulations.md, "Adding a game to the service").
"""

from __future__ import annotations

import importlib
from functools import cache

from simulator.engine.core import games, get_game
from simulator.games.base import GameService, PreparedRules

__all__ = ["GameService", "PreparedRules", "deck_game", "service_for", "service_specs"]


@cache
def service_for(game: str) -> GameService:
    """The service spec of a registered game (RulesError if the engine has no such game)."""
    spec = get_game(game)
    try:
        module = importlib.import_module(f"simulator.games.{spec.name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"simulator.games.{spec.name}":
            raise
        return GameService(spec)
    service: GameService = module.Spec(spec)
    return service


def service_specs() -> dict[str, GameService]:
    """The service spec of every registered game, by name, in the engine's order."""
    return {name: service_for(name) for name in games()}


@cache
def deck_game() -> GameService:
    """The service spec of the game whose decks the site keeps (the `decks` app): the one
    registered game played with decks. Features that work on a saved deck (the deck doctor, a
    draft's test run) ask this rather than name a game."""
    with_decks = [s for s in service_specs().values() if s.spec.needs_decks]
    if len(with_decks) != 1:
        raise LookupError(f"expected one game played with decks, found {len(with_decks)}")
    return with_decks[0]
