"""Quickdraw bots: random (core) and a heuristic that reloads a weak hand and fires by odds."""

from __future__ import annotations

from simulator.engine.core import RandomBot
from simulator.engine.quickdraw.cards import CARDS, STRENGTHS
from simulator.engine.quickdraw.game import KEEP, RELOAD, Action

# The mean strength of a card of the full deck: a hand below it is worth reloading.
MEAN_STRENGTH = sum(STRENGTHS) / len(STRENGTHS)


class HeuristicBot:
    """Reloads a below-average hand; fires the card with the best odds against unseen cards,
    spending low cards where a win is unlikely anyway."""

    name = "heuristic"
    reload_margin = 0.5  # reload a hand whose mean strength is this far below the deck's

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: dict, legal_actions: list[Action]) -> Action:
        """One of `legal_actions`, decided from `view` alone."""
        hand = view["hand"]
        if legal_actions[0].kind != "fire":
            mean = sum(STRENGTHS[c] for c in hand) / len(hand)
            return RELOAD if mean < MEAN_STRENGTH - self.reload_margin else KEEP
        seen = set(hand).union(*view["stacks"])
        unseen = [STRENGTHS[c] for c in range(len(CARDS)) if c not in seen]

        def edge(card: int) -> float:
            mine = STRENGTHS[card]
            wins = sum(1 for s in unseen if s < mine)
            losses = sum(1 for s in unseen if s > mine)
            return (wins - losses) / max(1, len(unseen)) - 0.02 * mine

        return max(legal_actions, key=lambda a: edge(a.card))


BOTS = {
    "random": lambda seat, seed: RandomBot(seed),
    "heuristic": lambda seat, seed: HeuristicBot(seed),
}

__all__ = ["BOTS", "KEEP", "RELOAD", "HeuristicBot"]
