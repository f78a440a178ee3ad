"""High Stakes Drifter card data: small immutable definitions parsed from `fixtures/sets/*.json`.

This module is the one parser of the set files. The Django catalogue loads sets through it (so
a set the site accepts is a set the engine can play) and the engine reads it directly. Every
ability is checked against the vocabulary in docs/rules/abilities.md; anything else is a
`CardDataError` naming the card and the offending key.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, cast

from simulator.engine.compiled import ROOT
from simulator.engine.core.errors import EngineError

STATS: Final = ("smarts", "skill", "luck")
STAT_INDEX: Final = {name: i for i, name in enumerate(STATS)}
CARD_TYPES: Final = ("dude", "gear", "fortune")
RARITIES: Final = ("common", "uncommon", "rare", "fixed", "promo")
CHIP_VALUES: Final = {"white": 1, "red": 5, "blue": 10, "green": 25}

TIMINGS: Final = frozenset(
    {
        "static",
        "on_play",
        "on_reveal",
        "on_enter_street",
        "as_gear",
        "as_fortune",
        "showdown",
        "on_win",
        "on_lose",
    }
)
TARGETS: Final = frozenset(
    {"self", "opponents", "all", "chosen_opponent", "player", "other_players"}
)
STAT_REFS: Final = frozenset({*STATS, "contested"})
CONTESTED: Final = -2  # Effect.stat_index of a `contested` reference
# targets through which a static ability can reach another player's dude
OUTWARD_TARGETS: Final = frozenset({"all", "opponents", "other_players", "chosen_opponent"})
ONCE: Final = frozenset({"turn", "shootout", "game"})
DURATIONS: Final = frozenset({"shootout", "permanent"})

# condition key -> a check of its value
CONDITIONS: Final[dict[str, Any]] = {
    "contested": lambda v: v in STATS,
    "contested_not": lambda v: v in STATS,
    "in_street": lambda v: v is True,
    "challenger": lambda v: isinstance(v, bool),
    "opponents_at_least": lambda v: type(v) is int and v >= 1,
    "gear_at_least": lambda v: type(v) is int and v >= 1,
    "kicker_chips_at_least": lambda v: type(v) is int and v >= 1,
    "all_in": lambda v: v is True,
    "opponent_faction": lambda v: isinstance(v, str) and v != "",
    "stake_at_most": lambda v: type(v) is int and v >= 0,
}


def _int(v: Any) -> bool:
    return type(v) is int


def _pos(v: Any) -> bool:
    return type(v) is int and v > 0


# effect kind -> {field: check}; every listed field is required, no other field is allowed
# except the optional `duration`.
EFFECTS: Final[dict[str, dict[str, Any]]] = {
    "stat_mod": {"stat": STAT_REFS.__contains__, "amount": _int, "target": TARGETS.__contains__},
    "stat_mod_per": {
        "stat": STAT_REFS.__contains__,
        "amount": _int,
        "per": {"gear", "kicker_chip", "opponent", "fortune"}.__contains__,
        "target": TARGETS.__contains__,
    },
    "stat_set": {
        "stat": STAT_REFS.__contains__,
        "value": lambda v: type(v) is int and v >= 0,
        "target": TARGETS.__contains__,
    },
    "stat_swap": {
        "stats": lambda v: (
            isinstance(v, list) and len(v) == 2 and all(s in STATS for s in v) and v[0] != v[1]
        ),
        "target": TARGETS.__contains__,
    },
    "kicker_limit_mod": {"amount": _int, "target": TARGETS.__contains__},
    "draw": {"count": _pos},
    "opponent_discard": {"count": _pos},
    "take_from_pot": {"amount": _pos},
    "tax": {"amount": _pos},
    "refund": {"amount": _pos},
    "reinvest_discount": {"amount": _pos},
    "cant_reinvest": {"target": TARGETS.__contains__},
    "cant_play_fortune": {"target": {"other_players", "player"}.__contains__},
    "cant_reveal_gear": {"target": TARGETS.__contains__},
    "cant_fold": {"target": TARGETS.__contains__},
    "cant_take_kicker": {"target": TARGETS.__contains__},
    "cant_accept": {"stat": STATS.__contains__},
    "play_kicker": {"target": TARGETS.__contains__},
    "reflip_kicker": {"target": TARGETS.__contains__},
    "bury_kickers": {"target": TARGETS.__contains__},
    "change_contested": {"stat": {*STATS, "choose"}.__contains__},
    "put_into_play": {"card_type": {"dude", "gear"}.__contains__},
    "wins_ties": {},
    "copy": {"of": {"any", "gear", "fortune", "dude"}.__contains__},
    "negate_gear": {"target": TARGETS.__contains__},
    "extra_actions": {"count": _pos},
    "ante_mod": {"amount": _int},
    "force_reveal_gear": {"target": TARGETS.__contains__},
    "return_to_hand": {},
}


class CardDataError(EngineError):
    """A set file that does not follow the card schema or the ability vocabulary."""


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect of an ability; fields not used by its kind are None."""

    kind: str
    stat: str | None = None
    amount: int | None = None
    target: str | None = None
    count: int | None = None
    per: str | None = None
    value: int | None = None
    stats: tuple[str, str] | None = None
    card_type: str | None = None
    of: str | None = None
    duration: str | None = None
    # derived, for the engine's hot paths: the index of `stat` in STATS, CONTESTED, or -1
    stat_index: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        stat = self.stat
        index = -1
        if stat == "contested":
            index = CONTESTED
        elif stat is not None:
            index = STAT_INDEX.get(stat, -1)
        object.__setattr__(self, "stat_index", index)


