"""Challenges and shootouts: accepting, betting rounds, gear reveals, fortunes, the showdown.

Plain functions over a `DrifterState` (state.py), as `abilities.py` is; the state keeps the
shootout's fields and its queries (who is in, the contested value, the lead). Each step
sets `phase` and `actor` for the next decision; `auto_step` settles the decisions that have a
single possible answer (a player with no dude refuses, one with no concealed gear passes...).

Which module owns which of DrifterState's fields (the fields are declared in state.py):

- this module owns the current shootout's: `shooting`, `contested` (abilities.py changes it
  too, for `change_contested`), `challenger`, `rb`, `raises`, `lead`, `fidx`, `fpasses`, the
  per-seat `sdude`, `folded`, `out`, `reveal_open`, `contrib`, the step queues `queue`,
  `announced`, `forder`, `reinvest_queue`, and final()'s `shot_cards`, `pot_share`,
  `shot_winners` (state.py only makes them, in `_new_shootout`, and copies them in `clone`);
- state.py owns the rest; this module also moves, as a step of the shootout: `phase` and
  `actor` (who decides next: state.py sets them in the turn, this module from the challenge
  to the discard step that follows a shootout), the chips (`stake`, `pot`, `carried`), the
  dudes between `saloon` and `street`, `fortunes`, and the counters `step`, `shootouts`,
  `shootouts_contested`, `challenged`, `actions_left`, `player_marks`, `shootout_log`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from simulator.engine.drifter import abilities as ab
from simulator.engine.drifter import events as ev
from simulator.engine.drifter.actions import (
    CALL,
    CHECK,
    FOLD,
    PASS_FORTUNE,
    PASS_REVEAL,
    PASS_SHOTGUN,
    REFUSE,
    Action,
    ActionTable,
    Kind,
)
from simulator.engine.drifter.cards import STATS
from simulator.engine.drifter.pieces import drop

if TYPE_CHECKING:
    from simulator.engine.drifter.pieces import Card
    from simulator.engine.drifter.state import DrifterState


# (typed as variable-length tuples: the compiled build keeps each as one object it iterates)
_NO_TARGET: Final[tuple[int, ...]] = (-1,)
_NO_STAT: Final[tuple[str, ...]] = ("",)
_STATS: Final[tuple[str, ...]] = STATS
_BET_ANTES: Final[tuple[int, ...]] = (1, 2, 5)  # bet and raise sizes offered, in antes
_CHOICES: Final[dict[int, tuple[object, tuple[str | None, bool, bool]]]] = {}
_NO_CARDS: Final[list[Card]] = []  # read only: stands for an empty list of cards


def _copy(cards: list[Card]) -> list[Card]:
    """`list(cards)` to walk while `cards` changes, with no new list when it is empty."""
    return list(cards) if cards else _NO_CARDS


_ACCEPT: Final = ActionTable(Kind.ACCEPT, "dude")
_REVEAL_GEAR: Final = ActionTable(Kind.REVEAL_GEAR, "card")
_REINVEST: Final = ActionTable(Kind.REINVEST, "dude")
_BURY: Final = ActionTable(Kind.BURY, "dude")
_BET: Final = ActionTable(Kind.BET, "amount")
_RAISE: Final = ActionTable(Kind.RAISE, "amount")
_PLAY_FORTUNE: Final = ActionTable(Kind.PLAY_FORTUNE, "card")  # those that ask no choice


# an entry of final()'s shootout log as kept (DrifterState.final makes the JSON of it): the
# stat, the challenger, the seats with a dude in it, the winners, each seat's net chips, and
# the shootout's pot shares and card codes of every seat
LogEntry = tuple[str | None, int, list[int], list[int], list[int], list[int], list[list[str]]]


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


def reset_shootout(s: DrifterState) -> None:
    """No shootout: its per-seat fields cleared in place, the rest back to their start."""
    n = s.n
    s.shooting = False
    s.contested = None
    s.challenger = -1
    sdude, folded, out, reveal_open = s.sdude, s.folded, s.out, s.reveal_open
    contrib = s.contrib
    for q in range(n):
        sdude[q] = None
        folded[q] = False
        out[q] = False
        reveal_open[q] = True
        contrib[q] = 0
    # (queue, announced, forder and reinvest_queue: each step makes its own before use)
    s.rb = 0
    s.raises = 0
    s.lead = -1
    s.fidx = 0
    s.fpasses = 0
    if s.player_marks:
        s.player_marks = []
    # for final()'s shootout log: each seat's card codes in it, pot shares, who won (new
    # lists each time: the log keeps the last shootout's)
    s.shot_cards = [[] for _ in range(n)]
    s.pot_share = [0] * n
    s.shot_winners = []


def clone_shootout_from(s: DrifterState, other: DrifterState, cmap: dict[int, Card]) -> None:
    s.sdude = [cmap[d.uid] if d is not None else None for d in other.sdude]
    s.folded = list(other.folded)
    s.out = list(other.out)
    s.reveal_open = list(other.reveal_open)
    s.queue = list(other.queue)
    s.announced = [cmap[g.uid] for g in other.announced]
    s.contrib = list(other.contrib)
    s.forder = list(other.forder)
    s.reinvest_queue = list(other.reinvest_queue)
    s.shot_cards = [list(x) for x in other.shot_cards]
    s.pot_share = list(other.pot_share)
    s.shot_winners = list(other.shot_winners)


def in_shootout_card(s: DrifterState, p: int, card: Card) -> None:
    """`card` (a dude, its gear, a fortune) is p's in this shootout: once per code."""
    code = card.printed.code
    if code not in s.shot_cards[p]:
        s.shot_cards[p].append(code)


