"""Drifter's actions: one small frozen record per decision, JSON in and out.

Every decision of the game is an `Action` with a `kind` and the few integer/text fields that
kind needs (card and dude ids are the per-game integer instance ids). `legal_actions()` lists a
menu of representative actions (chip amounts at a few sizes); `apply` accepts any action of a
legal kind with a legal amount, so a bet of $7 is fine even when the menu offers $5 and $10.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from simulator.engine.core.errors import IllegalAction

# kind -> the fields it uses (anything else must stay at its default)
KINDS: dict[str, tuple[str, ...]] = {
    # the turn
    "play_dude": ("card", "revealed", "chips"),
    "play_gear": ("card", "dude", "revealed", "chips", "target"),
    "as_gear": ("card", "ability", "target", "stat"),
    "play_kicker": ("card", "dude"),
    "challenge": ("dude", "stat"),
    "end_actions": (),
    "discard": ("card",),
    "end_turn": (),
    # the challenge
    "accept": ("dude",),
    "refuse": (),
    "shotgun": ("card",),
    "pass_shotgun": (),
    # betting
    "check": (),
    "bet": ("amount",),
    "call": (),
    "raise": ("amount",),
    "fold": (),
    # gear reveals and fortunes
    "reveal_gear": ("card",),
    "pass_reveal": (),
    "play_fortune": ("card", "target", "stat"),
    "as_fortune": ("card", "ability", "target", "stat"),
    "pass_fortune": (),
    # after the showdown
    "reinvest": ("dude",),
    "bury": ("dude",),
}


class Action(NamedTuple):
    """One decision (an immutable tuple: cheap to build, compare and hash). Unused fields keep
    their defaults and are left out of the JSON form.

    `card`: instance id of the card (or kicker chip) played; `dude`: instance id of the dude it
    goes on or that is moved; `revealed`: played face up; `chips`: betting chips put on a card;
    `amount`: a bet or the size of a raise; `stat`: a contested or chosen stat; `target`:
    instance id chosen for a `chosen_opponent` target or a copy card; `ability`: index of the
    ability used on the card.
    """

    kind: str
    card: int = -1
    dude: int = -1
    revealed: bool = False
    chips: int = 0
    amount: int = 0
    stat: str = ""
    target: int = -1
    ability: int = -1

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


_DEFAULTS: dict[str, Any] = {
    "card": -1,
    "dude": -1,
    "revealed": False,
    "chips": 0,
    "amount": 0,
    "stat": "",
    "target": -1,
    "ability": -1,
}

END_ACTIONS = Action("end_actions")
END_TURN = Action("end_turn")
REFUSE = Action("refuse")
PASS_SHOTGUN = Action("pass_shotgun")
CHECK = Action("check")
CALL = Action("call")
FOLD = Action("fold")
PASS_REVEAL = Action("pass_reveal")
PASS_FORTUNE = Action("pass_fortune")
