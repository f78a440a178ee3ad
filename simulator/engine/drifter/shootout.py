"""Challenges and shootouts: accepting, betting rounds, gear reveals, fortunes, the showdown.

A mixin of `DrifterState` (state.py): the methods here use its zones and helpers. Each step
sets `phase` and `actor` for the next decision; `auto_step` settles the decisions that have a
single possible answer (a player with no dude refuses, one with no concealed gear passes...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, cast

from simulator.engine.drifter import abilities as ab
from simulator.engine.drifter.actions import (
    CALL,
    CHECK,
    FOLD,
    PASS_FORTUNE,
    PASS_REVEAL,
    PASS_SHOTGUN,
    REFUSE,
    Action,
)
from simulator.engine.drifter.cards import STAT_INDEX, STATS

if TYPE_CHECKING:
    from simulator.engine.drifter.cards import Ability, Catalogue
    from simulator.engine.drifter.state import Card, DrifterState, Kicker, Seat
    from simulator.engine.drifter.variants import Rules


# (typed as variable-length tuples: the compiled build keeps each as one object it iterates)
_NO_TARGET: Final[tuple[int, ...]] = (-1,)
_NO_STAT: Final[tuple[str, ...]] = ("",)
_STATS: Final[tuple[str, ...]] = STATS
_BET_ANTES: Final[tuple[int, ...]] = (1, 2, 5)  # bet and raise sizes offered, in antes
_CHOICES: Final[dict[int, tuple[object, tuple[str | None, bool, bool]]]] = {}


# Actions are immutable values and depend only on their fields, so the menus' per-card and
# per-amount actions are made once per process and reused by every game (a card's instance id
# or an amount is all they hold): building one costs more than looking it up.
class _ActionTable:
    """The actions of one kind, each made once, indexed by the card id or amount it holds (a
    list: cheaper to read than a dict, no boxed key, no hashing). Keys past its end (a game
    with a huge stake) get a new action each time."""

    SIZE: Final = 2048

    def __init__(self, kind: str, field: str) -> None:
        self.kind = kind
        self.field = field  # "card", "dude" or "amount"
        self.made: list[Action | None] = [None] * self.SIZE

    def of(self, key: int) -> Action:
        inside = 0 <= key < self.SIZE
        if inside:
            a = self.made[key]
            if a is not None:
                return a
        if self.field == "amount":
            a = Action(self.kind, amount=key)
        elif self.field == "card":
            a = Action(self.kind, card=key)
        else:
            a = Action(self.kind, dude=key)
        if inside:
            self.made[key] = a
        return a


_ACCEPT: Final = _ActionTable("accept", "dude")
_REVEAL_GEAR: Final = _ActionTable("reveal_gear", "card")
_REINVEST: Final = _ActionTable("reinvest", "dude")
_BURY: Final = _ActionTable("bury", "dude")
_BET: Final = _ActionTable("bet", "amount")
_RAISE: Final = _ActionTable("raise", "amount")


# an entry of final()'s shootout log as kept (DrifterState.final makes the JSON of it): the
# stat, the challenger, the seats with a dude in it, the winners, each seat's net chips, and
# the shootout's pot shares and card codes of every seat
_LogEntry = tuple[str | None, int, list[int], list[int], list[int], list[int], list[list[str]]]


def _choices(what, index: int) -> tuple[str | None, bool, bool]:
    """What a fortune card (index < 0) or an ability asks its player to choose: (the kind of
    card it copies — None if it copies nothing —, an opponent, a stat). Worked out once."""
    hit = _CHOICES.get(id(what))
    if hit is not None and hit[0] is what:
        return hit[1]
    effects = [e for a in what.abilities for e in a.effects] if index < 0 else list(what.effects)
    copy_of = next((e.of or "" for e in effects if e.kind == "copy"), None)
    shape = (
        copy_of,
        any(e.target == "chosen_opponent" for e in effects),
        any(e.kind == "change_contested" and e.stat == "choose" for e in effects),
    )
    if len(_CHOICES) > 4096:  # copy cards make new definitions: keep the table small
        _CHOICES.clear()
    _CHOICES[id(what)] = (what, shape)
    return shape


class ShootoutSteps:
    """The challenge sequence of the rules, steps 1 to 5."""

    # The game's attributes, set up by DrifterState.__init__ (state.py) and declared here,
    # where the shootout steps use them, so that the compiled build (simulator/engine/
    # compiled.py) lays them out as fields and type-checks them.
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
    over: bool
    cap_hit: bool
    end_reason: str
    winners: list[int]
    first: int
    played: list[list[str]]
    played_codes: list[set[str]]
    shootout_log: list[_LogEntry]
    held_at_ante: list[int]
    cold_turns_left: int
    _menu: list[Action] | None
    stat_cache: dict[int, list[int]] | None
    fx_cache: dict[int, list] | None
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

    # DrifterState's helpers the steps call (state.py has them)
    def _cold_after(self) -> None:
        raise NotImplementedError

    def _collect_antes(self, ante: int) -> bool:
        raise NotImplementedError

    def _end_game(self, reason: str) -> None:
        raise NotImplementedError

    def _enter_saloon(self, p: int, card: Card, revealed: bool, chips: int) -> None:
        raise NotImplementedError

    def _resolve_copy(self, card: Card, target: int) -> None:
        raise NotImplementedError

    def _stakes_end_game(self) -> bool:
        raise NotImplementedError

    def all_dudes(self) -> list[Card]:
        raise NotImplementedError

    def bury(self, card: Card) -> None:
        raise NotImplementedError

    def bury_dude(self, dude: Card) -> None:
        raise NotImplementedError

    def draw_to(self, p: int) -> None:
        raise NotImplementedError

    def dudes_of(self, p: int) -> list[Card]:
        raise NotImplementedError

    def holdings(self, p: int) -> int:
        raise NotImplementedError

    def mark_played(self, p: int, card: Card) -> None:
        raise NotImplementedError

    def note(self, *event: Any) -> None:
        raise NotImplementedError

    def once_free(self, card: Card, index: int, ability: Ability) -> bool:
        raise NotImplementedError

    def reveal_dude(self, dude: Card) -> None:
        raise NotImplementedError

    def seats_from(self, start: int) -> tuple[int, ...]:
        raise NotImplementedError

    def stats(self, dude: Card) -> list[int]:
        raise NotImplementedError

    def use_once(self, card: Card, index: int, ability: Ability) -> None:
        raise NotImplementedError

    def reset_shootout(self) -> None:
        n = self.n
        self.shooting = False
        self.contested: str | None = None
        self.challenger = -1
        sdude, folded, out, reveal_open = self.sdude, self.folded, self.out, self.reveal_open
        contrib = self.contrib
        for q in range(n):
            sdude[q] = None
            folded[q] = False
            out[q] = False
            reveal_open[q] = True
            contrib[q] = 0
        # (queue, announced, forder and reinvest_queue: each step makes its own before use)
        self.rb = 0
        self.raises = 0
        self.lead = -1
        self.fidx = 0
        self.fpasses = 0
        if self.player_marks:
            self.player_marks = []
        # for final()'s shootout log: each seat's card codes in it, pot shares, who won (new
        # lists each time: the log keeps the last shootout's)
        self.shot_cards: list[list[str]] = [[] for _ in range(n)]
        self.pot_share = [0] * n
        self.shot_winners: list[int] = []

    def clone_shootout_from(self, other: ShootoutSteps, cmap: dict[int, Card]) -> None:
        self.sdude = [cmap[d.uid] if d is not None else None for d in other.sdude]
        self.folded = list(other.folded)
        self.out = list(other.out)
        self.reveal_open = list(other.reveal_open)
        self.queue = list(other.queue)
        self.announced = [cmap[g.uid] for g in other.announced]
        self.contrib = list(other.contrib)
        self.forder = list(other.forder)
        self.reinvest_queue = list(other.reinvest_queue)
        self.shot_cards = [list(x) for x in other.shot_cards]
        self.pot_share = list(other.pot_share)
        self.shot_winners = list(other.shot_winners)

    def in_shootout_card(self, p: int, card: Card) -> None:
        """`card` (a dude, its gear, a fortune) is p's in this shootout: once per code."""
        code = card.printed.code
        if code not in self.shot_cards[p]:
            self.shot_cards[p].append(code)

    def _log_shootout(self) -> None:
        """One entry of final()'s shootout log, made when the shootout is over."""
        c = self.challenger
        seats = [q for q in self.seats_from(c) if self.sdude[q] is not None]
        net = [self.holdings(q) - self.held_at_ante[q] for q in seats]
        self.shootout_log.append(
            (self.contested, c, seats, self.shot_winners, net, self.pot_share, self.shot_cards)
        )

    # --- who is in ------------------------------------------------------------------------

    def in_shootout(self, p: int) -> bool:
        return self.sdude[p] is not None and not self.folded[p] and not self.out[p]

    def shootout_players(self) -> list[int]:
        """Players still in the shootout, clockwise from the challenger."""
        return [q for q in self.seats_from(self.challenger) if self.in_shootout(q)]

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
            return max(st)
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
            self.note("lead", lead)

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

    # --- 1. issue a challenge -------------------------------------------------------------

    def _do_challenge(self, a: Action) -> None:
        p = self.actor
        dude = self.cards[a.dude]
        self.challenged = True
        self.actions_left -= 1
        if not self.cold_hands:
            mod = ab.total_amount(cast("DrifterState", self), dude, "ante_mod")
            ante = max(self.ante + mod, 0)
            if not self._collect_antes(ante):
                return
        # the shootout fields are as reset_shootout left them: nothing outside a shootout
        # changes them (reset at the start of the game and at the end of each shootout)
        self.shooting = True
        self.shootouts += 1
        self.challenger = p
        self.lead = p
        self.contested = a.stat or None
        self.note("challenge", p, dude, self.contested)
        self.queue = [q for q in self.seats_from(p) if q != p]
        if not self._to_street(p, dude):
            self._next_accept()

    def _to_street(self, p: int, dude: Card) -> bool:
        """Move a dude into the street; True when a Riding Shotgun decision is now pending."""
        s = cast("DrifterState", self)
        self.saloon.remove(dude)
        self.street.append(dude)
        dude.in_street = True
        self.sdude[p] = dude
        self.in_shootout_card(p, dude)
        for g in dude.gear:
            self.in_shootout_card(p, g)
        ab.trigger(s, dude, "on_enter_street", dude)
        for g in dude.gear:
            ab.trigger(s, g, "on_enter_street", dude)
        if self.riding_shotgun and any(c.defn.is_dude for c in self.hand[p]):
            self.phase = "shotgun"
            self.actor = p
            return True
        return False

    def _do_shotgun(self, a: Action) -> None:
        p = self.actor
        card = self.cards[a.card]
        self.hand[p].remove(card)
        self.note("shotgun", p, card)
        self._enter_saloon(p, card, True, 0)
        self._next_accept()

    def _do_pass_shotgun(self, a: Action) -> None:
        self._next_accept()

    def _next_accept(self) -> None:
        if self.queue:
            self.actor = self.queue.pop(0)
            self.phase = "accept"
        else:
            self._begin_shootout()

    def _acceptable(self, p: int) -> list[Card]:
        s = cast("DrifterState", self)
        out = []
        for d in self.saloon:
            if d.owner != p:
                continue
            if d.revealed and self.contested and ab.has_flag(s, d, "cant_accept", self.contested):
                continue
            out.append(d)
        return out

    def _do_accept(self, a: Action) -> None:
        p = self.actor
        dude = self.cards[a.dude]
        self.note("accept", p, dude)
        if not self._to_street(p, dude):
            self._next_accept()

    def _do_refuse(self, a: Action) -> None:
        self.note("refuse", self.actor)
        self._next_accept()

    def _begin_shootout(self) -> None:
        c = self.challenger
        if not any(self.sdude[q] is not None for q in range(self.n) if q != c):
            # Nobody accepted: the challenger takes the pot and the dude goes back to the saloon.
            dude = self.sdude[c]
            assert dude is not None  # the challenger's dude
            self.note("unopposed", c, self.pot)
            self.pot_share[c] = self.pot
            self.shot_winners = [c]
            self.stake[c] += self.pot
            self.pot = 0
            self.street.remove(dude)
            self.saloon.append(dude)
            dude.in_street = False
            self._end_shootout(draw=False)
            return
        self.shootouts_contested += 1
        players = self.shootout_players()
        for q in players:
            d = self.sdude[q]
            assert d is not None
            if d.revealed:
                self.pot += d.chips
                d.chips = 0
            for g in d.gear:
                if g.revealed:
                    self.pot += g.chips
                    g.chips = 0
        self.note("shootout", players, self.pot)
        self._start_betting()

    # --- 2. betting rounds ----------------------------------------------------------------

    def _start_betting(self) -> None:
        self.step += 1
        self.lead = self.lead_bettor()
        self.rb = 0
        contrib = self.contrib
        for q in range(self.n):
            contrib[q] = 0
        self.raises = 0
        able = [q for q in self.seats_from(self.lead) if self.in_shootout(q) and self.stake[q] > 0]
        self.note("betting", self.lead)
        if len(able) <= 1:
            self._after_betting()
            return
        self.queue = able[1:]
        self.phase = "bet"
        self.actor = able[0]

    def amount_range(self, kind: str) -> tuple[int, int]:
        p = self.actor
        if kind == "bet":
            return 1, self.stake[p]
        owe = self.rb - self.contrib[p]
        return 1, self.stake[p] - owe

    def _add_sizes(self, menu: list[Action], table: _ActionTable, top: int) -> None:
        """Bets (or raises) of 1, 2 and 5 antes and `top` (all in), in order, each once, from
        $1 up to `top`."""
        ante = self.ante  # at least 1 (Rules checks it)
        for k in _BET_ANTES:
            x = k * ante
            if x < top:
                menu.append(table.of(x))
        if top >= 1:
            menu.append(table.of(top))

    def _bet_menu(self) -> list[Action]:
        p = self.actor
        owe = self.rb - self.contrib[p]
        st = self.stake[p]
        menu: list[Action] = []
        if owe <= 0:
            menu.append(CHECK)
            if self.rb == 0:
                self._add_sizes(menu, _BET, st)
        else:
            menu.append(CALL)
            if self.raises < self.max_raises and st > owe:
                self._add_sizes(menu, _RAISE, st - owe)
        dude = self.sdude[p]
        assert dude is not None
        if not ab.has_flag(cast("DrifterState", self), dude, "cant_fold"):
            menu.append(FOLD)
        return menu

    def _pay(self, p: int, x: int) -> None:
        self.stake[p] -= x
        self.pot += x
        self.contrib[p] += x

    def _reopen(self, p: int) -> None:
        self.queue = [
            q for q in self.seats_from(p) if q != p and self.in_shootout(q) and self.stake[q] > 0
        ]

    def _do_check(self, a: Action) -> None:
        self.note("check", self.actor)
        self._next_bet()

    def _do_bet(self, a: Action) -> None:
        p = self.actor
        self._pay(p, a.amount)
        self.rb = self.contrib[p]
        self.note("bet", p, a.amount, self.stake[p] == 0)
        self._reopen(p)
        self._next_bet()

    def _do_call(self, a: Action) -> None:
        p = self.actor
        x = min(self.rb - self.contrib[p], self.stake[p])
        self._pay(p, x)
        self.note("call", p, x, self.stake[p] == 0)
        self._next_bet()

    def _do_raise(self, a: Action) -> None:
        p = self.actor
        owe = self.rb - self.contrib[p]
        self._pay(p, owe + a.amount)
        self.rb = self.contrib[p]
        self.raises += 1
        self.note("raise", p, a.amount, self.rb, self.stake[p] == 0)
        self._reopen(p)
        self._next_bet()

    def _do_fold(self, a: Action) -> None:
        p = self.actor
        dude = self.sdude[p]
        assert dude is not None
        self.folded[p] = True
        self.pot += dude.chips
        dude.chips = 0
        for g in list(dude.gear):
            if g.revealed:
                dude.gear.remove(g)
                self.pot += g.chips
                g.chips = 0
                self.bury(g)
        self.note("fold", p)
        if p in self.queue:
            self.queue.remove(p)
        if len(self.shootout_players()) <= 1:
            self._showdown()
            return
        self._next_bet()

    def _next_bet(self) -> None:
        if self.queue and self.phase == "bet":
            self.actor = self.queue.pop(0)
            return
        self._after_betting()

    def _after_betting(self) -> None:
        if len(self.shootout_players()) <= 1:
            self._showdown()
        else:
            self._start_reveal()

    # --- 3. revealing gear ----------------------------------------------------------------

    def _revealable(self, p: int) -> list[Card]:
        if not self.reveal_open[p]:
            return []
        dude = self.sdude[p]
        assert dude is not None
        if ab.has_flag(cast("DrifterState", self), dude, "cant_reveal_gear"):
            return []
        return [g for g in dude.gear if not g.revealed]

    def _current_lead(self) -> int:
        """The lead bettor as last determined (it changes only when a card is played or
        revealed), determined again only if that player has left the shootout."""
        if self.lead < 0 or not self.in_shootout(self.lead):
            self.lead = self.lead_bettor()
        return self.lead

    def _start_reveal(self) -> None:
        self.step += 1
        self._current_lead()
        self.queue = [q for q in self.seats_from(self.lead) if self.in_shootout(q)]
        self.announced = []
        self._next_reveal()

    def _next_reveal(self) -> None:
        if self.queue:
            self.actor = self.queue.pop(0)
            self.phase = "reveal"
            return
        announced, self.announced = self.announced, []
        for g in announced:  # all announced gear turns up together
            g.revealed = True
        if self.log is not None:
            for g in announced:
                host = g.host  # announced gear is on a dude
                assert host is not None
                self.note("reveal_gear", g.owner, g, host, self.stats(host))
        s = cast("DrifterState", self)
        for g in announced:
            ab.trigger(s, g, "on_reveal", g.host)
        if announced:
            self._start_betting()
        else:
            self._start_fortune()

    def _do_reveal_gear(self, a: Action) -> None:
        g = self.cards[a.card]
        self.pot += g.chips
        g.chips = 0
        self.announced.append(g)
        self.note("announce", self.actor, g)
        self._next_reveal()

    def _do_pass_reveal(self, a: Action) -> None:
        self.reveal_open[self.actor] = False
        self._next_reveal()

    def force_reveal(self, dude: Card) -> None:
        """force_reveal_gear: its player turns up one concealed gear card (the earliest)."""
        s = cast("DrifterState", self)
        if not dude.in_street or ab.has_flag(s, dude, "cant_reveal_gear"):
            return
        for g in dude.gear:
            if not g.revealed:
                self.pot += g.chips
                g.chips = 0
                g.revealed = True
                if self.log is not None:
                    self.note("reveal_gear", g.owner, g, dude, self.stats(dude))
                ab.trigger(s, g, "on_reveal", dude)
                self.lead_changed()
                return

    # --- 4. fortune cards -----------------------------------------------------------------

    def _start_fortune(self) -> None:
        self.step += 1
        self._current_lead()
        self.forder = [q for q in self.seats_from(self.lead) if self.in_shootout(q)]
        self.fidx = 0
        self.fpasses = 0
        self.phase = "fortune"
        self.actor = self.forder[0]
        self.note("fortunes", self.lead)

    def _fortune_menu(self) -> list[Action]:
        p = self.actor
        menu: list[Action] = []
        fortunes = [card for card in self.hand[p] if card.printed.type == "fortune"]
        if fortunes and not ab.player_cant_play_fortune(cast("DrifterState", self), p):
            opp = self.opposing_dudes(p)
            for card in fortunes:
                menu.extend(self._choice_actions("play_fortune", card, card.printed, -1, opp))
        mine = self.sdude[p]
        assert mine is not None
        for card in [mine, *mine.gear]:
            if not card.revealed:
                continue
            for i, a in enumerate(card.defn.abilities):
                if a.timing != "as_fortune" or not self.once_free(card, i, a):
                    continue
                menu.extend(self._choice_actions("as_fortune", card, a, i, self.opposing_dudes(p)))
        menu.append(PASS_FORTUNE)
        return menu

    def _choice_actions(
        self, kind: str, card: Card, what, index: int, opp: list[Card]
    ) -> list[Action]:
        """One action per choice the card asks for (an opponent, a stat, a card to copy)."""
        copy_of, chooses_opponent, chooses_stat = _choices(what, index)
        targets = _NO_TARGET
        stats = _NO_STAT
        if copy_of is not None:
            candidates = ab.copy_candidates(cast("DrifterState", self), copy_of or "any")
            targets = tuple([c.uid for c in candidates][:4]) or _NO_TARGET
        elif chooses_opponent and len(opp) > 1:
            targets = tuple([d.uid for d in opp])
        if chooses_stat:
            stats = _STATS
        ability = index if kind == "as_fortune" else -1
        uid = card.uid
        return [Action(kind, uid, -1, False, 0, 0, s, t, ability) for t in targets for s in stats]

    def _do_play_fortune(self, a: Action) -> None:
        p = self.actor
        card = self.cards[a.card]
        cost = min(card.printed.cost, self.stake[p])  # short of chips: go all in
        self.stake[p] -= cost
        self.pot += cost
        self.hand[p].remove(card)
        card.revealed = True
        card.in_street = True
        self.fortunes.append(card)
        self.mark_played(p, card)
        self._resolve_copy(card, a.target)
        dude = self.sdude[p]
        if self.log is not None:
            assert dude is not None  # a fortune's player is in the shootout
            self.note("play_fortune", p, card, cost, dude, self.stats(dude))
        ab.trigger(cast("DrifterState", self), card, "on_play", dude, a.target, a.stat)
        self.lead_changed()
        self._fortune_done(passed=False)

    def _do_as_fortune(self, a: Action) -> None:
        card = self.cards[a.card]
        ability = card.defn.abilities[a.ability]
        self.use_once(card, a.ability, ability)
        self.note("as_fortune", self.actor, card)
        dude = card.host or card
        ab.resolve(cast("DrifterState", self), card, ability, dude, a.target, a.stat)
        self.lead_changed()
        self._fortune_done(passed=False)

    def _do_pass_fortune(self, a: Action) -> None:
        self._fortune_done(passed=True)

    def _fortune_done(self, passed: bool) -> None:
        self.fpasses = self.fpasses + 1 if passed else 0
        live = [q for q in self.forder if self.in_shootout(q)]
        if self.fpasses >= len(live):
            self._showdown()
            return
        for _ in range(len(self.forder)):
            self.fidx = (self.fidx + 1) % len(self.forder)
            if self.in_shootout(self.forder[self.fidx]):
                break
        self.actor = self.forder[self.fidx]

    # --- 5. the showdown ------------------------------------------------------------------

    def _showdown(self) -> None:
        self.phase = "showdown"
        s = cast("DrifterState", self)
        players = self.shootout_players()
        fresh: list[Card] = []
        for q in players:
            d = self.sdude[q]
            assert d is not None
            if not d.revealed:
                self.pot += d.chips
                d.chips = 0
                self.reveal_dude(d)
                fresh.append(d)
        if self.tombstone:
            self._tombstone_showdown(fresh)
        for d in fresh:
            if not self.out[d.owner]:
                ab.trigger(s, d, "on_reveal", d)
        for q in self.shootout_players():
            d = self.sdude[q]
            assert d is not None
            for card in [d, *d.gear] + [f for f in self.fortunes if f.owner == q]:
                ab.trigger(s, card, "showdown", d)
        players = self.shootout_players()
        values = {q: self.value(d) for q in players if (d := self.sdude[q]) is not None}
        if self.log is not None:
            dudes = [(q, d, self.stats(d)) for q in players if (d := self.sdude[q]) is not None]
            self.note("showdown", dudes, self.contested)
        winners = self._winners(players, values)
        if not winners:
            self.note("pot_carried", self.pot)
            self.carried += self.pot
            self.pot = 0
        else:
            share, extra = divmod(self.pot, len(winners))
            for q in winners:
                self.stake[q] += share
                self.pot_share[q] = share
            # winners are listed clockwise from the challenger: the first gets the odd chips
            self.stake[winners[0]] += extra
            self.pot_share[winners[0]] += extra
            self.shot_winners = list(winners)
            self.note("win", winners, self.pot, share, extra)
            self.pot = 0
        self._after_showdown(winners)

    def _tombstone_showdown(self, fresh: list[Card]) -> None:
        """Tombstone: a dude revealed after a namesake is buried; simultaneous copies all are."""
        earlier = [d for d in self.all_dudes() if d.revealed and d not in fresh]
        for d in fresh:
            name = d.defn.name
            clash = any(e.defn.name == name for e in earlier)
            twins = sum(1 for e in fresh if e.defn.name == name) > 1
            if clash or twins:
                self.out[d.owner] = True
                self.note("tombstone", d)

    def _winners(self, players: list[int], values: dict[int, int]) -> list[int]:
        if not players:
            return []
        hi = lo = values[players[0]]  # (a loop: compiled, max() and min() are generic calls)
        for q in players:
            v = values[q]
            if v > hi:
                hi = v
            elif v < lo:
                lo = v
        if self.lowball:
            winners = [q for q in players if values[q] == lo]
        elif self.high_low:
            winners = [q for q in players if values[q] in (hi, lo)]
        else:
            winners = [q for q in players if values[q] == hi]
        if len(winners) > 1:
            s = cast("DrifterState", self)
            alone = [
                q
                for q in winners
                if (d := self.sdude[q]) is not None and ab.has_flag(s, d, "wins_ties")
            ]
            if len(alone) == 1:
                winners = alone
        return winners

    def _after_showdown(self, winners: list[int]) -> None:
        self.shootout_winners = winners
        for f in list(self.fortunes):
            returns = f.return_to_hand or any(
                e.kind == "return_to_hand" and a.timing == "static"
                for a in f.defn.abilities
                for e in a.effects
            )
            self.fortunes.remove(f)
            if returns:
                f.reset()
                self.hand[f.owner].append(f)
            else:
                self.bury(f)
        # Cold Hands buries everything in the street; the quick-start game ends right here.
        cold = self.cold_hands or self.quick_start
        s = cast("DrifterState", self)
        self.reinvest_queue = []
        for q in self.seats_from(self.challenger):
            d = self.sdude[q]
            if d is None:
                continue
            if q in winners:
                ab.trigger(s, d, "on_win", d)
                for g in list(d.gear):
                    if g.revealed:
                        d.gear.remove(g)
                        self.bury(g)
                if cold:
                    self.bury_dude(d)
                else:
                    self.reinvest_queue.append(q)
            elif self.folded[q] and not cold:
                self.reinvest_queue.append(q)
            else:
                if not self.folded[q]:
                    ab.trigger(s, d, "on_lose", d)
                    for g in d.gear:
                        ab.trigger(s, g, "on_lose", d)
                self.bury_dude(d)
        self._next_reinvest()

    def _reinvest_price(self, dude: Card) -> int:
        discount = ab.total_amount(cast("DrifterState", self), dude, "reinvest_discount")
        return max(dude.printed.cost - 1 - discount, 0)

    def _may_reinvest(self, p: int) -> bool:
        d = self.sdude[p]
        assert d is not None  # reinvesting players have a dude in the street
        if ab.has_flag(cast("DrifterState", self), d, "cant_reinvest"):
            return False
        return self.stake[p] >= self._reinvest_price(d)

    def _next_reinvest(self) -> None:
        if self.reinvest_queue:
            self.actor = self.reinvest_queue.pop(0)
            self.phase = "reinvest"
            return
        self._end_shootout(draw=True)

    def _do_reinvest(self, a: Action) -> None:
        p = self.actor
        d = self.sdude[p]
        assert d is not None
        price = self._reinvest_price(d)
        self.stake[p] -= price
        d.chips += price
        self.street.remove(d)
        self.saloon.append(d)
        d.in_street = False
        self.note("reinvest", p, d, price)
        self._next_reinvest()

    def _do_bury(self, a: Action) -> None:
        d = self.sdude[self.actor]
        assert d is not None
        self.bury_dude(d)
        self._next_reinvest()

    def _end_shootout(self, draw: bool) -> None:
        challenger = self.challenger
        self._log_shootout()
        for d in self.all_dudes():
            d.in_street = False
            if d.marks:
                d.marks = [m for m in d.marks if not m.shootout]
            for g in d.gear:
                if g.marks:
                    g.marks = [m for m in g.marks if not m.shootout]
        self.reset_shootout()
        self.challenger = challenger
        if self.quick_start:
            self._end_game("the quick-start game ends after its first shootout")
            return
        if self.cold_hands:
            self._cold_after()
            return
        if draw:
            for q in self.seats_from(challenger):
                self.draw_to(q)
        if self._stakes_end_game():
            return
        self.phase = "discard"
        self.actor = self.badge

    # --- the menus and automatic answers --------------------------------------------------

    def shootout_menu(self) -> list[Action]:
        phase, p = self.phase, self.actor
        if phase == "cold_challenge":
            return [
                Action("challenge", dude=d.uid, stat=st) for d in self.dudes_of(p) for st in _STATS
            ]
        if phase == "accept":
            menu = [_ACCEPT.of(d.uid) for d in self._acceptable(p)]
            if not (self.quick_start and menu):
                menu.append(REFUSE)
            return menu
        if phase == "shotgun":
            return [Action("shotgun", card=c.uid) for c in self.hand[p] if c.defn.is_dude] + [
                PASS_SHOTGUN
            ]
        if phase == "bet":
            return self._bet_menu()
        if phase == "reveal":
            menu = [_REVEAL_GEAR.of(g.uid) for g in self._revealable(p)]
            menu.append(PASS_REVEAL)
            return menu
        if phase == "fortune":
            return self._fortune_menu()
        if phase == "reinvest":
            return self._reinvest_menu(p)
        raise AssertionError(f"no menu for phase {phase}")

    def _reinvest_menu(self, p: int) -> list[Action]:
        d = self.sdude[p]
        assert d is not None
        bury = _BURY.of(d.uid)
        if self._may_reinvest(p):
            return [_REINVEST.of(d.uid), bury]
        return [bury]

    def auto_step(self) -> bool:
        """Settle a decision with only one possible answer; False when a real choice waits."""
        phase, p = self.phase, self.actor
        if phase == "accept" and not self._acceptable(p):
            self.note("refuse", p)
            self._next_accept()
            return True
        if phase == "reveal" and not self._revealable(p):
            self.reveal_open[p] = False
            self._next_reveal()
            return True
        if phase == "fortune":
            menu = self._fortune_menu()
            if len(menu) == 1:
                self._fortune_done(passed=True)
                return True
            self._menu = menu  # the decision waits: keep the menu just built
            return False
        if phase == "reinvest":
            menu = self._reinvest_menu(p)
            if len(menu) == 1:
                self._do_bury(menu[0])
                return True
            self._menu = menu  # the decision waits: keep the menu just built
            return False
        if phase == "shotgun" and not any(c.defn.is_dude for c in self.hand[p]):
            self._next_accept()
            return True
        return False
