"""Quickdraw bots: random (core) and a heuristic that reloads a weak hand and fires by odds."""

from __future__ import annotations

import random

from simulator.engine.core import RandomBot
from simulator.engine.core.ismcts import (
    SearchGame,
    blank_state,
    bot_factory,
    deal,
    logistic,
)
from simulator.engine.quickdraw.cards import CARDS, STRENGTHS
from simulator.engine.quickdraw.game import KEEP, RELOAD, Action, QuickdrawState

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


def determinize(view: dict, rng: random.Random) -> QuickdrawState:
    """A game consistent with `view` alone: every card not in its seat's hand or a face-up
    stack is dealt at random to the opponent's hand and the centre deck; the opponent's card
    ready to fire, if any, is one of that hand."""
    me, other = view["seat"], 1 - view["seat"]
    state = blank_state(QuickdrawState, 2, rng)
    seen = set(view["hand"]).union(*view["stacks"])
    pool = [c for c in range(len(CARDS)) if c not in seen]
    rng.shuffle(pool)
    hand, deck = deal(pool, [view["opponent_hand_size"], view["deck_size"]])
    state.hands = [list(view["hand"]), hand] if me == 0 else [hand, list(view["hand"])]
    state.deck, state.stacks = deck, [list(view["stacks"][0]), list(view["stacks"][1])]
    state.fired = [(a, b) for a, b in view["fired"]]
    state.selected = [-1, -1]
    state.selected[me] = view["selected"]
    if view["opponent_has_selected"]:
        state.selected[other] = hand[rng.randrange(len(hand))]
    state.reloaded = list(view["reloaded"])
    state.phase, state.actor = view["phase"], view["to_act"]
    return state


def evaluate(state: QuickdrawState) -> list[float]:
    """Each seat's reward where a rollout stopped: a logistic of its lead in face-up cards."""
    size = [len(state.stacks[0]), len(state.stacks[1])]
    return [logistic(0.5 * (size[q] - size[1 - q])) for q in (0, 1)]


ISMCTS_ITERATIONS = 40  # the default budget per decision; docs/performance.md, "ISMCTS"
ISMCTS_HORIZON = 40  # decisions a rollout plays before `evaluate` scores it
ISMCTS_GAME = SearchGame(
    determinize=determinize,
    policy=lambda seat, seed: HeuristicBot(seed),
    evaluate=evaluate,
    horizon=ISMCTS_HORIZON,
)


# The ISMCTS bot of a seat, with a budget of iterations per decision (its own or the default).
ismcts = bot_factory(ISMCTS_GAME, ISMCTS_ITERATIONS)


BOTS = {
    "random": lambda seat, seed: RandomBot(seed),
    "heuristic": lambda seat, seed: HeuristicBot(seed),
    "ismcts": ismcts,
}

__all__ = ["BOTS", "KEEP", "RELOAD", "HeuristicBot", "determinize", "ismcts"]