@dataclass(frozen=True, slots=True)
class Ability:
    """One ability: when it works, under which condition, what it does."""

    timing: str
    effects: tuple[Effect, ...]
    concealed: bool = False
    condition: tuple[tuple[str, Any], ...] = ()
    once: str | None = None


@dataclass(frozen=True, slots=True)
class CardDef:
    """A printed card. `id` is its index in the catalogue (engine hot paths use ints)."""

    id: int
    code: str
    set_code: str
    number: int
    name: str
    type: str
    faction: str
    rarity: str
    cost: int
    smarts: int = 0
    skill: int = 0
    luck: int = 0
    kicker_limit: int = 0
    text: str = ""
    abilities: tuple[Ability, ...] = ()
    flavor: str = ""
    # derived once from `abilities` and `type` (the engine's hot paths read them): a copy
    # card; the static abilities; those of them that can reach another player's dude; the
    # indices of the abilities used as a fortune card (a shootout's fortune menu asks every
    # card in it); whether it is a fortune card
    is_copy: bool = field(init=False, repr=False, compare=False)
    statics: tuple[Ability, ...] = field(init=False, repr=False, compare=False)
    outward: tuple[Ability, ...] = field(init=False, repr=False, compare=False)
    as_fortune: tuple[int, ...] = field(init=False, repr=False, compare=False)
    is_fortune: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        abilities = self.abilities
        statics = tuple(a for a in abilities if a.timing == "static")
        outward = tuple(a for a in statics if any(e.target in OUTWARD_TARGETS for e in a.effects))
        is_copy = any(e.kind == "copy" for a in abilities for e in a.effects)
        object.__setattr__(self, "is_copy", is_copy)
        object.__setattr__(self, "statics", statics)
        object.__setattr__(self, "outward", outward)
        as_fortune = tuple(i for i, a in enumerate(abilities) if a.timing == "as_fortune")
        object.__setattr__(self, "as_fortune", as_fortune)
        object.__setattr__(self, "is_fortune", self.type == "fortune")

    @property
    def is_dude(self) -> bool:
        return self.type == "dude"

    @property
    def stats(self) -> tuple[int, int, int]:
        return (self.smarts, self.skill, self.luck)


@dataclass(frozen=True, slots=True)
class KickerChipDef:
    """A kicker chip: a colour (its value) and two sides, each a modifier to one stat."""

    id: int
    code: str
    set_code: str
    color: str
    value: int
    sides: tuple[tuple[str, int], tuple[str, int]]
    # derived, for the engine's hot paths: the stat index and the amount of each side
    side_stats: tuple[int, ...] = field(init=False, repr=False, compare=False)
    side_amounts: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "side_stats", tuple(STAT_INDEX[s] for s, _ in self.sides))
        object.__setattr__(self, "side_amounts", tuple(a for _, a in self.sides))


