"""The card duel's components, loaded once from fixtures/games/duel.json, and one duel's result."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "games" / "duel.json"


@dataclass(frozen=True, slots=True)
class DuelCard:
    """One card of a player's deck; `value` is None for Dynamite."""

    id: int
    name: str
    value: int | None
    effect: str | None
    text: str


DATA = json.loads(FIXTURE.read_text())
CARDS: tuple[DuelCard, ...] = tuple(
    DuelCard(i, c["name"], c["value"], c["effect"], c["text"]) for i, c in enumerate(DATA["cards"])
)
TAKE_BACK_EFFECTS = ("take_back", "take_back_penalty")


def duel_outcome(mine: int, theirs: int) -> tuple[int, int]:
    """The result of one duel between card ids: (winner, gold) with winner 0 for `mine`,
    1 for `theirs` and -1 for a tie (gold 0; the tie gold is the caller's business)."""
    a, b = CARDS[mine], CARDS[theirs]
    if a.value is None or b.value is None:
        if a.value is None and b.value is None:
            return -1, 0
        other, dynamite_side = (b, 0) if a.value is None else (a, 1)
        winner = dynamite_side if other.value <= 4 else 1 - dynamite_side
        return winner, DATA["dynamite_gold"]
    if a.value == b.value:
        return -1, 0
    if a.effect == "beats_one" and b.value == 1:
        return 0, DATA["beats_one_gold"]
    if b.effect == "beats_one" and a.value == 1:
        return 1, DATA["beats_one_gold"]
    difference = abs(a.value - b.value)
    higher = 0 if a.value > b.value else 1
    # Close cards: the higher wins; far apart (more than 3): the lower one wins.
    return (higher if difference <= DATA["max_difference"] else 1 - higher), difference
