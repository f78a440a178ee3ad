"""Card abilities: what a dude's stats are now, and what an ability does when it resolves.

Static abilities are not stored anywhere: every read (a dude's stats, whether it may fold...)
walks the cards that can affect that dude, so an ability stops working the moment its card is
concealed, buried or negated. One-shot abilities (on_play, as_gear, as_fortune, showdown...)
that change stats or forbid something leave a `Mark` on each target dude, kept until the
shootout ends or the dude leaves play. Vocabulary: docs/rules/abilities.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from simulator.engine.drifter import events as ev
from simulator.engine.drifter.cards import CONTESTED, STAT_INDEX, STATS, Ability, Effect
from simulator.engine.drifter.pieces import Card, Mark

if TYPE_CHECKING:
    from simulator.engine.drifter.state import DrifterState

# Effect kinds that last (a mark on the target dude) rather than happen once.
LASTING: Final = frozenset(
    {
        "stat_mod",
        "stat_mod_per",
        "stat_set",
        "stat_swap",
        "kicker_limit_mod",
        "reinvest_discount",
        "cant_reinvest",
        "cant_reveal_gear",
        "cant_fold",
        "cant_take_kicker",
        "cant_accept",
        "wins_ties",
        "negate_gear",
        "ante_mod",
    }
)
# Lasting kinds without a target field work on the ability's own dude.
SELF_ONLY: Final = frozenset({"reinvest_discount", "cant_accept", "wins_ties", "ante_mod"})


def works(card: Card, ability: Ability) -> bool:
    """A concealed card has only its `concealed` abilities; a revealed one only the others."""
    return ability.concealed != card.revealed


def condition_holds(s: DrifterState, ability: Ability, owner: int, dude: Card | None) -> bool:
    """All keys of the ability's condition hold for its player `owner` and its dude `dude`."""
    for key, value in ability.condition:
        if key == "contested":
            if s.contested != value:
                return False
        elif key == "contested_not":
            if s.contested is None or s.contested == value:
                return False
        elif key == "in_street":
            if dude is None or not dude.in_street:
                return False
        elif key == "challenger":
            if (s.shooting and s.challenger == owner) != value:
                return False
        elif key == "opponents_at_least":
            if len(s.opposing_dudes(owner)) < value:
                return False
        elif key == "gear_at_least":
            if dude is None or len(dude.gear) < value:
                return False
        elif key == "kicker_chips_at_least":
            if dude is None or len(dude.kickers) < value:
                return False
        elif key == "all_in":
            if not s.is_all_in(owner):
                return False
        elif key == "opponent_faction":
            if not any(d.revealed and d.defn.faction == value for d in s.opposing_dudes(owner)):
                return False
        elif key == "stake_at_most" and s.stake[owner] > value:
            return False
    return True


def _sources(s: DrifterState, dude: Card) -> list[tuple[Card, int, Card | None]]:
    """(card, its player, its dude) for every card whose static abilities might reach `dude`
    (a list, not a generator: compiled, a list is walked without the iterator protocol)."""
    owner = dude.owner
    out: list[tuple[Card, int, Card | None]] = [(dude, owner, dude)]
    for g in dude.gear:
        out.append((g, owner, dude))
    if s.shooting and dude.in_street and not s.folded[owner]:
        for f in s.fortunes:
            if f.owner == owner:
                out.append((f, owner, dude))
        for other in s.street:
            if other is dude or s.folded[other.owner]:
                continue
            out.append((other, other.owner, other))
            for g in other.gear:
                out.append((g, other.owner, other))
        for f in s.fortunes:
            if f.owner != owner:
                out.append((f, f.owner, s.sdude[f.owner]))
    return out


def _negated(s: DrifterState, dude: Card) -> bool:
    """Whether revealed gear on `dude` has no effect (a negate_gear reaches it)."""
    if "negate_gear" not in s.kinds_present:
        return False
    for m in dude.marks:
        if m.effect.kind == "negate_gear":
            return True
    if not s.has_statics:
        return False
    for card, owner, src in _sources(s, dude):
        for ab in card.defn.statics:  # the hot paths walk only a card's static abilities
            if ab.concealed == card.revealed:
                continue
            for e in ab.effects:
                if (
                    e.kind == "negate_gear"
                    and _reaches(s, e.target, owner, src, dude)
                    and condition_holds(s, ab, owner, src)
                ):
                    return True
    return False


