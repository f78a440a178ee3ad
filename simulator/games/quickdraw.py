"""Quickdraw for the service: a game of fixed components, served as `GameService` serves one,
with its table (hands, the face-up stacks, the card each gunslinger has ready) and how long its
games take."""

from __future__ import annotations

from typing import Any

from simulator.engine.quickdraw.bots import ISMCTS_ITERATIONS
from simulator.engine.quickdraw.cards import CARDS, DATA
from simulator.games.base import GameService
from simulator.games.tables import HIDDEN, hidden, one_winner, seat_heads, story_log

RANK_WORDS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
SUIT_WORDS = {symbol: name for name, symbol in DATA["suits"]}
PHASES = {
    "load": "Loading: {actor} keeps or reloads",
    "fire": "Firing: {actor} picks a bullet",
    "over": "The duel is over",
}


def card(card_id: int) -> dict[str, Any]:
    """A playing card: its id, rank, suit symbol, "A♠" and "Ace of Spades"."""
    c = CARDS[card_id]
    if c.rank == "Joker":
        name = "Joker"
    else:
        name = f"{RANK_WORDS.get(c.rank, c.rank)} of {SUIT_WORDS[c.suit].capitalize()}"
    red = c.suit in ("♥", "♦")
    return {"code": c.id, "rank": c.rank, "suit": c.suit, "short": c.name, "name": name, "red": red}


class Spec(GameService):
    # Seconds a game per bot, before any run of it has been measured (runner.estimate_cost).
    game_cost = {"random": 0.0002, "heuristic": 0.0004, "ismcts": 0.3}
    # The ISMCTS bot's iterations per decision (simulator/engine/quickdraw/bots.py): the default
    # keeps the median decision within 50 ms, the maximum near a second (docs/performance.md).
    bot_budgets = {"ismcts": (ISMCTS_ITERATIONS, 1000)}

    def table_view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """Both hands (the other's face down), both face-up stacks, the card each has ready
        (face down to the other until both fire), the last shots and the deck's size."""
        seats = seat_heads(state, seat)
        for p, head in enumerate(seats):
            mine = seat is None or seat == p
            ready = state.selected[p]
            head.update(
                hand=[card(c) for c in state.hands[p]] if mine else hidden(len(state.hands[p])),
                stack=[card(c) for c in state.stacks[p]],
                ready=None if ready < 0 else (card(ready) if mine else dict(HIDDEN)),
                reloaded=state.reloaded[p],
            )
        actor = state.names[state.actor]
        return {
            "game": "quickdraw",
            "seat": seat,
            "phase": state.phase,
            "phase_text": PHASES.get(state.phase, state.phase).format(actor=actor),
            "to_act": None if state.is_over else state.actor,
            "seats": seats,
            "shots": [[card(a), card(b)] for a, b in state.fired],
            "deck_count": len(state.deck),
            "hands_dealt": state.hands_dealt,
            "over": state.is_over,
            "result": self._result(state) if state.is_over else None,
        }

    @staticmethod
    def _result(state: Any) -> str:
        sizes = [len(s) for s in state.stacks]
        if state.winner is None:
            return "The deck ran short with the stacks tied: a draw."
        return one_winner(state, state.winner, f" with {max(sizes)} cards to {min(sizes)}")

    def action_label(self, state: Any, action: Any) -> str:
        if action.kind == "keep":
            return "Keep this hand"
        if action.kind == "reload":
            return "Reload: six new cards"
        return f"Fire the {card(action.card)['name']}"

    def table_log(self, state: Any, seat: int | None) -> list[str]:
        """The narration: every card it names was fired face up, so every seat hears it all."""
        return story_log(self, state)
