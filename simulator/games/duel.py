"""The Duel for the service: a game of fixed components, served as `GameService` serves one,
with its table (hands, discards, the cards played duel by duel, gold and rounds) and how long
its games take."""

from __future__ import annotations

from typing import Any

from simulator.engine.duel.bots import ISMCTS_ITERATIONS
from simulator.engine.duel.cards import CARDS
from simulator.games.base import GameService
from simulator.games.tables import HIDDEN, hidden, one_winner, seat_heads, story_log

PHASES = {
    "discard": "Round {round}: {actor} discards",
    "play": "Round {round}, duel {duel}: {actor} plays a card face down",
    "take_back": "Round {round}: {actor} takes a card back",
    "over": "The duel is over",
}


def card(card_id: int) -> dict[str, Any]:
    """A duel card: its id, name ("7 (pink)", "Dynamite"), value and what it does."""
    c = CARDS[card_id]
    color = "pink" if "pink" in c.name else "green" if "green" in c.name else ""
    return {
        "code": c.id,
        "name": c.name,
        "value": c.value,
        "short": "TNT" if c.value is None else str(c.value),
        "color": color,
        "text": c.text,
    }


class Spec(GameService):
    # Seconds a game per bot, before any run of it has been measured (runner.estimate_cost).
    game_cost = {"random": 0.0005, "heuristic": 0.0012, "ismcts": 1.0}
    # The ISMCTS bot's iterations per decision (simulator/engine/duel/bots.py): the default
    # keeps the median decision within 50 ms, the maximum near a second (docs/performance.md).
    bot_budgets = {"ismcts": (ISMCTS_ITERATIONS, 400)}

    def table_view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """Each hand (the other's face down but for the cards it has shown), each seat's own
        discards (face down to the other), every card played so far, gold and round wins."""
        seats = seat_heads(state, seat)
        for p, head in enumerate(seats):
            mine = seat is None or seat == p
            hand = state.hands[p]
            if mine:
                shown_hand = [card(c) for c in hand]
            else:
                # Cards taken back were shown: they stay face up in the hand.
                shown = [c for c in hand if c in state.shown[p]]
                shown_hand = [card(c) for c in shown] + hidden(len(hand) - len(shown))
            ready = state.selected[p]
            head.update(
                hand=shown_hand,
                discards=[card(c) for c in state.discards[p]]
                if mine
                else hidden(len(state.discards[p])),
                played=[card(c) for c in state.played[p]],
                ready=None if ready < 0 else (card(ready) if mine else dict(HIDDEN)),
                gold=state.gold[p],
                round_wins=state.round_wins[p],
                total_gold=state.total_gold[p],
            )
        actor = state.names[state.actor]
        words = {"actor": actor, "round": state.round_no + 1, "duel": state.duel_no + 1}
        return {
            "game": "duel",
            "seat": seat,
            "phase": state.phase,
            "phase_text": PHASES.get(state.phase, state.phase).format(**words),
            "to_act": None if state.is_over else state.actor,
            "seats": seats,
            "round": state.round_no + 1,
            "duel": state.duel_no,
            "duels_in_round": state.duels,
            "tie_gold": state.pot,
            "over": state.is_over,
            "result": self._result(state) if state.is_over else None,
        }

    @staticmethod
    def _result(state: Any) -> str:
        wins = state.round_wins
        return one_winner(state, state.winner, f", rounds {wins[0]} to {wins[1]}")

    def action_label(self, state: Any, action: Any) -> str:
        name = card(action.card)["name"]
        if action.kind == "discard":
            return f"Discard {name}"
        if action.kind == "take_back":
            return f"Take back {name} and show it"
        return f"Play {name} face down"

    def table_log(self, state: Any, seat: int | None) -> list[str]:
        """The narration: it names only cards played face up or shown, never a discard."""
        return story_log(self, state)
