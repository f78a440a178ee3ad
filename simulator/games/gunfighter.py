"""Gunfighter for the service: a game of fixed components, served as `GameService` serves one,
with its table (hands, the stat cards, the cards played face down, the discard pile) and how
long its games take."""

from __future__ import annotations

from typing import Any

from simulator.engine.gunfighter.bots import ISMCTS_ITERATIONS
from simulator.engine.gunfighter.cards import CARDS, FIXTURE_DATA, STAREDOWN
from simulator.games.base import GameService
from simulator.games.tables import HIDDEN, hidden, one_winner, seat_heads, story_log

PHASES = {
    "setup_discard": "Setting up: {actor} discards",
    "select": "Turn {turn}: {actor} picks a card face down",
    "staredown": "Turn {turn}: {actor} stares down",
    "hand_limit": "Turn {turn}: {actor} discards down to the hand limit",
    "over": "The gunfight is over",
}


def card(card_id: int) -> dict[str, Any]:
    """An action card (or the Staredown): its id, name, category, die value and bullet cost."""
    if card_id == STAREDOWN:
        s = FIXTURE_DATA["staredown"]
        return {"code": card_id, "name": s["name"], "kind": "staredown", "die": None, "cost": 0,
                "detail": "Staredown", "text": s["text"]}  # fmt: skip
    c = CARDS[card_id]
    cost = f" · {c.cost} bullet{'s' if c.cost != 1 else ''}" if c.cost else ""
    return {"code": c.id, "name": c.name, "kind": c.category.lower().replace(" ", "-"),
            "die": c.die, "cost": c.cost, "detail": f"{c.category.title()} · die {c.die}{cost}",
            "text": c.text}  # fmt: skip


class Spec(GameService):
    # Seconds a game per bot, before any run of it has been measured (runner.estimate_cost).
    game_cost = {"random": 0.0007, "heuristic": 0.0007, "ismcts": 0.8}
    # The ISMCTS bot's iterations per decision (simulator/engine/gunfighter/bots.py): the default
    # keeps the median decision within 50 ms, the maximum near a second (docs/performance.md).
    bot_budgets = {"ismcts": (ISMCTS_ITERATIONS, 800)}

    def table_view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """Both stat cards (accuracy, bullets, health), each hand (the other's face down), the
        card each has down (face up once both are), the discard pile and the deck's size."""
        seats = seat_heads(state, seat)
        for p, head in enumerate(seats):
            mine = seat is None or seat == p
            ready = state.selected[p]
            hand = state.hands[p]
            pending = state.pending_discards[p]
            head.update(
                accuracy=state.accuracy[p],
                bullets=state.bullets[p],
                health=state.health[p],
                hand=[card(c) for c in hand] if mine else hidden(len(hand)),
                setup_discards=[card(c) for c in pending] if mine else hidden(len(pending)),
                ready=None
                if ready < 0
                else (card(ready) if mine or state.revealed else dict(HIDDEN)),
            )
        actor = state.names[state.actor]
        return {
            "game": "gunfighter",
            "seat": seat,
            "phase": state.phase,
            "phase_text": PHASES.get(state.phase, state.phase).format(
                actor=actor, turn=state.turn + 1
            ),
            "to_act": None if state.is_over else state.actor,
            "seats": seats,
            "turn": state.turn + 1,
            "discard": [card(c) for c in state.discard],
            "deck_count": len(state.deck),
            "over": state.is_over,
            "result": self._result(state) if state.is_over else None,
        }

    @staticmethod
    def _result(state: Any) -> str:
        if state.winner is None:
            return f"The sun sets on turn {state.turn} with both gunfighters standing: a draw."
        return one_winner(state, state.winner, " the gunfight")

    def action_label(self, state: Any, action: Any) -> str:
        if action.kind == "staredown_done":
            return "Stop discarding and draw"
        c = card(action.card)
        name = c["name"] if c["die"] is None else f"{c['name']} (die {c['die']})"
        if action.kind == "select":
            return f"Play {name} face down"
        if action.kind == "staredown_discard":
            return f"Stare down: discard {name}"
        return f"Discard {name}"

    def table_log(self, state: Any, seat: int | None) -> list[str]:
        """The narration: it names cards once both are face up and discards, which go face up
        onto the discard pile; setup discards only once both players have made them."""
        return story_log(self, state)
