"""Tabletown for the service: a game of fixed components, served as `GameService` serves one,
with its table (each gunslinger's hand, gun, ammo, wounds and facing, the Marshall, the DRAW!
or SHOOTOUT! under way)."""

from __future__ import annotations

from typing import Any

from simulator.engine.tabletown.bots import ISMCTS_ITERATIONS
from simulator.engine.tabletown.cards import CARDS, GUNSLINGERS, WOUNDS_SURVIVED
from simulator.games.base import GameService
from simulator.games.tables import hidden, seat_heads, story_log

ROLE_WORDS = {"weapon": "Weapon", "ammo": "Ammo", "tin_star": "Tin star", "tnt": "Dynamite",
              "reach": "Action", "cavalry": "Reaction", "stagecoach": "Reaction",
              "draw": "Yell", "shootout": "Yell"}  # fmt: skip
PHASES = {
    "facing": "Setting up: {actor} picks whom to face",
    "turn": "Turn {turn}: {actor}'s turn",
    "call": "{actor} drew a DRAW! and calls a target",
    "react": "{actor} may answer the yell",
    "combat": "{actor} may fire",
    "law": "Law o' the West: {actor} may turn to face {violator}",
    "over": "The gunfight in Tabletown is over",
}


def card(card_id: int) -> dict[str, Any]:
    """A Tabletown card: its id, name, what it is (weapon, ammo, ...) and its text."""
    c = CARDS[card_id]
    kind = c.role.replace("_", "-")
    detail = ROLE_WORDS.get(c.role, "")
    return {"code": card_id, "name": c.name, "kind": kind, "detail": detail, "text": c.text}


class Spec(GameService):
    # Seconds a game of the ISMCTS bot, before any run of it has been measured.
    game_cost = {"ismcts": 4.0}
    # The ISMCTS bot's iterations per decision (simulator/engine/tabletown/bots.py): the default
    # keeps the median decision within 50 ms, the maximum near a second (docs/performance.md).
    bot_budgets = {"ismcts": (ISMCTS_ITERATIONS, 300)}

    def table_view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """Each gunslinger's hand (the others' face down), gun and loaded ammo, wounds and whom
        they face; the Marshall, the deck and discard counts and the fight under way."""
        seats = seat_heads(state, seat)
        for p, head in enumerate(seats):
            mine = seat is None or seat == p
            hand = state.hands[p]
            facing = state.facing[p]
            head.update(
                gunslinger=GUNSLINGERS[state.gunslingers[p]].title,
                hand=[card(c) for c in hand] if mine else hidden(len(hand)),
                weapons=[card(c) for c in state.weapons[p]],
                loaded=[card(c) for c in state.loaded[p]],
                wounds=state.wounds[p],
                alive=state.alive[p],
                facing=state.names[facing] if facing >= 0 else None,
                marshall=state.marshall == p,
                escaped=p in state.escaped,
            )
        combat = state.combat
        fight = None
        if combat is not None:
            fight = {
                "kind": "DRAW!" if combat.kind == "draw" else "SHOOTOUT!",
                "drawer": state.names[combat.drawer],
                "combatants": [state.names[s] for s in combat.combatants],
            }
        violator = state.law_violator if state.law_queue else -1
        words = {
            "actor": state.names[state.actor],
            "turn": state.turn + 1,
            "violator": state.names[violator] if violator >= 0 else "",
        }
        return {
            "game": "tabletown",
            "seat": seat,
            "phase": state.phase,
            "phase_text": PHASES.get(state.phase, state.phase).format(**words),
            "to_act": None if state.is_over else state.actor,
            "seats": seats,
            "turn": state.turn + 1,
            "wounds_to_die": WOUNDS_SURVIVED + 1,
            "deck_count": len(state.deck),
            "discard_count": len(state.discard),
            "fight": fight,
            "over": state.is_over,
            "result": self._result(state) if state.is_over else None,
        }

    @staticmethod
    def _result(state: Any) -> str:
        standing = [state.names[s] for s in state.winners]
        if state.capped:
            return f"The sun sets on Tabletown with {', '.join(standing)} standing."
        if not standing:
            return "Nobody is left standing in Tabletown."
        return f"{standing[0]} is the fastest draw in the West."

    def action_label(self, state: Any, action: Any) -> str:
        kind, names = action.kind, state.names
        target = names[action.target] if action.target >= 0 else ""
        name = CARDS[action.card].name if action.card >= 0 else ""
        labels = {
            "face": f"Face {target}",
            "arm": f"Arm with the {name}",
            "load": f"Load a {name}",
            "discard": f"Discard {name}",
            "track": f"Track {target}",
            "reach": f"Reach for the Sky: {target} drops the guns",
            "pass": "Pass",
            "call": f"Call DRAW! on {target}",
            "cavalry": f"Play {name}",
            "stagecoach": f"Take the {name}",
            "no_reaction": "Let it happen",
            "shoot": f"Shoot {action.n} {'shot' if action.n == 1 else 'shots'} at {target}",
            "blast": f"Fire both shells at {target}",
            "tnt": f"Light {action.n} {'stick' if action.n == 1 else 'sticks'} of TNT",
            "hold": "Hold fire",
            "turn_to_face": f"Turn to face {names[state.law_violator]}",
            "stay": "Stay facing "
            + (names[state.facing[state.actor]] if state.facing[state.actor] >= 0 else "ahead"),
        }
        return labels[kind]

    def table_log(self, state: Any, seat: int | None) -> list[str]:
        """The narration: it names only cards put into play or discarded face up."""
        return story_log(self, state)
