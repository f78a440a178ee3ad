"""Small card sets built in the tests, so every scenario states exactly the cards it uses."""

from __future__ import annotations

from simulator.engine.drifter import Rules, Seat
from simulator.engine.drifter.actions import Action
from simulator.engine.drifter.cards import Catalogue, parse_sets
from simulator.engine.drifter.state import DrifterState

BOOSTER = {"slots": [{"count": 1, "weights": {"common": 1}}], "kicker_chips": 1}


def dude(
    number: int,
    name: str,
    cost: int,
    smarts: int,
    skill: int,
    luck: int,
    limit: int = 5,
    abilities: list | None = None,
    text: str = "",
    faction: str = "Drifters",
) -> dict:
    """A dude card for a test set."""
    card = {
        "number": number,
        "name": name,
        "type": "dude",
        "faction": faction,
        "rarity": "common",
        "cost": cost,
        "smarts": smarts,
        "skill": skill,
        "luck": luck,
        "kicker_limit": limit,
    }
    if abilities:
        card["abilities"] = abilities
        card["text"] = text or "Does something."
    return card


def thing(
    number: int, name: str, kind: str, cost: int, abilities: list | None = None, text: str = ""
) -> dict:
    """A gear or fortune card for a test set."""
    card = {
        "number": number,
        "name": name,
        "type": kind,
        "faction": "",
        "rarity": "common",
        "cost": cost,
    }
    if abilities:
        card["abilities"] = abilities
        card["text"] = text or "Does something."
    return card


def mod(stat: str, amount: int, target: str = "self", **extra) -> dict:
    """A static stat_mod ability."""
    ability = {
        "timing": "static",
        "effects": [{"kind": "stat_mod", "stat": stat, "amount": amount, "target": target}],
    }
    ability.update(extra)
    return ability


def chip(number: int, color: str, a: tuple[str, int], b: tuple[str, int]) -> dict:
    return {
        "code": f"TST-K{number:02d}",
        "color": color,
        "sides": [{"stat": a[0], "amount": a[1]}, {"stat": b[0], "amount": b[1]}],
    }


def catalogue(cards: list[dict], chips: list[dict] | None = None) -> Catalogue:
    """A one-set catalogue (set code TST)."""
    return parse_sets(
        [
            {
                "code": "TST",
                "name": "Test",
                "cards": cards,
                "kicker_chips": chips or [],
                "booster": BOOSTER,
            }
        ]
    )


def code(number: int) -> str:
    return f"TST-{number:03d}"


# A plain set most scenarios share: dudes 1-6, gear 10-13, fortunes 20-22, chips K01-K03.
BASIC = [
    dude(1, "Hank", 6, 3, 8, 4, limit=5),
    dude(2, "Jake", 5, 7, 2, 5, limit=10),
    dude(3, "Lou", 4, 4, 4, 4, limit=1),
    dude(4, "Molly", 7, 9, 3, 2),
    dude(5, "Ned", 3, 1, 1, 1),
    dude(6, "Hank", 6, 3, 8, 4),  # a second Hank (for Tombstone)
    thing(10, "Six-Gun", "gear", 3, [mod("skill", 3)]),
    thing(11, "Lucky Coin", "gear", 2, [mod("luck", 2)]),
    thing(12, "Spectacles", "gear", 2, [mod("smarts", 2)]),
    thing(13, "Old Boots", "gear", 1),
    thing(20, "Quick Draw", "fortune", 4, [mod("skill", 4)]),
    thing(21, "Bad Omen", "fortune", 2, [mod("luck", -3, "opponents")]),
    thing(22, "Dust Devil", "fortune", 1),
]
BASIC_CHIPS = [
    chip(1, "white", ("skill", 1), ("luck", -1)),
    chip(2, "red", ("skill", 3), ("smarts", -2)),
    chip(3, "blue", ("luck", 4), ("skill", -3)),
]


def basic() -> Catalogue:
    return catalogue(BASIC, BASIC_CHIPS)


class Stacked:
    """Chance for scenario tests: decks stay in the order given (top first), the first player
    and every kicker chip flip / pick come from scripts. Outcomes are logged like
    RecordedChance, so stacked games replay too."""

    def __init__(self, first: int = 0, flips: list[int] | None = None, picks=None, log=None):
        self.first = first
        self.flips = list(flips or [])
        self.picks = list(picks or [])
        self.log = log

    def shuffle(self, items, label):
        # draw() takes from the end of the list, so the top of the deck goes last
        order = list(range(len(items)))[::-1]
        if self.log is not None:
            self.log.append(["shuffle", label, order])
        return [items[i] for i in order]

    def randint(self, low, high, label):
        raise AssertionError("Drifter rolls no dice")

    def choice_index(self, n, label):
        if label == "first":
            value = self.first
        elif label.startswith("flip"):
            value = self.flips.pop(0) if self.flips else 0
        else:
            value = self.picks.pop(0) if self.picks else 0
        if self.log is not None:
            self.log.append(["pick", label, value])
        return value


