"""What every game's table shares: the face-down card, the seats' heads, the narration of a
game with fixed components.

A small game's narration (`BaseGameState.story`) names only cards every seat has seen: a card
fired, played or shown, a discard that goes face up. So its table log is the same for every
seat; the per-game hidden-information test (tests/simulator/test_table_views.py) holds it to
that.
"""

from __future__ import annotations

from typing import Any

#: A card the seat may not see: no code, no name, no id.
HIDDEN: dict[str, Any] = {"hidden": True}


def hidden(count: int) -> list[dict[str, Any]]:
    """`count` face-down cards."""
    return [dict(HIDDEN) for _ in range(count)]


def seat_heads(state: Any, seat: int | None) -> list[dict[str, Any]]:
    """Each seat's index, name, whether it is the viewer's and whether it is to act."""
    over = state.is_over
    return [
        {"index": p, "name": name, "you": seat == p, "to_act": not over and state.actor == p}
        for p, name in enumerate(state.names)
    ]


def story_log(service: Any, state: Any) -> list[str]:
    """A small game's narration so far: the state's own, or told again from its record."""
    if state.story is not None:
        return list(state.story)
    return list(service.spec.narrate(state.record()))


def one_winner(state: Any, winner: int | None, how: str = "") -> str:
    """ "Sam wins." (or "A draw.") with what decided it."""
    if winner is None:
        return f"A draw{how}."
    return f"{state.names[winner]} wins{how}."