def _log_shootout(s: DrifterState) -> None:
    """One entry of final()'s shootout log, made when the shootout is over."""
    c = s.challenger
    seats = [q for q in s.seats_from(c) if s.sdude[q] is not None]
    net = [s.holdings(q) - s.held_at_ante[q] for q in seats]
    s.shootout_log.append((s.contested, c, seats, s.shot_winners, net, s.pot_share, s.shot_cards))


# --- 1. issue a challenge -------------------------------------------------------------


def _do_challenge(s: DrifterState, a: Action) -> None:
    p = s.actor
    dude = s.cards[a.dude]
    s.challenged = True
    s.actions_left -= 1
    if not s.cold_hands:
        mod = ab.total_amount(s, dude, "ante_mod")
        ante = max(s.ante + mod, 0)
        if not s._collect_antes(ante):
            return
    # the shootout fields are as reset_shootout left them: nothing outside a shootout
    # changes them (reset at the start of the game and at the end of each shootout)
    s.shooting = True
    s.shootouts += 1
    s.challenger = p
    s.lead = p
    s.contested = a.stat or None
    if s.log is not None:
        s.note(ev.Challenge(p, dude, s.contested))
    s.queue = [q for q in s.seats_from(p) if q != p]
    if not _to_street(s, p, dude):
        _next_accept(s)


def _to_street(s: DrifterState, p: int, dude: Card) -> bool:
    """Move a dude into the street; True when a Riding Shotgun decision is now pending."""
    drop(s.saloon, dude)
    s.street.append(dude)
    dude.in_street = True
    s.sdude[p] = dude
    in_shootout_card(s, p, dude)
    for g in dude.gear:
        in_shootout_card(s, p, g)
    ab.trigger(s, dude, "on_enter_street", dude)
    for g in dude.gear:
        ab.trigger(s, g, "on_enter_street", dude)
    if s.riding_shotgun and any(c.defn.is_dude for c in s.hand[p]):
        s.phase = "shotgun"
        s.actor = p
        return True
    return False


def _do_shotgun(s: DrifterState, a: Action) -> None:
    p = s.actor
    card = s.cards[a.card]
    drop(s.hand[p], card)
    if s.log is not None:
        s.note(ev.Shotgun(p, card))
    s._enter_saloon(p, card, True, 0)
    _next_accept(s)


def _do_pass_shotgun(s: DrifterState, a: Action) -> None:
    _next_accept(s)


def _next_accept(s: DrifterState) -> None:
    if s.queue:
        s.actor = s.queue.pop(0)
        s.phase = "accept"
    else:
        _begin_shootout(s)


def _acceptable(s: DrifterState, p: int) -> list[Card]:
    return [d for d in s.saloon if d.owner == p and _may_accept(s, d)]


def _may_accept(s: DrifterState, d: Card) -> bool:
    """Whether dude `d` (in its owner's saloon) may accept the challenge."""
    return not (d.revealed and s.contested and ab.has_flag(s, d, "cant_accept", s.contested))


