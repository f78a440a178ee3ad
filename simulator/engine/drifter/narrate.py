"""A narrated log of a game, read from its record, in the voice of the rules' examples:

    Sam plays Henry Meek concealed, with $6 on it.
    Sam reveals Plains Saddle on Henry Meek: smarts 9, skill 3, luck 10.

The narrator sees every card (it tells the story after the game), so concealed cards are named
with "concealed" beside them. Told to one seat (`viewer`), a card that seat could not see when
it happened is "a concealed dude" or "a concealed card" instead: its owner saw it, everyone saw
it once it was revealed, and a card discarded or buried goes face up into the deadwood.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simulator.engine.drifter.cards import Catalogue

# Events whose card goes face up into the deadwood: everyone sees it, concealed or not.
_FACE_UP = frozenset({"discard", "bury", "tombstone"})


def narrate(record: dict, catalogue: Catalogue | None = None) -> list[str]:
    """Replay `record` (RecordError if it does not) and tell the game, one line per event."""
    from simulator.engine.drifter import replay

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


# event kind -> (index of the dude, index of its stats) in the event
_STATS_OF = {"reveal_gear": (3, 4), "play_fortune": (4, 5)}


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
    for ev in log:
        kind, *a = ev if viewer is None else _masked(ev, viewer, cards)
        line = _turn_sentence(kind, a, names)
        if line is None:
            line = _shootout_sentence(kind, a, names)
        if line is not None:
            out.append(line)
    return out


def _turn_sentence(kind: str, a: list, names: list[str]) -> str | None:
    """The sentence for an event of the setup or a turn, or of a card or kicker chip put into
    play or buried (None: not one of them)."""
    who = names.__getitem__
    line = None
    if kind == "badge":
        line = f"{who(a[0])} goes first and takes the badge."
    elif kind == "redraw":
        line = f"{who(a[0])} has no dude in hand, shows it and draws a new starting hand."
    elif kind == "reshuffle":
        line = f"{who(a[0])}'s deck runs out: the deadwood is shuffled into a new deck."
    elif kind == "turn":
        line = f"-- Turn {a[1]}: {who(a[0])}."
    elif kind == "play_dude":
        p, c, revealed, chips = a
        how = "revealed" if revealed else "concealed"
        line = f"{who(p)} plays {_card(c)} {how}, with ${chips} on it."
        if not revealed and _card(c) == "a concealed dude":
            line = f"{who(p)} plays a dude concealed, with ${chips} on it."
    elif kind == "play_gear":
        p, c, d, revealed, chips = a
        how = "revealed" if revealed else "concealed"
        line = f"{who(p)} plays {_card(c)} {how} on {_card(d)}, with ${chips} on it."
        if not revealed and _card(c) == "a concealed card":
            line = f"{who(p)} plays a gear card concealed on {_card(d)}, with ${chips} on it."
    elif kind == "copy":
        line = f"{who(a[0])}'s {_card(a[1])} becomes a copy of {_card(a[2])}."
    elif kind == "as_gear":
        line = f"{who(a[0])} uses {_card(a[1])}'s ability as gear."
    elif kind == "kicker":
        p, d, k = a
        line = f"{who(p)} plays {_chip(k)} on {_card(d)}."
    elif kind == "reflip":
        line = f"{who(a[0])} flips a kicker chip on {_card(a[1])} again: {_chip(a[2])}."
    elif kind == "bury_kickers":
        line = f"The kicker chips on {_card(a[0])} are buried."
    elif kind == "bury":
        line = f"{_card(a[0])} is buried."
    elif kind == "discard":
        line = f"{who(a[0])} discards {_card(a[1])}."
    elif kind == "pass_badge":
        line = f"The badge passes to {who(a[0])}."
    elif kind == "ante":
        line = f"Everyone antes ${a[0]}."
    return line


def _shootout_sentence(kind: str, a: list, names: list[str]) -> str | None:
    """The sentence for an event of a challenge, its shootout or the game's end (None: not one
    of them)."""
    who = names.__getitem__
    line = None
    if kind == "challenge":
        p, d, stat = a
        on = f" on {stat}" if stat else ""
        line = f"{who(p)} issues a challenge{on} with {_card(d)}."
    elif kind == "accept":
        line = f"{who(a[0])} accepts with {_card(a[1])}."
    elif kind == "refuse":
        line = f"{who(a[0])} refuses the challenge."
    elif kind == "shotgun":
        line = f"{who(a[0])} rides shotgun: {_card(a[1])} comes into the saloon."
    elif kind == "unopposed":
        line = f"Nobody accepts: {who(a[0])} takes the pot of ${a[1]}."
    elif kind == "no_challenge":
        line = f"{who(a[0])} has no dude to challenge with; the pot waits."
    elif kind == "shootout":
        line = f"The shootout begins; the pot holds ${a[1]}."
    elif kind == "betting":
        line = f"A round of betting; {who(a[0])} is the lead bettor."
    elif kind == "lead":
        line = f"{who(a[0])} is now the lead bettor."
    elif kind == "check":
        line = f"{who(a[0])} checks."
    elif kind == "bet":
        line = f"{who(a[0])} bets ${a[1]}" + (" and is all in." if a[2] else ".")
    elif kind == "call":
        line = f"{who(a[0])} calls (${a[1]})" + (" and is all in." if a[2] else ".")
    elif kind == "raise":
        line = f"{who(a[0])} raises ${a[1]} to ${a[2]}" + (" and is all in." if a[3] else ".")
    elif kind == "fold":
        line = f"{who(a[0])} folds."
    elif kind == "announce":
        line = f"{who(a[0])} will reveal a gear card."
    elif kind == "reveal_gear":
        p, g, d, st = a
        line = f"{who(p)} reveals {_card(g)} on {_card(d)}" + (f": {_stats(st)}." if st else ".")
    elif kind == "fortunes":
        line = f"Fortune cards, starting with {who(a[0])}."
    elif kind == "play_fortune":
        p, c, cost, d, st = a
        line = f"{who(p)} plays {_card(c)} for ${cost}" + (
            f": {_card(d)} has {_stats(st)}." if st else f" on {_card(d)}."
        )
    elif kind == "as_fortune":
        line = f"{who(a[0])} uses {_card(a[1])}'s ability as a fortune."
    elif kind == "contested":
        line = f"The contested stat becomes {a[1]}."
    elif kind == "reveal_dude":
        line = f"{_card(a[0])} is revealed."
    elif kind == "tombstone":
        line = f"Tombstone: {_card(a[0])} already walks these streets and is buried."
    elif kind == "showdown":
        parts = [f"{who(q)}'s {_card(d)} has {_stats(st)}" for q, d, st in a[0]]
        on = f" on {a[1]}" if len(a) > 1 and a[1] else ""
        line = f"Showdown{on}: " + "; ".join(parts) + "."
    elif kind == "win":
        winners, pot, share, extra = a
        if len(winners) == 1:
            line = f"{who(winners[0])} wins the shootout and the pot of ${pot}."
        else:
            w = " and ".join(who(q) for q in winners)
            line = f"{w} split the pot of ${pot}: ${share} each"
            line += f", ${extra} extra to {who(winners[0])}." if extra else "."
    elif kind == "pot_carried":
        line = f"No dude is left: the pot of ${a[0]} waits for the next challenge."
    elif kind == "reinvest":
        line = f"{who(a[0])} reinvests {_card(a[1])} for ${a[2]}."
    elif kind == "game_over":
        reason, winners, stakes = a
        w = " and ".join(who(q) for q in winners)
        table = ", ".join(f"{who(i)} ${x}" for i, x in enumerate(stakes))
        line = f"The game ends ({reason}). Stakes: {table}. {w} wins."
    return line
