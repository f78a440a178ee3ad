"""A game of High Stakes Drifter in progress: zones, setup, the turn, records and views.

The challenge and shootout steps are functions over the state in `shootout.py`. The state
is an explicit machine: `phase` names the decision being waited for and `actor` the seat that
makes it; `apply` checks an action, logs it, carries it out and then runs every automatic step
until the next decision. Interpretations of the rules: docs/rules/high-stakes-drifter.md.
"""

from __future__ import annotations

from typing import Any, Final

from simulator.engine.core.chance import RecordedChance
from simulator.engine.core.errors import IllegalAction, RulesError
from simulator.engine.core.record import GameRecord
from simulator.engine.drifter import abilities as ab
from simulator.engine.drifter import events as ev
from simulator.engine.drifter import shootout as sh
from simulator.engine.drifter.actions import (
    DISCARDS,
    END_ACTIONS,
    END_TURN,
    Action,
    Kind,
    Op,
    challenges,
    dude_plays,
    malformed,
    play_gear,
    play_kicker,
)
from simulator.engine.drifter.cards import STAT_INDEX, STATS, CardDef, Catalogue, DeckCards
from simulator.engine.drifter.pieces import (
    NO_KICKERS,
    Card,
    Kicker,
    Seat,
    drop,
    holds,
    kicker_value,
)
from simulator.engine.drifter.variants import (
    COLD_HANDS,
    HIGH_LOW,
    LAST_MAN_STANDING,
    LOWBALL,
    RIDING_SHOTGUN,
    RULINGS,
    TOMBSTONE,
    WHIRLWIND,
    Rules,
)
from simulator.engine.drifter.view import View

MIN_PLAYERS, MAX_PLAYERS = 2, 8
# How often an activated ability may be used when its card does not say: a ☆ fortune ability
# once per shootout (docs/rules/high-stakes-drifter.md, "Fortune cards"); a ☆ gear ability
# as often as its player has actions (the legacy rulings: once per turn).
_DEFAULT_ONCE: Final[dict[str, str]] = {"as_fortune": "shootout"}
_LEGACY_DEFAULT_ONCE: Final[dict[str, str]] = {"as_gear": "turn", "as_fortune": "shootout"}
BLUFF: Final = 3  # the extra chips the action menu offers on a concealed card
# (typed as variable-length tuples: the compiled build keeps each as one object it iterates)
_NO_TARGET: Final[tuple[int, ...]] = (-1,)


