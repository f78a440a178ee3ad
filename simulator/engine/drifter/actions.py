"""Drifter's actions: one small frozen record per decision, JSON in and out.

Every decision of the game is an `Action` with a `kind` and the few integer/text fields that
kind needs (card and dude ids are the per-game integer instance ids). `legal_actions()` lists a
menu of representative actions (chip amounts at a few sizes); `apply` accepts any action of a
legal kind with a legal amount, so a bet of $7 is fine even when the menu offers $5 and $10.
"""

from __future__ import annotations

from typing import Any, Final

from simulator.engine.core.errors import IllegalAction
from simulator.engine.drifter.cards import STATS


class Kind:
    """Every kind of decision, named once: `Action.kind` is one of these strings (the JSON
    and the table's button labels read the strings themselves, so they never change)."""

    # the turn
    PLAY_DUDE: Final = "play_dude"
    PLAY_GEAR: Final = "play_gear"
    AS_GEAR: Final = "as_gear"
    PLAY_KICKER: Final = "play_kicker"
    CHALLENGE: Final = "challenge"
    END_ACTIONS: Final = "end_actions"
    DISCARD: Final = "discard"
    END_TURN: Final = "end_turn"

    # the challenge
    ACCEPT: Final = "accept"
    REFUSE: Final = "refuse"
    SHOTGUN: Final = "shotgun"
    PASS_SHOTGUN: Final = "pass_shotgun"

    # betting
    CHECK: Final = "check"
    BET: Final = "bet"
    CALL: Final = "call"
    RAISE: Final = "raise"
    FOLD: Final = "fold"

    # gear reveals and fortunes
    REVEAL_GEAR: Final = "reveal_gear"
    PASS_REVEAL: Final = "pass_reveal"
    PLAY_FORTUNE: Final = "play_fortune"
    AS_FORTUNE: Final = "as_fortune"
    PASS_FORTUNE: Final = "pass_fortune"

    # after the showdown
    REINVEST: Final = "reinvest"
    BURY: Final = "bury"


class Op:
    """Each kind as a small int, in `Action.op` (the bots' hot loops compare it): compiled, two
    ints compare in one instruction, two strings in a call. Never written anywhere: records,
    JSON and labels carry `kind`."""

    PLAY_DUDE: Final = 0
    PLAY_GEAR: Final = 1
    AS_GEAR: Final = 2
    PLAY_KICKER: Final = 3
    CHALLENGE: Final = 4
    END_ACTIONS: Final = 5
    DISCARD: Final = 6
    END_TURN: Final = 7
    ACCEPT: Final = 8
    REFUSE: Final = 9
    SHOTGUN: Final = 10
    PASS_SHOTGUN: Final = 11
    CHECK: Final = 12
    BET: Final = 13
    CALL: Final = 14
    RAISE: Final = 15
    FOLD: Final = 16
    REVEAL_GEAR: Final = 17
    PASS_REVEAL: Final = 18
    PLAY_FORTUNE: Final = 19
    AS_FORTUNE: Final = 20
    PASS_FORTUNE: Final = 21
    REINVEST: Final = 22
    BURY: Final = 23


# kind -> op, by the names Kind and Op share (tests/simulator/engine/drifter/test_made_once.py)
_OPS: Final[dict[str, int]] = {
    getattr(Kind, name): value for name, value in vars(Op).items() if name.isupper()
}


# kind -> the fields it uses (anything else must stay at its default)
KINDS: Final[dict[str, tuple[str, ...]]] = {
    # the turn
    Kind.PLAY_DUDE: ("card", "revealed", "chips"),
    Kind.PLAY_GEAR: ("card", "dude", "revealed", "chips", "target"),
    Kind.AS_GEAR: ("card", "ability", "target", "stat"),
    Kind.PLAY_KICKER: ("card", "dude"),
    Kind.CHALLENGE: ("dude", "stat"),
    Kind.END_ACTIONS: (),
    Kind.DISCARD: ("card",),
    Kind.END_TURN: (),
    # the challenge
    Kind.ACCEPT: ("dude",),
    Kind.REFUSE: (),
    Kind.SHOTGUN: ("card",),
    Kind.PASS_SHOTGUN: (),
    # betting
    Kind.CHECK: (),
    Kind.BET: ("amount",),
    Kind.CALL: (),
    Kind.RAISE: ("amount",),
    Kind.FOLD: (),
    # gear reveals and fortunes
    Kind.REVEAL_GEAR: ("card",),
    Kind.PASS_REVEAL: (),
    Kind.PLAY_FORTUNE: ("card", "target", "stat"),
    Kind.AS_FORTUNE: ("card", "ability", "target", "stat"),
    Kind.PASS_FORTUNE: (),
    # after the showdown
    Kind.REINVEST: ("dude",),
    Kind.BURY: ("dude",),
}


