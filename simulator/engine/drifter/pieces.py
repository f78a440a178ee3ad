"""The pieces of a game of High Stakes Drifter: seats, cards, kicker chips and marks.

A leaf module: the pieces know their card data and nothing of the state that moves them, so
`abilities`, `shootout`, `view` and `bots` read them without importing `state`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from simulator.engine.core.errors import RulesError
from simulator.engine.drifter.cards import CardDef, Effect, KickerChipDef


@dataclass(frozen=True)
class Seat:
    """A player: name, deck (card codes, repeated per copy), kicker chips (codes), bot name."""

    name: str
    deck: tuple[str, ...] = ()
    chips: tuple[str, ...] = ()
    bot: str = "heuristic"

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "deck": list(self.deck),
            "chips": list(self.chips),
            "bot": self.bot,
        }

    @classmethod
    def from_json(cls, data: Any) -> Seat:
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            raise RulesError(f"bad seat {data!r}")
        deck, chips = data.get("deck", []), data.get("chips", [])
        if not isinstance(deck, list) or not isinstance(chips, list):
            raise RulesError("a seat's deck and chips are lists of codes")
        return cls(data["name"], tuple(deck), tuple(chips), data.get("bot", "heuristic"))


# what an empty cache slot holds (never read: its generation is 0); Final, so that the
# compiled build reads them as constants rather than from the module's dictionary
_NO_STATS: Final[list[int]] = []
_NO_EFFECTS: Final[list[tuple[Effect, int]]] = []

# What a card's gear, kicker chips and marks are while it holds none: one empty list each,
# shared by every card, since most cards never hold any (a game made and freed three lists for
# each of its cards, a fiftieth of a heuristic game). Never grown or emptied in place: a card
# that gains one gets a list of its own (`dude.gear = [*dude.gear, card]`), and one that loses
# its last goes back to these (tests/simulator/engine/drifter/test_pieces_share.py).
NO_CARDS: Final[list[Card]] = []
NO_KICKERS: Final[list[Kicker]] = []
NO_MARKS: Final[list[Mark]] = []


class Card:
    """A card in the game. `printed` is the card as printed; `defn` what it is now (a copy card
    takes the copied card's definition, keeping its own cost).

    The last four pairs are the state's caches of what it worked out about this dude between
    two actions (abilities.dude_stats, abilities.effects_on, View.true_stats): each value is
    good while its `*_at` equals the state's `cache_gen` (DrifterState.fresh_caches). Kept on
    the card rather than in a dictionary by uid: compiled, a slot is read in a few
    instructions, a dictionary lookup by int in a hundred, and a new generation empties every
    cache at once."""

    __slots__ = (
        "bare",
        "bare_at",
        "chips",
        "defn",
        "fx",
        "fx_at",
        "gear",
        "host",
        "in_street",
        "kickers",
        "marks",
        "owner",
        "printed",
        "return_to_hand",
        "revealed",
        "stats",
        "stats_at",
        "uid",
        "whatif",
        "whatif_at",
    )

    def __init__(self, uid: int, defn: CardDef, owner: int) -> None:
        self.uid = uid
        self.printed = defn
        self.defn = defn
        self.owner = owner
        self.revealed = False
        self.chips = 0
        self.gear: list[Card] = NO_CARDS
        self.kickers: list[Kicker] = NO_KICKERS
        self.marks: list[Mark] = NO_MARKS
        self.host: Card | None = None
        self.in_street = False
        self.return_to_hand = False
        # the caches (generation 0 is never current: DrifterState's start at 1)
        self.stats: list[int] = _NO_STATS
        self.stats_at = 0
        self.fx: list[tuple[Effect, int]] = _NO_EFFECTS
        self.fx_at = 0
        self.whatif: list[int] = _NO_STATS  # its stats with it and its gear turned up
        self.whatif_at = 0
        self.bare: list[int] = _NO_STATS  # with only itself turned up
        self.bare_at = 0

    def reset(self) -> None:
        """Back to a plain card (it left play)."""
        self.defn = self.printed
        self.revealed = False
        self.chips = 0
        self.gear = NO_CARDS
        self.kickers = NO_KICKERS
        self.marks = NO_MARKS
        self.host = None
        self.in_street = False
        self.return_to_hand = False

    def __repr__(self) -> str:
        return f"<{self.uid} {self.defn.name}>"


class Kicker:
    """A kicker chip in the game; `side` is the face up side (0 or 1) once flipped."""

    __slots__ = ("defn", "owner", "side", "uid")

    def __init__(self, uid: int, defn: KickerChipDef, owner: int) -> None:
        self.uid = uid
        self.defn = defn
        self.owner = owner
        self.side = 0

    def amount(self) -> int:
        return self.defn.side_amounts[self.side]


class Mark:
    """A lasting effect of a one-shot ability, kept on the dude it targets."""

    __slots__ = ("effect", "owner", "shootout", "source")

    def __init__(self, effect: Effect, owner: int, source: Card | None, shootout: bool) -> None:
        self.effect = effect
        self.owner = owner
        self.source = source
        self.shootout = shootout


def kicker_value(dude: Card) -> int:
    """The value of the kicker chips on `dude` (a loop: compiled, `sum()` of a generator
    makes a generator object)."""
    total = 0
    for k in dude.kickers:
        total += k.defn.value
    return total


def drop(cards: list[Card], card: Card) -> None:
    """`cards.remove(card)` by identity, as `list.remove` finds a card (Card has no `__eq__`),
    without `list.remove`'s rich comparison of every card before it; ValueError if absent.
    In place: never on a card's shared NO_CARDS (it cannot hold `card`)."""
    for i in range(len(cards)):
        if cards[i] is card:
            del cards[i]
            return
    raise ValueError("card not in list")


def holds(cards: list[Card], card: Card) -> bool:
    """`card in cards` by identity (what `in` finds for a Card), without rich comparisons."""
    return any(c is card for c in cards)  # compiled: a loop, no generator


__all__ = [
    "NO_CARDS",
    "NO_KICKERS",
    "NO_MARKS",
    "Card",
    "Kicker",
    "Mark",
    "Seat",
    "drop",
    "holds",
    "kicker_value",
]