@dataclass(frozen=True, slots=True)
class BoosterSlot:
    """`count` cards drawn from the rarity sheets named in `weights` (relative weights)."""

    count: int
    weights: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class StarterDef:
    """A starter set: a fixed deck and its kicker chips."""

    code: str
    name: str
    cards: tuple[tuple[str, int], ...]
    kicker_chips: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SetDef:
    """A card set with its booster layout and starter decks."""

    code: str
    name: str
    kind: str
    released: str
    order: int
    booster_slots: tuple[BoosterSlot, ...]
    booster_kicker_chips: int
    starters: tuple[StarterDef, ...]
    card_codes: tuple[str, ...]
    chip_codes: tuple[str, ...]

    @property
    def booster_size(self) -> int:
        return sum(slot.count for slot in self.booster_slots)


# the most decks a catalogue keeps read (Catalogue.deck)
DECKS_KEPT: Final = 4096
# the ability conditions that read chips (moving chips can switch such an ability on or off)
CHIP_CONDITIONS: Final = frozenset({"all_in", "stake_at_most"})


class DeckCards:
    """A deck's cards as a game reads them, worked out once per deck (Catalogue.deck): their
    definitions in order; whether any has an ability; every effect kind they carry; whether
    any ability has a condition that reads chips."""

    __slots__ = ("chip_sensitive", "defs", "has_statics", "kinds")

    def __init__(self, defs: tuple[CardDef, ...]) -> None:
        self.defs = defs
        self.has_statics = any(d.abilities for d in defs)
        self.kinds = frozenset(e.kind for d in defs for a in d.abilities for e in a.effects)
        self.chip_sensitive = any(
            key in CHIP_CONDITIONS for d in defs for a in d.abilities for key, _ in a.condition
        )


@dataclass(frozen=True)
class Catalogue:
    """Every set, card and kicker chip known to the engine, by code and by integer id."""

    sets: tuple[SetDef, ...]
    cards: tuple[CardDef, ...]
    chips: tuple[KickerChipDef, ...]
    card_by_code: dict[str, CardDef] = field(repr=False)
    chip_by_code: dict[str, KickerChipDef] = field(repr=False)
    # the decks read so far, by their codes (`deck`): a simulation plays the same few decks
    # game after game, and looking 54 codes up and scanning their abilities is most of what
    # making a game costs beyond its cards
    decks: dict[tuple[str, ...], DeckCards] = field(default_factory=dict, repr=False, compare=False)

    def deck(self, codes: tuple[str, ...]) -> DeckCards:
        """A deck's cards by their codes, in order (CardDataError for an unknown code), read
        once per deck and kept (at most DECKS_KEPT decks)."""
        hit = self.decks.get(codes)
        if hit is None:
            hit = DeckCards(tuple([self.card(code) for code in codes]))
            if len(self.decks) < DECKS_KEPT:
                self.decks[codes] = hit
        return hit

    def card(self, code: str) -> CardDef:
        try:
            return self.card_by_code[code]
        except KeyError:
            raise CardDataError(f"unknown card {code!r}") from None

    def chip(self, code: str) -> KickerChipDef:
        try:
            return self.chip_by_code[code]
        except KeyError:
            raise CardDataError(f"unknown kicker chip {code!r}") from None

    def set(self, code: str) -> SetDef:
        for s in self.sets:
            if s.code == code:
                return s
        raise CardDataError(f"unknown set {code!r}")


def card_code(set_code: str, number: int) -> str:
    """The collector code of a card: set code and three-digit number, e.g. HSD-012."""
    return f"{set_code}-{number:03d}"


def _fail(where: str, message: str) -> CardDataError:
    return CardDataError(f"{where}: {message}")


