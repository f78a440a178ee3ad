"""Drifter's narration events: one small named record per kind of thing that happens.

The engine makes an event where something happens (`DrifterState.note(ev.Bet(...))`); only a
game kept with narration (`narrate=True`) keeps it, in `DrifterState.log`, in its logged form:
the tuple `(KIND, field, ...)` in the order the fields are declared, with every card written
as `("card", uid, name, revealed then)` and every kicker chip as `("chip", code, color, stat,
amount)` (`plain`). That tuple is what narrate.py tells and what the table's log shows; it is
no part of a game record (records hold decisions and chance outcomes only: core/record.py).

Events are small classes compiled with the engine (simulator/engine/compiled.py): a note costs a
game without narration one small struct, as the tuple it replaces did.
"""

from __future__ import annotations

from typing import Any, ClassVar

from simulator.engine.drifter.pieces import Card, Kicker


class Event:
    """What every event is: its `KIND` and its fields, named in order in `FIELDS`.

    (Plain classes rather than dataclasses: mypyc takes a dataclass's class attributes for
    fields, and a plain class is made as cheaply.)"""

    KIND: ClassVar[str] = ""
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def logged(self) -> tuple:
        """The event as DrifterState.log keeps it: its kind, then its fields made `plain`."""
        return (self.KIND, *[plain(getattr(self, name)) for name in self.FIELDS])

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({values})"


def plain(x: Any) -> Any:
    """Names and numbers, not live objects: a card or kicker chip as it is now (lists for
    sequences, as the log has always had them)."""
    if isinstance(x, Card):
        return ("card", x.uid, x.defn.name, x.revealed)
    if isinstance(x, Kicker):
        stat, amount = x.defn.sides[x.side]
        return ("chip", x.defn.code, x.defn.color, stat, amount)
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    return x


# --- the setup and the turn ---------------------------------------------------------------


class Badge(Event):
    KIND: ClassVar[str] = "badge"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat


class Redraw(Event):
    KIND: ClassVar[str] = "redraw"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "codes")

    def __init__(self, seat: int, codes: list[str]) -> None:
        self.seat = seat
        self.codes = codes  # the dudeless starting hand shown


class Reshuffle(Event):
    KIND: ClassVar[str] = "reshuffle"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat


class Turn(Event):
    KIND: ClassVar[str] = "turn"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "number")

    def __init__(self, seat: int, number: int) -> None:
        self.seat = seat
        self.number = number


class PlayDude(Event):
    KIND: ClassVar[str] = "play_dude"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "card", "revealed", "chips")

    def __init__(self, seat: int, card: Card, revealed: bool, chips: int) -> None:
        self.seat = seat
        self.card = card
        self.revealed = revealed
        self.chips = chips


class PlayGear(Event):
    KIND: ClassVar[str] = "play_gear"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "card", "dude", "revealed", "chips")

    def __init__(self, seat: int, card: Card, dude: Card, revealed: bool, chips: int) -> None:
        self.seat = seat
        self.card = card
        self.dude = dude
        self.revealed = revealed
        self.chips = chips


class Copy(Event):
    KIND: ClassVar[str] = "copy"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "card", "of")

    def __init__(self, seat: int, card: Card, of: Card) -> None:
        self.seat = seat
        self.card = card
        self.of = of  # the card it became a copy of


class AsGear(Event):
    KIND: ClassVar[str] = "as_gear"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "card")

    def __init__(self, seat: int, card: Card) -> None:
        self.seat = seat
        self.card = card


class PlayKicker(Event):
    KIND: ClassVar[str] = "kicker"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "dude", "chip")

    def __init__(self, seat: int, dude: Card, chip: Kicker) -> None:
        self.seat = seat
        self.dude = dude
        self.chip = chip


class Reflip(Event):
    KIND: ClassVar[str] = "reflip"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "dude", "chip")

    def __init__(self, seat: int, dude: Card, chip: Kicker) -> None:
        self.seat = seat
        self.dude = dude
        self.chip = chip