class DrifterState:
    """One game. Build it with `drifter.new_game`; drive it with `legal_actions` / `apply`."""

    # The game's fields, declared once here so that the compiled build (simulator/engine/
    # compiled.py) lays them out as C fields and type-checks them; __init__ sets them up, and
    # the shootout steps (shootout.py, functions over the state) read and write them too.
    cat: Catalogue
    rules: Rules
    seats: list[Seat]
    seed: int
    n: int
    events: list | None
    chance: Any
    log: list | None
    cards: list[Card]
    kickers: list[Kicker]
    deck: list[list[Card]]
    hand: list[list[Card]]
    dead: list[list[Card]]
    chips: list[list[Kicker]]
    dead_chips: list[list[Kicker]]
    stake: list[int]
    pot: int
    carried: int
    saloon: list[Card]
    street: list[Card]
    fortunes: list[Card]
    player_marks: list[Any]
    has_marks: bool
    badge: int
    turns: int
    pturns: list[int]
    shootouts: int
    shootouts_contested: int
    step: int
    phase: str
    actor: int
    actions_left: int
    turn_limit: bool
    challenged: bool
    used_once: set[tuple[int, int, str, int]]
    redrawn: list[bool]
    is_over: bool  # the protocol's name (core.game.GameState); a field: read in every loop
    cap_hit: bool
    end_reason: str
    winners: list[int]
    first: int
    played: list[list[str]]
    played_codes: list[set[str]]
    shootout_log: list[sh.LogEntry]
    held_at_ante: list[int]
    cold_turns_left: int
    _menu: list[Action] | None
    # the generation of the caches kept on the cards (pieces.Card): -1 while an action is
    # carried out (off), else the current one; gen_top the last one handed out
    cache_gen: int
    gen_top: int
    has_statics: bool
    kinds_present: frozenset[str]
    chip_sensitive: bool
    _rot: list[tuple[int, ...]]
    # per seat in the current shootout (cleared in place by reset_shootout): its dude, whether
    # it folded, whether Tombstone buried its dude at the showdown, whether it may still
    # announce gear, its chips bet in this betting round
    sdude: list[Card | None]
    folded: list[bool]
    out: list[bool]
    reveal_open: list[bool]
    contrib: list[int]
    # the order the current step asks players in (see DrifterState.__init__)
    queue: list[int]
    announced: list[Card]
    forder: list[int]
    reinvest_queue: list[int]
    # the rules as fields (DrifterState._read_rules): Rules is a plain Python class, slow to read
    quick_start: bool
    ante: int
    hand_size: int
    actions_per_turn: int
    max_raises: int
    max_turns: int
    cold_hands: bool
    high_low: bool
    last_man_standing: bool
    lowball: bool
    riding_shotgun: bool
    tombstone: bool
    whirlwind: bool
    # the readings that changed with the rulings (DrifterState._read_rules)
    default_once: dict[str, str]
    floor_stats: bool
    full_price_concealed: bool
    quick_start_redraw: bool
    # the current shootout (shootout.reset_shootout): whether one is on, the contested
    # stat, the challenger, the betting round's raises and lead, the fortune step's position,
    # and final()'s log of it
    shooting: bool
    contested: str | None
    challenger: int
    rb: int
    raises: int
    lead: int
    fidx: int
    fpasses: int
    shot_cards: list[list[str]]
    pot_share: list[int]
    shot_winners: list[int]

    def __init__(
        self,
        catalogue: Catalogue,
        seats: list[Seat],
        rules: Rules,
        seed: int,
        chance: Any = None,
        events: list | None = None,
        narrate: bool = False,
        *,
        blank: bool = False,
    ) -> None:
        if blank:
            return  # clone() sets every field
        n = len(seats)
        _check_table(n, rules)
        self.cat = catalogue
        self.rules = rules
        self._read_rules(rules)
        self.seats = list(seats)
        self.seed = seed
        self.n = n
        self.events = events
        self.chance = chance if chance is not None else RecordedChance(seed, events)
        self.log = [] if narrate else None
        self._new_zones(n, rules.starting_stake)
        self._new_turn(n)
        self._new_shootout(n)
        self._build(catalogue, seats)  # and what the cards can do (_scan_abilities)
        self._rot = [tuple((start + i) % n for i in range(n)) for start in range(n)]
        self._setup()
        self.fresh_caches()

    # --- building -------------------------------------------------------------------------

    def _new_zones(self, n: int, stake: int) -> None:
        """Empty zones (the cards and chips are made by _build), stakes, and no pot."""
        self.cards = []
        self.kickers = []
        self.deck = []
        self.hand = [[] for _ in range(n)]
        self.dead = [[] for _ in range(n)]
        self.chips = []
        self.dead_chips = [[] for _ in range(n)]
        self.stake = [stake] * n
        self.pot = 0
        self.carried = 0
        self.saloon = []
        self.street = []
        self.fortunes = []
        self.player_marks = []
        self.has_marks = False

    def _new_turn(self, n: int) -> None:
        """The machine before the setup, the turn's counters, and final()'s facts."""
        self.badge = 0
        self.turns = 0
        self.pturns = [0] * n
        self.shootouts = 0  # challenges issued
        self.shootouts_contested = 0  # of them, the ones somebody accepted
        self.step = 0  # betting rounds, reveal and fortune steps started (see apply)
        self.phase = "setup"
        self.actor = 0
        self.actions_left = 0
        self.turn_limit = False
        self.challenged = False
        # (card, ability index, scope, scope number) of activated abilities already used
        self.used_once = set()
        self.redrawn = [False] * n
        self.is_over = False
        self.cap_hit = False
        self.end_reason = ""
        self.winners = []
        self.first = 0
        # Per-game facts for final(), kept as the game goes (docs/game-record.md "final"):
        # codes each seat played, in order, once each; one entry per challenge issued; each
        # seat's chips (stake + chips on its cards) when the antes were taken.
        self.played = [[] for _ in range(n)]
        self.played_codes = [set() for _ in range(n)]
        self.shootout_log = []
        self.held_at_ante = [0] * n
        self.cold_turns_left = 0
        self._menu = None
        self.cache_gen = -1  # the caches are on between actions only
        self.gen_top = 0

    def _new_shootout(self, n: int) -> None:
        """The shootout's lists per seat, made once (reset_shootout clears them in place), and
        its step queues (each step makes its own before it reads one)."""
        self.sdude = [None] * n
        self.folded = [False] * n
        self.out = [False] * n
        self.reveal_open = [True] * n
        self.contrib = [0] * n
        self.queue = []
        self.announced = []
        self.forder = []
        self.reinvest_queue = []
        sh.reset_shootout(self)

    def _scan_abilities(self) -> None:
        """What the cards of this game can do at all, worked out from the cards as they are
        now (a search deals them anew); a new game reads it from its decks (_build)."""
        self._can_do([DeckCards(tuple([c.printed for c in self.cards]))])

    def _can_do(self, decks: list[DeckCards]) -> None:
        """What the game's cards can do at all, for the steps that can skip work: whether any
        has an ability, every effect kind they carry (a copy only copies these), whether
        moving chips can switch an ability on or off (see apply)."""
        self.has_statics = any(d.has_statics for d in decks)
        kinds: frozenset[str] = frozenset()
        for d in decks:
            kinds = kinds | d.kinds
        self.kinds_present = kinds
        self.chip_sensitive = any(d.chip_sensitive for d in decks)

    def _read_rules(self, rules: Rules) -> None:
        """Copy the rules the steps read into fields (Rules is a plain Python class)."""
        self.quick_start = rules.quick_start
        self.ante = rules.ante
        self.hand_size = rules.hand_size
        self.actions_per_turn = rules.actions_per_turn
        self.max_raises = rules.max_raises
        self.max_turns = rules.max_turns
        self.cold_hands = rules.has(COLD_HANDS)
        self.high_low = rules.has(HIGH_LOW)
        self.last_man_standing = rules.has(LAST_MAN_STANDING)
        self.lowball = rules.has(LOWBALL)
        self.riding_shotgun = rules.has(RIDING_SHOTGUN)
        self.tombstone = rules.has(TOMBSTONE)
        self.whirlwind = rules.has(WHIRLWIND)
        # the readings that changed with the rulings (variants.py, RULINGS)
        legacy = rules.rulings < RULINGS
        self.default_once = _LEGACY_DEFAULT_ONCE if legacy else _DEFAULT_ONCE
        self.floor_stats = legacy
        self.full_price_concealed = not legacy
        self.quick_start_redraw = legacy

    def _build(self, cat: Catalogue, seats: list[Seat]) -> None:
        """The cards and kicker chips of every seat, and what the cards can do at all (from
        each deck as the catalogue read it)."""
        shared: list[Card] = []
        reads: list[DeckCards] = []
        for p, seat in enumerate(seats):
            if self.quick_start and p > 0:
                self.deck.append(shared)  # the quick-start game shares one deck
                self.chips.append([])
                continue
            try:
                read = cat.deck(tuple(seat.deck))
            except Exception:
                for code in seat.deck:  # an unknown card (or no code at all): which one
                    try:
                        cat.card(code)
                    except Exception:
                        raise RulesError(f"{seat.name}: unknown card {code!r}") from None
                raise
            reads.append(read)
            pile = []
            for defn in read.defs:
                card = Card(len(self.cards), defn, p)
                self.cards.append(card)
                pile.append(card)
            self.deck.append(pile)
            shared = pile
            stack = []
            if not self.quick_start:
                for code in seat.chips:
                    try:
                        cdef = cat.chip(code)
                    except Exception:
                        raise RulesError(f"{seat.name}: unknown kicker chip {code!r}") from None
                    k = Kicker(len(self.kickers), cdef, p)
                    self.kickers.append(k)
                    stack.append(k)
            self.chips.append(stack)
        self._can_do(reads)

    def _setup(self) -> None:
        n, rules = self.n, self.rules
        if rules.quick_start:
            self.deck[0][:] = self.chance.shuffle(self.deck[0], "deck")
            first = self._first_player()
            for i in range(n):
                self._starting_hand((first + i) % n)
        else:
            for p in range(n):
                self.deck[p][:] = self.chance.shuffle(self.deck[p], f"deck{p}")
            for p in range(n):
                self._starting_hand(p)
            first = self._first_player()
        self.badge = first
        self.first = first
        if self.log is not None:
            self.note(ev.Badge(first))
        if self.cold_hands:
            self._cold_round()
        else:
            self._start_turn(first)
        self._advance()

    def _first_player(self) -> int:
        """The seat the rules fix, else a random one (a recorded pick)."""
        if self.rules.first_player is not None:
            return self.rules.first_player
        return self.chance.choice_index(self.n, "first")

    def _starting_hand(self, p: int) -> None:
        self.draw(p, self.hand_size)
        if self.quick_start and not self.quick_start_redraw:
            return  # the quick-start text has each player draw five, and that is all
        if not self.redrawn[p] and not any(c.defn.is_dude for c in self.hand[p]):
            # Once per game: reveal a dudeless starting hand, discard it, draw again.
            self.redrawn[p] = True
            if self.log is not None:
                self.note(ev.Redraw(p, [c.printed.code for c in self.hand[p]]))
            self.dead[p].extend(self.hand[p])
            self.hand[p] = []
            self.draw(p, self.hand_size)

    # --- small helpers the steps share ----------------------------------------------------

    def note(self, event: ev.Event) -> None:
        """Keep a narration event in its logged form (events.py). Only a game kept with
        narration keeps events, so every caller tests `log` first: a game without narration
        makes no event at all, and its hot path pays that one test."""
        if self.log is not None:
            self.log.append(event.logged())

    def draw(self, p: int, count: int) -> None:
        """Draw `count` cards; an empty deck takes the deadwood (and its kicker chips) back."""
        deck, hand = self.deck[p], self.hand[p]
        for _ in range(count):
            if not deck:
                if not self.dead[p]:
                    return
                self._reshuffle(p)
            card = deck.pop()
            card.owner = p  # the quick-start deck is shared: a card is its drawer's
            hand.append(card)

    def _reshuffle(self, p: int) -> None:
        self.chips[p].extend(self.dead_chips[p])
        self.dead_chips[p] = []
        self.deck[p][:] = self.chance.shuffle(self.dead[p], f"reshuffle{p}")
        self.dead[p] = []
        if self.log is not None:
            self.note(ev.Reshuffle(p))

    def draw_to(self, p: int) -> None:
        short = self.hand_size - len(self.hand[p])
        if short > 0:
            self.draw(p, short)

    def seats_from(self, start: int) -> tuple[int, ...]:
        """Every seat clockwise starting at `start`."""
        return self._rot[start % self.n]

    def all_dudes(self) -> list[Card]:
        return [*self.saloon, *self.street]

    def dudes_of(self, p: int) -> list[Card]:
        return [d for d in self.saloon if d.owner == p]

    def stats(self, dude: Card) -> list[int]:
        return ab.dude_stats(self, dude)

    def first_legal_kicker(self, p: int, dude: Card) -> Kicker | None:
        for k in self.chips[p]:
            if self.kicker_fits(k, dude):
                return k
        return None

    def kicker_fits(self, k: Kicker, dude: Card) -> bool:
        if self.has_statics and ab.has_flag(self, dude, "cant_take_kicker"):
            return False
        if not dude.revealed:
            return True
        used = kicker_value(dude)
        return used + k.defn.value <= ab.kicker_limit(self, dude)

    def place_kicker(self, p: int, k: Kicker, dude: Card) -> None:
        """Take `k` from p's stack, flip it (a chance event) and put it on `dude`."""
        self.chips[p].remove(k)
        k.side = self.chance.choice_index(2, f"flip{k.uid}")
        dude.kickers = [*dude.kickers, k]  # never in place: pieces.NO_KICKERS
        if self.log is not None:
            self.note(ev.PlayKicker(p, dude, k))
        if self.shooting:
            self.lead_changed()

    def bury_kickers(self, dude: Card) -> None:
        for k in dude.kickers:
            self.dead_chips[k.owner].append(k)
        if dude.kickers and self.log is not None:
            self.note(ev.BuryKickers(dude))
        dude.kickers = NO_KICKERS

    def bury(self, card: Card) -> None:
        """Move a card (and for a dude its kicker chips) to its owner's deadwood."""
        if card.kickers:
            self.bury_kickers(card)
        card.reset()
        self.dead[card.owner].append(card)

    def bury_dude(self, dude: Card) -> None:
        """Bury a dude with its gear and kicker chips. Chips still on the dude or its gear
        (concealed gear, or anything buried outside a shootout) return to the owner's stake."""
        for g in dude.gear:
            self.stake[g.owner] += g.chips
            g.chips = 0
            self.bury(g)
        self.stake[dude.owner] += dude.chips
        dude.chips = 0
        if holds(self.saloon, dude):
            drop(self.saloon, dude)
        if holds(self.street, dude):
            drop(self.street, dude)
        if self.log is not None:
            self.note(ev.Bury(dude))
        self.bury(dude)

    def reveal_dude(self, dude: Card) -> None:
        """Turn a dude face up: kicker limit check, Tombstone check, on_reveal abilities."""
        dude.revealed = True
        if self.log is not None:
            self.note(ev.RevealDude(dude))
        if dude.kickers:
            value = kicker_value(dude)
            if value > ab.kicker_limit(self, dude):
                self.bury_kickers(dude)

    def tombstone_clash(self, dude: Card) -> bool:
        """Tombstone: another revealed dude of the same name is already in play."""
        if not self.tombstone:
            return False
        name = dude.defn.name
        return any(d is not dude and d.revealed and d.defn.name == name for d in self.all_dudes())

    def put_into_play(self, p: int, card_type: str | None, dude: Card | None) -> None:
        """Put the first card of that type from p's hand into play, revealed, free."""
        for card in self.hand[p]:
            if card.defn.type != card_type:
                continue
            if card_type == "dude":
                drop(self.hand[p], card)
                self._enter_saloon(p, card, True, 0)
            elif dude is not None and dude.owner == p:  # card_type is "gear" (cards.py)
                drop(self.hand[p], card)
                self._attach_gear(p, card, dude, True, 0)
            return

    def mark_played(self, p: int, card: Card) -> None:
        """`p` played `card` or put it into play: remembered once per code for final()."""
        code = card.printed.code
        if code not in self.played_codes[p]:
            self.played_codes[p].add(code)
            self.played[p].append(code)
        if self.shooting and (card.in_street or (card.host is not None and card.host.in_street)):
            sh.in_shootout_card(self, p, card)

    def holdings(self, p: int) -> int:
        """`p`'s chips: the stake plus the chips on p's cards in play."""
        total = self.stake[p]
        for d in self.saloon:
            if d.owner == p:
                total += _with_gear(d)
        for d in self.street:
            if d.owner == p:
                total += _with_gear(d)
        for f in self.fortunes:
            if f.owner == p:
                total += f.chips
        return total

    def _enter_saloon(self, p: int, card: Card, revealed: bool, chips: int) -> None:
        card.chips = chips
        self.mark_played(p, card)
        self.saloon.append(card)
        if self.log is not None:
            self.note(ev.PlayDude(p, card, revealed, chips))
        if revealed:
            self.reveal_dude(card)
            if self.tombstone_clash(card):
                self.bury_dude(card)
                return
            ab.trigger(self, card, "on_play", card)
            ab.trigger(self, card, "on_reveal", card)
        else:
            ab.trigger(self, card, "on_play", card)

    def _attach_gear(
        self, p: int, card: Card, dude: Card, revealed: bool, chips: int, target: int = -1
    ) -> None:
        card.chips = chips
        card.host = dude
        card.revealed = revealed
        dude.gear = [*dude.gear, card]  # never in place: pieces.NO_CARDS
        self.mark_played(p, card)
        self._resolve_copy(card, target)
        if self.log is not None:
            self.note(ev.PlayGear(p, card, dude, revealed, chips))
        ab.trigger(self, card, "on_play", dude, target)
        if revealed:
            ab.trigger(self, card, "on_reveal", dude, target)
        if self.shooting:
            self.lead_changed()

    def _resolve_copy(self, card: Card, target: int) -> None:
        """A copy card becomes the chosen card: its name, type and abilities, its own cost."""
        if not card.printed.is_copy:
            return
        of = next(e.of for a in card.printed.abilities for e in a.effects if e.kind == "copy")
        options = ab.copy_candidates(self, of or "any", exclude=card)
        chosen = next((c for c in options if c.uid == target), options[0] if options else None)
        if chosen is None:
            return  # nothing to copy: an impossible effect, ignored
        d = chosen.defn
        card.defn = CardDef(
            id=card.printed.id,
            code=card.printed.code,
            set_code=card.printed.set_code,
            number=card.printed.number,
            name=d.name,
            type=d.type,
            faction=d.faction,
            rarity=card.printed.rarity,
            cost=card.printed.cost,
            smarts=d.smarts,
            skill=d.skill,
            luck=d.luck,
            kicker_limit=d.kicker_limit,
            text=d.text,
            abilities=tuple(a for a in d.abilities if not any(e.kind == "copy" for e in a.effects)),
        )
        self.has_statics = True
        if self.log is not None:
            self.note(ev.Copy(card.owner, card, chosen))

    def _once_key(self, card: Card, index: int, ability) -> tuple[int, int, str, int] | None:
        scope = ability.once or self.default_once.get(ability.timing)
        if scope is None:
            return None
        number = self.turns if scope == "turn" else self.shootouts if scope == "shootout" else 0
        return (card.uid, index, scope, number)

    def once_free(self, card: Card, index: int, ability) -> bool:
        """Whether an ability limited by `once` (or its timing's default) may be used now."""
        key = self._once_key(card, index, ability)
        return key is None or key not in self.used_once

    def use_once(self, card: Card, index: int, ability) -> None:
        key = self._once_key(card, index, ability)
        if key is not None:
            self.used_once.add(key)

    # --- the turn -------------------------------------------------------------------------

    def _start_turn(self, p: int) -> None:
        if self.turns >= self.max_turns:
            self.cap_hit = True
            self._end_game("turn cap")
            return
        self.turns += 1
        self.pturns[p] += 1
        self.badge = p
        self.actor = p
        self.phase = "turn"
        self.challenged = False
        whirl = self.whirlwind and self.turns != 1
        self.turn_limit = not whirl
        self.actions_left = self.actions_per_turn
        if self.log is not None:
            self.note(ev.Turn(p, self.turns))

    def _end_actions(self) -> None:
        if self.cold_hands:
            self._cold_next()
            return
        self.phase = "discard"
        self.actor = self.badge

    def _end_turn(self) -> None:
        p = self.badge
        self.draw_to(p)
        if self._stakes_end_game():
            return
        nxt = (p + 1) % self.n
        if self.log is not None:
            self.note(ev.PassBadge(nxt))
        self._start_turn(nxt)

    def _stakes_end_game(self) -> bool:
        """Last Man Standing: the game ends when one player at most has chips in stake."""
        if not self.last_man_standing:
            return False
        with_chips = 0
        for x in self.stake:
            if x > 0:
                with_chips += 1
        if with_chips <= 1:
            self._end_game("last man standing")
            return True
        return False

    def _end_game(self, reason: str) -> None:
        self.is_over = True
        self.phase = "over"
        self.end_reason = reason
        best = max(self.stake)
        self.winners = [p for p in range(self.n) if self.stake[p] == best]
        if self.log is not None:
            self.note(ev.GameOver(reason, self.winners, list(self.stake)))

    # Cold Hands: everybody antes, takes a turn of actions, then the badge holder challenges.
    def _cold_round(self) -> None:
        if self.turns >= self.max_turns:
            self.cap_hit = True
            self._end_game("turn cap")
            return
        if not self._collect_antes(self.ante):
            return
        self.cold_turns_left = self.n
        self._start_turn(self.badge)

    def _cold_next(self) -> None:
        self.cold_turns_left -= 1
        if self.cold_turns_left > 0:
            nxt = (self.actor + 1) % self.n
            if self.turns >= self.max_turns:
                self.cap_hit = True
                self._end_game("turn cap")
                return
            self.turns += 1
            self.pturns[nxt] += 1
            self.actor = nxt
            self.phase = "turn"
            self.actions_left = self.actions_per_turn
            self.turn_limit = not self.whirlwind
            if self.log is not None:
                self.note(ev.Turn(nxt, self.turns))
            return
        self.actor = self.badge
        if any(d.owner == self.badge for d in self.saloon):
            self.phase = "cold_challenge"
        else:
            if self.log is not None:
                self.note(ev.NoChallenge(self.badge))
            self.carried += self.pot
            self.pot = 0
            self._cold_after()

    def _cold_after(self) -> None:
        """After a Cold Hands shootout: discard hands, draw five new, pass the badge."""
        for p in range(self.n):
            self.dead[p].extend(self.hand[p])
            self.hand[p] = []
        for p in self.seats_from(self.badge):
            self.draw(p, self.hand_size)
        if self._stakes_end_game():
            return
        self.badge = (self.badge + 1) % self.n
        if self.log is not None:
            self.note(ev.PassBadge(self.badge))
        self._cold_round()

    def _collect_antes(self, ante: int) -> bool:
        """Everyone antes; False (and the game is over) when somebody cannot cover it."""
        lms = self.last_man_standing
        if not lms and any(x < ante for x in self.stake):
            self._end_game("a player cannot cover the ante")
            return False
        self.held_at_ante = [self.holdings(p) for p in range(self.n)]
        for p in range(self.n):
            x = min(ante, self.stake[p])
            self.stake[p] -= x
            self.pot += x
        self.pot += self.carried
        self.carried = 0
        if self.log is not None:
            self.note(ev.Ante(ante))
        return True

    # --- decisions ------------------------------------------------------------------------

    @property
    def to_act(self) -> int:
        return self.actor

    def legal_actions(self) -> list[Action]:
        """The menu of legal actions for the player to act (never empty while the game is on)."""
        if self._menu is None:
            self._menu = [] if self.is_over else self._build_menu()
        return self._menu

    def _build_menu(self) -> list[Action]:
        phase = self.phase
        if phase == "turn":
            return self._turn_menu()
        if phase == "discard":
            menu = [DISCARDS.of(c.uid) for c in self.hand[self.actor]]
            if len(self.hand[self.actor]) <= self.hand_size:
                menu.append(END_TURN)
            return menu
        return sh.shootout_menu(self)

    def _price(self, card: Card, revealed: bool) -> int:
        cost = card.printed.cost
        return max(cost - 1, 0) if revealed else cost

    # long: the turn's whole menu in one pass over the hand and the table, on every decision
    # of a turn (the engine's hottest path, benchmarks/engine.py); parts would be calls per card.
    def _turn_menu(self) -> list[Action]:
        # The hottest menu: actions are built with positional fields, in Action's order
        # (kind, card, dude, revealed, chips, amount, stat, target, ability).
        p = self.actor
        qs = self.quick_start
        menu: list[Action] = []
        stake = self.stake[p]
        if self.actions_left > 0 or not self.turn_limit:
            mine = self.dudes_of(p)
            for card in self.hand[p]:
                printed = card.printed
                t = printed.type
                if t == "fortune":
                    continue
                cost = printed.cost
                face_up = cost - 1 if cost > 0 else 0
                uid = card.uid
                if t == "dude":
                    plays = dude_plays(uid, cost, BLUFF)
                    if not qs and stake >= face_up:
                        menu.append(plays[0])
                    if stake >= cost:
                        menu.append(plays[1])
                        if not qs and stake >= cost + BLUFF:
                            menu.append(plays[2])
                    continue
                if not mine:
                    continue
                targets = _NO_TARGET
                if printed.abilities and printed.is_copy:
                    of = next(
                        e.of for a in printed.abilities for e in a.effects if e.kind == "copy"
                    )
                    candidates = ab.copy_candidates(self, of or "any")
                    targets = tuple([c.uid for c in candidates][:4]) or _NO_TARGET
                up = not qs and stake >= face_up
                down = stake >= cost
                for d in mine:
                    du = d.uid
                    for tg in targets:
                        if up:
                            menu.append(play_gear(uid, du, True, face_up, tg))
                        if down:
                            menu.append(play_gear(uid, du, False, cost, tg))
            for d in mine:
                if not d.revealed or not d.defn.abilities:
                    continue
                for i, a in enumerate(d.defn.abilities):
                    if a.timing == "as_gear" and ab.works(d, a) and self.once_free(d, i, a):
                        menu.append(Action(Kind.AS_GEAR, card=d.uid, ability=i))
            if self.chips[p]:
                # room for kicker chips on each saloon dude (None: concealed, any value goes)
                rooms: list[tuple[int, int | None]] = []
                check_flag = self.has_statics and "cant_take_kicker" in self.kinds_present
                for d in self.saloon:
                    if check_flag and ab.has_flag(self, d, "cant_take_kicker"):
                        continue
                    if d.revealed:
                        used = kicker_value(d)
                        rooms.append((d.uid, ab.kicker_limit(self, d) - used))
                    else:
                        rooms.append((d.uid, None))
                seen = set()
                for k in self.chips[p]:
                    code = k.defn.code
                    if code in seen:
                        continue
                    seen.add(code)
                    value = k.defn.value
                    for du, room in rooms:
                        if room is None or value <= room:
                            menu.append(play_kicker(k.uid, du))
            if self._may_challenge(p):
                for d in mine:
                    menu.extend(challenges(d.uid, self.quick_start))
        menu.append(END_ACTIONS)
        return menu

    def _may_challenge(self, p: int) -> bool:
        if self.challenged or self.cold_hands:
            return False
        if self.quick_start:
            return all(any(len(d.gear) >= 2 for d in self.dudes_of(q)) for q in range(self.n))
        return self.pturns[p] >= 2

    def apply(self, action: object) -> None:
        """Carry out an action of the player to act; IllegalAction (state unchanged) if illegal.

        Anything that is not a legal Action is an IllegalAction, in both builds: `action` is
        typed `object` so that the compiled build does not refuse a non-Action with its own
        TypeError before this check."""
        if self.is_over:
            raise IllegalAction("the game is over")
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}")
        self._check(action)
        if self.events is not None:
            self.events.append(["act", self.actor, action.to_json()])
        self._menu = None
        kind = action.kind
        gen = self.cache_gen
        step = self.step
        self.cache_gen = -1
        self._carry_out(action)
        self._menu = None
        self._advance()  # may leave the menu of the decision it stops at
        if (
            step == self.step
            and _STILL.get(kind) == self.phase
            and (kind not in _CHIPS_ONLY or not self.chip_sensitive)
        ):
            # the same step goes on and no card moved (only chips, or a card left a hand, or
            # a choice was passed): every stat and effect worked out before still stands
            self.cache_gen = gen
        else:
            self.fresh_caches()

    def fresh_caches(self) -> None:
        """Forget every stat and effect worked out so far (a new generation: pieces.Card),
        and keep what is worked out from now on."""
        self.gen_top += 1
        self.cache_gen = self.gen_top

    # long: one branch a kind, the betting and shootout steps first (the most taken)
    def _carry_out(self, a: Action) -> None:
        """Carry out the action with the step of its kind: the turn's here, the challenge's
        and the shootout's in shootout.py (every kind in actions.KINDS has one; the test of
        kinds and events holds it to that). Branches on `a.op` rather than a
        table of functions: compiled, each step is then a direct call, where a function taken
        from a table is called through the interpreter's call protocol, its arguments parsed
        and checked again (about 4% of a random-bot shootout)."""
        op = a.op
        # betting
        if op == Op.CHECK:
            sh._do_check(self, a)
        elif op == Op.BET:
            sh._do_bet(self, a)
        elif op == Op.CALL:
            sh._do_call(self, a)
        elif op == Op.RAISE:
            sh._do_raise(self, a)
        elif op == Op.FOLD:
            sh._do_fold(self, a)
        # gear reveals and fortunes
        elif op == Op.REVEAL_GEAR:
            sh._do_reveal_gear(self, a)
        elif op == Op.PASS_REVEAL:
            sh._do_pass_reveal(self, a)
        elif op == Op.PLAY_FORTUNE:
            sh._do_play_fortune(self, a)
        elif op == Op.AS_FORTUNE:
            sh._do_as_fortune(self, a)
        elif op == Op.PASS_FORTUNE:
            sh._do_pass_fortune(self, a)
        # the challenge
        elif op == Op.ACCEPT:
            sh._do_accept(self, a)
        elif op == Op.REFUSE:
            sh._do_refuse(self, a)
        elif op == Op.SHOTGUN:
            sh._do_shotgun(self, a)
        elif op == Op.PASS_SHOTGUN:
            sh._do_pass_shotgun(self, a)
        # after the showdown
        elif op == Op.REINVEST:
            sh._do_reinvest(self, a)
        elif op == Op.BURY:
            sh._do_bury(self, a)
        # the turn
        elif op == Op.PLAY_DUDE:
            self._do_play_dude(a)
        elif op == Op.PLAY_GEAR:
            self._do_play_gear(a)
        elif op == Op.AS_GEAR:
            self._do_as_gear(a)
        elif op == Op.PLAY_KICKER:
            self._do_play_kicker(a)
        elif op == Op.CHALLENGE:
            sh._do_challenge(self, a)
        elif op == Op.END_ACTIONS:
            self._do_end_actions(a)
        elif op == Op.DISCARD:
            self._do_discard(a)
        elif op == Op.END_TURN:
            self._do_end_turn(a)
        else:
            raise AssertionError(f"no step for {a.kind}")

    def apply_for(self, player: object, action: object) -> None:
        """`apply`, checking first that `player` is the one to act (for callers that know who)."""
        if self.is_over:
            raise IllegalAction("the game is over")
        if type(player) is not int:
            raise IllegalAction(f"not a seat: {player!r}")
        if player != self.actor:
            if 0 <= player < self.n and self.shooting and self.folded[player]:
                raise IllegalAction(f"{self.seats[player].name} has folded and cannot act")
            raise IllegalAction(
                f"it is {self.seats[self.actor].name}'s decision, not seat {player}'s"
            )
        self.apply(action)

    def _check(self, a: Action) -> None:
        menu = self.legal_actions()
        for m in menu:
            if m is a:
                return  # the usual case: an action of the menu itself
        problem = malformed(a)
        if problem:
            raise IllegalAction(f"not a legal action: {problem}")
        if a in menu:
            return
        kind = a.kind
        same = [m for m in menu if m.kind == kind]
        if not same:
            kinds = sorted({m.kind for m in menu})
            raise IllegalAction(
                f"{kind} is not legal now ({self.phase} step,"
                f" {self.seats[self.actor].name} to act); legal: {', '.join(kinds)}"
            )
        if kind in (Kind.BET, Kind.RAISE):
            lo, hi = sh.amount_range(self, kind)
            if not lo <= a.amount <= hi:
                raise IllegalAction(f"{kind} of ${a.amount} is outside ${lo}..${hi}")
            return
        if kind in (Kind.PLAY_GEAR, Kind.PLAY_FORTUNE, Kind.AS_FORTUNE):
            # the menu offers a copy card's first few targets (as it offers a few bet sizes):
            # any card it may copy goes, checked here; the rest of the play as with the first
            a = self._copy_target_checked(a)
            if a in menu:
                return
        if kind in (Kind.PLAY_DUDE, Kind.PLAY_GEAR):
            self._check_play(a, menu)
            return
        raise IllegalAction(f"{a} is not legal now")

    def _check_play(self, a: Action, menu: list[Action]) -> None:
        """A dude or gear play that is not in the menu: legal with any amount of chips from the
        card's cost up to the stake when concealed, else IllegalAction naming the reason."""
        p, kind = self.actor, a.kind
        card = self._card(a.card)
        if card not in self.hand[p]:
            raise IllegalAction(f"card {a.card} is not in your hand")
        printed = card.printed
        want = "dude" if kind == Kind.PLAY_DUDE else "gear"
        if printed.type != want:
            raise IllegalAction(f"{printed.name} is a {printed.type} card, not a {want} card")
        if kind == Kind.PLAY_GEAR and not any(d.uid == a.dude for d in self.dudes_of(p)):
            raise IllegalAction(f"card {a.dude} is not one of your dudes in the saloon")
        cost = printed.cost
        if a.revealed:
            if self.quick_start:
                raise IllegalAction("quick-start cards are played concealed")
            price = max(cost - 1, 0)
            if a.chips != price:
                raise IllegalAction(
                    f"a card played revealed takes exactly its cost less $1 (${price}),"
                    f" not ${a.chips}"
                )
        elif not cost <= a.chips <= self.stake[p]:
            raise IllegalAction(
                f"illegal amount: a concealed card takes from ${cost} up to your stake"
                f" (${self.stake[p]}), not ${a.chips}"
            )
        elif self.quick_start and a.chips != cost:
            raise IllegalAction("quick-start cards are played with exactly their cost on them")
        base = Action(kind, a.card, a.dude, a.revealed, a.chips if a.revealed else cost, 0, "",
                      a.target, -1)  # fmt: skip
        if base not in menu:  # the play itself is not offered: no action left, too dear...
            raise IllegalAction(
                f"{kind} of card {a.card} is not legal now ({self.phase} step,"
                f" {self.actions_left} actions left, stake ${self.stake[p]})"
            )

    def _copy_target_checked(self, a: Action) -> Action:
        """`a` with the first card its copy card may copy in place of the one it names (the
        menu offers that one), after checking that it may copy the one it names; `a` itself
        if it plays no copy card. IllegalAction naming the reason otherwise."""
        p = self.actor
        card = self._card(a.card)
        if a.kind == Kind.AS_FORTUNE:
            if card.owner != p or not card.revealed:
                raise IllegalAction(f"card {a.card} is not a revealed card of yours")
            abilities = card.defn.abilities
            if not 0 <= a.ability < len(abilities):
                raise IllegalAction(f"{card.defn.name} has no ability {a.ability}")
            copy_of = ab.copy_of(abilities[a.ability].effects)
        else:
            if card not in self.hand[p]:
                raise IllegalAction(f"card {a.card} is not in your hand")
            copy_of = ab.copy_of([e for x in card.printed.abilities for e in x.effects])
            if copy_of is None and a.kind == Kind.PLAY_GEAR and a.target != -1:
                raise IllegalAction(f"{card.printed.name} is no copy card: it copies nothing")
        if copy_of is None:
            return a
        eligible = [c.uid for c in ab.copy_candidates(self, copy_of)]
        if a.target in eligible:
            return Action(a.kind, a.card, a.dude, a.revealed, a.chips, a.amount, a.stat,
                          eligible[0], a.ability)  # fmt: skip
        if not eligible and a.target == -1:
            return a  # nothing to copy: the card is played as it is
        what = "card" if copy_of == "any" else f"{copy_of} card"
        rule = f"{card.printed.name} copies a revealed {what} in the saloon or street"
        may = f"it may copy {', '.join(map(str, eligible))}" if eligible else "there is none"
        if a.target == -1:
            raise IllegalAction(f"{rule}: name the card it copies ({may})")
        raise IllegalAction(f"{rule} (not a copy card): card {a.target} is not one ({may})")

    def _card(self, uid: int) -> Card:
        if not 0 <= uid < len(self.cards):
            raise IllegalAction(f"no card {uid}")
        return self.cards[uid]

    # turn actions

    def _use_action(self) -> None:
        self.actions_left -= 1

    def _do_play_dude(self, a: Action) -> None:
        p = self.actor
        card = self.cards[a.card]
        drop(self.hand[p], card)
        self.stake[p] -= a.chips
        self._use_action()
        self._enter_saloon(p, card, a.revealed, a.chips)

    def _do_play_gear(self, a: Action) -> None:
        p = self.actor
        card, dude = self.cards[a.card], self.cards[a.dude]
        drop(self.hand[p], card)
        self.stake[p] -= a.chips
        self._use_action()
        self._attach_gear(p, card, dude, a.revealed, a.chips, a.target)

    def _do_as_gear(self, a: Action) -> None:
        dude = self.cards[a.card]
        self.use_once(dude, a.ability, dude.defn.abilities[a.ability])
        self._use_action()
        if self.log is not None:
            self.note(ev.AsGear(self.actor, dude))
        ab.resolve(self, dude, dude.defn.abilities[a.ability], dude, a.target, a.stat)

    def _do_play_kicker(self, a: Action) -> None:
        p = self.actor
        self._use_action()
        self.place_kicker(p, self.kickers[a.card], self.cards[a.dude])

    def _do_end_actions(self, a: Action) -> None:
        self._end_actions()

    def _do_discard(self, a: Action) -> None:
        p = self.actor
        card = self.cards[a.card]
        drop(self.hand[p], card)
        self.dead[p].append(card)
        if self.log is not None:
            self.note(ev.Discard(p, card))

    def _do_end_turn(self, a: Action) -> None:
        self._end_turn()

    def _advance(self) -> None:
        """Run automatic steps until a real decision (or the end of the game)."""
        while not self.is_over:
            if self.phase == "turn" and self.turn_limit and self.actions_left <= 0:
                # three actions taken: the turn moves on to its end without asking
                self._end_actions()
                continue
            if not sh.auto_step(self):
                return
            self._menu = None

    # --- records, views, results ----------------------------------------------------------

    def record(self) -> dict:
        """The JSON-able game record (RecordError-proof: replay verifies it)."""
        if self.events is None:
            raise RulesError("this game was started with record=False and keeps no record")
        return GameRecord(
            game="drifter",
            rules=self.rules.to_json(),
            seats=[s.to_json() for s in self.seats],
            seed=self.seed,
            events=self.events,
            final=self.final() if self.is_over else None,
        ).to_json()

    def final(self) -> dict:
        """The end state in brief: stakes, winners, turns, shootouts, whether the cap ended it,
        who went first, the cards each seat played and every shootout (docs/game-record.md)."""
        return {
            "over": self.is_over,
            "stakes": list(self.stake),
            "winners": list(self.winners),
            "turns": self.turns,
            "shootouts": self.shootouts,
            "cap_hit": self.cap_hit,
            "reason": self.end_reason,
            "first": self.first,
            "cards_played": [list(codes) for codes in self.played],
            "shootout_log": [
                {
                    "stat": stat,
                    "challenger": challenger,
                    "seats": list(seats),
                    "winners": list(winners),
                    "net": list(net),
                    "pot": [pot[q] for q in seats],
                    "cards": [list(cards[q]) for q in seats],
                }
                for stat, challenger, seats, winners, net, pot, cards in self.shootout_log
            ],
        }

    def shootout_tallies(self) -> list[tuple[dict[str, list[int]], dict[str, list[int]]]]:
        """Per seat, what its shootouts add up to (a simulation's aggregate keeps these,
        simulator/games/runner.py): by stat ("highest" where none was named, quick-start),
        [shootouts won, shootouts fought]; by card code it fought with, [shootouts, chips won
        or lost, their squares]. The totals of final()'s shootout log read entry by entry,
        summed here without making its dictionaries."""
        out: list[tuple[dict[str, list[int]], dict[str, list[int]]]] = [
            ({}, {}) for _ in range(self.n)
        ]
        for stat, _, seats, winners, net, _, cards in self.shootout_log:
            key = stat or "highest"  # quick-start: each dude's highest stat
            for i in range(len(seats)):
                q = seats[i]
                chips = net[i]
                by_stat, by_card = out[q]
                pair = by_stat.get(key)
                if pair is None:
                    pair = by_stat[key] = [0, 0]
                pair[1] += 1
                if q in winners:
                    pair[0] += 1
                for code in cards[q]:
                    sums = by_card.get(code)
                    if sums is None:
                        by_card[code] = [1, chips, chips * chips]
                    else:
                        sums[0] += 1
                        sums[1] += chips
                        sums[2] += chips * chips
        return out

    def view(self, player: int) -> View:
        """What `player` may see now (see view.py)."""
        return View(self, player)

    def total_chips(self) -> int:
        """Stakes + pot + carried pot + chips on every card in play: constant all game."""
        total = sum(self.stake) + self.pot + self.carried
        for d in self.all_dudes():
            total += d.chips + sum(g.chips for g in d.gear)
        total += sum(f.chips for f in self.fortunes)
        return total

    def zone_of_every_card(self) -> dict[int, str]:
        """uid -> zone for every card and kicker chip (for the one-zone invariant)."""
        where: dict[int, list[str]] = {}

        def put(uid: int, zone: str) -> None:
            where.setdefault(uid, []).append(zone)

        for p in range(self.n):
            if not (self.quick_start and p > 0):
                for c in self.deck[p]:
                    put(c.uid, "deck")
            for c in self.hand[p]:
                put(c.uid, "hand")
            for c in self.dead[p]:
                put(c.uid, "deadwood")
            for k in self.chips[p]:
                put(-1 - k.uid, "chip_stack")
            for k in self.dead_chips[p]:
                put(-1 - k.uid, "deadwood")
        for d in self.saloon:
            put(d.uid, "saloon")
        for d in self.street:
            put(d.uid, "street")
        for d in self.all_dudes():
            for g in d.gear:
                put(g.uid, "gear")
            for k in d.kickers:
                put(-1 - k.uid, "kicker")
        for f in self.fortunes:
            put(f.uid, "street")
        bad = {u: z for u, z in where.items() if len(z) != 1}
        if bad or len(where) != len(self.cards) + len(self.kickers):
            raise AssertionError(f"cards out of place: {bad} / {len(where)}")
        return {u: z[0] for u, z in where.items()}

    # long: every field of the state copied in one place, so a field added is seen to be copied;
    # the search bot clones on every rollout.
    def clone(self) -> DrifterState:
        """An independent copy (no record, no narration) for search bots."""
        new = DrifterState(self.cat, self.seats, self.rules, self.seed, blank=True)
        # the fields that are never changed in place, shared; the rest is copied below
        new.cat, new.rules, new.seats, new.seed = self.cat, self.rules, self.seats, self.seed
        new.n, new.chance, new.pot, new.carried = self.n, self.chance, self.pot, self.carried
        new.has_marks, new.badge, new.turns = self.has_marks, self.badge, self.turns
        new.shootouts, new.shootouts_contested = self.shootouts, self.shootouts_contested
        new.step, new.phase, new.actor = self.step, self.phase, self.actor
        new.actions_left, new.turn_limit = self.actions_left, self.turn_limit
        new.challenged, new.is_over, new.cap_hit = self.challenged, self.is_over, self.cap_hit
        new.end_reason, new.first = self.end_reason, self.first
        new.cold_turns_left, new.has_statics = self.cold_turns_left, self.has_statics
        new.kinds_present, new.chip_sensitive = self.kinds_present, self.chip_sensitive
        new._rot = self._rot
        new.quick_start, new.ante, new.hand_size = self.quick_start, self.ante, self.hand_size
        new.actions_per_turn, new.max_raises = self.actions_per_turn, self.max_raises
        new.max_turns, new.cold_hands, new.high_low = self.max_turns, self.cold_hands, self.high_low
        new.last_man_standing, new.lowball = self.last_man_standing, self.lowball
        new.riding_shotgun, new.tombstone = self.riding_shotgun, self.tombstone
        new.whirlwind = self.whirlwind
        new.default_once, new.floor_stats = self.default_once, self.floor_stats
        new.full_price_concealed = self.full_price_concealed
        new.quick_start_redraw = self.quick_start_redraw
        cmap: dict[int, Card] = {}
        for c in self.cards:
            x = Card(c.uid, c.printed, c.owner)
            x.defn = c.defn
            x.revealed, x.chips, x.gear, x.kickers = c.revealed, c.chips, c.gear, c.kickers
            x.marks, x.host, x.in_street = c.marks, c.host, c.in_street
            x.return_to_hand = c.return_to_hand
            cmap[c.uid] = x
        kmap: dict[int, Kicker] = {}
        for k in self.kickers:
            y = Kicker(k.uid, k.defn, k.owner)
            y.side = k.side
            kmap[k.uid] = y
        for x in cmap.values():
            if x.gear:
                x.gear = [cmap[g.uid] for g in x.gear]
            if x.kickers:
                x.kickers = [kmap[k.uid] for k in x.kickers]
            if x.marks:
                x.marks = list(x.marks)
            if x.host is not None:
                x.host = cmap[x.host.uid]
        new.cards = [cmap[c.uid] for c in self.cards]
        new.kickers = [kmap[k.uid] for k in self.kickers]
        new.deck = _remap(self.deck, cmap)
        if self.quick_start:
            new.deck[1] = new.deck[0]
        new.hand = _remap(self.hand, cmap)
        new.dead = _remap(self.dead, cmap)
        new.chips = [[kmap[k.uid] for k in lst] for lst in self.chips]
        new.dead_chips = [[kmap[k.uid] for k in lst] for lst in self.dead_chips]
        new.stake = list(self.stake)
        new.saloon = [cmap[c.uid] for c in self.saloon]
        new.street = [cmap[c.uid] for c in self.street]
        new.fortunes = [cmap[c.uid] for c in self.fortunes]
        new.player_marks = list(self.player_marks)
        new.pturns = list(self.pturns)
        new.used_once = set(self.used_once)
        new.redrawn = list(self.redrawn)
        new.winners = list(self.winners)
        new.played = [list(x) for x in self.played]
        new.played_codes = [set(x) for x in self.played_codes]
        new.shootout_log = list(self.shootout_log)  # entries are never changed once logged
        new.held_at_ante = list(self.held_at_ante)
        new.events = None
        new.log = None
        new._menu = self._menu  # the same position has the same menu (immutable actions)
        new.gen_top = 0
        new.fresh_caches()  # its cards are new: nothing is cached on them
        new.shooting, new.contested, new.challenger = self.shooting, self.contested, self.challenger
        new.rb, new.raises, new.lead = self.rb, self.raises, self.lead
        new.fidx, new.fpasses = self.fidx, self.fpasses
        sh.clone_shootout_from(new, self, cmap)
        return new

    # Actions that change no card in play as long as the step they are taken in goes on (the
    # gear announced in a reveal step turns up only when the step ends), with that step; the
    # betting actions among them move chips, and the ability conditions that read chips.

    # --- who is in the shootout (abilities.py reads these too) ---------------------------

    # --- who is in ------------------------------------------------------------------------

    def in_shootout(self, p: int) -> bool:
        return self.sdude[p] is not None and not self.folded[p] and not self.out[p]

    def shootout_players(self) -> list[int]:
        """Players still in the shootout, clockwise from the challenger."""
        return [q for q in self.seats_from(self.challenger) if self.in_shootout(q)]

    def players_left(self) -> int:
        """How many players are still in the shootout (`len(shootout_players())`)."""
        left = 0
        for q in range(self.n):
            if self.in_shootout(q):
                left += 1
        return left

    def shootout_dudes(self) -> list[Card]:
        if not self.shooting:
            return []
        return [
            d
            for q in self.seats_from(self.challenger)
            if self.in_shootout(q) and (d := self.sdude[q]) is not None
        ]

    def opposing_dudes(self, owner: int) -> list[Card]:
        if not self.shooting:
            return []
        return [
            d
            for q in self.seats_from(owner)
            if q != owner and self.in_shootout(q) and (d := self.sdude[q]) is not None
        ]

    def other_shootout_players(self, owner: int) -> list[int]:
        if not self.shooting:
            return []
        return [q for q in self.seats_from(owner) if q != owner and self.in_shootout(q)]

    def is_all_in(self, p: int) -> bool:
        return self.shooting and self.in_shootout(p) and self.stake[p] == 0

    def value(self, dude: Card) -> int:
        """The dude's contested stat now (quick-start: its highest stat)."""
        st = self.stats(dude)
        if self.contested is None:
            return ab.top_stat(st)
        return st[STAT_INDEX[self.contested]]

    def lead_bettor(self) -> int:
        """Highest showing contested stat; ties: the challenger, else closest clockwise to it."""
        if self.quick_start:
            return self.challenger
        best, lead = -1, self.challenger
        for q in self.shootout_players():
            d = self.sdude[q]
            assert d is not None
            v = self.value(d)
            if v > best:
                best, lead = v, q
        return lead

    def lead_changed(self) -> None:
        """Cards were played or revealed: the lead bettor is determined again."""
        lead = self.lead_bettor()
        if lead != self.lead:
            self.lead = lead
            if self.log is not None:
                self.note(ev.Lead(lead))

    def auto_choose_opponent(self, owner: int, opp: list[Card]) -> list[Card]:
        """An automatic `chosen_opponent`: the opposing dude showing the most contested stat."""
        if not opp:
            return []
        return [max(opp, key=self.value)]

    def auto_choose_stat(self, owner: int) -> str:
        """An automatic `change_contested: choose`: the stat where its dude leads by most."""
        mine = self.sdude[owner]
        if mine is None:
            return self.contested or "skill"
        ms = self.stats(mine)
        others = [self.stats(d) for d in self.opposing_dudes(owner)]
        best = max(range(3), key=lambda i: ms[i] - max((o[i] for o in others), default=0))
        return STATS[best]

    def force_reveal(self, dude: Card) -> None:
        """force_reveal_gear: its player turns up one concealed gear card (the earliest)."""
        s = self
        if not dude.in_street or ab.has_flag(s, dude, "cant_reveal_gear"):
            return
        for g in dude.gear:
            if not g.revealed:
                self.pot += g.chips
                g.chips = 0
                g.revealed = True
                if self.log is not None:
                    self.note(ev.RevealGear(g.owner, g, dude, self.stats(dude)))
                ab.trigger(s, g, "on_reveal", dude)
                self.lead_changed()
                return


