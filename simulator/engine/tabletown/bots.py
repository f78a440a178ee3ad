"""Tabletown bots: random (core) and a heuristic gunslinger that arms, loads and faces trouble."""

from __future__ import annotations

from simulator.engine.core import RandomBot
from simulator.engine.tabletown.cards import BY_NAME, CARDS
from simulator.engine.tabletown.game import HOLD, NO_REACTION, STAY, TURN_TO_FACE, Action

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


BOTS = {
    "random": lambda seat, seed: RandomBot(seed),
    "heuristic": lambda seat, seed: HeuristicBot(seed),
}
