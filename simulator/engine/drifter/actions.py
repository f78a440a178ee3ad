"""Drifter's actions: one small frozen record per decision, JSON in and out.

Every decision of the game is an `Action` with a `kind` and the few integer/text fields that
kind needs (card and dude ids are the per-game integer instance ids). `legal_actions()` lists a
menu of representative actions (chip amounts at a few sizes); `apply` accepts any action of a
legal kind with a legal amount, so a bet of $7 is fine even when the menu offers $5 and $10.
"""

from __future__ import annotations

from typing import Any, Final

from simulator.engine.core.errors import IllegalAction


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
    ability used on the card.

    A plain class rather than a named tuple: compiled (simulator/engine/compiled.py), its
    fields are read straight from the struct and it is built without a Python-level call.
    """

    __slots__ = ("ability", "amount", "card", "chips", "dude", "kind", "revealed", "stat", "target")

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