def _any_acceptable(s: DrifterState, p: int) -> bool:
    """Whether `p` has a dude that may accept (`_acceptable` is not empty), with no list."""
    return any(d.owner == p and _may_accept(s, d) for d in s.saloon)


def _do_accept(s: DrifterState, a: Action) -> None:
    p = s.actor
    dude = s.cards[a.dude]
    if s.log is not None:
        s.note(ev.Accept(p, dude))
    if not _to_street(s, p, dude):
        _next_accept(s)


def _do_refuse(s: DrifterState, a: Action) -> None:
    if s.log is not None:
        s.note(ev.Refuse(s.actor))
    _next_accept(s)


def _begin_shootout(s: DrifterState) -> None:
    c = s.challenger
    if not any(s.sdude[q] is not None for q in range(s.n) if q != c):
        # Nobody accepted: the challenger takes the pot and the dude goes back to the saloon.
        dude = s.sdude[c]
        assert dude is not None  # the challenger's dude
        if s.log is not None:
            s.note(ev.Unopposed(c, s.pot))
        s.pot_share[c] = s.pot
        s.shot_winners = [c]
        s.stake[c] += s.pot
        s.pot = 0
        drop(s.street, dude)
        s.saloon.append(dude)
        dude.in_street = False
        _end_shootout(s, draw=False)
        return
    s.shootouts_contested += 1
    players = s.shootout_players()
    for q in players:
        d = s.sdude[q]
        assert d is not None
        if d.revealed:
            s.pot += d.chips
            d.chips = 0
        for g in d.gear:
            if g.revealed:
                s.pot += g.chips
                g.chips = 0
    if s.log is not None:
        s.note(ev.Shootout(players, s.pot))
    _start_betting(s)


# --- 2. betting rounds ----------------------------------------------------------------


def _start_betting(s: DrifterState) -> None:
    s.step += 1
    s.lead = s.lead_bettor()
    s.rb = 0
    contrib = s.contrib
    for q in range(s.n):
        contrib[q] = 0
    s.raises = 0
    able = [q for q in s.seats_from(s.lead) if s.in_shootout(q) and s.stake[q] > 0]
    if s.log is not None:
        s.note(ev.Betting(s.lead))
    if len(able) <= 1:
        _after_betting(s)
        return
    s.queue = able[1:]
    s.phase = "bet"
    s.actor = able[0]


def amount_range(s: DrifterState, kind: str) -> tuple[int, int]:
    p = s.actor
    if kind == Kind.BET:
        return 1, s.stake[p]
    owe = s.rb - s.contrib[p]
    return 1, s.stake[p] - owe


def _add_sizes(s: DrifterState, menu: list[Action], table: ActionTable, top: int) -> None:
    """Bets (or raises) of 1, 2 and 5 antes and `top` (all in), in order, each once, from
    $1 up to `top`."""
    ante = s.ante  # at least 1 (Rules checks it)
    for k in _BET_ANTES:
        x = k * ante
        if x < top:
            menu.append(table.of(x))
    if top >= 1:
        menu.append(table.of(top))


def _bet_menu(s: DrifterState) -> list[Action]:
    p = s.actor
    owe = s.rb - s.contrib[p]
    st = s.stake[p]
    menu: list[Action] = []
    if owe <= 0:
        menu.append(CHECK)
        if s.rb == 0:
            _add_sizes(s, menu, _BET, st)
    else:
        menu.append(CALL)
        if s.raises < s.max_raises and st > owe:
            _add_sizes(s, menu, _RAISE, st - owe)
    dude = s.sdude[p]
    assert dude is not None
    if not ab.has_flag(s, dude, "cant_fold"):
        menu.append(FOLD)
    return menu


def _pay(s: DrifterState, p: int, x: int) -> None:
    s.stake[p] -= x
    s.pot += x
    s.contrib[p] += x


def _reopen(s: DrifterState, p: int) -> None:
    s.queue = [q for q in s.seats_from(p) if q != p and s.in_shootout(q) and s.stake[q] > 0]


def _do_check(s: DrifterState, a: Action) -> None:
    if s.log is not None:
        s.note(ev.Check(s.actor))
    _next_bet(s)


def _do_bet(s: DrifterState, a: Action) -> None:
    p = s.actor
    _pay(s, p, a.amount)
    s.rb = s.contrib[p]
    if s.log is not None:
        s.note(ev.Bet(p, a.amount, s.stake[p] == 0))
    _reopen(s, p)
    _next_bet(s)