_STILL: Final = {
    Kind.CHECK: "bet",
    Kind.BET: "bet",
    Kind.CALL: "bet",
    Kind.RAISE: "bet",
    Kind.DISCARD: "discard",
    Kind.REVEAL_GEAR: "reveal",
    Kind.PASS_REVEAL: "reveal",
    Kind.PASS_FORTUNE: "fortune",
}
_CHIPS_ONLY: Final = frozenset({Kind.CHECK, Kind.BET, Kind.CALL, Kind.RAISE})


def _check_table(n: int, rules: Rules) -> None:
    """RulesError unless `n` players may play by `rules`."""
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise RulesError(f"High Stakes Drifter is for 2 to 8 players, not {n}")
    if rules.quick_start and n != 2:
        raise RulesError("the quick-start rules are for two players")
    if rules.first_player is not None and rules.first_player >= n:
        raise RulesError(f"first_player {rules.first_player} is not a seat of {n} players")


def _remap(piles: list[list[Card]], cmap: dict[int, Card]) -> list[list[Card]]:
    """Piles of cards with each card replaced by its copy (clone)."""
    return [[cmap[c.uid] for c in pile] for pile in piles]


def _with_gear(dude: Card) -> int:
    """The chips on a dude and its gear."""
    total = dude.chips
    for g in dude.gear:
        total += g.chips
    return total
