"""What the game protocol suite (test_game_protocol.py) needs to know of each game.

Each `GameCase` names a game package and supplies what differs between games: how many decisions
may pass before the hard cap must have ended a game, the bots of the fixed games, the invariants
checked after every decision and at the end, and an action of a player who is not to act.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from hypothesis import strategies as st

from simulator.engine import duel, gunfighter, quickdraw, tabletown
from simulator.engine.core import GameRecord
from simulator.engine.duel.cards import CARDS as DUEL_CARDS
from simulator.engine.gunfighter.cards import CARDS as GUNFIGHTER_CARDS
from simulator.engine.gunfighter.cards import STAREDOWN
from simulator.engine.quickdraw.cards import CARDS as QUICKDRAW_CARDS
from simulator.engine.tabletown.cards import CARDS as TABLETOWN_CARDS

BOT_NAMES = ["random", "heuristic"]


@dataclass(frozen=True)
class GameCase:
    """One game under the protocol suite.

    `package` is the game package (`new_game`, `replay`, `narrate`, `Action`) and `bots` its bot
    factories; `lineup` the bots of the fixed games (its length is the seat count of the
    hand-stopped games too); `players` the (min, max) seats it registers; `probe_after` how many
    random decisions are taken before the illegal and out-of-turn actions are tried.
    """

    name: str
    package: ModuleType
    bots: dict[str, Callable[[int, int], Any]]
    decision_cap: int
    players: tuple[int, int]
    lineup: tuple[str, ...]
    probe_after: int
    check_bounds: Callable[[Any], None]
    check_final: Callable[[Any], None]
    out_of_turn: Callable[[Any], Any]

    def __str__(self) -> str:
        return self.name

    def lineups(self) -> st.SearchStrategy[tuple[str, ...]]:
        """Any bots for any seat count the game registers."""
        low, high = self.players
        names = st.sampled_from(BOT_NAMES)
        return st.lists(names, min_size=low, max_size=high).map(tuple)

    def play(self, seed: int, bots: tuple[str, ...] | None = None, record: bool = True):
        """One game between the named bots; checks the bounds after every decision."""
        bots = self.lineup if bots is None else bots
        seats = [{"name": f"seat {i}"} for i in range(len(bots))]
        state = self.package.new_game(seats, None, seed, record)
        players = [self.bots[name](seat, seed + seat) for seat, name in enumerate(bots)]
        decisions = 0
        while not state.is_over:
            assert decisions < self.decision_cap, "the hard cap should have ended the game"
            seat = state.to_act
            legal = state.legal_actions()
            assert legal
            state.apply(players[seat].choose(state.view(seat), legal))
            self.check_bounds(state)
            decisions += 1
        return state

    def play_until(self, seed: int, decisions: int):
        """A random game stopped after `decisions` decisions (it is still on)."""
        n = len(self.lineup)
        state = self.package.new_game([{"name": f"seat {i}"} for i in range(n)], None, seed)
        bots = [self.bots["random"](i, seed) for i in range(n)]
        for _ in range(decisions):
            state.apply(bots[state.to_act].choose(state.view(state.to_act), state.legal_actions()))
        assert not state.is_over
        return state


def resign(record: dict) -> dict:
    """The record with a fresh checksum, as a forger would write it."""
    body = {k: v for k, v in record.items() if k not in ("checksum", "version")}
    return GameRecord(**body).to_json()


def snapshot(state) -> tuple:
    """Everything an illegal action must leave as it was."""
    seats = range(len(state.seats))
    return state.record(), [state.view(p) for p in seats], state.legal_actions(), state.to_act


# -- Gunfighter ---------------------------------------------------------------------------------


def gunfighter_bounds(state) -> None:
    for p in (0, 1):
        assert 0 <= state.accuracy[p] <= 6
        assert 0 <= state.bullets[p] <= 6
        assert 0 <= state.health[p] <= 2
    held = [c for hand in state.hands for c in hand if c != STAREDOWN]
    table = [c for c in state.selected if c >= 0 and c != STAREDOWN]
    pending = [c for cards in state.pending_discards for c in cards]
    every = held + table + pending + state.deck + state.discard
    assert sorted(every) == list(range(len(GUNFIGHTER_CARDS)))  # no card lost or doubled
    if state.phase == "select" and state.selected == [-1, -1]:
        assert all(len(hand) <= 7 for hand in state.hands)


def gunfighter_final(state) -> None:
    final = state.final()
    assert final["capped"] or state.health[1 - final["winner"]] == 0


def gunfighter_out_of_turn(state):
    """An action from the hand of the player who is not to act."""
    other = 1 - state.to_act
    return gunfighter.Action("select", next(c for c in state.hands[other] if c != STAREDOWN))


# -- the card duel ------------------------------------------------------------------------------


def duel_bounds(state) -> None:
    assert min(state.gold) >= 0 and state.pot >= 0 and state.pot % 2 == 0
    assert max(state.round_wins) <= 2
    for p in (0, 1):
        cards = state.hands[p] + state.discards[p] + state.played[p]
        assert len(set(cards)) == len(cards) and set(cards) <= set(range(len(DUEL_CARDS)))
        assert len(state.hands[p]) <= 9


def duel_final(state) -> None:
    final = state.final()
    assert final["capped"] or final["round_wins"][final["winner"]] == 2


def duel_out_of_turn(state):
    """A discard of a card only the player who is not to act holds."""
    me, other = state.to_act, 1 - state.to_act
    return duel.Action("discard", next(c for c in state.hands[other] if c not in state.hands[me]))


# -- Quickdraw ----------------------------------------------------------------------------------


def quickdraw_bounds(state) -> None:
    held = [c for hand in state.hands for c in hand] + [c for c in state.selected if c >= 0]
    stacked = [c for stack in state.stacks for c in stack]
    # A card fired and not yet compared is both in `selected` and out of the hand: count once.
    every = sorted(set(held)) + stacked + state.deck
    assert sorted(every) == list(range(len(QUICKDRAW_CARDS)))
    assert all(len(hand) <= 6 for hand in state.hands)


def quickdraw_final(state) -> None:
    final = state.final()
    if final["winner"] is None:
        assert final["deck_ran_short"] and final["stacks"][0] == final["stacks"][1]
    else:
        assert final["stacks"][final["winner"]] > final["stacks"][1 - final["winner"]]


def quickdraw_out_of_turn(state):
    """Firing a card from the hand of the player who is not to act."""
    return quickdraw.Action("fire", state.hands[1 - state.to_act][0])


# -- Tabletown ----------------------------------------------------------------------------------


def tabletown_bounds(state) -> None:
    n = len(state.seats)
    for p in range(n):
        assert 0 <= state.wounds[p] <= 6 and state.alive[p] == (state.wounds[p] <= 5)
        assert len(state.loaded[p]) <= state._capacity(p)
        assert len(state.hands[p]) <= 5 and state.facing[p] != p
        if not state.alive[p]:
            assert not state.hands[p] and not state.weapons[p] and not state.loaded[p]
    held = [
        c for group in (state.hands, state.weapons, state.loaded) for cards in group for c in cards
    ]
    every = sorted(held + state.deck + state.discard)
    in_game = [c for c in range(len(TABLETOWN_CARDS)) if n > 2 or TABLETOWN_CARDS[c].role != "tnt"]
    assert every == in_game  # no card lost or doubled


def tabletown_final(state) -> None:
    final = state.final()
    assert final["capped"] or len(final["winners"]) <= 1
    assert final["winners"] == [p for p in range(len(state.seats)) if state.alive[p]]


def tabletown_out_of_turn(state):
    """A discard from the hand of a gunslinger who is not to act."""
    other = (state.to_act + 1) % len(state.seats)
    return tabletown.Action("discard", state.hands[other][0])


CASES = [
    GameCase(
        name="gunfighter",
        package=gunfighter,
        bots=gunfighter.bots.BOTS,
        decision_cap=5000,
        players=(2, 2),
        lineup=("heuristic", "random"),
        probe_after=5,
        check_bounds=gunfighter_bounds,
        check_final=gunfighter_final,
        out_of_turn=gunfighter_out_of_turn,
    ),
    GameCase(
        name="duel",
        package=duel,
        bots=duel.bots.BOTS,
        decision_cap=1000,
        players=(2, 2),
        lineup=("heuristic", "random"),
        probe_after=1,
        check_bounds=duel_bounds,
        check_final=duel_final,
        out_of_turn=duel_out_of_turn,
    ),
    GameCase(
        name="quickdraw",
        package=quickdraw,
        bots=quickdraw.bots.BOTS,
        decision_cap=200,
        players=(2, 2),
        lineup=("heuristic", "random"),
        probe_after=3,
        check_bounds=quickdraw_bounds,
        check_final=quickdraw_final,
        out_of_turn=quickdraw_out_of_turn,
    ),
    GameCase(
        name="tabletown",
        package=tabletown,
        bots=tabletown.bots.BOTS,
        decision_cap=100_000,
        players=(2, 8),
        lineup=("heuristic", "random", "random"),
        probe_after=3,
        check_bounds=tabletown_bounds,
        check_final=tabletown_final,
        out_of_turn=tabletown_out_of_turn,
    ),
]