def _do_call(s: DrifterState, a: Action) -> None:
    p = s.actor
    x = min(s.rb - s.contrib[p], s.stake[p])
    _pay(s, p, x)
    if s.log is not None:
        s.note(ev.Call(p, x, s.stake[p] == 0))
    _next_bet(s)


def _do_raise(s: DrifterState, a: Action) -> None:
    p = s.actor
    owe = s.rb - s.contrib[p]
    _pay(s, p, owe + a.amount)
    s.rb = s.contrib[p]
    s.raises += 1
    if s.log is not None:
        s.note(ev.Raise(p, a.amount, s.rb, s.stake[p] == 0))
    _reopen(s, p)
    _next_bet(s)


def _do_fold(s: DrifterState, a: Action) -> None:
    p = s.actor
    dude = s.sdude[p]
    assert dude is not None
    s.folded[p] = True
    s.pot += dude.chips
    dude.chips = 0
    for g in _copy(dude.gear):
        if g.revealed:
            drop(dude.gear, g)
            s.pot += g.chips
            g.chips = 0
            s.bury(g)
    if s.log is not None:
        s.note(ev.Fold(p))
    if p in s.queue:
        s.queue.remove(p)
    if s.players_left() <= 1:
        _showdown(s)
        return
    _next_bet(s)


def _next_bet(s: DrifterState) -> None:
    if s.queue and s.phase == "bet":
        s.actor = s.queue.pop(0)
        return
    _after_betting(s)


def _after_betting(s: DrifterState) -> None:
    if s.players_left() <= 1:
        _showdown(s)
    else:
        _start_reveal(s)


# --- 3. revealing gear ----------------------------------------------------------------


def _revealable(s: DrifterState, p: int) -> list[Card]:
    if not s.reveal_open[p]:
        return []
    dude = s.sdude[p]
    assert dude is not None
    if ab.has_flag(s, dude, "cant_reveal_gear"):
        return []
    return [g for g in dude.gear if not g.revealed]


def _current_lead(s: DrifterState) -> int:
    """The lead bettor as last determined (it changes only when a card is played or
    revealed), determined again only if that player has left the shootout."""
    if s.lead < 0 or not s.in_shootout(s.lead):
        s.lead = s.lead_bettor()
    return s.lead


def _start_reveal(s: DrifterState) -> None:
    s.step += 1
    _current_lead(s)
    s.queue = [q for q in s.seats_from(s.lead) if s.in_shootout(q)]
    s.announced = []
    _next_reveal(s)


def _next_reveal(s: DrifterState) -> None:
    if s.queue:
        s.actor = s.queue.pop(0)
        s.phase = "reveal"
        return
    announced, s.announced = s.announced, []
    for g in announced:  # all announced gear turns up together
        g.revealed = True
    if s.log is not None:
        for g in announced:
            host = g.host  # announced gear is on a dude
            assert host is not None
            if s.log is not None:
                s.note(ev.RevealGear(g.owner, g, host, s.stats(host)))
    for g in announced:
        ab.trigger(s, g, "on_reveal", g.host)
    if announced:
        _start_betting(s)
    else:
        _start_fortune(s)


def _do_reveal_gear(s: DrifterState, a: Action) -> None:
    g = s.cards[a.card]
    s.pot += g.chips
    g.chips = 0
    s.announced.append(g)
    if s.log is not None:
        s.note(ev.Announce(s.actor, g))
    _next_reveal(s)


def _do_pass_reveal(s: DrifterState, a: Action) -> None:
    s.reveal_open[s.actor] = False
    _next_reveal(s)


# --- 4. fortune cards -----------------------------------------------------------------


def _start_fortune(s: DrifterState) -> None:
    s.step += 1
    _current_lead(s)
    s.forder = [q for q in s.seats_from(s.lead) if s.in_shootout(q)]
    s.fidx = 0
    s.fpasses = 0
    s.phase = "fortune"
    s.actor = s.forder[0]
    if s.log is not None:
        s.note(ev.Fortunes(s.lead))


def _fortune_menu(s: DrifterState) -> list[Action]:
    p = s.actor
    menu: list[Action] = []
    fortunes = [card for card in s.hand[p] if card.printed.is_fortune]
    if fortunes and not ab.player_cant_play_fortune(s, p):
        opp = s.opposing_dudes(p)
        for card in fortunes:
            menu.extend(_choice_actions(s, Kind.PLAY_FORTUNE, card, card.printed, -1, opp))
    mine = s.sdude[p]
    assert mine is not None
    _as_fortune_actions(s, p, mine, menu)
    for g in mine.gear:
        _as_fortune_actions(s, p, g, menu)
    menu.append(PASS_FORTUNE)
    return menu


