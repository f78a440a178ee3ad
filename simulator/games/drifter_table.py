"""High Stakes Drifter's table as one seat sees it, and its buttons' labels.

A seat sees its own hand and kicker chips, every revealed card, its own concealed cards, every
deadwood (face up) and every count; another seat's hand, deck, kicker chip stack and concealed
cards are `{"hidden": true}` entries with no code (the same line `View.known` draws for bots).
`seat` None is the narrator, who sees every card. Deck order never appears: decks are counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simulator.engine.drifter import abilities as ab
from simulator.engine.drifter.actions import Kind

STAT_WORDS = {"smarts": "smarts", "skill": "skill", "luck": "luck"}

PHASES = {
    "setup": "The deal",
    "turn": "{actor}'s turn",
    "cold_challenge": "{actor} may issue a challenge",
    "accept": "{actor} answers the challenge",
    "shotgun": "{actor} may ride shotgun",
    "bet": "Betting: {actor} to act",
    "reveal": "Gear reveals: {actor} to act",
    "fortune": "Fortune cards: {actor} to act",
    "showdown": "The showdown",
    "reinvest": "{actor} may reinvest in a dude",
    "discard": "{actor} discards down to a full hand",
    "over": "The game is over",
}


def _knows(card: Any, seat: int | None) -> bool:
    return seat is None or card.revealed or card.owner == seat


def _card(card: Any, seat: int | None) -> dict[str, Any]:
    """A card in play (or a fortune): named if `seat` may know it, else hidden."""
    if not _knows(card, seat):
        return {"hidden": True, "chips": card.chips}
    return {
        "code": card.defn.code,
        "name": card.defn.name,
        "revealed": card.revealed,
        "chips": card.chips,
    }


def _chip(kicker: Any, side: int) -> dict[str, Any]:
    stat, amount = kicker.defn.sides[side]
    return {
        "code": kicker.defn.code,
        "name": f"{kicker.defn.color.capitalize()} kicker chip",
        "side": side,
        "text": f"{stat} {amount:+d}",
    }


def _dude(state: Any, dude: Any, seat: int | None, names: list[str]) -> dict[str, Any]:
    out = _card(dude, seat)
    out["owner"] = dude.owner
    out["owner_name"] = names[dude.owner]
    if "code" in out:
        # A concealed dude's stats would name it: shown to its owner and the narrator only.
        out["stats"] = list(ab.dude_stats(state, dude) if dude.revealed else dude.defn.stats)
    out["gear"] = [_card(g, seat) for g in dude.gear]
    out["kicker_chips"] = [_chip(k, k.side) for k in dude.kickers]
    return out


def drifter_table_view(state: Any, seat: int | None) -> dict[str, Any]:
    """The table as `seat` sees it (see the module docstring)."""
    names = [s.name for s in state.seats]
    over = bool(state.is_over)
    actor = names[state.actor] if 0 <= state.actor < len(names) else ""
    seats = []
    for p, name in enumerate(names):
        mine = seat is None or seat == p
        hand = state.hand[p]
        chips = state.chips[p]
        seats.append(
            {
                "index": p,
                "name": name,
                "you": seat == p,
                "to_act": not over and state.actor == p,
                "badge": state.badge == p,
                "stake": state.stake[p],
                "hand": [
                    {"code": c.printed.code, "name": c.printed.name} if mine else {"hidden": True}
                    for c in hand
                ],
                "deck_count": len(state.deck[p]),
                "kicker_chips": [_chip(k, 0) if mine else {"hidden": True} for k in chips],
                "deadwood": [
                    {"code": c.printed.code, "name": c.printed.name} for c in state.dead[p]
                ],
                "saloon": [_dude(state, d, seat, names) for d in state.saloon if d.owner == p],
                "in_shootout": bool(state.shooting and state.in_shootout(p)),
                "folded": bool(state.shooting and state.folded[p]),
            }
        )
    view: dict[str, Any] = {
        "game": "drifter",
        "seat": seat,
        "phase": state.phase,
        "phase_text": PHASES.get(state.phase, state.phase).format(actor=actor),
        "to_act": None if over else state.actor,
        "turn": state.turns,
        "pot": state.pot,
        "carried": state.carried,
        "ante": state.rules.ante,
        "contested": state.contested if state.shooting else None,
        "to_call": (
            max(state.rb - state.contrib[seat], 0)
            if seat is not None and state.phase == "bet"
            else 0
        ),
        "seats": seats,
        "street": [_dude(state, d, seat, names) for d in state.street],
        "fortunes": [dict(_card(f, seat), owner_name=names[f.owner]) for f in state.fortunes],
        "over": over,
        "result": drifter_result(state) if over else None,
    }
    return view


def drifter_result(state: Any) -> str:
    """The end of the game in a sentence: who won and every stake."""
    names = [s.name for s in state.seats]
    winners = " and ".join(names[w] for w in state.winners) or "Nobody"
    stakes = ", ".join(f"{n} ${x}" for n, x in zip(names, state.stake, strict=True))
    verb = "wins" if len(state.winners) == 1 else "win"
    return f"{winners} {verb}. Stakes: {stakes}."


def _name(state: Any, uid: int, actor: int) -> str:
    """A card's name as the acting seat may say it."""
    card = state.cards[uid]
    if _knows(card, actor):
        return str(card.defn.name)
    what = "dude" if card.printed.is_dude else "card"
    # Several of them: told apart by their order on the table, which everyone sees.
    alike = [
        c.uid
        for d in state.all_dudes()
        for c in (d, *d.gear)
        if c.owner == card.owner and not c.revealed and c.printed.is_dude == card.printed.is_dude
    ]
    number = f" {alike.index(uid) + 1}" if len(alike) > 1 and uid in alike else ""
    return f"{state.seats[card.owner].name}'s concealed {what}{number}"