def _reaches(s: DrifterState, target: str | None, owner: int, src: Card | None, dude: Card) -> bool:
    """Whether a static effect of `owner`'s card on dude `src` with `target` reaches `dude`."""
    if target is None or target == "self":
        return src is dude
    if target == "player":
        return dude.owner == owner and src is dude
    in_shoot = s.shooting and dude.in_street and not s.folded[dude.owner]
    if target == "all":
        return in_shoot and src is not None and src.in_street
    if target in ("opponents", "other_players"):
        return in_shoot and dude.owner != owner and src is not None and src.in_street
    if target == "chosen_opponent":
        # a static ability cannot ask; it takes the first opposing dude clockwise
        opp = s.opposing_dudes(owner)
        return bool(opp) and opp[0] is dude and src is not None and src.in_street
    return False


def effects_on(s: DrifterState, dude: Card) -> list[tuple[Effect, int]]:
    """Every effect now working on `dude` with the player whose card it comes from (cached
    between actions, like stats)."""
    gen = s.cache_gen
    if gen < 0:
        return _effects_on(s, dude)
    if dude.fx_at != gen:
        dude.fx = _effects_on(s, dude)
        dude.fx_at = gen
    return dude.fx


def _effects_on(s: DrifterState, dude: Card) -> list[tuple[Effect, int]]:
    out: list[tuple[Effect, int]] = []
    for m in dude.marks:
        out.append((m.effect, m.owner))
    if not s.has_statics:
        return out
    if "negate_gear" not in s.kinds_present:
        return _effects_unnegated(s, dude, out)
    negated: bool | None = None
    for card, owner, src in _sources(s, dude):
        statics = card.defn.statics
        if not statics:
            continue
        if card.host is not None and card.revealed:
            if negated is None:
                negated = _negated(s, card.host)
            if negated:
                continue
        _collect(s, card, statics, owner, src, dude, out)
    return out


def _collect(
    s: DrifterState,
    card: Card,
    statics: tuple[Ability, ...],
    owner: int,
    src: Card | None,
    dude: Card,
    out: list[tuple[Effect, int]],
) -> None:
    for ab in statics:
        if ab.concealed == card.revealed:
            continue
        n = len(out)
        for e in ab.effects:
            if _reaches(s, e.target, owner, src, dude):
                out.append((e, owner))
        if len(out) > n and not condition_holds(s, ab, owner, src):
            del out[n:]  # the effects reach the dude, but the condition does not hold


def _effects_unnegated(
    s: DrifterState, dude: Card, out: list[tuple[Effect, int]]
) -> list[tuple[Effect, int]]:
    """`_effects_on` when no card of the game negates gear: the same sources in the same
    order, but another dude's cards are searched only for abilities that reach out (an
    ability aimed at its own dude or player cannot reach this one)."""
    owner = dude.owner
    statics = dude.defn.statics
    if statics:
        _collect(s, dude, statics, owner, dude, dude, out)
    for g in dude.gear:
        statics = g.defn.statics
        if statics:
            _collect(s, g, statics, owner, dude, dude, out)
    if not (s.shooting and dude.in_street and not s.folded[owner]):
        return out
    fortunes = s.fortunes
    for f in fortunes:
        if f.owner == owner:
            statics = f.defn.statics
            if statics:
                _collect(s, f, statics, owner, dude, dude, out)
    folded = s.folded
    for other in s.street:
        if other is dude or folded[other.owner]:
            continue
        q = other.owner
        statics = other.defn.outward
        if statics:
            _collect(s, other, statics, q, other, dude, out)
        for g in other.gear:
            statics = g.defn.outward
            if statics:
                _collect(s, g, statics, q, other, dude, out)
    for f in fortunes:
        if f.owner != owner:
            statics = f.defn.outward
            if statics:
                _collect(s, f, statics, f.owner, s.sdude[f.owner], dude, out)
    return out


def _per(s: DrifterState, e: Effect, owner: int, dude: Card) -> int:
    if e.per == "gear":
        return len(dude.gear)
    if e.per == "kicker_chip":
        return len(dude.kickers)
    if e.per == "opponent":
        return len(s.opposing_dudes(dude.owner))
    count = 0
    for f in s.fortunes:
        if f.owner == owner:
            count += 1
    return count


def stat_index(s: DrifterState, e: Effect) -> int:
    """Index of the stat an effect refers to; -1 for `contested` outside a shootout."""
    i = e.stat_index
    if i == CONTESTED:
        contested = s.contested
        return STAT_INDEX[contested] if contested is not None else -1
    return i


