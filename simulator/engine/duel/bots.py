"""Card duel bots: random (core) and a heuristic that weighs each card against the opponent's
cards still unseen this round."""

from __future__ import annotations

import random
from typing import Any

from simulator.engine.core import RandomBot
from simulator.engine.core.ismcts import (
    SearchGame,
    blank_state,
    bot_factory,
    deal,
    logistic,
)
from simulator.engine.duel.cards import CARDS, DATA, TAKE_BACK_EFFECTS, duel_outcome
from simulator.engine.duel.game import DISCARD, Action, DuelState

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


def determinize(view: dict, rng: random.Random) -> DuelState:
    """A game consistent with `view` alone: of the opponent's 14 cards, those it has not shown
    or played this round are dealt at random to its hand (with the ones it showed), its
    discards and the cards it did not draw; its face-down card is one of that hand it may play.
    What the view does not carry is taken as the usual: no discard penalty pending."""
    me, other = view["seat"], 1 - view["seat"]
    state = blank_state(DuelState, 2, rng)
    played = [list(view["played"][0]), list(view["played"][1])]
    shown = list(view["opponent_shown"])
    pool = [c for c in range(len(CARDS)) if c not in played[other] and c not in shown]
    rng.shuffle(pool)
    in_hand = view["opponent_hand_size"] - len(shown)
    discarded = DATA["draw"] - view["opponent_hand_size"] - len(played[other])
    hand, discards = deal(pool, [in_hand, discarded])
    hand += shown
    last = CARDS[played[other][-1]].value if played[other] else None
    state.hands = _pair(me, list(view["hand"]), hand)
    state.discards = _pair(me, list(view["discards"]), discards)
    state.shown = _pair(me, [], shown)
    state.last_value = _pair(me, view["last_value"], last)
    state.selected = _pair(me, view["selected"], -1)
    if view["opponent_has_selected"]:
        allowed = [c for c in hand if last is None or CARDS[c].value != last + 1] or hand
        state.selected[other] = allowed[rng.randrange(len(allowed))]
    state.played, state.round_no, state.duels = played, view["round"], view["duels_in_round"]
    state.duel_no, state.gold, state.pot = view["duel"], list(view["gold"]), view["tie_gold"]
    state.six_played, state.bonus = view["six_played"], list(view["duel_bonus"])
    state.round_wins, state.total_gold = list(view["round_wins"]), list(view["total_gold"])
    phase = state.phase = view["phase"]
    actor = state.actor = view["to_act"]
    state.to_discard = [
        max(DATA["discard"], len(state.discards[q]) + (phase == DISCARD and q == actor))
        for q in (0, 1)
    ]
    # seat 1 waits its turn to take a card back after seat 0 (its card's effect is public)
    waits = (
        phase == "take_back"
        and actor == 0
        and bool(played[1])
        and bool(state.discards[1])
        and CARDS[played[1][-1]].effect in TAKE_BACK_EFFECTS
    )
    state.take_back_queue = [1] if waits else []
    return state


def _pair(me: int, mine: Any, theirs: Any) -> list:
    """[seat 0's, seat 1's], of what is mine and what is the other seat's."""
    return [mine, theirs] if me == 0 else [theirs, mine]


def evaluate(state: DuelState) -> list[float]:
    """Each seat's reward where a rollout stopped: a logistic of its lead in rounds won and in
    this round's gold."""
    wins, gold = state.round_wins, state.gold
    return [logistic(2.0 * (wins[q] - wins[1 - q]) + 0.4 * (gold[q] - gold[1 - q])) for q in (0, 1)]


ISMCTS_ITERATIONS = 25  # the default budget per decision; docs/performance.md, "ISMCTS"
ISMCTS_HORIZON = 12  # decisions a rollout plays before `evaluate` scores it
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
