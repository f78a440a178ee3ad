"""A narrated log of a game, read from its record, in the voice of the rules' examples:

    Sam plays Henry Meek concealed, with $6 on it.
    Sam reveals Plains Saddle on Henry Meek: smarts 9, skill 3, luck 10.

The narrator sees every card (it tells the story after the game), so concealed cards are named
with "concealed" beside them. Told to one seat (`viewer`), a card that seat could not see when
it happened is "a concealed dude" or "a concealed card" instead: its owner saw it, everyone saw
it once it was revealed, and a card discarded or buried goes face up into the deadwood.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

from simulator.engine.drifter import events as ev
from simulator.engine.drifter import replay
from simulator.engine.drifter.cards import Catalogue

# Events whose card goes face up into the deadwood: everyone sees it, concealed or not.
_FACE_UP = frozenset({ev.Discard.KIND, ev.Bury.KIND, ev.Tombstone.KIND})


def narrate(record: dict, catalogue: Catalogue | None = None) -> list[str]:
    """Replay `record` (RecordError if it does not) and tell the game, one line per event."""
    state = replay(record, catalogue=catalogue, narrate=True)
    return narrate_events(state.log or [], [s.name for s in state.seats])


def _card(c: Any) -> str:
    return c[2] if isinstance(c, (list, tuple)) and c and c[0] == "card" else str(c)


def _masked(event: Any, viewer: int, cards: Sequence[tuple[int, bool]]) -> Any:
    """The event with every card `viewer` could not see named only as what it is: a card
    reference is ("card", uid, name, revealed then); `cards[uid]` is (owner, printed a dude)."""
    if event[0] in _FACE_UP:
        return event

    def mask(x: Any) -> Any:
        if isinstance(x, (list, tuple)) and x and x[0] == "card":
            owner, is_dude = cards[x[1]]
            if x[3] or owner == viewer:
                return x
            return ("card", x[1], "a concealed dude" if is_dude else "a concealed card", False)
        if isinstance(x, (list, tuple)):
            return [mask(v) for v in x]
        return x

    masked = [mask(x) for x in event]
    # A concealed dude's stats would give it away: told only once it is revealed.
    at = _STATS_OF.get(event[0])
    if at is not None and masked[at[0]] is not event[at[0]]:
        masked[at[1]] = None
    return tuple(masked)


# event kind -> the names of its logged fields, in order
_FIELDS: dict[str, tuple[str, ...]] = {kind: ev.field_names(kind) for kind in ev.EVENTS}


def _at(kind: str, name: str) -> int:
    """The position of an event's field in its logged tuple (the kind is at 0)."""
    return 1 + _FIELDS[kind].index(name)


# event kind -> (position of the dude, position of its stats) in the logged event
_STATS_OF = {
    kind: (_at(kind, "dude"), _at(kind, "stats"))
    for kind in (ev.RevealGear.KIND, ev.PlayFortune.KIND)
}


def _stats(st: list[int]) -> str:
    return f"smarts {st[0]}, skill {st[1]}, luck {st[2]}"


def _chip(k: list) -> str:
    _, _code, color, stat, amount = k
    return f"a {color} kicker chip that lands {stat} {amount:+d}"


def narrate_events(
    log: list,
    names: list[str],
    viewer: int | None = None,
    cards: Sequence[tuple[int, bool]] = (),
) -> list[str]:
    """Sentences for narration events (DrifterState.log), as the narrator tells them (`viewer`
    None) or as seat `viewer` saw them; `cards[uid]` is (owner, printed a dude) of every card
    of the game, needed for a viewer."""
    out: list[str] = []
    who = names.__getitem__
    for logged in log:
        kind, *values = logged if viewer is None else _masked(logged, viewer, cards)
        sentence = _SENTENCES.get(kind)
        if sentence is not None:
            e = SimpleNamespace(**dict(zip(_FIELDS[kind], values, strict=True)))
            out.append(sentence(e, who))
    return out


Who = Callable[[int], str]


def _all_in(all_in: bool) -> str:
    return " and is all in." if all_in else "."


def _play_dude(e: Any, who: Who) -> str:
    if not e.revealed and _card(e.card) == "a concealed dude":
        return f"{who(e.seat)} plays a dude concealed, with ${e.chips} on it."
    how = "revealed" if e.revealed else "concealed"
    return f"{who(e.seat)} plays {_card(e.card)} {how}, with ${e.chips} on it."


def _play_gear(e: Any, who: Who) -> str:
    if not e.revealed and _card(e.card) == "a concealed card":
        return (
            f"{who(e.seat)} plays a gear card concealed on {_card(e.dude)}, with ${e.chips} on it."
        )
    how = "revealed" if e.revealed else "concealed"
    return f"{who(e.seat)} plays {_card(e.card)} {how} on {_card(e.dude)}, with ${e.chips} on it."


def _challenge(e: Any, who: Who) -> str:
    on = f" on {e.stat}" if e.stat else ""
    return f"{who(e.seat)} issues a challenge{on} with {_card(e.dude)}."


def _reveal_gear(e: Any, who: Who) -> str:
    stats = f": {_stats(e.stats)}." if e.stats else "."
    return f"{who(e.seat)} reveals {_card(e.gear)} on {_card(e.dude)}{stats}"


def _play_fortune(e: Any, who: Who) -> str:
    on = f": {_card(e.dude)} has {_stats(e.stats)}." if e.stats else f" on {_card(e.dude)}."
    return f"{who(e.seat)} plays {_card(e.card)} for ${e.cost}{on}"


def _showdown(e: Any, who: Who) -> str:
    parts = [f"{who(q)}'s {_card(d)} has {_stats(st)}" for q, d, st in e.dudes]
    on = f" on {e.stat}" if e.stat else ""
    return f"Showdown{on}: " + "; ".join(parts) + "."