def top_stat(st: list[int]) -> int:
    """A dude's best stat, max(st) for [smarts, skill, luck], spelled out: compiled, max(a, b)
    is a plain comparison, while max(some_list) is a call into the interpreter."""
    return max(max(st[0], st[1]), st[2])


def dude_stats(s: DrifterState, dude: Card) -> list[int]:
    """[smarts, skill, luck] now, with every modifier; a concealed dude starts from nothing.

    Between two actions the state stands still, so stats are cached then (bots ask often);
    while an action is being carried out the cache is off."""
    gen = s.cache_gen
    if gen < 0:
        return _dude_stats(s, dude)
    if dude.stats_at != gen:
        dude.stats = _dude_stats(s, dude, effects_on(s, dude))
        dude.stats_at = gen
    return dude.stats


def _dude_stats(
    s: DrifterState, dude: Card, effects: list[tuple[Effect, int]] | None = None
) -> list[int]:
    """The stats worked out afresh (`effects`: the effects on the dude, if already known)."""
    # (smarts, skill, luck) as a tuple of ints: compiled, it is three machine words, no object
    if dude.revealed:
        d = dude.defn
        st = (d.smarts, d.skill, d.luck)
    else:
        st = (0, 0, 0)
    for k in dude.kickers:
        chip = k.defn
        st = _plus(st, chip.side_stats[k.side], chip.side_amounts[k.side])
    if effects is None:
        effects = _effects_on(s, dude)
    # cards.py requires the fields each kind uses (stats, amount, value): the asserts below
    # only narrow them for the type checker. Swaps and modifiers only add: their order does
    # not matter; stat_set comes last.
    any_set = False
    for e, owner in effects:
        kind = e.kind
        if kind == "stat_mod":
            mod = e.amount
            assert mod is not None
            st = _plus(st, stat_index(s, e), mod)
        elif kind == "stat_mod_per":
            i = stat_index(s, e)
            if i >= 0:
                mod = e.amount
                assert mod is not None
                st = _plus(st, i, mod * _per(s, e, owner, dude))
        elif kind == "stat_swap":
            if dude.revealed:
                pair = e.stats
                assert pair is not None
                i, j = STAT_INDEX[pair[0]], STAT_INDEX[pair[1]]
                printed = dude.defn.stats
                st = _plus(st, i, printed[j] - printed[i])
                st = _plus(st, j, printed[i] - printed[j])
        elif kind == "stat_set":
            any_set = True
    smarts, skill, luck = st
    if s.floor_stats:  # the legacy rulings floored stats at 0; the rules text sets no floor
        out = [smarts if smarts > 0 else 0, skill if skill > 0 else 0, luck if luck > 0 else 0]
    else:
        out = [smarts, skill, luck]
    if any_set:
        for e, _ in effects:
            if e.kind == "stat_set":
                i = stat_index(s, e)
                if i >= 0:
                    value = e.value
                    assert value is not None
                    out[i] = value
    return out


def _plus(st: tuple[int, int, int], i: int, amount: int) -> tuple[int, int, int]:
    """`st` with `amount` added to stat `i` (-1: to none)."""
    smarts, skill, luck = st
    if i == 0:
        return (smarts + amount, skill, luck)
    if i == 1:
        return (smarts, skill + amount, luck)
    if i == 2:
        return (smarts, skill, luck + amount)
    return st


def kicker_limit(s: DrifterState, dude: Card) -> int:
    """The dude's kicker limit with kicker_limit_mod effects (a concealed dude has none)."""
    limit = dude.defn.kicker_limit if dude.revealed else 0
    if "kicker_limit_mod" not in s.kinds_present:
        return limit
    for e, _ in effects_on(s, dude):
        if e.kind == "kicker_limit_mod":
            amount = e.amount
            assert amount is not None  # required of kicker_limit_mod (cards.py)
            limit += amount
    return max(limit, 0)


def has_flag(s: DrifterState, dude: Card, kind: str, stat: str | None = None) -> bool:
    """Whether an effect of `kind` (a 'can't', wins_ties...) now works on `dude`."""
    if kind not in s.kinds_present:  # no card of this game has it: the usual, fast answer
        return False
    return any(e.kind == kind and (stat is None or e.stat == stat) for e, _ in effects_on(s, dude))