def parse_effect(raw: Any, where: str) -> Effect:
    """One effect, checked against the vocabulary."""
    if not isinstance(raw, dict) or "kind" not in raw:
        raise _fail(where, "an effect is an object with a kind")
    kind = raw["kind"]
    spec = EFFECTS.get(kind)
    if spec is None:
        raise _fail(where, f"unknown effect kind {kind!r}")
    extra = set(raw) - set(spec) - {"kind", "duration"}
    if extra:
        raise _fail(where, f"effect {kind} has unknown fields {sorted(extra)}")
    for name, check in spec.items():
        if name not in raw:
            raise _fail(where, f"effect {kind} lacks {name}")
        if not check(raw[name]):
            raise _fail(where, f"effect {kind} has a bad {name}: {raw[name]!r}")
    if "duration" in raw and raw["duration"] not in DURATIONS:
        raise _fail(where, f"effect {kind} has a bad duration {raw['duration']!r}")
    values = {k: v for k, v in raw.items() if k != "kind"}
    if "stats" in values:
        values["stats"] = tuple(values["stats"])
    return Effect(kind=kind, **values)


def parse_ability(raw: Any, where: str) -> Ability:
    """One ability, checked against the vocabulary."""
    if not isinstance(raw, dict):
        raise _fail(where, "an ability is an object")
    extra = set(raw) - {"timing", "concealed", "condition", "effects", "once"}
    if extra:
        raise _fail(where, f"ability has unknown keys {sorted(extra)}")
    timing = raw.get("timing")
    if timing not in TIMINGS:
        raise _fail(where, f"unknown timing {timing!r}")
    concealed = raw.get("concealed", False)
    if not isinstance(concealed, bool):
        raise _fail(where, "concealed must be true or false")
    condition = raw.get("condition", {})
    if not isinstance(condition, dict):
        raise _fail(where, "condition must be an object")
    for key, value in condition.items():
        check = CONDITIONS.get(key)
        if check is None:
            raise _fail(where, f"unknown condition {key!r}")
        if not check(value):
            raise _fail(where, f"condition {key} has a bad value {value!r}")
    once = raw.get("once")
    if once is not None and once not in ONCE:
        raise _fail(where, f"bad once {once!r}")
    effects = raw.get("effects")
    if not isinstance(effects, list) or not effects:
        raise _fail(where, "an ability needs a non-empty list of effects")
    return Ability(
        timing=timing,
        effects=tuple(parse_effect(e, where) for e in effects),
        concealed=concealed,
        condition=tuple(sorted(condition.items())),
        once=once,
    )


def _card_stats(raw: dict, code: str, ctype: str) -> dict[str, int]:
    """A dude's smarts, skill, luck and kicker limit (each a whole number from 0 to 30); no other
    card type has any."""
    stats = {}
    if ctype == "dude":
        for key in (*STATS, "kicker_limit"):
            value = raw.get(key)
            if type(value) is not int or not 0 <= value <= 30:
                raise _fail(code, f"a dude needs a whole {key} from 0 to 30, not {value!r}")
            stats[key] = value
    else:
        present = [k for k in (*STATS, "kicker_limit") if k in raw]
        if present:
            raise _fail(code, f"only dudes have {', '.join(present)}")
    return stats


def _card_abilities(raw: dict, code: str, ctype: str, text: str) -> tuple[Ability, ...]:
    """The card's structured abilities, which come with its ability text, and a copy card's
    rules (a gear or fortune that says "becomes a copy")."""
    abilities_raw = raw.get("abilities", [])
    if not isinstance(abilities_raw, list):
        raise _fail(code, "abilities must be a list")
    abilities = tuple(parse_ability(a, code) for a in abilities_raw)
    if bool(abilities) != bool(text.strip()):
        raise _fail(code, "ability text and structured abilities must come together")
    is_copy = any(e.kind == "copy" for a in abilities for e in a.effects)
    if is_copy != ("becomes a copy" in text):
        raise _fail(code, "copy cards say 'becomes a copy' and have a copy effect, and only they")
    if is_copy and ctype == "dude":
        raise _fail(code, "a copy card is a gear or fortune card")
    return abilities


