"""Drifter bots. Each decides from `state.view(player)` and the legal actions alone.

- `random`: uniformly random among the legal actions: every game's `core.RandomBot`.
- `heuristic`: guesses concealed cards from the catalogue cards their chips could pay for,
  builds dudes / gear / kicker chips first and challenges with its last action where the
  challenge is worth the most chips (a refused one wins the ante), accepts when its chance
  justifies the chips at risk, takes longer odds when behind or when the stakes stand still,
  bets / calls / folds on its chance, reveals gear that helps, plays fortunes in close fights,
  reinvests a dude worth keeping (docs/rules/high-stakes-drifter.md, "Bots").
- `sharp`: the heuristic with the betting the search bot plays: it bets everything it may when
  its chance in the shootout is better than SHARP_SHOVE, and calls at even pot odds (issue #25
  §3: fitted so that its verdicts agree with the search bots'; docs/bots.md, "The sharp bot").
- `search`: determinized Monte Carlo: for the big decisions (accept, bet, reveal, fortune,
  reinvest) it samples the hidden cards consistently with its view, plays each candidate out
  with heuristic bots to the end of the shootout and picks the best average stake.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from simulator.engine.core.bots import RandomBot
from simulator.engine.core.chance import RecordedChance
from simulator.engine.core.ismcts import ISMCTSBot, SearchGame
from simulator.engine.drifter.abilities import top_stat
from simulator.engine.drifter.actions import Action, Kind, Op
from simulator.engine.drifter.cards import STAT_INDEX, STATS, CardDef, Catalogue, KickerChipDef
from simulator.engine.drifter.variants import RULINGS

if TYPE_CHECKING:
    from simulator.engine.drifter.pieces import Card
    from simulator.engine.drifter.state import DrifterState
    from simulator.engine.drifter.view import View

BLUFF_RANGE: Final = (
    3  # a concealed card may carry up to this much more than its cost (the menu's bluff)
)
VAR_DUDE: Final = 4.0  # variance of a guess at a concealed dude's stat
VAR_GEAR: Final = 1.5  # and of each concealed gear card's bonus
VAR_HAND: Final = 2.5  # fortune cards and kicker chips nobody has seen yet swing every fight
DEAL_TRIES: Final = 20  # determinize: deals of concealed cards tried until one shows the view
SHARP_SHOVE: Final = 0.5  # the sharp bot bets all it may when its chance is above this
SHARP_CALL: Final = 1.0  # and calls when p * (pot + owe) >= (1 - p) * owe * this
STALL_LIMIT: Final = 10  # my turns in a row without the stake moving, before any challenge is taken


class Guess:
    """A guess at an opposing dude (see `_guess`): each stat, each stat if its player picked it,
    its best stat, the variance."""

    __slots__ = ("best", "chosen", "plain", "var")

    def __init__(
        self,
        plain: tuple[float, float, float],
        chosen: tuple[float, float, float],
        best: float,
        var: float,
    ) -> None:
        self.plain = plain
        self.chosen = chosen
        self.best = best
        self.var = var


class _Prior:
    """What a concealed card of some kind with $c on it adds on average: to each stat, and to
    its best stat."""

    __slots__ = ("best", "means")

    def __init__(self, means: tuple[float, float, float], best: float) -> None:
        self.means = means
        self.best = best


class _Priors:
    """What a concealed card with $c on it could add to each stat, averaged over the catalogue
    (public knowledge: every player knows which cards exist)."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.dudes = [c for c in catalogue.cards if c.is_dude]
        self.gear = [c for c in catalogue.cards if c.type == "gear"]
        # kicker chips by value: what a chip of that colour could be (its sides are hidden)
        self.chips_by_value: dict[int, list[KickerChipDef]] = {}
        for chip in catalogue.chips:
            self.chips_by_value.setdefault(chip.value, []).append(chip)
        self._dude: dict[int, _Prior] = {}
        self._gear: dict[int, _Prior] = {}
        self._fit_dude: dict[int, list[CardDef]] = {}
        self._fit_gear: dict[int, list[CardDef]] = {}

    @staticmethod
    def _fits(cards: list[CardDef], chips: int) -> list[CardDef]:
        near = [c for c in cards if chips - BLUFF_RANGE <= c.cost <= chips]
        return near or [c for c in cards if c.cost <= chips] or cards

    def fitting(self, kind: str, chips: int) -> list[CardDef]:
        """The catalogue's cards of that type ("dude" or "gear") a concealed card with $chips
        on it could be, those near its chips first (`_fits`); copy cards left out (what one
        copies is chosen as it is played)."""
        dude = kind == "dude"
        cache = self._fit_dude if dude else self._fit_gear
        hit = cache.get(chips)
        if hit is None:
            cards = [c for c in (self.dudes if dude else self.gear) if not c.is_copy]
            hit = cache[chips] = self._fits(cards, chips)
        return hit

    def dude(self, chips: int) -> _Prior:
        """What the dudes that $chips could pay for have on average: each stat, the best."""
        hit = self._dude.get(chips)
        if hit is None:
            fits = self._fits(self.dudes, chips)
            stats = [c.stats for c in fits] if fits else [(4, 4, 4)]
            k = len(stats)
            means = (
                sum(st[0] for st in stats) / k,
                sum(st[1] for st in stats) / k,
                sum(st[2] for st in stats) / k,
            )
            hit = self._dude[chips] = _Prior(means, sum(max(st) for st in stats) / k)
        return hit

    def gear_bonus(self, chips: int) -> _Prior:
        """The mean bonus per stat, and best bonus, of the gear that $chips could pay for."""
        hit = self._gear.get(chips)
        if hit is None:
            fits = self._fits(self.gear, chips)
            bonuses: list[list[int]] = []
            for c in fits:
                b = [0, 0, 0]
                for a in c.abilities:
                    if a.timing != "static":
                        continue
                    for e in a.effects:
                        amount = e.amount
                        if e.kind == "stat_mod" and e.target in (None, "self") and amount:
                            stat = e.stat
                            if stat == "contested":
                                b = [x + amount for x in b]
                            elif stat is not None and stat in STAT_INDEX:
                                b[STAT_INDEX[stat]] += amount
                bonuses.append(b)
            k = max(len(bonuses), 1)
            means = (
                sum(b[0] for b in bonuses) / k,
                sum(b[1] for b in bonuses) / k,
                sum(b[2] for b in bonuses) / k,
            )
            hit = self._gear[chips] = _Prior(means, sum(max(b) for b in bonuses) / k)
        return hit