def _as_fortune_actions(s: DrifterState, p: int, card: Card, menu: list[Action]) -> None:
    """The actions of `card`'s abilities used as a fortune card (if revealed and not spent)."""
    if not card.defn.as_fortune or not card.revealed:
        return
    abilities = card.defn.abilities
    for i in card.defn.as_fortune:
        a = abilities[i]
        if s.once_free(card, i, a):
            menu.extend(_choice_actions(s, Kind.AS_FORTUNE, card, a, i, s.opposing_dudes(p)))


def _choice_actions(
    s: DrifterState, kind: str, card: Card, what, index: int, opp: list[Card]
) -> list[Action]:
    """One action per choice the card asks for (an opponent, a stat, a card to copy)."""
    copy_of, chooses_opponent, chooses_stat = _choices(what, index)
    targets = _NO_TARGET
    stats = _NO_STAT
    if copy_of is not None:
        candidates = ab.copy_candidates(s, copy_of or "any")
        targets = tuple([c.uid for c in candidates][:4]) or _NO_TARGET
    elif chooses_opponent and len(opp) > 1:
        targets = tuple([d.uid for d in opp])
    if chooses_stat:
        stats = _STATS
    ability = index if kind == Kind.AS_FORTUNE else -1
    uid = card.uid
    if ability < 0 and targets is _NO_TARGET and stats is _NO_STAT:
        return [_PLAY_FORTUNE.of(uid)]  # the one way to play it, made once
    return [Action(kind, uid, -1, False, 0, 0, s, t, ability) for t in targets for s in stats]


def _do_play_fortune(s: DrifterState, a: Action) -> None:
    p = s.actor
    card = s.cards[a.card]
    cost = min(card.printed.cost, s.stake[p])  # short of chips: go all in
    s.stake[p] -= cost
    s.pot += cost
    drop(s.hand[p], card)
    card.revealed = True
    card.in_street = True
    s.fortunes.append(card)
    s.mark_played(p, card)
    s._resolve_copy(card, a.target)
    dude = s.sdude[p]
    if s.log is not None:
        assert dude is not None  # a fortune's player is in the shootout
        if s.log is not None:
            s.note(ev.PlayFortune(p, card, cost, dude, s.stats(dude)))
    ab.trigger(s, card, "on_play", dude, a.target, a.stat)
    s.lead_changed()
    _fortune_done(s, passed=False)


def _do_as_fortune(s: DrifterState, a: Action) -> None:
    card = s.cards[a.card]
    ability = card.defn.abilities[a.ability]
    s.use_once(card, a.ability, ability)
    if s.log is not None:
        s.note(ev.AsFortune(s.actor, card))
    dude = card.host or card
    ab.resolve(s, card, ability, dude, a.target, a.stat)
    s.lead_changed()
    _fortune_done(s, passed=False)


def _do_pass_fortune(s: DrifterState, a: Action) -> None:
    _fortune_done(s, passed=True)


def _fortune_done(s: DrifterState, passed: bool) -> None:
    s.fpasses = s.fpasses + 1 if passed else 0
    if s.fpasses >= s.players_left():  # everyone still in (nobody joins) passed in a row
        _showdown(s)
        return
    for _ in range(len(s.forder)):
        s.fidx = (s.fidx + 1) % len(s.forder)
        if s.in_shootout(s.forder[s.fidx]):
            break
    s.actor = s.forder[s.fidx]


# --- 5. the showdown ------------------------------------------------------------------


