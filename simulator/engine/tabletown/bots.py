"""Tabletown bots: random (core) and a heuristic gunslinger that arms, loads and faces trouble."""

from __future__ import annotations

import random
from typing import Any

from simulator.engine.core import RandomBot
from simulator.engine.core.ismcts import SearchGame, blank_state, bot_factory, deal
from simulator.engine.tabletown.cards import BY_NAME, CARDS
from simulator.engine.tabletown.game import (
    HOLD,
    NO_REACTION,
    STAY,
    TURN_TO_FACE,
    Action,
    Combat,
    TabletownState,
)

# Expected hits per ammo card: what makes one weapon better than another.
WEAPON_WORTH = {"Shotgun": 3.0, "Rifle": 2.0, "Revolver": 1.5}


class HeuristicBot:
    """Arms with the best gun it can load, loads it, faces whoever faces it, fires everything,
    calls out the weakest gun in town and runs from fights it cannot win."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: dict, legal_actions: list[Action]) -> Action:
        """One of `legal_actions`, decided from `view` alone."""
        phase = view["phase"]
        if phase == "turn":
            return self._turn(view, legal_actions)
        if phase == "combat":
            return self._combat(view, legal_actions)
        if phase == "call":
            # Call out the gunslinger with the least ammo in the gun, the most wounded first.
            return min(
                legal_actions,
                key=lambda a: (view["loaded"][a.target], -view["wounds"][a.target]),
            )
        if phase == "react":
            me = view["seat"]
            if view["loaded"][me] == 0 and len(legal_actions) > 1:
                return legal_actions[-1]
            return NO_REACTION
        if phase == "law":
            me = view["seat"]
            mine = view["facing"][me]
            # Turn on the lawbreaker unless the one we face is already facing us.
            if view["alive"][mine] and view["facing"][mine] == me:
                return STAY
            return TURN_TO_FACE
        return legal_actions[0]

    def _turn(self, view: dict, legal: list[Action]) -> Action:
        me = view["seat"]
        hand = view["hand"]
        names = [CARDS[c].name for c in hand]
        by_kind: dict[str, list[Action]] = {}
        for action in legal:
            by_kind.setdefault(action.kind, []).append(action)
        weapon = view["weapons"][me][0] if view["weapons"][me] else None
        if weapon is None or view["loaded"][me] == 0:
            arms = sorted(
                by_kind.get("arm", []),
                key=lambda a: self._arm_worth(CARDS[a.card].name, names, weapon),
                reverse=True,
            )
            if arms and self._arm_worth(CARDS[arms[0].card].name, names, weapon) > 0:
                return arms[0]
        if by_kind.get("load"):
            return by_kind["load"][0]
        facing = view["facing"][me]
        tracks = by_kind.get("track", [])
        facing_me = [a for a in tracks if view["facing"][a.target] == me]
        # Face whoever faces us (they can shoot); never stare at a dead man.
        if tracks and (not view["alive"][facing] or (facing_me and view["facing"][facing] != me)):
            return (facing_me or tracks)[0]
        if by_kind.get("reach") and view["loaded"][facing]:
            return by_kind["reach"][0]
        discards = by_kind.get("discard", [])
        if discards:
            # Cycling the deck brings the DRAW! and SHOOTOUT! cards a loaded gun wants.
            return min(discards, key=lambda a: self._keep_worth(CARDS[a.card].name, names, weapon))
        return tracks[0] if tracks else legal[0]

    @staticmethod
    def _arm_worth(name: str, names: list[str], weapon: str | None) -> float:
        ammo = BY_NAME[name].ammo
        worth = WEAPON_WORTH[name] + (2.0 if ammo in names else -2.0)
        return worth - (WEAPON_WORTH[weapon] if weapon else 0.0)

    @staticmethod
    def _keep_worth(name: str, names: list[str], weapon: str | None) -> float:
        design = BY_NAME[name]
        if design.role == "ammo":
            return 3.0 if weapon and BY_NAME[weapon].ammo == name else 1.0
        if design.role == "weapon":
            return 0.5 if weapon else 2.5
        if design.role == "tin_star":
            return 4.0
        return {"tnt": 2.0, "cavalry": 2.5, "stagecoach": 2.5, "reach": 1.5}[design.role]

    def _combat(self, view: dict, legal: list[Action]) -> Action:
        shots = [a for a in legal if a.kind in ("shoot", "blast")]
        if shots:
            # Fire everything: two single shells beat both at once; one shot only in a DRAW.
            return max(shots, key=lambda a: (a.n if a.kind == "shoot" else 1.5, a.kind))
        tnt = [a for a in legal if a.kind == "tnt"]
        others = sum(view["alive"]) - 1
        if tnt and others >= 2:
            return max(tnt, key=lambda a: a.n)
        return HOLD if HOLD in legal else legal[0]


def determinize(view: dict, rng: random.Random) -> TabletownState:
    """A game consistent with `view` alone: the guns and shells in play are cards of the
    designs it names, and every other card its seat has not got in hand is dealt at random to
    the other hands, the deck and the discard pile (the view counts them only). The queues of
    who decides next (facing, reactions, the Law o' the West) are read from the phase, the
    seats and the dealt hands; hits of the initiative group in progress are not in the view and
    are taken to be none. Rules are the defaults (the view does not carry them)."""
    me, n = view["seat"], len(view["alive"])
    state = blank_state(TabletownState, n, rng)
    pool = [c for c in range(len(CARDS)) if n > 2 or CARDS[c].role != "tnt"]
    for card in view["hand"]:
        pool.remove(card)
    rng.shuffle(pool)
    state.weapons = [[_take(pool, name) for name in names] for names in view["weapons"]]
    state.loaded = [
        [_take(pool, BY_NAME[view["weapons"][q][0]].ammo) for _ in range(count)]
        for q, count in enumerate(view["loaded"])
    ]
    # DRAW! and SHOOTOUT! are played as they are drawn: never in a hand
    triggers = [c for c in pool if CARDS[c].role in ("draw", "shootout")]
    pool = [c for c in pool if CARDS[c].role not in ("draw", "shootout")]
    sizes = [0 if q == me else size for q, size in enumerate(view["hand_sizes"])]
    hands = deal(pool, sizes)
    rest = pool[sum(sizes) :] + triggers
    rng.shuffle(rest)
    state.deck, state.discard = deal(rest, [view["deck_size"], view["discard_size"]])
    hands[me] = list(view["hand"])
    state.hands = hands
    state.alive, state.wounds = list(view["alive"]), list(view["wounds"])
    state.facing, state.turn, state.marshall = list(view["facing"]), view["turn"], view["marshall"]
    state.yelled = tuple(view["yelled"]) if view["yelled"] else None
    state.escaped = set(view["escaped"])
    _queues(state, view)
    return state


def _take(pool: list[int], name: str) -> int:
    """A card of design `name` out of `pool`."""
    for i, card in enumerate(pool):
        if CARDS[card].name == name:
            return pool.pop(i)
    raise ValueError(f"no {name} left to deal")  # pragma: no cover - the view is consistent


def _queues(state: TabletownState, view: dict) -> None:
    """Whose turn it is, the fight in progress and the queues of who decides next."""
    phase, actor = view["phase"], view["to_act"]
    state.phase, state.actor = phase, actor
    fight = view["combat"]
    yelled = view["yelled"]
    drawer = fight["drawer"] if fight else yelled[1] if yelled else actor
    state.current = view["marshall"] if phase == "facing" else drawer
    state.refilling = None if phase in ("turn", "facing") else drawer
    state.calling = actor if phase == "call" else None
    after = state._seats_from(actor)
    state.facing_queue = [s for s in after if view["facing"][s] < 0] if phase == "facing" else []
    state.react_queue = []
    if phase == "react":
        state.react_queue = [actor] + [
            s for s in _after(state, drawer, actor) if state.alive[s] and _may_react(state, s)
        ]
    state.law_queue, state.law_violator = [], view["law_violator"]
    if phase == "law":
        bad = view["law_violator"]
        state.law_queue = [actor] + [
            s for s in _after(state, bad, actor) if state.alive[s] and state.facing[s] != bad
        ]
    state.combat = (
        None
        if fight is None
        else _combat(fight, actor if phase == "combat" else -1, view["law_violator"])
    )


def _after(state: TabletownState, start: int, seat: int) -> list[int]:
    """The seats after `seat`, clockwise from `start` (`start` not included)."""
    order = state._seats_from(start)[1:]
    return order[order.index(seat) + 1 :] if seat in order else order


def _may_react(state: TabletownState, seat: int) -> bool:
    return state._held(seat, "cavalry") >= 0 or (
        state._held(seat, "stagecoach") >= 0 and state._involved(seat)
    )


def _combat(fight: dict, shooter: int, violator: int) -> Combat:
    """The fight of the view, at the decision of `shooter` (or after the violator's shot)."""
    combat = Combat(fight["kind"], fight["drawer"], fight["target"], list(fight["combatants"]))
    combat.groups = [list(g) for g in fight["groups"]]
    combat.tnt = [(seat, sticks) for seat, sticks in fight["tnt"]]
    combat.fired = True
    at, step = (shooter, 0) if shooter >= 0 else (violator, 1)
    for i, group in enumerate(combat.groups):
        if at in group:
            combat.group, combat.member = i, group.index(at) + step
    return combat


def evaluate(state: TabletownState) -> list[float]:
    """Each seat's reward where a rollout stopped: its share of what the table has standing,
    each gunslinger counted by health, a little more for a gun, shells in it (up to three) and
    tin stars in hand."""
    worth = []
    for q in range(state.n):
        if not state.alive[q]:
            worth.append(0.0)
            continue
        stars = sum(1 for c in state.hands[q] if CARDS[c].role == "tin_star")
        gear = bool(state.weapons[q]) + min(len(state.loaded[q]), 3) + stars
        worth.append((6 - state.wounds[q]) / 6 + 0.06 * gear)
    total = sum(worth) or 1.0
    return [w / total for w in worth]


ISMCTS_ITERATIONS = 15  # the default budget per decision; docs/performance.md, "ISMCTS"
ISMCTS_HORIZON = 20  # decisions a rollout plays before `evaluate` scores it
ISMCTS_GAME = SearchGame(
    determinize=determinize,
    policy=lambda seat, seed: HeuristicBot(seed),
    evaluate=evaluate,
    horizon=ISMCTS_HORIZON,
)


# Leaving the heuristic's move costs more here: 15 iterations of 20 decisions rarely see a fight
# through, and with the usual bias of 0.5 the bot won 20-28% of 40-60 games against the
# heuristic, with 2.0 22 of 40 (docs/performance.md, "ISMCTS").
ISMCTS_BIAS = 2.0


# The ISMCTS bot of a seat, with a budget of iterations per decision (its own or the default).
ismcts = bot_factory(ISMCTS_GAME, ISMCTS_ITERATIONS, bias=ISMCTS_BIAS)


BOTS: dict[str, Any] = {
    "random": lambda seat, seed: RandomBot(seed),
    "heuristic": lambda seat, seed: HeuristicBot(seed),
    "ismcts": ismcts,
}