_PRIORS: Final[dict[int, _Priors]] = {}


def _priors(view: View) -> _Priors:
    cat = view.catalogue
    pri = _PRIORS.get(id(cat))
    if pri is None or pri.catalogue is not cat:
        pri = _PRIORS[id(cat)] = _Priors(cat)
    return pri


class DecisionCache:
    """What one decision has worked out (the view does not change within it): a `Guess` by
    dude uid (a list indexed by uid: compiled, a dictionary lookup by int costs a hundred
    instructions), `_best_opponents` by stat index (3: the best stat), and the priors, ante
    and lowball rule it reads. My dudes' true stats are kept by the state (View.true_stats)."""

    __slots__ = ("ante", "best", "guesses", "low", "pri")

    def __init__(self, view: View) -> None:
        self.pri = _priors(view)
        self.ante = view.ante
        self.low = view.lowball
        self.guesses: list[Guess | None] = [None] * view.card_count()
        self.best: list[dict[int, tuple[float, float, Card]] | None] = [None, None, None, None]


# max/min of a few numbers spelled out: compiled, max(a, b) is a plain comparison, while
# max(some_list) or max(..., key=...) is a call into the interpreter.
def _top_printed(d: CardDef) -> int:
    """The best printed stat: max(d.stats)."""
    return max(max(d.smarts, d.skill), d.luck)


def _highest(values: list[int]) -> int:
    """max(values), of a non-empty list."""
    top = values[0]
    for v in values:
        if v > top:
            top = v
    return top


def _lowest(values: list[int]) -> int:
    """min(values), of a non-empty list."""
    low = values[0]
    for v in values:
        if v < low:
            low = v
    return low


def _nth(values: tuple[float, float, float], i: int) -> float:
    """values[i] (compiled, a tuple of floats indexed by a variable would be boxed first)."""
    if i == 0:
        return values[0]
    return values[1] if i == 1 else values[2]


def _guess(view: View, dude: Card, pri: _Priors) -> Guess:
    """A guess at an opposing dude's final stats from what is visible: (each stat, each stat
    if its player picked it — then it is likely its best —, its best stat, the variance)."""
    shown = view.showing(dude)
    s0, s1, s2 = shown[0], shown[1], shown[2]
    var = 0.0
    # each stat (p), each stat if picked (c), and each stat if it turns out its best (b)
    if dude.revealed:
        p0, p1, p2 = float(s0), float(s1), float(s2)
        c0, c1, c2 = p0, p1, p2
        b0, b1, b2 = p0, p1, p2
    else:
        prior = pri.dude(dude.chips)
        means, best = prior.means, prior.best
        p0, p1, p2 = s0 + means[0], s1 + means[1], s2 + means[2]
        c0, c1, c2 = max(p0, s0 + best), max(p1, s1 + best), max(p2, s2 + best)
        top = max(max(s0, s1), s2) + best
        b0, b1, b2 = max(p0, top), max(p1, top), max(p2, top)
        var += VAR_DUDE
    for g in dude.gear:
        if not g.revealed:
            prior = pri.gear_bonus(g.chips)
            gm, gbest = prior.means, prior.best
            p0, p1, p2 = p0 + gm[0], p1 + gm[1], p2 + gm[2]
            c0, c1, c2 = c0 + gbest, c1 + gbest, c2 + gbest
            b0, b1, b2 = b0 + gm[0], b1 + gm[1], b2 + gm[2]
            var += VAR_GEAR
    return Guess((p0, p1, p2), (c0, c1, c2), max(max(b0, b1), b2), var)


def _estimate_opponent(
    view: View,
    dude: Card,
    stat: int | None,
    chosen: bool = False,
    cache: DecisionCache | None = None,
) -> tuple[float, float]:
    """A guess at an opposing dude's final stat from what is visible, with its variance.
    `stat` None: its best stat. `chosen`: its player picked this stat (it is likely its best).
    `cache`: kept for one decision (the view does not change within it)."""
    if cache is None:
        g = _guess(view, dude, _priors(view))
    else:
        hit = cache.guesses[dude.uid]
        if hit is None:
            hit = cache.guesses[dude.uid] = _guess(view, dude, cache.pri)
        g = hit
    if stat is None:
        return g.best, g.var
    return _nth(g.chosen if chosen else g.plain, stat), g.var