class BuryKickers(Event):
    KIND: ClassVar[str] = "bury_kickers"
    FIELDS: ClassVar[tuple[str, ...]] = ("dude",)

    def __init__(self, dude: Card) -> None:
        self.dude = dude


class Bury(Event):
    KIND: ClassVar[str] = "bury"
    FIELDS: ClassVar[tuple[str, ...]] = ("dude",)

    def __init__(self, dude: Card) -> None:
        self.dude = dude


class Discard(Event):
    KIND: ClassVar[str] = "discard"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "card")

    def __init__(self, seat: int, card: Card) -> None:
        self.seat = seat
        self.card = card


class PassBadge(Event):
    KIND: ClassVar[str] = "pass_badge"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat


class Ante(Event):
    KIND: ClassVar[str] = "ante"
    FIELDS: ClassVar[tuple[str, ...]] = ("amount",)

    def __init__(self, amount: int) -> None:
        self.amount = amount


# --- the challenge, the shootout and the game's end ---------------------------------------


class Challenge(Event):
    KIND: ClassVar[str] = "challenge"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "dude", "stat")

    def __init__(self, seat: int, dude: Card, stat: str | None) -> None:
        self.seat = seat
        self.dude = dude
        self.stat = stat  # None: no stat named (quick-start)


class Accept(Event):
    KIND: ClassVar[str] = "accept"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "dude")

    def __init__(self, seat: int, dude: Card) -> None:
        self.seat = seat
        self.dude = dude


class Refuse(Event):
    KIND: ClassVar[str] = "refuse"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat


class Shotgun(Event):
    KIND: ClassVar[str] = "shotgun"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "card")

    def __init__(self, seat: int, card: Card) -> None:
        self.seat = seat
        self.card = card


class Unopposed(Event):
    KIND: ClassVar[str] = "unopposed"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "pot")

    def __init__(self, seat: int, pot: int) -> None:
        self.seat = seat
        self.pot = pot


class NoChallenge(Event):
    KIND: ClassVar[str] = "no_challenge"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat


class Shootout(Event):
    KIND: ClassVar[str] = "shootout"
    FIELDS: ClassVar[tuple[str, ...]] = ("seats", "pot")

    def __init__(self, seats: list[int], pot: int) -> None:
        self.seats = seats
        self.pot = pot


class Betting(Event):
    KIND: ClassVar[str] = "betting"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat  # the lead bettor


class Lead(Event):
    KIND: ClassVar[str] = "lead"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat


class Check(Event):
    KIND: ClassVar[str] = "check"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat


class Bet(Event):
    KIND: ClassVar[str] = "bet"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "amount", "all_in")

    def __init__(self, seat: int, amount: int, all_in: bool) -> None:
        self.seat = seat
        self.amount = amount
        self.all_in = all_in


class Call(Event):
    KIND: ClassVar[str] = "call"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "amount", "all_in")

    def __init__(self, seat: int, amount: int, all_in: bool) -> None:
        self.seat = seat
        self.amount = amount
        self.all_in = all_in


class Raise(Event):
    KIND: ClassVar[str] = "raise"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "amount", "to", "all_in")

    def __init__(self, seat: int, amount: int, to: int, all_in: bool) -> None:
        self.seat = seat
        self.amount = amount  # the raise
        self.to = to  # the bet it makes
        self.all_in = all_in


class Fold(Event):
    KIND: ClassVar[str] = "fold"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat


class Announce(Event):
    KIND: ClassVar[str] = "announce"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "gear")

    def __init__(self, seat: int, gear: Card) -> None:
        self.seat = seat
        self.gear = gear


class RevealGear(Event):
    KIND: ClassVar[str] = "reveal_gear"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "gear", "dude", "stats")

    def __init__(self, seat: int, gear: Card, dude: Card, stats: list[int]) -> None:
        self.seat = seat
        self.gear = gear
        self.dude = dude
        self.stats = stats  # the dude's, now


