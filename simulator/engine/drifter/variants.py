"""The rules a game is played under: variants, stakes, ante, quick-start. Checked up front."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from simulator.engine.core.errors import RulesError

COLD_HANDS: Final = "cold_hands"
HIGH_LOW: Final = "high_low"
LAST_MAN_STANDING: Final = "last_man_standing"
LOWBALL: Final = "lowball"
RIDING_SHOTGUN: Final = "riding_shotgun"
TOMBSTONE: Final = "tombstone"
WHIRLWIND: Final = "whirlwind"
# Deck formats: they change deck building only (formats.py, whose formats are these and
# "standard"); the engine accepts the names.
DEUCES_WILD: Final = "deuces_wild"
TRES_AMIGOS: Final = "tres_amigos"
ON_YOUR_LONESOME: Final = "on_your_lonesome"
DRAW: Final = "draw"
STUD: Final = "stud"

PLAY_VARIANTS: Final = (
    COLD_HANDS,
    HIGH_LOW,
    LAST_MAN_STANDING,
    LOWBALL,
    RIDING_SHOTGUN,
    TOMBSTONE,
    WHIRLWIND,
)
DECK_VARIANTS: Final = (DEUCES_WILD, TRES_AMIGOS, ON_YOUR_LONESOME, STUD, DRAW)
VARIANTS: Final = PLAY_VARIANTS + DECK_VARIANTS
# What the site calls each variant, and a line on what it changes (the rules in
# docs/rules/high-stakes-drifter.md).
VARIANT_LABELS: Final = {
    COLD_HANDS: "Cold Hands",
    HIGH_LOW: "High-Low",
    LAST_MAN_STANDING: "Last Man Standing",
    LOWBALL: "Lowball",
    RIDING_SHOTGUN: "Riding Shotgun",
    TOMBSTONE: "Tombstone",
    WHIRLWIND: "Whirlwind",
    DEUCES_WILD: "Deuces Wild",
    TRES_AMIGOS: "Tres Amigos",
    ON_YOUR_LONESOME: "On Your Lonesome",
    STUD: "Stud",
    DRAW: "Draw",
}
VARIANT_NOTES: Final = {
    COLD_HANDS: "Each shootout is fought with a fresh five-card hand, discarded after it.",
    HIGH_LOW: "The highest and the lowest contested stat both win the shootout.",
    LAST_MAN_STANDING: "Play on until only one player has chips left in their stake.",
    LOWBALL: "The lowest contested stat wins the shootout.",
    RIDING_SHOTGUN: "Moving a dude into the street lets you put a dude into play in the saloon.",
    TOMBSTONE: "Only one copy of a dude may be revealed at a time: a second one is buried.",
    WHIRLWIND: "Take any number of actions a turn (three on the first player's first turn).",
    DEUCES_WILD: "Up to two copies of any card, whatever its rarity.",
    TRES_AMIGOS: "Up to three copies of any card, whatever its rarity.",
    ON_YOUR_LONESOME: "One copy of each card at most, whatever its rarity.",
    STUD: "Decks built from six opened boosters, with no copy or kicker chip limits.",
    DRAW: "Decks of 54 cards and six kicker chips drafted from boosters.",
}
# The copies of any one card a deck may hold, whatever its rarity, in each copy-limit variant.
COPY_LIMITS: Final = {DEUCES_WILD: 2, TRES_AMIGOS: 3, ON_YOUR_LONESOME: 1}

# Which of the engine's readings of the rules text a game is played by. 3: the current one (the
# text followed where the engine once strayed: docs/rules/high-stakes-drifter.md, "Rulings").
# 2: the reading of every game recorded before it (record versions 1 and 2), kept so that those
# records replay as they were played. Rules written without `rulings` are of that time.
RULINGS: Final = 3
LEGACY_RULINGS: Final = 2


def variant_label(name: str) -> str:
    """The human name of a variant ('cold_hands' -> 'Cold Hands'); unknown names as given."""
    return VARIANT_LABELS.get(name, name)


def variant_name(name: str) -> str:
    """Normalise 'High-Low', 'high low' or 'high_low' to its canonical name (or RulesError)."""
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    if key not in VARIANTS:
        raise RulesError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
    return key


@dataclass(frozen=True)
class Rules:
    """How a game is played. `max_turns` is the hard cap that makes every game end."""

    variants: frozenset[str] = field(default_factory=frozenset)
    starting_stake: int = 100
    ante: int = 5
    quick_start: bool = False
    hand_size: int = 5
    actions_per_turn: int = 3
    max_raises: int = 3
    max_turns: int = 400
    # The seat that gets the badge first; None draws it at random (a recorded chance event).
    first_player: int | None = None
    rulings: int = RULINGS

    def __post_init__(self) -> None:
        names = frozenset(variant_name(v) for v in self.variants)
        object.__setattr__(self, "variants", names)
        for key in ("starting_stake", "ante", "hand_size", "actions_per_turn", "max_turns"):
            value = getattr(self, key)
            if type(value) is not int or value < 1:
                raise RulesError(f"{key} must be a positive whole number, not {value!r}")
        if type(self.max_raises) is not int or self.max_raises < 0:
            raise RulesError("max_raises must be a whole number")
        first = self.first_player
        if first is not None and (type(first) is not int or first < 0):
            raise RulesError(f"first_player must be a seat number or None, not {first!r}")
        if type(self.rulings) is not int or self.rulings not in (LEGACY_RULINGS, RULINGS):
            raise RulesError(f"rulings are {LEGACY_RULINGS} or {RULINGS}, not {self.rulings!r}")
        if self.ante > self.starting_stake:
            raise RulesError("the ante cannot exceed the starting stake")
        if self.quick_start and names:
            raise RulesError("quick-start rules are played without variants")
        if HIGH_LOW in names and LOWBALL in names:
            raise RulesError("High-Low and Lowball decide the winner differently: pick one")
        limits = [v for v in COPY_LIMITS if v in names]
        if len(limits) > 1:
            raise RulesError(f"two copy-limit variants conflict: {', '.join(limits)}")
        if DRAW in names and STUD in names:
            raise RulesError("Draw and Stud build decks differently: pick one")

    def has(self, variant: str) -> bool:
        return variant in self.variants

    def to_json(self) -> dict:
        """The rules as a JSON object (variants sorted, so the record is canonical)."""
        return {
            "variants": sorted(self.variants),
            "starting_stake": self.starting_stake,
            "ante": self.ante,
            "quick_start": self.quick_start,
            "hand_size": self.hand_size,
            "actions_per_turn": self.actions_per_turn,
            "max_raises": self.max_raises,
            "max_turns": self.max_turns,
            "first_player": self.first_player,
            "rulings": self.rulings,
        }

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        """Rules from their JSON object; RulesError if malformed. An object without `rulings`
        was written before they existed (record versions 1 and 2): the legacy rulings."""
        if not isinstance(data, dict):
            raise RulesError("rules must be an object")
        known = set(cls().to_json())
        extra = set(data) - known
        if extra:
            raise RulesError(f"unknown rules keys {sorted(extra)}")
        values = dict(data)
        values.setdefault("rulings", LEGACY_RULINGS)
        variants = values.pop("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise RulesError("variants must be a list of names")
        return cls(variants=frozenset(variants), **values)