def _ability(state: Any, uid: int, index: int) -> str:
    card = state.cards[uid]
    if len(card.defn.abilities) > 1 and index >= 0:
        return f"{card.defn.name}'s ability {index + 1}"
    return f"{card.defn.name}'s ability"


# The buttons' words of the kinds that need no more than the kind.
_SIMPLE_LABELS = {
    Kind.END_ACTIONS: "Done with actions",
    Kind.END_TURN: "End the turn",
    Kind.REFUSE: "Refuse the challenge",
    Kind.PASS_SHOTGUN: "Don't ride shotgun",
    Kind.CHECK: "Check",
    Kind.FOLD: "Fold",
    Kind.PASS_REVEAL: "Reveal no gear",
    Kind.PASS_FORTUNE: "Play no fortune",
}


def _face(action: Any) -> str:
    return "face up" if action.revealed else "face down"


def _chips(action: Any) -> str:
    return f" with ${action.chips}" if action.chips else ""


def _stat(action: Any) -> str:
    return f" on {STAT_WORDS.get(action.stat, action.stat)}" if action.stat else ""


def _target(state: Any, action: Any) -> str:
    return f", aiming at {_name(state, action.target, state.actor)}" if action.target >= 0 else ""


def _card_named(state: Any, action: Any) -> str:
    return _name(state, action.card, state.actor)


def _dude_named(state: Any, action: Any) -> str:
    return _name(state, action.dude, state.actor)


def _call(state: Any, action: Any) -> str:
    return f"Call ${max(state.rb - state.contrib[state.actor], 0)}"


def _play_gear(state: Any, action: Any) -> str:
    on = _dude_named(state, action)
    card = _card_named(state, action)
    return f"Play {card} {_face(action)} on {on}{_chips(action)}{_target(state, action)}"


def _play_kicker(state: Any, action: Any) -> str:
    color = state.kickers[action.card].defn.color
    return f"Play a {color} kicker chip on {_dude_named(state, action)}"


def _as(state: Any, action: Any, what: str) -> str:
    ability = _ability(state, action.card, action.ability)
    return f"Use {ability} as {what}{_target(state, action)}{_stat(action)}"


# The buttons' words of every other kind: the kind's one function of (state, action).
_LABELS: dict[str, Callable[[Any, Any], str]] = {
    Kind.CALL: _call,
    Kind.BET: lambda state, a: f"Bet ${a.amount}",
    Kind.RAISE: lambda state, a: f"Raise ${a.amount}",
    Kind.PLAY_DUDE: lambda st, a: f"Play {_card_named(st, a)} {_face(a)}{_chips(a)}",
    Kind.PLAY_GEAR: _play_gear,
    Kind.AS_GEAR: lambda st, a: _as(st, a, "gear"),
    Kind.PLAY_KICKER: _play_kicker,
    Kind.CHALLENGE: lambda st, a: f"Challenge with {_dude_named(st, a)}{_stat(a)}",
    Kind.DISCARD: lambda st, a: f"Discard {_card_named(st, a)}",
    Kind.ACCEPT: lambda st, a: f"Accept with {_dude_named(st, a)}",
    Kind.SHOTGUN: lambda st, a: f"Ride shotgun with {_card_named(st, a)}",
    Kind.REVEAL_GEAR: lambda st, a: f"Reveal {_card_named(st, a)}",
    Kind.PLAY_FORTUNE: lambda st, a: f"Play {_card_named(st, a)}{_target(st, a)}{_stat(a)}",
    Kind.AS_FORTUNE: lambda st, a: _as(st, a, "a fortune"),
    Kind.REINVEST: lambda st, a: f"Reinvest in {_dude_named(st, a)}",
    Kind.BURY: lambda st, a: f"Bury {_dude_named(st, a)}",
}


def drifter_action_label(state: Any, action: Any) -> str:
    """The button's words for one of the acting seat's legal actions ("Bet $5"), chosen by the
    action's kind (`actions.Kind`)."""
    if action.kind in _SIMPLE_LABELS:
        return _SIMPLE_LABELS[action.kind]
    label = _LABELS.get(action.kind)
    return label(state, action) if label else action.kind.replace("_", " ").capitalize()