def _showdown(s: DrifterState) -> None:
    s.phase = "showdown"
    players = s.shootout_players()
    fresh: list[Card] = []
    for q in players:
        d = s.sdude[q]
        assert d is not None
        if not d.revealed:
            s.pot += d.chips
            d.chips = 0
            s.reveal_dude(d)
            fresh.append(d)
    if s.tombstone:
        _tombstone_showdown(s, fresh)
    for d in fresh:
        if not s.out[d.owner]:
            ab.trigger(s, d, "on_reveal", d)
    for q in s.shootout_players():
        d = s.sdude[q]
        assert d is not None
        # the dude, its gear, then q's fortune cards (each list taken as it stands now)
        gear = _copy(d.gear)
        fortunes = [f for f in s.fortunes if f.owner == q] if s.fortunes else _NO_CARDS
        ab.trigger(s, d, "showdown", d)
        for card in gear:
            ab.trigger(s, card, "showdown", d)
        for card in fortunes:
            ab.trigger(s, card, "showdown", d)
    players = s.shootout_players()
    values = {q: s.value(d) for q in players if (d := s.sdude[q]) is not None}
    if s.log is not None:
        dudes = [(q, d, s.stats(d)) for q in players if (d := s.sdude[q]) is not None]
        if s.log is not None:
            s.note(ev.Showdown(dudes, s.contested))
    winners = _winners(s, players, values)
    if not winners:
        if s.log is not None:
            s.note(ev.PotCarried(s.pot))
        s.carried += s.pot
        s.pot = 0
    else:
        share, extra = divmod(s.pot, len(winners))
        for q in winners:
            s.stake[q] += share
            s.pot_share[q] = share
        # winners are listed clockwise from the challenger: the first gets the odd chips
        s.stake[winners[0]] += extra
        s.pot_share[winners[0]] += extra
        s.shot_winners = list(winners)
        if s.log is not None:
            s.note(ev.Win(winners, s.pot, share, extra))
        s.pot = 0
    _after_showdown(s, winners)


def _tombstone_showdown(s: DrifterState, fresh: list[Card]) -> None:
    """Tombstone: a dude revealed after a namesake is buried; simultaneous copies all are."""
    earlier = [d for d in s.all_dudes() if d.revealed and d not in fresh]
    for d in fresh:
        name = d.defn.name
        clash = any(e.defn.name == name for e in earlier)
        twins = sum(1 for e in fresh if e.defn.name == name) > 1
        if clash or twins:
            s.out[d.owner] = True
            if s.log is not None:
                s.note(ev.Tombstone(d))


def _winners(s: DrifterState, players: list[int], values: dict[int, int]) -> list[int]:
    if not players:
        return []
    hi = lo = values[players[0]]  # (a loop: compiled, max() and min() are generic calls)
    for q in players:
        v = values[q]
        if v > hi:
            hi = v
        elif v < lo:
            lo = v
    if s.lowball:
        winners = [q for q in players if values[q] == lo]
    elif s.high_low:
        winners = [q for q in players if values[q] in (hi, lo)]
    else:
        winners = [q for q in players if values[q] == hi]
    if len(winners) > 1:
        alone = [
            q for q in winners if (d := s.sdude[q]) is not None and ab.has_flag(s, d, "wins_ties")
        ]
        if len(alone) == 1:
            winners = alone
    return winners


def _after_showdown(s: DrifterState, winners: list[int]) -> None:
    for f in _copy(s.fortunes):
        returns = f.return_to_hand or any(
            e.kind == "return_to_hand" and a.timing == "static"
            for a in f.defn.abilities
            for e in a.effects
        )
        drop(s.fortunes, f)
        if returns:
            f.reset()
            s.hand[f.owner].append(f)
        else:
            s.bury(f)
    # Cold Hands buries everything in the street; the quick-start game ends right here.
    cold = s.cold_hands or s.quick_start
    s.reinvest_queue = []
    for q in s.seats_from(s.challenger):
        d = s.sdude[q]
        if d is None:
            continue
        if q in winners:
            ab.trigger(s, d, "on_win", d)
            for g in _copy(d.gear):
                if g.revealed:
                    drop(d.gear, g)
                    s.bury(g)
            if cold:
                s.bury_dude(d)
            else:
                s.reinvest_queue.append(q)
        elif s.folded[q] and not cold:
            s.reinvest_queue.append(q)
        else:
            if not s.folded[q]:
                ab.trigger(s, d, "on_lose", d)
                for g in d.gear:
                    ab.trigger(s, g, "on_lose", d)
            s.bury_dude(d)
    _next_reinvest(s)


def _reinvest_price(s: DrifterState, dude: Card) -> int:
    """Chips equal to the dude's cost, "$1 less than its printed cost" because it is
    revealed; a dude that folded concealed stays concealed and pays its full cost (the
    legacy rulings: $1 less all the same)."""
    discount = ab.total_amount(s, dude, "reinvest_discount")
    less = 0 if s.full_price_concealed and not dude.revealed else 1
    return max(dude.printed.cost - less - discount, 0)


