"""Drifter bots. Each decides from `state.view(player)` and the legal actions alone.

- `random`: uniformly random among the legal actions (core.RandomBot).
- `heuristic`: picks a contested stat its dude is strong in, estimates its chance to win from
  what it can see, bets / calls / folds on that estimate, bluffs now and then, reveals gear that
  helps, plays fortunes that swing the showdown, reinvests when the dude is worth it.
- `search`: determinized Monte Carlo: for the big decisions (accept, bet, reveal, fortune,
  reinvest) it samples the hidden cards consistently with its view, plays each candidate out
  with heuristic bots to the end of the shootout and picks the best average stake.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from simulator.engine.core.bots import RandomBot
from simulator.engine.core.chance import RecordedChance
from simulator.engine.drifter.actions import Action
from simulator.engine.drifter.cards import STAT_INDEX, STATS

if TYPE_CHECKING:
    from simulator.engine.drifter.view import View

GUESS_DUDE = 5  # what a concealed opposing dude is guessed to add to a stat
GUESS_GEAR = 2  # and each concealed gear card on it


def _estimate_opponent(view: View, dude, stat: int) -> float:
    """A guess at an opposing dude's final stat from what is visible."""
    shown = view.showing(dude)[stat]
    guess = shown
    if not dude.revealed:
        guess += GUESS_DUDE
    guess += GUESS_GEAR * sum(1 for g in dude.gear if not g.revealed)
    return guess


def _p_win(margin: float) -> float:
    return 1.0 / (1.0 + math.exp(-margin / 2.0))


