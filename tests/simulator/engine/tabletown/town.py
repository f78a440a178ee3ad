"""Building Tabletown states by hand for the scenario and chance tests."""

from __future__ import annotations

from simulator.engine.core import ReplayChance
from simulator.engine.tabletown import new_game
from simulator.engine.tabletown.cards import CARDS
from simulator.engine.tabletown.game import RULINGS

_FREE: dict[str, list[int]] = {}
for _card, _design in enumerate(CARDS):
    _FREE.setdefault(_design.name, []).append(_card)


class Cards:
    """Hands out distinct card ids by name: cards.take("Bullet", 3)."""

    def __init__(self) -> None:
        self.free = {name: list(ids) for name, ids in _FREE.items()}

    def take(self, name: str, count: int = 1) -> list[int]:
        return [self.free[name].pop(0) for _ in range(count)]

    def one(self, name: str) -> int:
        return self.free[name].pop(0)


def town(
    n: int = 3,
    *,
    hands: list[list[int]] | None = None,
    weapons: list[list[int]] | None = None,
    loaded: list[list[int]] | None = None,
    facing: list[int] | None = None,
    wounds: list[int] | None = None,
    deck_top: list[int] = (),
    events: list[list] = (),
    current: int = 0,
    rulings: int = RULINGS,
):
    """A game of `n` at the start of `current`'s turn. The deck is `deck_top` (first card first)
    over plain cards (no DRAW! or SHOOTOUT!); chance is stacked with `events`. `rulings`:
    LEGACY_RULINGS for a game as an old record played it."""
    seats = [{"name": f"gunslinger {i}"} for i in range(n)]
    state = new_game(seats, {"rulings": rulings}, seed=0, record=False)
    state.hands = [list(h) for h in hands] if hands else [[] for _ in range(n)]
    state.weapons = [list(w) for w in weapons] if weapons else [[] for _ in range(n)]
    state.loaded = [list(a) for a in loaded] if loaded else [[] for _ in range(n)]
    state.facing = list(facing) if facing else [(i + 1) % n for i in range(n)]
    state.wounds = list(wounds) if wounds else [0] * n
    used = {
        c for group in (state.hands, state.weapons, state.loaded) for cards in group for c in cards
    } | set(deck_top)
    plain = [c for c in range(len(CARDS)) if c not in used and CARDS[c].role in ("ammo",)]
    state.deck = plain + list(reversed(deck_top))
    state.discard = []
    state.phase, state.actor, state.current = "turn", current, current
    state.chance = ReplayChance([list(e) for e in events])
    return state