def _parse_card(raw: Any, set_code: str, card_id: int) -> CardDef:
    if not isinstance(raw, dict):
        raise _fail(set_code, "a card is an object")
    number = raw.get("number")
    if type(number) is not int or number < 1:
        raise _fail(set_code, f"card {raw.get('name')!r} has a bad number {number!r}")
    code = card_code(set_code, number)
    allowed = {"number", "name", "type", "faction", "rarity", "cost", "text", "abilities", "flavor"}
    allowed |= {"smarts", "skill", "luck", "kicker_limit"}
    extra = set(raw) - allowed
    if extra:
        raise _fail(code, f"unknown keys {sorted(extra)}")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _fail(code, "a card needs a name")
    ctype = raw.get("type")
    if ctype not in CARD_TYPES:
        raise _fail(code, f"bad type {ctype!r}")
    rarity = raw.get("rarity")
    if rarity not in RARITIES:
        raise _fail(code, f"bad rarity {rarity!r}")
    cost = raw.get("cost")
    if type(cost) is not int or not 0 <= cost <= 30:
        raise _fail(code, f"bad cost {cost!r}")
    faction = raw.get("faction", "")
    if not isinstance(faction, str):
        raise _fail(code, "faction must be text")
    stats = _card_stats(raw, code, ctype)
    text = raw.get("text", "")
    flavor = raw.get("flavor", "")
    if not isinstance(text, str) or not isinstance(flavor, str):
        raise _fail(code, "text and flavor must be strings")
    abilities = _card_abilities(raw, code, ctype, text)
    return CardDef(
        id=card_id,
        code=code,
        set_code=set_code,
        number=number,
        name=name.strip(),
        type=ctype,
        faction=faction,
        rarity=rarity,
        cost=cost,
        text=text,
        abilities=abilities,
        flavor=flavor,
        **stats,
    )


def _parse_chip(raw: Any, set_code: str, chip_id: int) -> KickerChipDef:
    if not isinstance(raw, dict):
        raise _fail(set_code, "a kicker chip is an object")
    code = raw.get("code")
    if not isinstance(code, str) or not code.startswith(f"{set_code}-K"):
        raise _fail(set_code, f"kicker chip code {code!r} must start with {set_code}-K")
    color = raw.get("color")
    if color not in CHIP_VALUES:
        raise _fail(code, f"bad colour {color!r}")
    sides = raw.get("sides")
    if not isinstance(sides, list) or len(sides) != 2:
        raise _fail(code, "a kicker chip has two sides")
    parsed = []
    for side in sides:
        if not isinstance(side, dict) or set(side) != {"stat", "amount"}:
            raise _fail(code, "a side is {stat, amount}")
        if side["stat"] not in STATS or type(side["amount"]) is not int or side["amount"] == 0:
            raise _fail(code, f"bad side {side!r}")
        parsed.append((side["stat"], side["amount"]))
    return KickerChipDef(
        id=chip_id,
        code=code,
        set_code=set_code,
        color=color,
        value=CHIP_VALUES[color],
        sides=(parsed[0], parsed[1]),
    )


def _parse_booster(raw: Any, set_code: str) -> tuple[tuple[BoosterSlot, ...], int]:
    if not isinstance(raw, dict):
        raise _fail(set_code, "booster layout must be an object")
    slots = []
    for slot in raw.get("slots", []):
        if not isinstance(slot, dict):
            raise _fail(set_code, f"a booster slot is an object, not {slot!r}")
        count, weights = slot.get("count"), slot.get("weights")
        if not _pos(count) or not isinstance(weights, dict) or not weights:
            raise _fail(set_code, f"bad booster slot {slot!r}")
        for rarity, weight in weights.items():
            if rarity not in RARITIES or not _pos(weight):
                raise _fail(set_code, f"bad booster weight {rarity!r}: {weight!r}")
        slots.append(BoosterSlot(count=cast(int, count), weights=tuple(weights.items())))
    if not slots:
        raise _fail(set_code, "a booster needs slots")
    chips = raw.get("kicker_chips", 1)
    if type(chips) is not int or chips < 0:
        raise _fail(set_code, "booster kicker_chips must be a whole number")
    return tuple(slots), chips


def _parse_starter(raw: Any, set_code: str) -> StarterDef:
    if not isinstance(raw, dict) or not {"code", "name", "cards"} <= set(raw):
        raise _fail(set_code, "a starter is an object with code, name and cards")
    code = raw["code"]
    if not isinstance(code, str) or not code.startswith(f"{set_code}-S"):
        raise _fail(set_code, f"starter code {code!r} must start with {set_code}-S")
    entries = []
    for entry in raw["cards"]:
        if not isinstance(entry, dict) or set(entry) != {"code", "qty"}:
            raise _fail(code, f"a starter entry is {{code, qty}}, not {entry!r}")
        entries.append((entry["code"], entry["qty"]))
    chips = raw.get("kicker_chips", [])
    if not isinstance(chips, list) or not all(isinstance(c, str) for c in chips):
        raise _fail(code, "kicker_chips must be a list of codes")
    return StarterDef(code=code, name=raw["name"], cards=tuple(entries), kicker_chips=tuple(chips))