class Fortunes(Event):
    KIND: ClassVar[str] = "fortunes"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat  # who starts


class PlayFortune(Event):
    KIND: ClassVar[str] = "play_fortune"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "card", "cost", "dude", "stats")

    def __init__(self, seat: int, card: Card, cost: int, dude: Card, stats: list[int]) -> None:
        self.seat = seat
        self.card = card
        self.cost = cost
        self.dude = dude
        self.stats = stats  # the dude's, now


class AsFortune(Event):
    KIND: ClassVar[str] = "as_fortune"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "card")

    def __init__(self, seat: int, card: Card) -> None:
        self.seat = seat
        self.card = card


class Contested(Event):
    KIND: ClassVar[str] = "contested"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "stat")

    def __init__(self, seat: int, stat: str | None) -> None:
        self.seat = seat
        self.stat = stat


class RevealDude(Event):
    KIND: ClassVar[str] = "reveal_dude"
    FIELDS: ClassVar[tuple[str, ...]] = ("dude",)

    def __init__(self, dude: Card) -> None:
        self.dude = dude


class Tombstone(Event):
    KIND: ClassVar[str] = "tombstone"
    FIELDS: ClassVar[tuple[str, ...]] = ("dude",)

    def __init__(self, dude: Card) -> None:
        self.dude = dude


class Showdown(Event):
    KIND: ClassVar[str] = "showdown"
    FIELDS: ClassVar[tuple[str, ...]] = ("dudes", "stat")

    def __init__(self, dudes: list[tuple[int, Card, list[int]]], stat: str | None) -> None:
        self.dudes = dudes  # (seat, dude, its stats)
        self.stat = stat


class Win(Event):
    KIND: ClassVar[str] = "win"
    FIELDS: ClassVar[tuple[str, ...]] = ("winners", "pot", "share", "extra")

    def __init__(self, winners: list[int], pot: int, share: int, extra: int) -> None:
        self.winners = winners
        self.pot = pot
        self.share = share
        self.extra = extra  # the odd chips, to the first winner


class PotCarried(Event):
    KIND: ClassVar[str] = "pot_carried"
    FIELDS: ClassVar[tuple[str, ...]] = ("pot",)

    def __init__(self, pot: int) -> None:
        self.pot = pot


class Reinvest(Event):
    KIND: ClassVar[str] = "reinvest"
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "dude", "price")

    def __init__(self, seat: int, dude: Card, price: int) -> None:
        self.seat = seat
        self.dude = dude
        self.price = price


class GameOver(Event):
    KIND: ClassVar[str] = "game_over"
    FIELDS: ClassVar[tuple[str, ...]] = ("reason", "winners", "stakes")

    def __init__(self, reason: str, winners: list[int], stakes: list[int]) -> None:
        self.reason = reason
        self.winners = winners
        self.stakes = stakes


EVENTS: dict[str, type[Event]] = {
    cls.KIND: cls
    for cls in (
        Badge, Redraw, Reshuffle, Turn, PlayDude, PlayGear, Copy, AsGear, PlayKicker, Reflip,
        BuryKickers, Bury, Discard, PassBadge, Ante, Challenge, Accept, Refuse, Shotgun,
        Unopposed, NoChallenge, Shootout, Betting, Lead, Check, Bet, Call, Raise, Fold, Announce,
        RevealGear, Fortunes, PlayFortune, AsFortune, Contested, RevealDude, Tombstone, Showdown,
        Win, PotCarried, Reinvest, GameOver,
    )
}  # fmt: skip
"""Every event kind -> its record class (narrate.py names the logged fields by it)."""


def field_names(kind: str) -> tuple[str, ...]:
    """The names of a logged event's fields after its kind, in order."""
    return EVENTS[kind].FIELDS
