"""The registry of games: each game package registers how to start, replay and bot it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from simulator.engine.core.errors import RulesError


@dataclass(frozen=True)
class GameSpec:
    """How the service and the commands drive one game.

    `new_game(seats, rules, seed, record)` starts a game, `replay(record_json)` rebuilds one from
    its record, `bots` maps a bot name to a factory `(seat, seed) -> Bot`, and `min_players` /
    `max_players` bound the seats. `narrate(record_json)`, where a game has one, tells a game from
    its record as a list of sentences. `summary` says in a line what the game is.
    """

    name: str
    title: str
    new_game: Callable[..., Any]
    replay: Callable[[dict], Any]
    bots: dict[str, Callable[[int, int], Any]] = field(default_factory=dict)
    min_players: int = 2
    max_players: int = 2
    needs_decks: bool = False
    narrate: Callable[[dict], list[str]] | None = None
    summary: str = ""
    # The rules take a `first_player` seat (else the game decides who starts by its own rule).
    chooses_first_player: bool = False


# What people are told of each bot a game may register, by its name (name, what it does).
BOT_LABELS: dict[str, tuple[str, str]] = {
    "random": ("Random", "any legal move, at random"),
    "heuristic": ("Heuristic", "plays by rules of thumb, fast"),
    "sharp": ("Sharp", "bets like the search bot, as fast as the heuristic; the default"),
    "search": ("Search", "looks ahead through many possible games, about 25 times slower"),
    "ismcts": ("Tree search", "grows a tree of its choices over many deals of the unseen cards"),
}


def bot_label(name: str) -> tuple[str, str]:
    """(name, what it does) of a bot, for people; an unlisted bot as its name with no note."""
    return BOT_LABELS.get(name, (name.replace("_", " ").capitalize(), ""))


_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add a game to the registry (idempotent for the same name)."""
    _GAMES[spec.name] = spec
    return spec


def _load_builtin() -> None:
    # Importing a game package registers it; imported lazily to keep core free of cycles.
    import importlib

    for name in ("drifter", "gunfighter", "duel", "quickdraw", "tabletown"):
        try:
            importlib.import_module(f"simulator.engine.{name}")
        except ModuleNotFoundError as exc:  # a game not yet built is simply absent
            if exc.name != f"simulator.engine.{name}":
                raise


def games() -> dict[str, GameSpec]:
    """Every registered game by name."""
    _load_builtin()
    return dict(_GAMES)


def get_game(name: str) -> GameSpec:
    """The spec of a game; RulesError if there is none by that name."""
    _load_builtin()
    try:
        return _GAMES[name]
    except KeyError:
        raise RulesError(f"unknown game {name!r}; known: {', '.join(sorted(_GAMES))}") from None