def total_amount(s: DrifterState, dude: Card, kind: str) -> int:
    """The summed `amount` of effects of `kind` on `dude` (reinvest_discount, ante_mod)."""
    if kind not in s.kinds_present:
        return 0
    total = 0
    for e, _ in effects_on(s, dude):
        if e.kind == kind:
            amount = e.amount
            assert amount is not None  # required of every kind that is summed (cards.py)
            total += amount
    return total


def player_cant_play_fortune(s: DrifterState, player: int) -> bool:
    """Whether a cant_play_fortune effect forbids `player` fortune cards this shootout."""
    if "cant_play_fortune" not in s.kinds_present:
        return False
    if player in s.player_marks:
        return True
    if not s.has_statics:
        return False
    for d in s.street:
        q = d.owner
        if s.folded[q]:
            continue
        if _forbids_fortune(s, d, d, player):
            return True
        for g in d.gear:
            if _forbids_fortune(s, g, d, player):
                return True
        for f in s.fortunes:
            if f.owner == q and _forbids_fortune(s, f, d, player):
                return True
    return False


def _forbids_fortune(s: DrifterState, card: Card, d: Card, player: int) -> bool:
    """Whether a static cant_play_fortune of `card`, on dude `d`'s side, reaches `player`."""
    for ab in card.defn.statics:
        if not works(card, ab):
            continue
        for e in ab.effects:
            if e.kind != "cant_play_fortune":
                continue
            hit = d.owner == player if e.target == "player" else d.owner != player
            if hit and condition_holds(s, ab, d.owner, d):
                return True
    return False


# --- one-shot abilities ------------------------------------------------------------------


def trigger(
    s: DrifterState,
    card: Card,
    timing: str,
    dude: Card | None,
    target: int = -1,
    stat: str = "",
) -> None:
    """Resolve every working ability of `card` with `timing` (dude: the ability's own dude)."""
    abilities = card.defn.abilities
    if not abilities:
        return
    for i, ab in enumerate(abilities):
        if ab.timing == timing and works(card, ab):
            if ab.once is not None:
                if not s.once_free(card, i, ab):
                    continue
                s.use_once(card, i, ab)
            resolve(s, card, ab, dude, target, stat)


def resolve(
    s: DrifterState,
    card: Card,
    ability: Ability,
    dude: Card | None,
    target: int = -1,
    stat: str = "",
) -> None:
    """Resolve one ability; impossible effects are skipped and the rest still resolve."""
    owner = card.owner
    if not condition_holds(s, ability, owner, dude):
        return
    for e in ability.effects:
        _effect(s, card, ability, e, owner, dude, target, stat)


def target_dudes(
    s: DrifterState, tgt: str | None, owner: int, dude: Card | None, chosen: int = -1
) -> list[Card]:
    """The dudes an effect's target names, in seat order from the owner."""
    if tgt is None or tgt == "self":
        return [dude] if dude is not None else []
    if tgt == "opponents" or tgt == "other_players":
        return s.opposing_dudes(owner)
    if tgt == "all":
        return s.shootout_dudes()
    if tgt == "player":
        d = s.sdude[owner] if s.shooting else dude
        return [d] if d is not None else []
    if tgt == "chosen_opponent":
        opp = s.opposing_dudes(owner)
        for d in opp:
            if d.uid == chosen:
                return [d]
        return s.auto_choose_opponent(owner, opp)
    return []


def _effect(
    s: DrifterState,
    card: Card,
    ability: Ability,
    e: Effect,
    owner: int,
    dude: Card | None,
    chosen: int,
    stat: str,
) -> None:
    # cards.py requires `count` or `amount` of the kinds that use it: the asserts in the
    # helpers below only narrow them for the type checker
    kind = e.kind
    in_shootout = s.shooting
    if kind in LASTING:
        targets = [dude] if kind in SELF_ONLY else target_dudes(s, e.target, owner, dude, chosen)
        if e.duration is not None:
            shootout_only = e.duration == "shootout"
        else:
            shootout_only = in_shootout and ability.timing != "as_gear"
        for d in targets:
            if d is not None:
                # never in place: pieces.NO_MARKS
                d.marks = [*d.marks, Mark(e, owner, card, shootout_only and in_shootout)]
        s.has_marks = True
    elif kind in _CHIP_EFFECTS:
        _chip_effect(s, card, e, owner)
    elif kind in _KICKER_EFFECTS:
        _kicker_effect(s, e, owner, dude, chosen)
    else:
        _other_effect(s, card, e, owner, dude, chosen, stat)
    # `copy` resolves when the card is played (DrifterState._copy_target_checked picks what it
    # copies); nothing else is left.