def _p_win(margin: float, var: float = 4.0) -> float:
    """Chance to come out ahead by `margin` with that much uncertainty (a logistic ~ normal)."""
    x = -1.7 * margin / math.sqrt(var + VAR_HAND)
    if x > 30:
        return 0.0
    return 1.0 / (1.0 + math.exp(x))


def _dude_worth(d: CardDef, a: Action) -> float:
    """What playing dude `d` as `a` is worth: its best stat, some of the others, a little less
    for the chips it takes, a little more for a concealed one that looks like what it is."""
    return (
        _top_printed(d)
        + 0.3 * (d.smarts + d.skill + d.luck)
        - 0.2 * a.chips
        + (0.5 if not a.revealed and a.chips == d.cost else 0.0)
    )


def _fortune_helps(d: CardDef) -> bool:
    """Whether a fortune card can tip a fight my way: it raises my dude, lowers theirs, takes
    from the pot, changes the stat, wins ties or taxes."""
    for ab in d.abilities:
        for e in ab.effects:
            kind = e.kind
            amount = e.amount or 0
            if (
                (kind in ("stat_mod", "stat_mod_per") and amount > 0 and e.target == "self")
                or (
                    kind == "stat_mod"
                    and amount < 0
                    and e.target in ("opponents", "chosen_opponent")
                )
                or kind in ("take_from_pot", "change_contested", "wins_ties", "tax")
            ):
                return True
    return False