def game(
    decks: list[list[int]],
    chips: list[list[int]] | None = None,
    rules: Rules | None = None,
    first: int = 0,
    flips: list[int] | None = None,
    picks: list[int] | None = None,
    cat: Catalogue | None = None,
    names: list[str] | None = None,
    narrate: bool = False,
) -> DrifterState:
    """A game with stacked decks: `decks[p]` lists card numbers top first (the first five are
    the starting hand), `chips[p]` kicker chip numbers; `first` gets the badge."""
    cat = cat or basic()
    names = names or ["Sam", "Jane", "Cal", "Dee", "Eli", "Fay", "Gus", "Hal"]
    seats = [
        Seat(
            names[i],
            tuple(code(x) if isinstance(x, int) else x for x in deck),
            tuple(
                f"TST-K{c:02d}" if isinstance(c, int) else c for c in (chips[i] if chips else [])
            ),
        )
        for i, deck in enumerate(decks)
    ]
    events: list = []
    chance = Stacked(first, flips, picks, events)
    return DrifterState(
        cat, seats, rules or Rules(), 0, chance=chance, events=events, narrate=narrate
    )


def act(g: DrifterState, kind: str, **fields) -> None:
    """Apply an action of the player to act."""
    g.apply(Action(kind, **fields))


def find(g: DrifterState, p: int, name: str) -> int:
    """Instance id of p's card called `name` in hand or in play (first found)."""
    for c in g.hand[p]:
        if c.printed.name == name:
            return c.uid
    for d in g.all_dudes():
        if d.owner == p and d.printed.name == name:
            return d.uid
        for gear in d.gear:
            if gear.owner == p and gear.printed.name == name:
                return gear.uid
    raise LookupError(f"seat {p} has no {name}")


def kicker(g: DrifterState, p: int, number: int) -> int:
    """Instance id of p's kicker chip TST-Knn in the stack."""
    for k in g.chips[p]:
        if k.defn.code == f"TST-K{number:02d}":
            return k.uid
    raise LookupError(number)


def end_turn(g: DrifterState) -> None:
    """End the current turn: end the actions (if any remain) and keep the hand."""
    if g.phase == "turn":
        act(g, "end_actions")
    act(g, "end_turn")


def skip_turns(g: DrifterState, count: int) -> None:
    for _ in range(count):
        end_turn(g)


def play_out(g: DrifterState, p: int, plays: list[tuple]) -> None:
    """Carry out p's plays: ("dude", name, revealed, chips) or
    ("gear", name, dude name, revealed, chips) or ("kicker", chip number, dude uid)."""
    for play in plays:
        if play[0] == "dude":
            _, name, revealed, chips = play
            act(g, "play_dude", card=find(g, p, name), revealed=revealed, chips=chips)
        elif play[0] == "gear":
            _, name, on, revealed, chips = play
            uid = next(d.uid for d in g.saloon if d.owner == p and d.printed.name == on)
            act(g, "play_gear", card=find(g, p, name), dude=uid, revealed=revealed, chips=chips)
        else:
            _, number, dude = play
            act(g, "play_kicker", card=kicker(g, p, number), dude=dude)


def duel(
    hands: list[list[int]],
    plays: list[list[tuple]],
    stat: str = "skill",
    accept: bool = True,
    **kw,
) -> DrifterState:
    """Two (or more) players: each plays on turn one; Sam (seat 0) challenges with his first
    dude on turn two on `stat`; everyone else accepts with their first dude (or refuses)."""
    filler = [13] * 20
    g = game([[*h, *filler] for h in hands], **kw)
    for p in range(len(hands)):
        play_out(g, p, plays[p])
        end_turn(g)
    sam = next(d.uid for d in g.saloon if d.owner == 0)
    act(g, "challenge", dude=sam, stat=stat)
    while g.phase == "accept":
        mine = [d.uid for d in g.saloon if d.owner == g.to_act]
        if accept and mine:
            act(g, "accept", dude=mine[0])
        else:
            act(g, "refuse")
    return g