class HeuristicBot:
    """Plays from estimates; see the module docstring."""

    name = "heuristic"

    def __init__(self, seed: int = 0, bluff: float = 0.08, accept: float = 0.25) -> None:
        self.rng = random.Random(seed)
        self.bluff = bluff
        self.accept = accept

    # --- estimates ------------------------------------------------------------------------

    def _mine(self, view: View, dude, stat: int | None) -> float:
        st = view.true_stats(dude)
        return max(st) if stat is None else st[stat]

    def _strength(self, view: View, dude, stat: int | None) -> float:
        """My dude's margin over the best opposing estimate in the current shootout."""
        mine = self._mine(view, dude, stat)
        opp = []
        for q in range(view.n):
            if q != view.player and view.in_shootout(q):
                d = view.street_dude(q)
                if stat is None:
                    opp.append(max(_estimate_opponent(view, d, i) for i in range(3)))
                else:
                    opp.append(_estimate_opponent(view, d, stat))
        if not opp:
            return 10.0
        if view.rules.has("lowball"):
            return min(opp) - mine
        return mine - max(opp)

    def _stat(self, view: View) -> int | None:
        return STAT_INDEX[view.contested] if view.contested else None

    # --- choosing -------------------------------------------------------------------------

    def choose(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        handler = getattr(self, "_" + phase, None)
        if handler is not None:
            choice = handler(view, legal)
            if choice is not None:
                return choice
        return (
            legal[-1] if legal[-1].kind in ("end_actions", "end_turn", "pass_fortune") else legal[0]
        )

    def _turn(self, view: View, legal: list[Action]) -> Action | None:
        me = view.player
        stake = view.stakes[me]
        reserve = 4 * view.ante
        mine = view.my_dudes()
        kinds: dict[str, list[Action]] = {}
        for a in legal:
            kinds.setdefault(a.kind, []).append(a)
        # the game ends when an ante cannot be covered: call for one while ahead
        stakes = view.stakes
        if (
            "challenge" in kinds
            and stake == max(stakes)
            and stakes.count(stake) == 1
            and min(stakes) < view.ante
            and not view.rules.has("last_man_standing")
        ):
            return kinds["challenge"][0]
        # challenge when a dude is clearly ahead on some stat
        if "challenge" in kinds and stake >= view.ante * 2:
            best, best_margin = None, 1.5
            for a in kinds["challenge"]:
                dude = view.card(a.dude)
                st = view.true_stats(dude)
                i = STAT_INDEX[a.stat] if a.stat else st.index(max(st))
                opp = [
                    _estimate_opponent(view, d, i) + 1
                    for d in view.dudes()
                    if d.owner != me and not d.in_street
                ]
                margin = st[i] - (max(opp) if opp else 0)
                if view.rules.has("lowball"):
                    margin = (min(opp) if opp else 99) - st[i]
                if margin > best_margin:
                    best, best_margin = a, margin
            if best is not None and (len(mine) > 0):
                gear_ready = any(len(d.gear) >= 1 for d in mine) or self.rng.random() < 0.3
                if gear_ready or best_margin > 4:
                    return best
            # nothing clearly ahead: challenge anyway now and then, or the saloon stalls
            if best is None and self.rng.random() < 0.2:
                return max(
                    kinds["challenge"], key=lambda a: max(view.true_stats(view.card(a.dude)))
                )
        # a dude if there are fewer than two in the saloon
        if "play_dude" in kinds and len(mine) < 2:
            options = [a for a in kinds["play_dude"] if stake - a.chips >= reserve]
            if options:

                def worth(a: Action) -> float:
                    d = view.card(a.card).printed
                    return (
                        max(d.stats)
                        + 0.3 * sum(d.stats)
                        - 0.2 * a.chips
                        + (0.5 if not a.revealed and a.chips == d.cost else 0)
                    )

                return max(options, key=worth)
        if "play_gear" in kinds:
            options = [a for a in kinds["play_gear"] if stake - a.chips >= reserve]
            # concealed gear to bluff, on the dude with fewest gear
            options = [a for a in options if not a.revealed or self.rng.random() < 0.3]
            if options:
                return min(options, key=lambda a: (len(view.card(a.dude).gear), a.chips))
        if "as_gear" in kinds:
            return kinds["as_gear"][0]
        if "play_kicker" in kinds:
            for a in kinds["play_kicker"]:
                chip = next(k for uid, k in view.my_kicker_chips() if uid == a.card)
                ev = sum(x[1] for x in chip.sides) / 2
                dude = view.card(a.dude)
                if (dude.owner == me and ev > 0) or (dude.owner != me and ev < 0):
                    return a
        return kinds.get("end_actions", [legal[-1]])[0]

    def _discard(self, view: View, legal: list[Action]) -> Action | None:
        stake = view.stakes[view.player]
        hand = dict(view.hand())
        have_dude = bool(view.my_dudes()) or any(d.is_dude for d in hand.values())
        for a in legal:
            if a.kind != "discard":
                continue
            d = hand[a.card]
            if d.cost > stake or (d.type == "gear" and not have_dude and len(hand) >= 4):
                return a
        return next((a for a in legal if a.kind == "end_turn"), legal[0])

    def _cold_challenge(self, view: View, legal: list[Action]) -> Action:
        def margin(a: Action) -> float:
            st = view.true_stats(view.card(a.dude))
            return st[STAT_INDEX[a.stat]]

        return max(legal, key=margin)

    def _accept(self, view: View, legal: list[Action]) -> Action | None:
        stat = self._stat(view)
        best, best_p = None, 0.0
        for a in legal:
            if a.kind != "accept":
                continue
            dude = view.card(a.dude)
            mine = self._mine(view, dude, stat)
            c = view.street_dude(view.challenger)
            theirs = (
                max(_estimate_opponent(view, c, i) for i in range(3))
                if stat is None
                else _estimate_opponent(view, c, stat)
            )
            margin = theirs - mine if view.rules.has("lowball") else mine - theirs
            p = _p_win(margin)
            if p > best_p:
                best, best_p = a, p
        if best is not None and (best_p >= self.accept or all(a.kind == "accept" for a in legal)):
            return best
        return next((a for a in legal if a.kind == "refuse"), best)

    def _shotgun(self, view: View, legal: list[Action]) -> Action:
        shots = [a for a in legal if a.kind == "shotgun"]
        return (
            max(shots, key=lambda a: sum(view.card(a.card).printed.stats)) if shots else legal[-1]
        )

    def _bet(self, view: View, legal: list[Action]) -> Action | None:
        me = view.player
        dude = view.street_dude(me)
        p = _p_win(self._strength(view, dude, self._stat(view)))
        owe = view.owe
        pot = view.pot
        by = {a.kind: a for a in legal}
        sized = [a for a in legal if a.kind in ("bet", "raise")]
        bluff = self.rng.random() < self.bluff
        if (p > 0.7 or bluff) and sized and view.raises < 2:
            target = pot * (0.5 if p < 0.85 else 1.0)
            return min(sized, key=lambda a: abs(a.amount - target))
        if owe == 0:
            return by.get("check", legal[0])
        if p * (pot + owe) >= (1 - p) * owe * 1.1 or "fold" not in by:
            return by.get("call", legal[0])
        return by["fold"]

    def _reveal(self, view: View, legal: list[Action]) -> Action | None:
        stat = self._stat(view)
        best, gain = None, 0
        for a in legal:
            if a.kind != "reveal_gear":
                continue
            g = view.card(a.card)
            dude = g.host
            before = view.true_stats(dude, with_gear=False)
            after = view.stats_if_revealed(dude, g)
            delta = (max(after) - max(before)) if stat is None else after[stat] - before[stat]
            if view.rules.has("lowball"):
                delta = -delta
            if delta > gain:
                best, gain = a, delta
        return best or next(a for a in legal if a.kind == "pass_reveal")

    def _fortune(self, view: View, legal: list[Action]) -> Action | None:
        me = view.player
        dude = view.street_dude(me)
        strength = self._strength(view, dude, self._stat(view))
        stake = view.stakes[me]
        for a in legal:
            if a.kind == "as_fortune":
                return a
            if a.kind == "play_fortune":
                d = view.card(a.card).printed
                helps = any(
                    (
                        e.kind in ("stat_mod", "stat_mod_per")
                        and (e.amount or 0) > 0
                        and e.target == "self"
                    )
                    or (
                        e.kind in ("stat_mod",)
                        and (e.amount or 0) < 0
                        and e.target in ("opponents", "chosen_opponent")
                    )
                    or e.kind in ("take_from_pot", "change_contested", "wins_ties", "tax")
                    for ab in d.abilities
                    for e in ab.effects
                )
                if helps and (-6 < strength < 3) and (d.cost <= stake // 3 or stake == 0):
                    return a
        return next(a for a in legal if a.kind == "pass_fortune")

    def _reinvest(self, view: View, legal: list[Action]) -> Action:
        for a in legal:
            if a.kind == "reinvest":
                d = view.card(a.dude)
                stake = view.stakes[view.player]
                if max(d.defn.stats) >= 6 and stake - (d.printed.cost - 1) >= 4 * view.ante:
                    return a
        return next(a for a in legal if a.kind == "bury")


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
        scores = []
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
        for kind in ("check", "call", "fold"):
            if kind in by and by[kind][0] not in out:
                out.append(by[kind][0])
        for kind in ("bet", "raise"):
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
        while not sim.over and steps < self.horizon:
            if not sim.shooting and (sim.shootouts > start or sim.phase in ("discard", "turn")):
                break
            p = sim.actor
            sim.apply(policies[p].choose(sim.view(p), sim.legal_actions()))
            steps += 1
        worth = sim.stake[me]
        for d in sim.saloon:
            if d.owner == me:
                worth += d.chips + 0.5 * max(d.printed.cost - 1, 0)
        return worth


def determinize(view: View, rng: random.Random):
    """A copy of the game in which everything `view.player` cannot see is dealt again at
    random from the cards it could be: other players' hands and decks are reshuffled together,
    and their concealed cards swapped with unseen cards of the same type."""
    s = view._s
    me = view.player
    sim = s.clone()
    sim.chance = RecordedChance(rng.randrange(1 << 30), None)
    rng.shuffle(sim.deck[me])  # nobody knows the order of their own deck either
    for q in range(sim.n):
        if q == me or (sim.rules.quick_start and q > 0):
            continue
        pool = sim.hand[q] + sim.deck[q]
        rng.shuffle(pool)
        k = len(sim.hand[q])
        sim.hand[q][:] = pool[:k]
        sim.deck[q][:] = pool[k:]
        # concealed cards of q trade places with unseen cards of the same type
        for d in sim.all_dudes():
            for c in [d, *d.gear]:
                if c.owner != q or c.revealed:
                    continue
                if c.printed.is_copy:
                    continue
                swaps = [
                    x
                    for x in sim.deck[q]
                    if x.printed.type == c.printed.type and x.printed.cost <= c.chips
                ]
                if swaps and rng.random() < 0.5:
                    x = rng.choice(swaps)
                    _swap_identity(c, x)
    sim._menu = None
    sim.stat_cache, sim.fx_cache = {}, {}
    return sim


def _swap_identity(a, b) -> None:
    a.printed, b.printed = b.printed, a.printed
    a.defn, b.defn = b.defn, a.defn


def _random(seat: int, seed: int) -> RandomBot:
    return RandomBot(seed)


def _heuristic(seat: int, seed: int) -> HeuristicBot:
    return HeuristicBot(seed)


def _search(seat: int, seed: int) -> SearchBot:
    return SearchBot(seed)


FACTORIES = {"random": _random, "heuristic": _heuristic, "search": _search}

__all__ = ["FACTORIES", "STATS", "HeuristicBot", "RandomBot", "SearchBot", "determinize"]