def _win(e: Any, who: Who) -> str:
    if len(e.winners) == 1:
        return f"{who(e.winners[0])} wins the shootout and the pot of ${e.pot}."
    w = " and ".join(who(q) for q in e.winners)
    extra = f", ${e.extra} extra to {who(e.winners[0])}." if e.extra else "."
    return f"{w} split the pot of ${e.pot}: ${e.share} each{extra}"


def _game_over(e: Any, who: Who) -> str:
    w = " and ".join(who(q) for q in e.winners)
    table = ", ".join(f"{who(i)} ${x}" for i, x in enumerate(e.stakes))
    return f"The game ends ({e.reason}). Stakes: {table}. {w} wins."


# event kind -> its sentence, from the event's fields (by name) and the seats' names
_SENTENCES: dict[str, Callable[[Any, Who], str]] = {
    # the setup and the turn
    ev.Badge.KIND: lambda e, who: f"{who(e.seat)} goes first and takes the badge.",
    ev.Redraw.KIND: lambda e, who: (
        f"{who(e.seat)} has no dude in hand, shows it and draws a new starting hand."
    ),
    ev.Reshuffle.KIND: lambda e, who: (
        f"{who(e.seat)}'s deck runs out: the deadwood is shuffled into a new deck."
    ),
    ev.Turn.KIND: lambda e, who: f"-- Turn {e.number}: {who(e.seat)}.",
    ev.PlayDude.KIND: _play_dude,
    ev.PlayGear.KIND: _play_gear,
    ev.Copy.KIND: lambda e, who: (
        f"{who(e.seat)}'s {_card(e.card)} becomes a copy of {_card(e.of)}."
    ),
    ev.AsGear.KIND: lambda e, who: f"{who(e.seat)} uses {_card(e.card)}'s ability as gear.",
    ev.PlayKicker.KIND: lambda e, who: f"{who(e.seat)} plays {_chip(e.chip)} on {_card(e.dude)}.",
    ev.Reflip.KIND: lambda e, who: (
        f"{who(e.seat)} flips a kicker chip on {_card(e.dude)} again: {_chip(e.chip)}."
    ),
    ev.BuryKickers.KIND: lambda e, who: f"The kicker chips on {_card(e.dude)} are buried.",
    ev.Bury.KIND: lambda e, who: f"{_card(e.dude)} is buried.",
    ev.Discard.KIND: lambda e, who: f"{who(e.seat)} discards {_card(e.card)}.",
    ev.PassBadge.KIND: lambda e, who: f"The badge passes to {who(e.seat)}.",
    ev.Ante.KIND: lambda e, who: f"Everyone antes ${e.amount}.",
    # the challenge
    ev.Challenge.KIND: _challenge,
    ev.Accept.KIND: lambda e, who: f"{who(e.seat)} accepts with {_card(e.dude)}.",
    ev.Refuse.KIND: lambda e, who: f"{who(e.seat)} refuses the challenge.",
    ev.Shotgun.KIND: lambda e, who: (
        f"{who(e.seat)} rides shotgun: {_card(e.card)} comes into the saloon."
    ),
    ev.Unopposed.KIND: lambda e, who: f"Nobody accepts: {who(e.seat)} takes the pot of ${e.pot}.",
    ev.NoChallenge.KIND: lambda e, who: (
        f"{who(e.seat)} has no dude to challenge with; the pot waits."
    ),
    # the shootout
    ev.Shootout.KIND: lambda e, who: f"The shootout begins; the pot holds ${e.pot}.",
    ev.Betting.KIND: lambda e, who: f"A round of betting; {who(e.seat)} is the lead bettor.",
    ev.Lead.KIND: lambda e, who: f"{who(e.seat)} is now the lead bettor.",
    ev.Check.KIND: lambda e, who: f"{who(e.seat)} checks.",
    ev.Bet.KIND: lambda e, who: f"{who(e.seat)} bets ${e.amount}" + _all_in(e.all_in),
    ev.Call.KIND: lambda e, who: f"{who(e.seat)} calls (${e.amount})" + _all_in(e.all_in),
    ev.Raise.KIND: lambda e, who: (
        f"{who(e.seat)} raises ${e.amount} to ${e.to}" + _all_in(e.all_in)
    ),
    ev.Fold.KIND: lambda e, who: f"{who(e.seat)} folds.",
    ev.Announce.KIND: lambda e, who: f"{who(e.seat)} will reveal a gear card.",
    ev.RevealGear.KIND: _reveal_gear,
    ev.Fortunes.KIND: lambda e, who: f"Fortune cards, starting with {who(e.seat)}.",
    ev.PlayFortune.KIND: _play_fortune,
    ev.AsFortune.KIND: lambda e, who: f"{who(e.seat)} uses {_card(e.card)}'s ability as a fortune.",
    ev.Contested.KIND: lambda e, who: f"The contested stat becomes {e.stat}.",
    ev.RevealDude.KIND: lambda e, who: f"{_card(e.dude)} is revealed.",
    ev.Tombstone.KIND: lambda e, who: (
        f"Tombstone: {_card(e.dude)} already walks these streets and is buried."
    ),
    ev.Showdown.KIND: _showdown,
    ev.Win.KIND: _win,
    ev.PotCarried.KIND: lambda e, who: (
        f"No dude is left: the pot of ${e.pot} waits for the next challenge."
    ),
    ev.Reinvest.KIND: lambda e, who: f"{who(e.seat)} reinvests {_card(e.dude)} for ${e.price}.",
    ev.GameOver.KIND: _game_over,
}
