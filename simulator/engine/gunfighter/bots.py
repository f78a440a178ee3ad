"""Gunfighter bots: random (core) and a heuristic that reads only its own view."""

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
from simulator.engine.gunfighter.cards import CARDS, STAREDOWN
from simulator.engine.gunfighter.game import SETUP_DISCARD, Action, GunfighterState


def _worth(card: int, view: dict) -> float:
    """How much a card in hand is worth keeping now (higher = keep)."""
    if card == STAREDOWN:
        return 100.0
    c = CARDS[card]
    me = view["seat"]
    worth = {"SHOOT": 5.0, "DODGE": 4.0, "GUN BELT": 3.0, "AIM": 3.0, "INTIMIDATE": 2.0}[c.category]
    if c.category == "SHOOT" and c.cost > view["bullets"][me] + 2:
        worth -= 2.0
    if c.category == "AIM" and view["accuracy"][me] >= 5:
        worth -= 2.0
    if c.category == "GUN BELT" and view["bullets"][me] == 0:
        worth += 3.0
    if c.category == "DODGE" and view["bullets"][me] == 0:
        worth -= 1.5
    return worth + c.die / 10.0


class HeuristicBot:
    """Shoots when loaded and likely to hit, dodges a loaded enemy, else aims and reloads."""

    name = "heuristic"
    # Tuned against the random bot (benchmarks/games.py): patient aim and frequent dodges pay.
    shoot_at = 5  # accuracy from which to shoot (one less against a wounded enemy)
    aim_below = 6  # aim while accuracy is below this
    dodge_when_hurt = 0.9  # how often to dodge a dangerous enemy at 1 HP
    dodge = 0.7  # and at full health

    def __init__(self, seed: int = 0) -> None:
        # Mixing a little keeps a dodging bot from stalling against an enemy who waits.
        self.rng = random.Random(seed)

    def choose(self, view: dict, legal_actions: list[Action]) -> Action:
        """One of `legal_actions`, decided from `view` alone."""
        if legal_actions[0].kind != "select":
            return self._shed(view, legal_actions)
        me, enemy = view["seat"], 1 - view["seat"]
        accuracy, bullets = view["accuracy"][me], view["bullets"][me]
        by_category: dict[str, list[int]] = {}
        for action in legal_actions:
            if action.card != STAREDOWN:
                by_category.setdefault(CARDS[action.card].category, []).append(action.card)

        def pick(category: str, key=lambda c: CARDS[c].die) -> Action | None:
            cards = by_category.get(category)
            return Action("select", max(cards, key=key)) if cards else None

        def shot_value(card: int) -> float:
            c = CARDS[card]
            shots = sum(1 for step in c.effects if step[0] == "shoot")
            bonus = sum(step[1] for step in c.effects if step[0] == "accuracy" and step[1] > 0)
            return shots * min(6, accuracy + bonus) - 0.1 * c.cost

        affordable = [c for c in by_category.get("SHOOT", []) if CARDS[c].cost <= bullets]
        enemy_threat = view["bullets"][enemy] >= 1 and view["accuracy"][enemy] >= 3
        wounded = view["health"][enemy] == 1
        if affordable and accuracy >= self.shoot_at - wounded:
            return Action("select", max(affordable, key=shot_value))
        dodge = pick("DODGE")
        if (
            dodge
            and enemy_threat
            and view["health"][me] == 1
            and self.rng.random() < self.dodge_when_hurt
        ):
            return dodge
        if bullets == 0 and (choice := pick("GUN BELT")):
            return choice
        if accuracy < self.aim_below and (choice := pick("AIM")):
            return choice
        if dodge and enemy_threat and self.rng.random() < self.dodge:
            return dodge
        if bullets < 2 and (choice := pick("GUN BELT")):
            return choice
        if affordable:
            return Action("select", max(affordable, key=shot_value))
        if bullets == 0:
            return Action("select", STAREDOWN)
        if choice := pick("INTIMIDATE"):
            return choice
        return Action("select", STAREDOWN)

    def _shed(self, view: dict, legal_actions: list[Action]) -> Action:
        """Discard the least useful card; end a Staredown once only good cards remain."""
        cards = [a for a in legal_actions if a.kind != "staredown_done"]
        if not cards:
            return legal_actions[0]
        worst = min(cards, key=lambda a: _worth(a.card, view))
        if legal_actions[-1].kind == "staredown_done" and _worth(worst.card, view) >= 4.0:
            return legal_actions[-1]
        return worst


