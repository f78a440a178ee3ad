"""Bots decide only from what they may know (issue #25 §4): the honesty check and its redeals.

At a decision point of seat p, `redeal(game, state, p, rng)` builds a second state that is the
same in everything p may know (its own hand, its own concealed cards, everything face up, every
count) and dealt again in everything p may not: other players' hands and face-down cards, the
order (and unseen contents) of every deck, and the future chance (a reseeded RNG). The redeal is
made from the REAL state (a clone or a deep copy), not from p's view, so it does not lean on the
search bot's own determinization. `honesty_mismatches` plays a game and, every `every`
decisions, asks a fresh bot (same factory, same seat and seed) to decide once on the real state
and once on the redealt one: an honest bot decides the same. It also asserts that the two views
are equal (a view that changes when only hidden things change leaks them) and so are the two
menus of legal actions.

Looking at one's own concealed cards is allowed: the redeal never changes them.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from simulator.engine.core.chance import RecordedChance
from simulator.engine.core.registry import games

# make_bot(seat, seed, state) -> bot: how the check builds the bot under test. An honest bot
# ignores `state`; a planted cheat holds on to it, as a bot built with a reference to the live
# state would.
MakeBot = Callable[[int, int, Any], Any]


def honest(factory: Callable[[int, int], Any]) -> MakeBot:
    """A registry factory `(seat, seed) -> bot` as the check builds bots: never given the state."""
    return lambda seat, seed, state: factory(seat, seed)


def _reseed(state: Any, rng: random.Random) -> None:
    """Future chance dealt again: a fresh, differently seeded RNG that records nothing."""
    state.chance = RecordedChance(rng.randrange(1 << 30), None)


def _relabel(pool: Iterable[int], rng: random.Random) -> dict[int, int]:
    """A random permutation of the card ids in `pool`: what each hidden card is instead."""
    ids = sorted(set(pool))
    shuffled = list(ids)
    rng.shuffle(shuffled)
    return dict(zip(ids, shuffled, strict=True))


def _apply(mapping: dict[int, int], cards: list[int]) -> None:
    cards[:] = [mapping.get(c, c) for c in cards]


# -- the small games: relabel the cards p cannot see ---------------------------------------------


def redeal_gunfighter(state: Any, p: int, rng: random.Random) -> Any:
    """The enemy's hand, the deck, the enemy's face-down card (until both are revealed) and the
    enemy's setup discards (until both have discarded) are dealt again from the cards p cannot
    see; the enemy's face-down card may be any card of that hand (the Staredown too)."""
    from simulator.engine.gunfighter.cards import STAREDOWN

    new = copy.deepcopy(state)
    e = 1 - p
    held = list(new.hands[e])
    selected_hidden = new.selected[e] >= 0 and not new.revealed
    if selected_hidden:  # which card of the hand is the face-down one is hidden too
        held.append(new.selected[e])
        rng.shuffle(held)
        new.selected[e] = held.pop()
    new.hands[e] = held
    pool = [c for c in held + new.deck + new.pending_discards[e] if c != STAREDOWN]
    if selected_hidden and new.selected[e] != STAREDOWN:
        pool.append(new.selected[e])
    mapping = _relabel(pool, rng)
    for cards in (new.hands[e], new.deck, new.pending_discards[e]):
        _apply(mapping, cards)
    new.selected[e] = mapping.get(new.selected[e], new.selected[e])
    _reseed(new, rng)
    return new


def redeal_duel(state: Any, p: int, rng: random.Random) -> Any:
    """The opponent's cards p has not seen this round (its hand but the cards it showed, its
    discards and the cards it did not draw) are dealt again, and its face-down card may be any
    card it may play; the next rounds' shuffles come from a reseeded RNG."""
    from simulator.engine.duel.cards import CARDS

    new = copy.deepcopy(state)
    o = 1 - p
    seen = set(new.played[o]) | set(new.shown[o])
    mapping = _relabel((c for c in range(len(CARDS)) if c not in seen), rng)
    _apply(mapping, new.hands[o])
    _apply(mapping, new.discards[o])
    if new.selected[o] >= 0:
        barred = new.last_value[o]
        hand = new.hands[o]
        allowed = [c for c in hand if barred is None or CARDS[c].value != barred + 1] or hand
        new.selected[o] = rng.choice(allowed)
    _reseed(new, rng)
    return new


def redeal_quickdraw(state: Any, p: int, rng: random.Random) -> Any:
    """The opponent's hand and the centre deck are dealt again from each other (its card ready
    to fire is relabelled with its hand); future reload shuffles from a reseeded RNG."""
    new = copy.deepcopy(state)
    o = 1 - p
    mapping = _relabel(new.hands[o] + new.deck, rng)
    _apply(mapping, new.hands[o])
    _apply(mapping, new.deck)
    if new.selected[o] >= 0:
        new.selected[o] = mapping[new.selected[o]]
    _reseed(new, rng)
    return new


