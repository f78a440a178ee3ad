"""Card duel bots: random (core) and a heuristic that weighs each card against the opponent's
cards still unseen this round."""

from __future__ import annotations

from simulator.engine.core import RandomBot
from simulator.engine.duel.cards import CARDS, DATA, duel_outcome
from simulator.engine.duel.game import Action

ALL_CARDS = tuple(range(len(CARDS)))


def card_edge(card: int, against: list[int], view: dict | None = None) -> float:
    """Expected gold (mine minus theirs) of `card` against a uniformly drawn card of `against`."""
    if not against:
        return 0.0
    total = 0.0
    me = view["seat"] if view else 0
    for other in against:
        winner, gold = duel_outcome(card, other)
        if winner == 0:
            gold += (CARDS[card].effect == "bounty") + (view["duel_bonus"][me] if view else 0)
            total += gold
        elif winner == 1:
            gold += (CARDS[other].effect == "bounty") + (view["duel_bonus"][1 - me] if view else 0)
            total -= gold
        if view and CARDS[card].effect == "first_six" and not view["six_played"]:
            total += view["tie_gold"] + (DATA["tie_gold"] if winner < 0 else 0) / 2
    return total / len(against)


# Worth of each card before a round, against the full deck: what to keep and what to discard.
OPENING_WORTH = {c: card_edge(c, list(ALL_CARDS)) for c in ALL_CARDS}


class HeuristicBot:
    """Plays the card with the best expected gold against the opponent's unseen cards."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: dict, legal_actions: list[Action]) -> Action:
        """One of `legal_actions`, decided from `view` alone."""
        kind = legal_actions[0].kind
        if kind == "discard":
            return min(legal_actions, key=lambda a: OPENING_WORTH[a.card])
        if kind == "take_back":
            return max(legal_actions, key=lambda a: OPENING_WORTH[a.card])
        other = 1 - view["seat"]
        unseen = [c for c in ALL_CARDS if c not in view["played"][other]]
        shown = view["opponent_shown"]
        # Cards the opponent showed are surely in hand: weigh them in twice.
        against = unseen + [c for c in shown if c in unseen]
        # Keep something for later duels: a strong card costs a little of its opening worth.
        return max(
            legal_actions,
            key=lambda a: card_edge(a.card, against, view) - 0.3 * OPENING_WORTH[a.card],
        )


BOTS = {
    "random": lambda seat, seed: RandomBot(seed),
    "heuristic": lambda seat, seed: HeuristicBot(seed),
}