class Action:
    """One decision: immutable, compared and hashed by value. Unused fields keep their defaults
    and are left out of the JSON form.

    `card`: instance id of the card (or kicker chip) played; `dude`: instance id of the dude it
    goes on or that is moved; `revealed`: played face up; `chips`: betting chips put on a card;
    `amount`: a bet or the size of a raise; `stat`: a contested or chosen stat; `target`:
    instance id chosen for a `chosen_opponent` target or a copy card; `ability`: index of the
    ability used on the card. `op` is `kind` as an int (Op), made from it.

    A plain class rather than a named tuple: compiled (simulator/engine/compiled.py), its
    fields are read straight from the struct and it is built without a Python-level call.
    """

    __slots__ = (
        "ability",
        "amount",
        "card",
        "chips",
        "dude",
        "kind",
        "op",
        "revealed",
        "stat",
        "target",
    )

    def __init__(
        self,
        kind: str,
        card: int = -1,
        dude: int = -1,
        revealed: bool = False,
        chips: int = 0,
        amount: int = 0,
        stat: str = "",
        target: int = -1,
        ability: int = -1,
    ) -> None:
        self.kind: Final = kind
        self.card: Final = card
        self.dude: Final = dude
        self.revealed: Final = revealed
        self.chips: Final = chips
        self.amount: Final = amount
        self.stat: Final = stat
        self.target: Final = target
        self.ability: Final = ability
        # the kind as an int (Op), -1 for no kind (the pure build lets anything be a kind:
        # `malformed` says what is wrong with it)
        self.op: Final = _OPS.get(kind, -1) if type(kind) is str else -1

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return (
            self.kind == other.kind
            and self.card == other.card
            and self.dude == other.dude
            and self.revealed == other.revealed
            and self.chips == other.chips
            and self.amount == other.amount
            and self.stat == other.stat
            and self.target == other.target
            and self.ability == other.ability
        )

    def __hash__(self) -> int:
        return hash(
            (
                self.kind,
                self.card,
                self.dude,
                self.revealed,
                self.chips,
                self.amount,
                self.stat,
                self.target,
                self.ability,
            )
        )

    def __repr__(self) -> str:
        return f"Action({', '.join(f'{k}={v!r}' for k, v in self._fields().items())})"

    def _fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for name, default in _DEFAULTS.items():
            value = getattr(self, name)
            if value != default:
                out[name] = value
        return out

    def to_json(self) -> dict:
        """The action as a JSON object with only the fields its kind uses."""
        out: dict[str, Any] = {"kind": self.kind}
        for name in KINDS[self.kind]:
            value = getattr(self, name)
            if value != _DEFAULTS[name]:
                out[name] = value
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Parse an action; IllegalAction if it is not a well-formed action object."""
        if not isinstance(data, dict) or data.get("kind") not in KINDS:
            raise IllegalAction(f"not an action: {data!r}")
        fields = KINDS[data["kind"]]
        extra = set(data) - {"kind", *fields}
        if extra:
            raise IllegalAction(f"action {data['kind']} has unknown fields {sorted(extra)}")
        values = {}
        for name in fields:
            if name in data:
                value = data[name]
                want = type(_DEFAULTS[name])
                if type(value) is not want:
                    raise IllegalAction(f"action {data['kind']}: {name} must be {want.__name__}")
                values[name] = value
        return cls(kind=data["kind"], **values)

    def __str__(self) -> str:
        parts = [f"{k}={v}" for k, v in self.to_json().items() if k != "kind"]
        return f"{self.kind}({', '.join(parts)})"


def malformed(a: Action) -> str:
    """Why `a` is no well-formed action ("" if it is one): an unknown kind, a field of the
    wrong type (True is not 1, 5.0 is not 5: it would be written into the record as it is) or
    a field its kind does not use. The compiled Action cannot hold a field of the wrong type
    (it refuses 5.0 and stores True as 1); the pure one can, so `apply` asks this of every
    action that is not a menu item itself."""
    kind: object = a.kind
    if type(kind) is not str or kind not in KINDS:
        return f"no such action kind {kind!r}"
    used = KINDS[kind]
    for name, default in _DEFAULTS.items():
        value = getattr(a, name)
        if type(value) is not type(default):
            return f"{kind}: {name} must be {type(default).__name__}, not {value!r}"
        if name not in used and value != default:
            return f"{kind} takes no {name}"
    return ""


_DEFAULTS: Final[dict[str, Any]] = {
    "card": -1,
    "dude": -1,
    "revealed": False,
    "chips": 0,
    "amount": 0,
    "stat": "",
    "target": -1,
    "ability": -1,
}

END_ACTIONS: Final = Action(Kind.END_ACTIONS)
END_TURN: Final = Action(Kind.END_TURN)
REFUSE: Final = Action(Kind.REFUSE)
PASS_SHOTGUN: Final = Action(Kind.PASS_SHOTGUN)
CHECK: Final = Action(Kind.CHECK)
CALL: Final = Action(Kind.CALL)
FOLD: Final = Action(Kind.FOLD)
PASS_REVEAL: Final = Action(Kind.PASS_REVEAL)
PASS_FORTUNE: Final = Action(Kind.PASS_FORTUNE)


# Actions are immutable values and depend only on their fields, so the menus' per-card and
# per-amount actions are made once per process and reused by every game (a card's instance id
# or an amount is all they hold): building one costs more than looking it up.
class ActionTable:
    """The actions of one kind, each made once, indexed by the card id or amount it holds (a
    list: cheaper to read than a dict, no boxed key, no hashing). Keys past its end (a game
    with a huge stake) get a new action each time."""

    SIZE: Final = 2048

    def __init__(self, kind: str, field: str) -> None:
        self.kind = kind
        self.field = field  # "card", "dude" or "amount"
        self.made: list[Action | None] = [None] * self.SIZE

    def of(self, key: int) -> Action:
        inside = 0 <= key < self.SIZE
        if inside:
            a = self.made[key]
            if a is not None:
                return a
        if self.field == "amount":
            a = Action(self.kind, amount=key)
        elif self.field == "card":
            a = Action(self.kind, card=key)
        else:
            a = Action(self.kind, dude=key)
        if inside:
            self.made[key] = a
        return a


# The turn menu's per-card actions, made once per process too: a kicker chip onto a dude, a gear
# card onto a dude. A row per chip or gear card id, made when first needed, indexed by the
# dude's id (twice as long for gear: face up or concealed); lists, for the reasons above. Ids
# past the bounds, and gear that asks for a copy target, get a new action each time.
_ROWS: Final = 2048
_DUDES: Final = 1024


class _PairTable:
    def __init__(self, width: int) -> None:
        self.width = width
        self.rows: list[list[Action | None] | None] = [None] * _ROWS

    def row(self, i: int) -> list[Action | None]:
        r = self.rows[i]
        if r is None:
            r = self.rows[i] = [None] * self.width
        return r


_KICKER_PLAYS: Final = _PairTable(_DUDES)
_GEAR_PLAYS: Final = _PairTable(2 * _DUDES)


def play_kicker(chip: int, dude: int) -> Action:
    """`Action(PLAY_KICKER, card=chip, dude=dude)`, made once per process."""
    if not (0 <= chip < _ROWS and 0 <= dude < _DUDES):
        return Action(Kind.PLAY_KICKER, chip, dude)
    row = _KICKER_PLAYS.row(chip)
    a = row[dude]
    if a is None:
        a = row[dude] = Action(Kind.PLAY_KICKER, chip, dude)
    return a


def play_gear(card: int, dude: int, revealed: bool, chips: int, target: int) -> Action:
    """`Action(PLAY_GEAR, card, dude, revealed, chips, target=target)`, made once per process
    (the chips are checked: the same id is another card, of another cost, in another game)."""
    if target != -1 or not (0 <= card < _ROWS and 0 <= dude < _DUDES):
        return Action(Kind.PLAY_GEAR, card, dude, revealed, chips, 0, "", target, -1)
    row = _GEAR_PLAYS.row(card)
    i = 2 * dude + (1 if revealed else 0)
    a = row[i]
    if a is None or a.chips != chips:
        a = row[i] = Action(Kind.PLAY_GEAR, card, dude, revealed, chips, 0, "", -1, -1)
    return a


# A dude card's three plays (face up, concealed, concealed with a bluff) and a dude's
# challenges (one per stat, or the quick-start's one), by id, made once per process (a dude's
# plays are checked against its cost: the same id is another card in another game).
_DUDE_PLAYS: Final[list[tuple[Action, Action, Action] | None]] = [None] * _ROWS
_CHALLENGES: Final[list[tuple[Action, ...] | None]] = [None] * _ROWS
_QUICK_CHALLENGES: Final[list[tuple[Action, ...] | None]] = [None] * _ROWS


def dude_plays(card: int, cost: int, bluff: int) -> tuple[Action, Action, Action]:
    """A dude card played face up ($1 less), concealed, and concealed with `bluff` more."""
    inside = 0 <= card < _ROWS
    if inside:
        made = _DUDE_PLAYS[card]
        if made is not None and made[1].chips == cost and made[2].chips == cost + bluff:
            return made
    face_up = cost - 1 if cost > 0 else 0
    made = (
        Action(Kind.PLAY_DUDE, card=card, revealed=True, chips=face_up),
        Action(Kind.PLAY_DUDE, card=card, chips=cost),
        Action(Kind.PLAY_DUDE, card=card, chips=cost + bluff),
    )
    if inside:
        _DUDE_PLAYS[card] = made
    return made


def challenges(dude: int, quick: bool) -> tuple[Action, ...]:
    """A challenge with the dude naming each stat (quick-start: one naming none)."""
    table = _QUICK_CHALLENGES if quick else _CHALLENGES
    inside = 0 <= dude < _ROWS
    if inside:
        made = table[dude]
        if made is not None:
            return made
    if quick:
        made = (Action(Kind.CHALLENGE, dude=dude),)
    else:
        made = tuple([Action(Kind.CHALLENGE, dude=dude, stat=st) for st in STATS])
    if inside:
        table[dude] = made
    return made


DISCARDS: Final = ActionTable(Kind.DISCARD, "card")
