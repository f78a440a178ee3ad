"""Gunfighter for the service: a game of fixed components, served as `GameService` serves one;
only how long its games take is its own."""

from __future__ import annotations

from simulator.specs.base import GameService


class Spec(GameService):
    # Seconds a game per bot, before any run of it has been measured (runner.estimate_cost).
    game_cost = {"random": 0.0007, "heuristic": 0.0007}