class HeuristicBot:
    """Plays from estimates; see the module docstring."""

    name = "heuristic"

    def __init__(
        self,
        seed: int = 0,
        bluff: float = 0.08,
        accept: float = 0.25,
        call_bluff: float = 0.2,
        shove: float = 2.0,
        call_factor: float = 1.1,
    ) -> None:
        self.rng = random.Random(seed)
        self.bluff = bluff
        self.accept = accept
        self.call_bluff = call_bluff
        # above this chance (or on a bluff, once shove is a chance) bet everything; 2.0: never
        self.shove = shove
        self.call_factor = call_factor  # calls when p * (pot + owe) >= (1 - p) * owe * this
        self.doubt = False  # this shootout: the challenger is suspected of bluffing
        self.stall = 0  # my turns in a row that began with my stake within an ante of the last
        self.last_stake = -1
        self.last_turn = -1
        # the ☆ gear abilities (card, ability) used this turn (gear_turn): each once is enough
        self.gear_turn = -1
        self.gear_used: list[tuple[int, int]] = []

    # --- estimates ------------------------------------------------------------------------

    def _mine(self, view: View, dude: Card, stat: int | None) -> float:
        st = view.true_stats(dude)
        return top_stat(st) if stat is None else st[stat]

    def _p_shootout(self, view: View, dude: Card, stat: int | None) -> float:
        """My chance to win the current shootout against every opposing dude still in it."""
        mine = self._mine(view, dude, stat)
        low = view.lowball
        c = view.challenger
        p = 1.0
        for q in range(view.n):
            if q != view.player and view.in_shootout(q):
                chosen = q == c and not self.doubt
                d = view.street_dude(q)
                assert d is not None  # a player in the shootout has its dude in the street
                est, var = _estimate_opponent(view, d, stat, chosen=chosen)
                p *= _p_win(est - mine if low else mine - est, var)
        return p

    def _risk(self, view: View) -> float:
        """How much risk to take, in antes: how far behind the leader I am, plus how long the
        stakes have stood still (trading refused challenges decides nothing)."""
        stakes = view.stakes
        behind = max(_highest(stakes) - stakes[view.player], 0) / view.ante
        return behind + max(self.stall - 3, 0)

    def _stat(self, view: View) -> int | None:
        contested = view.contested
        return STAT_INDEX[contested] if contested else None

    def _challenge_value(
        self, view: View, a: Action, cache: DecisionCache
    ) -> tuple[float, float, bool]:
        """(expected chips, chance to win, whether anybody is expected to accept) of a challenge
        with that dude and stat, relative to not challenging. Each opponent is expected to
        accept with its best dude for the stat when, judging my dude from what it can see, the
        fight looks worth it to them; a refused challenge wins the ante, an accepted one is
        worth what the shootout is likely to pay."""
        mine_card = view.card(a.dude)
        st = view.true_stats(mine_card)
        i = STAT_INDEX[a.stat] if a.stat else None
        mine = top_stat(st) if i is None else st[i]
        low = cache.low
        k = 3 if i is None else i
        best = cache.best[k]
        if best is None:
            best = cache.best[k] = self._best_opponents(view, i, low, cache)
        ante = cache.ante
        if not best:
            return (view.n - 1) * ante, 1.0, False
        # how my dude looks to them: only what is public (showing, chips, concealed gear)
        seen, seen_var = _estimate_opponent(view, mine_card, i, chosen=True, cache=cache)
        my_risk = mine_card.chips + 0.5 * mine_card.printed.cost
        p = 1.0
        value = 0.0
        fight = False
        for est, var, d in best.values():
            pq = _p_win(est - mine if low else mine - est, var)
            p *= pq
            q = _p_win(seen - est if low else est - seen, seen_var)  # their view of the fight
            # a concealed dude's cost is hidden: the chips on it are what it shows
            known = view.known(d)
            their_risk = d.chips + 0.5 * (known.cost if known is not None else d.chips)
            accepts = q >= self.accept and q * (2 * ante + my_risk) >= (1 - q) * their_risk - 1
            if accepts and var == 0 and est == mine:
                continue  # a known tie: the pot is split, nothing is decided
            if accepts:
                fight = True
                bets = 2 * ante if pq > 0.7 else 0
                value += pq * (ante + their_risk + bets) - (1 - pq) * (ante + my_risk + bets)
            else:
                value += ante
        return value, p, fight

    def _best_opponents(
        self, view: View, i: int | None, low: bool, cache: DecisionCache
    ) -> dict[int, tuple[float, float, Card]]:
        """For each opponent, (estimate, variance, dude) of the saloon dude it would accept a
        challenge on stat `i` with."""
        me = view.player
        best: dict[int, tuple[float, float, Card]] = {}
        for d in view.dudes():
            if d.owner == me or d.in_street:
                continue
            est, var = _estimate_opponent(view, d, i, cache=cache)
            old = best.get(d.owner)
            if old is None or (est < old[0] if low else est > old[0]):
                best[d.owner] = (est, var, d)
        return best

    # --- choosing -------------------------------------------------------------------------

    def choose(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        choice: Action | None = None
        if phase == "turn":
            choice = self._turn(view, legal)
        elif phase == "discard":
            choice = self._discard(view, legal)
        elif phase == "bet":
            choice = self._bet(view, legal)
        elif phase == "fortune":
            choice = self._fortune(view, legal)
        elif phase == "accept":
            choice = self._accept(view, legal)
        elif phase == "reinvest":
            choice = self._reinvest(view, legal)
        elif phase == "reveal":
            choice = self._reveal(view, legal)
        elif phase == "shotgun":
            choice = self._shotgun(view, legal)
        elif phase == "cold_challenge":
            choice = self._cold_challenge(view, legal)
        if choice is not None:
            return choice
        return (
            legal[-1]
            if legal[-1].op in (Op.END_ACTIONS, Op.END_TURN, Op.PASS_FORTUNE)
            else legal[0]
        )

    def _turn(self, view: View, legal: list[Action]) -> Action | None:
        self.doubt = False
        me = view.player
        stakes = view.stakes
        stake = stakes[me]
        ante = view.ante
        reserve = 3 * ante
        mine = view.my_dudes()
        challenges = [a for a in legal if a.op == Op.CHALLENGE]
        # the game ends when an ante cannot be covered: call for one while ahead
        if (
            challenges
            and stake == _highest(stakes)
            and stakes.count(stake) == 1
            and _lowest(stakes) < ante
            and not view.last_man_standing
        ):
            return challenges[0]
        # Trading refused challenges keeps the stakes where they are: a player behind needs
        # shootouts, so the further behind, the longer the odds it will fight at.
        if view.turn != self.last_turn:  # the turn's first decision
            self.last_turn = view.turn
            self.stall = self.stall + 1 if abs(stake - self.last_stake) <= ante else 0
            self.last_stake = stake
        behind = self._risk(view)
        p_fight = max(0.5 - 0.04 * behind, 0.1)
        # something to fight with first: challenging ends the actions
        build = self._build(view, legal, mine, stake, reserve)
        if build is not None and view.actions_left > 1:
            return build
        best, best_score = None, -math.inf
        if challenges and stake >= ante:
            cache = DecisionCache(view)
            for a in challenges:
                value, p, fight = self._challenge_value(view, a, cache)
                if p < 0.5 and not (fight and p >= p_fight):
                    continue
                score = value + (behind * ante * p if fight else 0.0)
                if score > best_score:
                    best, best_score = a, score
        if best is not None:
            return best
        if build is not None:
            return build
        return next((a for a in legal if a.op == Op.END_ACTIONS), legal[-1])

    def _build(
        self,
        view: View,
        legal: list[Action],
        mine: list[Card],
        stake: int,
        reserve: int,
    ) -> Action | None:
        """Play a dude, gear or a kicker chip if one is worth it."""
        me = view.player
        best: Action | None = None
        if len(mine) < 3:
            best_worth = -math.inf
            for a in legal:
                if a.op == Op.PLAY_DUDE and stake - a.chips >= reserve:
                    worth = _dude_worth(view.card(a.card).printed, a)
                    if worth > best_worth:
                        best, best_worth = a, worth
            if best is not None:
                return best
        # concealed gear to bluff, on the dude with fewest gear
        fewest = chips_on = 0
        for a in legal:
            if a.op == Op.PLAY_GEAR and stake - a.chips >= reserve:
                on = len(view.card(a.dude).gear)
                keep = on < 3 and (not a.revealed or self.rng.random() < 0.3)
                if keep and (best is None or on < fewest or (on == fewest and a.chips < chips_on)):
                    best, fewest, chips_on = a, on, a.chips
        if best is not None:
            return best
        for a in legal:
            # the rules let a ☆ gear ability be used for every action left; using the same one
            # again rarely beats building (and Whirlwind's actions never run out)
            if a.op == Op.AS_GEAR:
                if view.turn != self.gear_turn:
                    self.gear_turn, self.gear_used = view.turn, []
                if (a.card, a.ability) not in self.gear_used:
                    self.gear_used.append((a.card, a.ability))
                    return a
        chips: dict[int, KickerChipDef] | None = None
        for a in legal:
            if a.op == Op.PLAY_KICKER:
                if chips is None:
                    chips = dict(view.my_kicker_chips())
                chip = chips[a.card]
                ev = sum(x[1] for x in chip.sides) / 2
                dude = view.card(a.dude)
                if (dude.owner == me and ev > 0) or (dude.owner != me and ev < 0):
                    return a
        return None

    def _discard(self, view: View, legal: list[Action]) -> Action | None:
        """Discard what cannot help soon, so the hand keeps turning over: cards dearer than
        the stake, gear with nobody to carry it, a dude weaker than the three already in the
        saloon, fortunes beyond two."""
        stake = view.my_stake
        mine = view.my_dudes()
        have_dude = bool(mine)
        fortunes: list[tuple[int, int]] = []
        for c in view.hand_cards():
            card = c.printed
            if card.is_dude:
                have_dude = True
            elif card.is_fortune:
                fortunes.append((card.cost, c.uid))
        weakest = -1
        if len(mine) >= 3:
            weakest = _top_printed(mine[0].defn)
            for m in mine:
                weakest = min(weakest, _top_printed(m.defn))
        gear_room = any(len(d.gear) < 3 for d in mine)
        fortunes.sort()
        extra_fortunes = [uid for _, uid in fortunes[:-2]]  # all but the two dearest
        for a in legal:
            if a.op != Op.DISCARD:
                continue
            d = view.card(a.card).printed  # in my hand
            if (
                d.cost > stake
                or a.card in extra_fortunes
                or (d.type == "gear" and (not have_dude or (mine and not gear_room)))
                or (d.is_dude and _top_printed(d) <= weakest)
            ):
                return a
        return next((a for a in legal if a.op == Op.END_TURN), legal[0])

    def _cold_challenge(self, view: View, legal: list[Action]) -> Action:
        cache = DecisionCache(view)
        best, best_value = legal[0], -math.inf
        for a in legal:
            value = self._challenge_value(view, a, cache)[0]
            if value > best_value:
                best, best_value = a, value
        return best

    def _accept(self, view: View, legal: list[Action]) -> Action | None:
        """Accept when the chance to win is worth the chips at risk: the ante is gone either
        way, so accepting pays when p * (pot + their chips) beats (1 - p) * mine."""
        stat = self._stat(view)
        c = view.street_dude(view.challenger)
        assert c is not None  # the challenger's dude is in the street
        self.doubt = False
        cache = DecisionCache(view)
        best, best_ev, best_p = self._best_accept(view, legal, stat, c, doubt=False, cache=cache)
        # Refusing every challenge only trades antes back and forth: a player behind gains
        # nothing from that, so the further behind the more risk it takes.
        behind = self._risk(view)
        slack = 1.0 + 0.5 * behind
        floor = self.accept / (1.0 + 0.25 * behind)
        if self.stall >= STALL_LIMIT:  # the game has stood still too long: any fight will do
            slack, floor = math.inf, 0.0
        if best is not None and best_ev >= -slack and best_p >= floor:
            return best
        # A concealed challenger may be bluffing: now and then call it, judging the dude as
        # any dude its chips could pay for rather than the best one.
        if not c.revealed and self.rng.random() < self.call_bluff:
            alt, alt_ev, alt_p = self._best_accept(view, legal, stat, c, doubt=True, cache=cache)
            if alt is not None and alt_ev >= -slack and alt_p >= floor:
                self.doubt = True
                return alt
        if best is not None and all(a.op == Op.ACCEPT for a in legal):
            return best
        return next((a for a in legal if a.op == Op.REFUSE), best)

    def _best_accept(
        self,
        view: View,
        legal: list[Action],
        stat: int | None,
        c: Card,
        doubt: bool,
        cache: DecisionCache | None = None,
    ) -> tuple[Action | None, float, float]:
        if cache is None:
            cache = DecisionCache(view)
        low = cache.low
        theirs, var = _estimate_opponent(view, c, stat, chosen=not doubt, cache=cache)
        their_risk = c.chips + sum(g.chips for g in c.gear if g.revealed)
        pot = view.pot
        best: Action | None = None
        best_ev, best_p = -math.inf, 0.0
        for a in legal:
            if a.op != Op.ACCEPT:
                continue
            dude = view.card(a.dude)
            mine = self._mine(view, dude, stat)
            p = _p_win(theirs - mine if low else mine - theirs, var)
            risk = dude.chips + sum(g.chips for g in dude.gear if g.revealed)
            ev = p * (pot + their_risk) - (1 - p) * (risk + 0.5 * dude.printed.cost)
            if ev > best_ev:
                best, best_ev, best_p = a, ev, p
        return best, best_ev, best_p

    def _shotgun(self, view: View, legal: list[Action]) -> Action:
        best: Action | None = None  # the first shot with the most stats in all
        most = 0
        for a in legal:
            if a.op == Op.SHOTGUN:
                d = view.card(a.card).printed
                total = d.smarts + d.skill + d.luck
                if best is None or total > most:
                    best, most = a, total
        return best if best is not None else legal[-1]

    def _bet(self, view: View, legal: list[Action]) -> Action | None:
        me = view.player
        dude = view.street_dude(me)
        assert dude is not None  # asked only while in the shootout
        p = self._p_shootout(view, dude, self._stat(view))
        owe = view.owe
        pot = view.pot
        check: Action | None = None  # the last of each kind
        call: Action | None = None
        fold: Action | None = None
        sized: list[Action] = []
        for a in legal:
            op = a.op
            if op == Op.BET or op == Op.RAISE:
                sized.append(a)
            elif op == Op.CHECK:
                check = a
            elif op == Op.CALL:
                call = a
            elif op == Op.FOLD:
                fold = a
        bluff = self.rng.random() < self.bluff
        if (p > self.shove or (bluff and self.shove <= 1.0)) and sized and view.raises < 2:
            return sized[-1]  # the largest: the sharp bot's all-in
        if (p > 0.7 or bluff) and sized and view.raises < 2:
            target = pot * (0.5 if p < 0.85 else 1.0)
            best, gap = sized[0], math.inf  # the first size nearest the target
            for a in sized:
                off = abs(a.amount - target)
                if off < gap:
                    best, gap = a, off
            return best
        if owe == 0:
            return check if check is not None else legal[0]
        if p * (pot + owe) >= (1 - p) * owe * self.call_factor or fold is None:
            return call if call is not None else legal[0]
        return fold

    def _reveal(self, view: View, legal: list[Action]) -> Action | None:
        stat = self._stat(view)
        low = view.lowball
        best, gain = None, 0
        for a in legal:
            if a.op != Op.REVEAL_GEAR:
                continue
            g = view.card(a.card)
            dude = g.host
            assert dude is not None  # gear in play is on a dude
            before = view.true_stats(dude, with_gear=False)
            after = view.stats_if_revealed(dude, g)
            if stat is None:
                delta = top_stat(after) - top_stat(before)
            else:
                delta = after[stat] - before[stat]
            if low:
                delta = -delta
            if delta > gain:
                best, gain = a, delta
        return best or next(a for a in legal if a.op == Op.PASS_REVEAL)

    def _fortune(self, view: View, legal: list[Action]) -> Action | None:
        me = view.player
        dude = view.street_dude(me)
        assert dude is not None  # asked only while in the shootout
        p = -1.0  # my chance in the shootout, worked out once a fortune would help
        stake = view.my_stake
        for a in legal:
            if a.op == Op.AS_FORTUNE:
                return a
            if a.op == Op.PLAY_FORTUNE:
                d = view.card(a.card).printed
                if not _fortune_helps(d):
                    continue
                if p < 0:
                    p = self._p_shootout(view, dude, self._stat(view))
                if (0.1 < p < 0.8) and (d.cost <= stake // 3 or stake == 0):
                    return a
        return next(a for a in legal if a.op == Op.PASS_FORTUNE)

    def _reinvest(self, view: View, legal: list[Action]) -> Action:
        """Reinvest a dude worth keeping: a strong one, or when there is little else to fight
        with (a reinvested dude costs what a fresh revealed one does)."""
        stake = view.my_stake
        for a in legal:
            if a.op == Op.REINVEST:
                d = view.card(a.dude)
                # $1 less than its cost if revealed (a dude that folded concealed pays it all)
                legacy = view.rules.rulings < RULINGS
                price = max(d.printed.cost - (1 if d.revealed or legacy else 0), 0)
                if stake - price < 3 * view.ante:
                    break
                best = _top_printed(d.defn)
                short = len(view.my_dudes()) < 2 and not any(
                    c.printed.is_dude for c in view.hand_cards()
                )
                if best >= 6 or (short and best >= 4):
                    return a
        return next(a for a in legal if a.op == Op.BURY)


class SearchBot:
    """Determinized Monte Carlo over hidden information with a rollout budget per decision."""

    name = "search"
    PHASES = ("accept", "bet", "reinvest", "fortune", "reveal", "cold_challenge")

    def __init__(self, seed: int = 0, rollouts: int = 24, horizon: int = 400) -> None:
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.horizon = horizon
        self.policy = HeuristicBot(seed + 1)

    def choose(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        base = self.policy.choose(view, legal)
        if view.phase not in self.PHASES:
            return base
        candidates = self._candidates(view.phase, legal, base)
        if len(candidates) == 1:
            return candidates[0]
        per = max(self.rollouts // len(candidates), 2)
        # common random numbers: every candidate is tried on the same sampled worlds
        seeds = [self.rng.randrange(1 << 30) for _ in range(per)]
        scores: list[float] = []
        for a in candidates:
            total = sum(self._rollout(view, a, seed) for seed in seeds)
            scores.append(total / per + (0.01 if a == base else 0.0))
        return candidates[max(range(len(candidates)), key=scores.__getitem__)]

    def _candidates(self, phase: str, legal: list[Action], base: Action) -> list[Action]:
        if phase != "bet":
            out = [base] + [a for a in legal if a != base]
            return out[:4]
        by: dict[str, list[Action]] = {}
        for a in legal:
            by.setdefault(a.kind, []).append(a)
        out = [base]
        for kind in (Kind.CHECK, Kind.CALL, Kind.FOLD):
            if kind in by and by[kind][0] not in out:
                out.append(by[kind][0])
        for kind in (Kind.BET, Kind.RAISE):
            if kind in by:
                for a in (by[kind][0], by[kind][-1]):
                    if a not in out:
                        out.append(a)
        return out

    def _rollout(self, view: View, action: Action, seed: int) -> float:
        me = view.player
        rng = random.Random(seed)
        sim = determinize(view, rng)
        policies = [HeuristicBot(seed + q) for q in range(sim.n)]
        sim.apply(action)
        start = sim.shootouts
        steps = 0
        while not sim.is_over and steps < self.horizon:
            if not sim.shooting and (sim.shootouts > start or sim.phase in ("discard", "turn")):
                break
            p = sim.actor
            sim.apply(policies[p].choose(sim.view(p), sim.legal_actions()))
            steps += 1
        worth = float(sim.stake[me])
        for d in sim.saloon:
            if d.owner == me:
                worth += d.chips + 0.5 * max(d.printed.cost - 1, 0)
        return worth


def determinize(view: View, rng: random.Random) -> DrifterState:
    """A copy of the game in which everything `view.player` cannot see is dealt again from
    what it may know, never from what it cannot see (issue #25 §4: the honesty check).

    The copy is made from the real state, so every hidden thing in it is overwritten, and in
    an order fixed by public facts alone (card ids, sorted), so that two games the seat cannot
    tell apart give the same sampled world for the same `rng`:

    - its own deck is dealt again in a random order (nobody knows the order of a deck; the
      seat knows its own deck list, so its own cards are kept);
    - an opponent's deck list is not in the view (only the catalogue is): each card in an
      opponent's hand or deck becomes a catalogue card drawn at random, and each concealed card
      of theirs (dude or gear, by where it lies) a catalogue card of that type the chips on it
      could pay for, preferring those up to the menu's bluff below them (what the heuristic's
      guesses average over); the hand's cards are dealt from their sorted ids, so which of
      them is in the hand is not read either;
    - the quick-start game's one shared deck is the seat's own deck too (its list is known to
      both players): the cards it cannot see (the other hand, the deck, the other player's
      concealed cards) keep their list between them, dealt again at random, a concealed card
      taking a remaining card of its type that its chips could pay for;
    - each chip in an opponent's kicker-chip stack becomes a catalogue chip of the same value
      (a chip's colour, its value, shows on the edge of the stack; its sides do not);
    - the chance (reshuffles, kicker flips) comes from a fresh seed drawn from `rng`."""
    me = view.player
    pri = _priors(view)
    sim = view._s.clone()  # read only to be copied: everything hidden is dealt again below
    sim.chance = RecordedChance(rng.randrange(1 << 30), None)
    opponents = [q for q in range(sim.n) if q != me]
    concealed = _concealed(sim, me)
    if sim.quick_start:
        _deal_shared(sim, opponents, concealed, rng)
    else:
        _deal_decks(sim, me, opponents, pri, rng)
        _deal_concealed(sim, view, concealed, pri, rng)
    by_value = pri.chips_by_value
    for q in opponents:
        for chip in sim.chips[q]:
            chip.defn = rng.choice(by_value[chip.defn.value])
    # caches that read what the cards are: the menu, the stats
    sim._menu = None
    sim.fresh_caches()
    return sim


def _concealed(sim: DrifterState, me: int) -> list[tuple[Card, str]]:
    """The opponents' concealed cards in play, in the order everyone sees them, and their type
    (where one lies shows it: a dude in the saloon or street, or gear on a dude)."""
    concealed: list[tuple[Card, str]] = []
    for d in sim.all_dudes():
        if d.owner != me and not d.revealed:
            concealed.append((d, "dude"))
        for g in d.gear:
            if g.owner != me and not g.revealed:
                concealed.append((g, "gear"))
    return concealed


def _deal_decks(
    sim: DrifterState, me: int, opponents: list[int], pri: _Priors, rng: random.Random
) -> None:
    """The seat's own deck in a new order; each opponent's hand and deck dealt from their
    sorted ids, each card a catalogue card drawn at random."""
    own = sorted(sim.deck[me], key=_uid)
    rng.shuffle(own)
    sim.deck[me][:] = own
    cards = pri.catalogue.cards
    for q in opponents:
        hidden = sorted(sim.hand[q] + sim.deck[q], key=_uid)
        rng.shuffle(hidden)
        k = len(sim.hand[q])
        sim.hand[q][:] = hidden[:k]
        sim.deck[q][:] = hidden[k:]
        for c in hidden:
            c.printed = c.defn = cards[rng.randrange(len(cards))]


def _deal_concealed(
    sim: DrifterState,
    view: View,
    concealed: list[tuple[Card, str]],
    pri: _Priors,
    rng: random.Random,
) -> None:
    """Each concealed card a catalogue card of its type its chips could pay for. A card whose
    abilities work while concealed can change what a dude shows: the cards dealt must show
    what the seat sees, so a deal that does not is dealt again (DEAL_TRIES at most)."""
    showing = [view.showing(d) for d in view.dudes()] if concealed else []
    for _ in range(DEAL_TRIES):
        for c, kind in concealed:
            fits = pri.fitting(kind, c.chips)
            c.printed = c.defn = fits[rng.randrange(len(fits))]
        sim._scan_abilities()  # what the cards can do at all: read from the cards dealt
        sim.fresh_caches()
        if [sim.stats(d) for d in sim.all_dudes()] == showing or not concealed:
            break


def _uid(card: Card) -> int:
    return card.uid


def _code(card: CardDef) -> str:
    return card.code


def _by_chips(item: tuple[Card, str]) -> tuple[int, int]:
    return item[0].chips, item[0].uid


def _deal_shared(
    sim: DrifterState,
    opponents: list[int],
    concealed: list[tuple[Card, str]],
    rng: random.Random,
) -> None:
    """The quick-start game: what the seat cannot see of the shared deck's list (the other
    hands, the deck, the other players' concealed cards) dealt again among those places."""
    deck = sim.deck[0]  # the shared deck (every seat's deck is this list)
    hidden = sorted([c for q in opponents for c in sim.hand[q]] + deck, key=_uid)
    pool = sorted([c.printed for c in hidden] + [c.printed for c, _ in concealed], key=_code)
    rng.shuffle(pool)
    # the fewest chips first: the cards that fit them fit every card with more, so a card
    # that fits is left for each (the real cards are one way to deal them)
    for c, kind in sorted(concealed, key=_by_chips):
        same = [i for i, d in enumerate(pool) if d.type == kind and not d.is_copy]
        fits = [i for i in same if pool[i].cost <= c.chips] or same or list(range(len(pool)))
        c.printed = c.defn = pool.pop(fits[rng.randrange(len(fits))])
    rng.shuffle(hidden)
    for c, d in zip(hidden, pool, strict=True):
        c.printed = c.defn = d
    at = 0
    for q in opponents:
        k = len(sim.hand[q])
        sim.hand[q][:] = hidden[at : at + k]
        for c in sim.hand[q]:
            c.owner = q
        at += k
    deck[:] = hidden[at:]


def _random(seat: int, seed: int) -> RandomBot:
    return RandomBot(seed)


def _heuristic(seat: int, seed: int) -> HeuristicBot:
    return HeuristicBot(seed)


def _sharp(seat: int, seed: int) -> HeuristicBot:
    return HeuristicBot(seed, shove=SHARP_SHOVE, call_factor=SHARP_CALL)


def _search(seat: int, seed: int) -> SearchBot:
    return SearchBot(seed)


# --- ISMCTS (simulator/engine/core/ismcts.py): what the generic search needs of this game ---

ISMCTS_ITERATIONS: Final = 90  # the default budget; docs/performance.md, "ISMCTS"
ISMCTS_WIDENING: Final = 1.0  # a node visited n times tries 1 + sqrt(n) of its moves
ISMCTS_SHOOTOUTS: Final = 1  # a rollout stops once this many shootouts more have ended
ISMCTS_HORIZON: Final = 80  # or after this many decisions
ISMCTS_SCALE: Final = 4.0  # antes of worth between two seats that make a 73% favourite


def _worth(sim: DrifterState, q: int) -> float:
    """What seat q has: its stake and, as SearchBot counts them, its dudes in the saloon."""
    worth = float(sim.stake[q])
    for d in sim.saloon:
        if d.owner == q:
            worth += d.chips + 0.5 * max(d.printed.cost - 1, 0)
    return worth


def ismcts_evaluate(sim: DrifterState) -> list[float]:
    """Each seat's reward in [0, 1] where a rollout stopped: a logistic of its worth against
    the mean of the others', in units of ISMCTS_SCALE antes."""
    n = sim.n
    worth = [_worth(sim, q) for q in range(n)]
    total = sum(worth)
    scale = ISMCTS_SCALE * max(sim.ante, 1)
    out: list[float] = []
    for q in range(n):
        others = (total - worth[q]) / (n - 1)
        out.append(1.0 / (1.0 + math.exp(max(min((others - worth[q]) / scale, 30.0), -30.0))))
    return out


def ismcts_mark(sim: DrifterState) -> int:
    """Where a rollout began: the shootouts ended by then."""
    return sim.shootouts


def ismcts_stop(sim: DrifterState, start: int) -> bool:
    """A rollout stops between shootouts once ISMCTS_SHOOTOUTS more have ended."""
    return not sim.shooting and sim.shootouts - start >= ISMCTS_SHOOTOUTS


ISMCTS_GAME: Final = SearchGame(
    determinize=lambda view, rng: determinize(view, rng),  # late-bound: the module's current one
    policy=_heuristic,
    evaluate=ismcts_evaluate,
    mark=ismcts_mark,
    stop=ismcts_stop,
    horizon=ISMCTS_HORIZON,
)


def ismcts(seat: int, seed: int, iterations: int = ISMCTS_ITERATIONS) -> ISMCTSBot:
    """The ISMCTS bot of a seat, with a budget of `iterations` per decision."""
    return ISMCTSBot(ISMCTS_GAME, seat, seed, iterations, widening=ISMCTS_WIDENING)


# typed as the registry takes it (GameSpec.bots): a dict is invariant in its values
FACTORIES: Final[dict[str, Callable[[int, int], Any]]] = {
    "random": _random,
    "heuristic": _heuristic,
    "sharp": _sharp,
    "search": _search,
    "ismcts": ismcts,
}

__all__ = [
    "FACTORIES",
    "STATS",
    "HeuristicBot",
    "RandomBot",
    "SearchBot",
    "determinize",
    "ismcts",
]
