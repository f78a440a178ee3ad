"""The protocol every game state follows (OpenSpiel / PokerKit style).

    state = game.new_game(seats=..., rules=..., seed=7)
    while not state.is_over:
        action = bots[state.to_act].choose(state.view(state.to_act), state.legal_actions())
        state.apply(action)
    record = state.record()
    assert game.replay(record).final() == state.final()

Actions are frozen dataclasses with `to_json()` and a classmethod `from_json()` on the game's
action type; `apply` raises `IllegalAction` and leaves the state unchanged when the action is
not among `legal_actions()`.
"""

from __future__ import annotations

from typing import Any, Protocol


class GameState(Protocol):
    """One game in progress."""

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""

    @property
    def to_act(self) -> int:
        """The seat whose decision is next (undefined once the game is over)."""

    def legal_actions(self) -> list[Any]:
        """Every action the player to act may take now; never empty while the game is on."""

    def apply(self, action: Any) -> None:
        """Apply an action of the player to act; IllegalAction (state unchanged) if illegal."""

    def view(self, player: int) -> Any:
        """What `player` may know now: the information a bot decides from."""

    def record(self) -> dict:
        """The JSON-able game record: header, every decision and every chance outcome."""

    def final(self) -> dict:
        """A JSON-able summary of the end state (winners, scores): equal for a replay."""