def redeal_tabletown(state: Any, p: int, rng: random.Random) -> Any:
    """Every other gunslinger's hand, the deck and the discard pile (the view counts it only)
    are dealt again from one another; initiative, shots and TNT from a reseeded RNG."""
    new = copy.deepcopy(state)
    others = [q for q in range(new.n) if q != p]
    pool = [c for q in others for c in new.hands[q]] + new.deck + new.discard
    mapping = _relabel(pool, rng)
    for q in others:
        _apply(mapping, new.hands[q])
    _apply(mapping, new.deck)
    _apply(mapping, new.discard)
    _reseed(new, rng)
    return new


# -- High Stakes Drifter: shuffle the unseen cards among the unseen places -----------------------


def redeal_drifter(state: Any, p: int, rng: random.Random) -> Any:
    """A clone of the game in which every card p cannot see is dealt again:

    - each opponent's hand and deck are shuffled together and dealt back (the quick-start game:
      every opponent's hand and the shared deck), and p's own deck order is shuffled;
    - each opponent's concealed card in play (dude or gear, not a copy card) trades identity with
      a card of the same type from that opponent's unseen cards that the chips on it could pay
      for (what it is changes; its id, owner, chips and attachments, which p sees, do not);
    - each chip in an opponent's kicker-chip stack becomes a catalogue chip of the same value
      (its colour shows on the edge of the stack; its sides do not);
    - the chance (deck reshuffles, kicker flips, the first player) is reseeded.
    """
    sim = state.clone()
    _reseed(sim, rng)
    opponents = [q for q in range(sim.n) if q != p]
    if sim.quick_start:
        shared = sim.deck[0]
        pool = [c for q in opponents for c in sim.hand[q]] + shared
        rng.shuffle(pool)
        for q in opponents:
            k = len(sim.hand[q])
            sim.hand[q][:] = pool[:k]
            for card in sim.hand[q]:
                card.owner = q
            del pool[:k]
        shared[:] = pool
    else:
        rng.shuffle(sim.deck[p])  # nobody knows the order of their own deck
        for q in opponents:
            pool = sim.hand[q] + sim.deck[q]
            rng.shuffle(pool)
            k = len(sim.hand[q])
            sim.hand[q][:] = pool[:k]
            sim.deck[q][:] = pool[k:]
    by_value: dict[int, list[Any]] = {}
    for chip in sim.cat.chips:
        by_value.setdefault(chip.value, []).append(chip)
    for q in opponents:
        for kicker in sim.chips[q]:
            kicker.defn = rng.choice(by_value[kicker.defn.value])
        unseen = sim.hand[q] + sim.deck[q]  # the quick-start game: the shared deck
        for dude in sim.all_dudes():
            for card in [dude, *dude.gear]:
                if card.owner != q or card.revealed or card.printed.is_copy:
                    continue
                swaps = [
                    x
                    for x in unseen
                    if x.printed.type == card.printed.type
                    and not x.printed.is_copy
                    and x.printed.cost <= card.chips
                ]
                if swaps:
                    _swap_identity(card, rng.choice(swaps))
    # caches that read what the cards are: the menu, the stats
    sim._menu = None
    sim.fresh_caches()
    return sim


def _swap_identity(a: Any, b: Any) -> None:
    a.printed, b.printed = b.printed, a.printed
    a.defn, b.defn = b.defn, a.defn


REDEALS: dict[str, Callable[[Any, int, random.Random], Any]] = {
    "drifter": redeal_drifter,
    "gunfighter": redeal_gunfighter,
    "duel": redeal_duel,
    "quickdraw": redeal_quickdraw,
    "tabletown": redeal_tabletown,
}


# -- the games and the check -----------------------------------------------------------------


def new_game(game: str, seats: int, seed: int, quick_start: bool = False) -> Any:
    """A game of `seats` players without a record (drifter: the starter decks, alternating)."""
    if game == "drifter":
        from simulator.engine.drifter import Rules, new_game, starter_seat
        from simulator.engine.drifter.cards import load_catalogue

        cat = load_catalogue()
        if quick_start:
            seat_list = [starter_seat(f"P{i}", "HSD-S1", catalogue=cat) for i in range(seats)]
        else:
            starters = ("HSD-S1", "HSD-S2")
            seat_list = [
                starter_seat(f"P{i}", starters[i % 2], catalogue=cat) for i in range(seats)
            ]
        rules = Rules(quick_start=quick_start)
        return new_game(seat_list, rules=rules, seed=seed, record=False, catalogue=cat)
    spec = games()[game]
    return spec.new_game([{"name": f"P{i}"} for i in range(seats)], None, seed, False)