def determinize(view: dict, rng: random.Random) -> GunfighterState:
    """A game consistent with `view` alone: the cards its seat has not seen (the enemy's hand,
    its face-down card, its setup discards, the deck) dealt at random among those places, the
    enemy's Staredown (after the setup) in its hand or face down. Rules are the defaults (the
    view does not carry them). Mid-turn, who resolves first is read from the two cards and the
    bullets, a tie settled by a coin: the view does not say."""
    me, enemy = view["seat"], 1 - view["seat"]
    state = blank_state(GunfighterState, 2, rng)
    mine = [c for c in view["hand"] if c != STAREDOWN]
    seen = set(mine) | set(view["discard"]) | set(view["my_setup_discards"])
    for card in (view["selected"], view["enemy_selected"]):
        if card is not None and card >= 0:
            seen.add(card)
    pool = [c for c in range(len(CARDS)) if c not in seen]
    rng.shuffle(pool)
    hidden_pick = view["enemy_has_selected"] and view["enemy_selected"] is None
    after_setup = view["phase"] != SETUP_DISCARD
    staredown_hidden = after_setup and view["enemy_selected"] != STAREDOWN
    held = view["enemy_hand_size"] + hidden_pick - staredown_hidden
    pending = len(pool) - held - view["deck_size"]
    hand, deck, discards = deal(pool, [held, view["deck_size"], pending])
    if staredown_hidden:
        hand.insert(rng.randrange(len(hand) + 1), STAREDOWN)
    selected = [-1, -1]
    selected[me] = view["selected"]
    if hidden_pick:
        selected[enemy] = hand.pop()  # a card of the hand, at random: the face-down one
    elif view["enemy_selected"] is not None:
        selected[enemy] = view["enemy_selected"]
    state.hands = [[], []]
    state.hands[me], state.hands[enemy] = list(view["hand"]), hand
    state.pending_discards = [[], []]
    state.pending_discards[me], state.pending_discards[enemy] = (
        list(view["my_setup_discards"]),
        discards,
    )
    state.deck, state.discard, state.selected = deck, list(view["discard"]), selected
    state.accuracy, state.bullets = list(view["accuracy"]), list(view["bullets"])
    state.health, state.turn = list(view["health"]), view["turn"]
    state.phase, state.actor, state.revealed = (
        view["phase"],
        view["to_act"],
        view["enemy_selected"] is not None,
    )
    if view["phase"] == "staredown":
        _mid_turn(state, view["to_act"], rng)
    return state


def _mid_turn(state: GunfighterState, actor: int, rng: random.Random) -> None:
    """During a Staredown: whether the other card is still to resolve (it follows in the queue)
    or was used already, by the order of `GunfighterState._order` with a coin for a die roll."""
    other = 1 - actor
    bullets = state.bullets
    if bullets[actor] > bullets[other]:
        first = actor
    elif bullets[actor] < bullets[other]:
        first = other
    else:
        first = actor if rng.random() < 0.5 else other
    state.staredown_count = 0
    if first == actor:
        state.queue = [other]
        return
    state.queue = []
    state.used[other] = True
    card = state.selected[other]
    state.dodging[other] = card != STAREDOWN and CARDS[card].category == "DODGE"


def evaluate(state: GunfighterState) -> list[float]:
    """Each seat's reward where a rollout stopped: a logistic of its lead in health, then
    accuracy and bullets (a wound is worth the most)."""
    lead = [
        1.5 * (state.health[q] - state.health[1 - q])
        + 0.3 * (state.accuracy[q] - state.accuracy[1 - q])
        + 0.15 * (state.bullets[q] - state.bullets[1 - q])
        for q in (0, 1)
    ]
    return [logistic(x) for x in lead]


ISMCTS_ITERATIONS = 40  # the default budget per decision; docs/performance.md, "ISMCTS"
ISMCTS_HORIZON = 24  # decisions a rollout plays before `evaluate` scores it
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