_CHIP_EFFECTS: Final = frozenset({"take_from_pot", "tax", "refund"})
_KICKER_EFFECTS: Final = frozenset({"play_kicker", "reflip_kicker", "bury_kickers"})


def _chip_effect(s: DrifterState, card: Card, e: Effect, owner: int) -> None:
    """An effect that moves chips between the pot, the stakes and the card."""
    kind = e.kind
    if kind == "take_from_pot":
        amount = e.amount
        assert amount is not None
        x = min(amount, s.pot)
        s.pot -= x
        s.stake[owner] += x
    elif kind == "tax":
        amount = e.amount
        assert amount is not None
        for p in s.other_shootout_players(owner):
            x = min(amount, s.stake[p])
            s.stake[p] -= x
            s.pot += x
    elif kind == "refund":
        amount = e.amount
        assert amount is not None
        x = min(amount, card.chips)
        card.chips -= x
        s.stake[owner] += x


def _kicker_effect(s: DrifterState, e: Effect, owner: int, dude: Card | None, chosen: int) -> None:
    """An effect on kicker chips: play one, flip one again, bury them."""
    kind = e.kind
    if kind == "play_kicker":
        for d in target_dudes(s, e.target, owner, dude, chosen):
            chip = s.first_legal_kicker(owner, d)
            if chip is not None:
                s.place_kicker(owner, chip, d)
    elif kind == "reflip_kicker":
        for d in target_dudes(s, e.target, owner, dude, chosen):
            if d.kickers:
                mine = d.owner == owner
                k = (
                    min(d.kickers, key=lambda c: c.amount())
                    if mine
                    else max(d.kickers, key=lambda c: c.amount())
                )
                k.side = s.chance.choice_index(2, f"flip{k.uid}")
                if s.log is not None:
                    s.note(ev.Reflip(owner, d, k))
    elif kind == "bury_kickers":
        for d in target_dudes(s, e.target, owner, dude, chosen):
            s.bury_kickers(d)


def _other_effect(
    s: DrifterState,
    card: Card,
    e: Effect,
    owner: int,
    dude: Card | None,
    chosen: int,
    stat: str,
) -> None:
    """An effect on cards, hands, actions or the contested stat."""
    kind = e.kind
    in_shootout = s.shooting
    if kind == "cant_play_fortune":
        if in_shootout:
            players = [owner] if e.target == "player" else s.other_shootout_players(owner)
            for p in players:
                if p not in s.player_marks:
                    s.player_marks.append(p)
    elif kind == "draw":
        count = e.count
        assert count is not None
        s.draw(owner, count)
    elif kind == "opponent_discard":
        count = e.count
        assert count is not None
        for p in s.other_shootout_players(owner):
            for _ in range(count):
                hand = s.hand[p]
                if not hand:
                    break
                i = s.chance.choice_index(len(hand), f"discard{p}")
                s.dead[p].append(hand.pop(i))
    elif kind == "change_contested":
        if in_shootout:
            new = stat if stat in STATS else e.stat
            if new == "choose":
                new = s.auto_choose_stat(owner)
            s.contested = new
            if s.log is not None:
                s.note(ev.Contested(owner, new))
            s.lead_changed()
    elif kind == "put_into_play":
        s.put_into_play(owner, e.card_type, dude)
    elif kind == "extra_actions":
        count = e.count
        assert count is not None
        if s.phase == "turn" and s.actor == owner:
            s.actions_left += count
    elif kind == "force_reveal_gear":
        for d in target_dudes(s, e.target, owner, dude, chosen):
            s.force_reveal(d)
    elif kind == "return_to_hand":
        card.return_to_hand = True


def copy_of(effects: Iterable[Effect]) -> str | None:
    """What the copy effect among `effects` copies (`any`, `gear`, `fortune`, `dude`); None
    when none of them copies."""
    for e in effects:
        if e.kind == "copy":
            return e.of or "any"
    return None


def copy_candidates(s: DrifterState, of: str, exclude: Card | None = None) -> list[Card]:
    """Revealed cards in the saloon or street a copy card may become (by `of`)."""
    out: list[Card] = []
    for d in [*s.saloon, *s.street]:
        if d.revealed and of in ("any", "dude"):
            out.append(d)
        for g in d.gear:
            if g.revealed and of in ("any", "gear") and g.defn.type == "gear":
                out.append(g)
    if of in ("any", "fortune"):
        out.extend(f for f in s.fortunes)
    return [c for c in out if c is not exclude and not c.printed.is_copy]