def comparable(view: Any) -> Any:
    """A view as data that can be compared: a dict as it is, a drifter View as `to_dict()`."""
    return view.to_dict() if hasattr(view, "to_dict") else view


@dataclass(frozen=True)
class Mismatch:
    """A decision point where the bot decided otherwise on the redealt game."""

    decision: int
    seat: int
    phase: str
    real: Any
    redealt: Any


def honesty_mismatches(
    game: str,
    make_bot: MakeBot,
    *,
    seats: int = 2,
    seed: int = 0,
    every: int = 3,
    drivers: Callable[[int, int], Any] | None = None,
    max_decisions: int = 2000,
    quick_start: bool = False,
) -> tuple[list[Mismatch], int]:
    """Play one game and check every `every`-th decision; (the mismatches, points checked).

    `drivers` (a registry factory; default: the heuristic) plays the game forward; at a checked
    point of seat p, two bots fresh from `make_bot(p, point seed, state)` decide, one on the real
    state and one on its redeal. AssertionError if the redealt view or menu differs from the
    real one (that is a leak of the view or the menu, not of the bot).
    """
    spec = games()[game]
    drive = drivers or spec.bots["heuristic"]
    state = new_game(game, seats, seed, quick_start)
    players = [drive(i, seed * 31 + i) for i in range(seats)]
    rng = random.Random(f"redeal {game} {seats} {seed}")
    mismatches: list[Mismatch] = []
    checked = 0
    decision = 0
    while not state.is_over and decision < max_decisions:
        p = state.to_act
        legal = state.legal_actions()
        if decision % every == 0:
            checked += 1
            bot_seed = seed * 1000 + decision
            view = state.view(p)
            real_view = comparable(view)
            other = REDEALS[game](state, p, rng)
            other_view, other_legal = other.view(p), other.legal_actions()
            assert comparable(other_view) == real_view, (
                f"{game}: seat {p}'s view changed when only hidden things were dealt again "
                f"(decision {decision})"
            )
            assert other_legal == legal, f"{game}: seat {p}'s menu depends on hidden things"
            real = make_bot(p, bot_seed, state).choose(view, list(legal))
            redealt = make_bot(p, bot_seed, other).choose(other_view, list(other_legal))
            if real != redealt:
                mismatches.append(Mismatch(decision, p, str(real_view["phase"]), real, redealt))
            assert comparable(state.view(p)) == real_view, f"{game}: the bot changed the game"
        state.apply(players[p].choose(state.view(p), state.legal_actions()))
        decision += 1
    return mismatches, checked


def assert_honest(game: str, make_bot: MakeBot, seeds: Iterable[int], **options: Any) -> int:
    """`honesty_mismatches` over games of several seeds; AssertionError naming every decision
    point where the bot decided otherwise on the redealt game. The points checked."""
    checked = 0
    mismatches: list[Mismatch] = []
    for seed in seeds:
        found, points = honesty_mismatches(game, make_bot, seed=seed, **options)
        mismatches += found
        checked += points
    assert not mismatches, (
        f"{game}: {len(mismatches)} of {checked} decisions changed when only what the seat "
        f"cannot see was dealt again, e.g. {mismatches[:3]}"
    )
    return checked


# -- the planted cheat -----------------------------------------------------------------------


def hidden_digest(game: str, state: Any, p: int) -> int:
    """A number read from what seat p may NOT know: its opponents' hands and the deck's top."""
    if game == "drifter":
        cards = [c for q in range(state.n) if q != p for c in state.hand[q]]
        return sum(c.printed.cost + len(c.printed.name) for c in cards)
    if game == "tabletown":
        return sum(c for q in range(state.n) if q != p for c in state.hands[q])
    deck = getattr(state, "deck", [])
    return sum(state.hands[1 - p]) + sum(deck[-3:])


class PeekingBot:
    """A planted cheat: it wraps a real bot, reads its opponents' hidden cards from the state it
    can reach (a drifter View's `_s`, or the live state it was built with) and lets them change
    its decision: when they add up to an odd number it takes the next legal action instead."""

    name = "peeking"

    def __init__(self, game: str, inner: Any, seat: int, state: Any = None) -> None:
        self.game, self.inner, self.seat, self.state = game, inner, seat, state

    def choose(self, view: Any, legal: list[Any]) -> Any:
        choice = self.inner.choose(view, legal)
        state = self.state if self.state is not None else view._s
        if len(legal) > 1 and hidden_digest(self.game, state, self.seat) % 2:
            return legal[(legal.index(choice) + 1) % len(legal)]
        return choice


def peeking(game: str, factory: Callable[[int, int], Any], through_view: bool = False) -> MakeBot:
    """The cheat as the check builds it: holding the live state, or (a drifter View has a way
    back to its state) reaching it through the view it is handed."""
    return lambda seat, seed, state: PeekingBot(
        game, factory(seat, seed), seat, None if through_view else state
    )