def _check_starters(
    sets: list[SetDef], card_by_code: dict[str, CardDef], chip_by_code: dict[str, KickerChipDef]
) -> None:
    """Starter codes are unique, and a starter's contents are cards and chips of the catalogue
    (of any set, so they are checked once everything is known)."""
    starter_codes = [st.code for s in sets for st in s.starters]
    if len(starter_codes) != len(set(starter_codes)):
        raise CardDataError("starter codes must be unique")
    for s in sets:
        for st in s.starters:
            for entry_code, qty in st.cards:
                if entry_code not in card_by_code or not _pos(qty):
                    raise _fail(st.code, f"bad starter entry {entry_code!r} x {qty!r}")
            for chip_code in st.kicker_chips:
                if chip_code not in chip_by_code:
                    raise _fail(st.code, f"unknown kicker chip {chip_code!r}")


def parse_sets(raw_sets: Iterable[Any]) -> Catalogue:
    """Build the catalogue from parsed set documents; CardDataError on the first problem."""
    sets: list[SetDef] = []
    cards: list[CardDef] = []
    chips: list[KickerChipDef] = []
    card_by_code: dict[str, CardDef] = {}
    chip_by_code: dict[str, KickerChipDef] = {}
    for raw in raw_sets:
        if not isinstance(raw, dict):
            raise CardDataError("a set file holds one JSON object")
        code = raw.get("code")
        if not isinstance(code, str) or not code.isalnum() or not code.isupper():
            raise CardDataError(f"bad set code {code!r}")
        set_cards = []
        for card_raw in raw.get("cards", []):
            card = _parse_card(card_raw, code, len(cards))
            if card.code in card_by_code:
                raise _fail(card.code, "duplicate card code")
            cards.append(card)
            card_by_code[card.code] = card
            set_cards.append(card.code)
        set_chips = []
        for chip_raw in raw.get("kicker_chips", []):
            chip = _parse_chip(chip_raw, code, len(chips))
            if chip.code in chip_by_code:
                raise _fail(chip.code, "duplicate kicker chip code")
            chips.append(chip)
            chip_by_code[chip.code] = chip
            set_chips.append(chip.code)
        slots, booster_chips = _parse_booster(raw.get("booster"), code)
        starters = [_parse_starter(st, code) for st in raw.get("starters", [])]
        sets.append(
            SetDef(
                code=code,
                name=raw.get("name", code),
                kind=raw.get("kind", "base"),
                released=raw.get("released", ""),
                order=raw.get("order", len(sets) + 1),
                booster_slots=slots,
                booster_kicker_chips=booster_chips,
                starters=tuple(starters),
                card_codes=tuple(set_cards),
                chip_codes=tuple(set_chips),
            )
        )
    _check_starters(sets, card_by_code, chip_by_code)
    return Catalogue(
        sets=tuple(sorted(sets, key=lambda s: s.order)),
        cards=tuple(cards),
        chips=tuple(chips),
        card_by_code=card_by_code,
        chip_by_code=chip_by_code,
    )


# From the project root, not this file's folder: compiled, this module lives in build/engine.
DEFAULT_FIXTURES: Final = ROOT / "fixtures" / "sets"
_CACHE: Final[dict[str, Catalogue]] = {}
_DEFAULT_KEY: Final = str(DEFAULT_FIXTURES.resolve())


def load_catalogue(directory: Path | str | None = None) -> Catalogue:
    """Parse every `*.json` set file in `directory` (default: the repository's fixtures/sets).

    Cached per directory: the catalogue is immutable.
    """
    path = Path(directory) if directory is not None else DEFAULT_FIXTURES
    # every new game asks for the default: its key is worked out once
    key = _DEFAULT_KEY if directory is None else str(path.resolve())
    if key not in _CACHE:
        docs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(path.glob("*.json"))]
        _CACHE[key] = parse_sets(docs)
    return _CACHE[key]