def _may_reinvest(s: DrifterState, p: int) -> bool:
    d = s.sdude[p]
    assert d is not None  # reinvesting players have a dude in the street
    if ab.has_flag(s, d, "cant_reinvest"):
        return False
    return s.stake[p] >= _reinvest_price(s, d)


def _next_reinvest(s: DrifterState) -> None:
    if s.reinvest_queue:
        s.actor = s.reinvest_queue.pop(0)
        s.phase = "reinvest"
        return
    _end_shootout(s, draw=True)


def _do_reinvest(s: DrifterState, a: Action) -> None:
    p = s.actor
    d = s.sdude[p]
    assert d is not None
    price = _reinvest_price(s, d)
    s.stake[p] -= price
    d.chips += price
    drop(s.street, d)
    s.saloon.append(d)
    d.in_street = False
    if s.log is not None:
        s.note(ev.Reinvest(p, d, price))
    _next_reinvest(s)


def _do_bury(s: DrifterState, a: Action) -> None:
    d = s.sdude[s.actor]
    assert d is not None
    s.bury_dude(d)
    _next_reinvest(s)


def _end_shootout(s: DrifterState, draw: bool) -> None:
    challenger = s.challenger
    _log_shootout(s)
    for d in s.all_dudes():
        d.in_street = False
        if d.marks:
            d.marks = [m for m in d.marks if not m.shootout]
        for g in d.gear:
            if g.marks:
                g.marks = [m for m in g.marks if not m.shootout]
    reset_shootout(s)
    s.challenger = challenger
    if s.quick_start:
        s._end_game("the quick-start game ends after its first shootout")
        return
    if s.cold_hands:
        s._cold_after()
        return
    if draw:
        for q in s.seats_from(challenger):
            s.draw_to(q)
    if s._stakes_end_game():
        return
    s.phase = "discard"
    s.actor = s.badge


# --- the menus and automatic answers --------------------------------------------------


def shootout_menu(s: DrifterState) -> list[Action]:
    phase, p = s.phase, s.actor
    if phase == "cold_challenge":
        return [Action(Kind.CHALLENGE, dude=d.uid, stat=st) for d in s.dudes_of(p) for st in _STATS]
    if phase == "accept":
        menu = [_ACCEPT.of(d.uid) for d in _acceptable(s, p)]
        if not (s.quick_start and menu):
            menu.append(REFUSE)
        return menu
    if phase == "shotgun":
        return [Action(Kind.SHOTGUN, card=c.uid) for c in s.hand[p] if c.defn.is_dude] + [
            PASS_SHOTGUN
        ]
    if phase == "bet":
        return _bet_menu(s)
    if phase == "reveal":
        menu = [_REVEAL_GEAR.of(g.uid) for g in _revealable(s, p)]
        menu.append(PASS_REVEAL)
        return menu
    if phase == "fortune":
        return _fortune_menu(s)
    if phase == "reinvest":
        return _reinvest_menu(s, p)
    raise AssertionError(f"no menu for phase {phase}")


def _reinvest_menu(s: DrifterState, p: int) -> list[Action]:
    d = s.sdude[p]
    assert d is not None
    bury = _BURY.of(d.uid)
    if _may_reinvest(s, p):
        return [_REINVEST.of(d.uid), bury]
    return [bury]


def auto_step(s: DrifterState) -> bool:
    """Settle a decision with only one possible answer; False when a real choice waits."""
    phase, p = s.phase, s.actor
    if phase == "accept" and not _any_acceptable(s, p):
        if s.log is not None:
            s.note(ev.Refuse(p))
        _next_accept(s)
        return True
    if phase == "reveal" and not _revealable(s, p):
        s.reveal_open[p] = False
        _next_reveal(s)
        return True
    if phase == "fortune":
        menu = _fortune_menu(s)
        if len(menu) == 1:
            _fortune_done(s, passed=True)
            return True
        s._menu = menu  # the decision waits: keep the menu just built
        return False
    if phase == "reinvest":
        menu = _reinvest_menu(s, p)
        if len(menu) == 1:
            _do_bury(s, menu[0])
            return True
        s._menu = menu  # the decision waits: keep the menu just built
        return False
    if phase == "shotgun" and not any(c.defn.is_dude for c in s.hand[p]):
        _next_accept(s)
        return True
    return False
