"""Information-set Monte Carlo tree search (ISMCTS) for any game of the engine.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search",
IEEE TCIAIG 2012): each iteration draws a determinization, a full state consistent with what the
searching seat may know (`SearchGame.determinize(view, rng)`, built from the view alone), and
walks one tree of the searching seat's information sets, restricted to the actions legal in that
determinization. Every seat's choices are nodes of the tree (each maximises its own reward); a
node counts how often it was *available* as well as visited, and selection is UCB1 with the
availability count in place of the parent's visits, as in the paper.

Two changes to the paper's plain algorithm, both from the engine's own bots (each game's
heuristic bot, `SearchGame.policy`), because the budgets wanted here are tens to hundreds of
iterations, not tens of thousands:

- the default policy plays the rollouts (the paper's is random), and a rollout may stop early
  (`SearchGame.stop`, `SearchGame.horizon`) and be scored by `SearchGame.evaluate`;
- the tree is guided by the policy: at a node, the action the policy would take in this
  determinization is expanded first and has a progressive bias of `bias / (visits + 1)` in
  UCB1 (Chaslot et al., 2008): with few iterations the search starts from the policy's move and
  leaves it only for one that its rollouts show to be better;
- progressive widening (`widening`; None: none): a node visited n times has at most
  1 + widening * sqrt(n) children legal in the determinization at hand, the policy's move always
  among them. Without it, every iteration that reaches an opponent's node with an untried move
  plays that move, so the opponents of the tree play mostly at random in its first hundreds of
  iterations; with it they play mostly as the policy would with the cards dealt to them
  (High Stakes Drifter, 100 iterations against the search bot: 62.5% of 80 games with it,
  45-50% without at 40-70 iterations; docs/performance.md, "ISMCTS").

Budget: iterations per decision, so a decision is the same on every machine (a time budget is
not reproducible). Deterministic under a seed: every random number comes from the bot's own
`random.Random`, seeded from (seat, seed); the tree is kept in dicts (insertion order), never in
sets. Actions are told apart by equality and hash (every game's actions are frozen values).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


def outcome(state: Any) -> list[float]:
    """The reward of each seat of a game that has ended, from its `final()`: a winner's share
    of 1 among the winners (a draw: every seat an equal share)."""
    final = state.final()
    n = len(state.seats)
    if "winners" in final:
        winners = list(final["winners"] or [])
    else:
        winner = final.get("winner")
        winners = [] if winner is None else [winner]
    if not winners:
        return [1.0 / n] * n
    share = 1.0 / len(winners)
    return [share if q in winners else 0.0 for q in range(n)]


@dataclass(frozen=True)
class SearchGame:
    """What the search needs of one game.

    `determinize(view, rng)`: a full state consistent with `view` (what its seat may know),
    built from the view alone. `policy(seat, seed)`: the bot that plays the rollouts and guides
    the tree (a registered factory). `evaluate(state)`: each seat's reward in [0, 1] of a state
    where a rollout stopped before the end (default: an equal share). `stop(state, start)`:
    whether a rollout that began at the state `start` (its digest, `mark(state)`) stops here.
    `horizon`: the most decisions a rollout plays.
    """

    determinize: Callable[[Any, random.Random], Any]
    policy: Callable[[int, int], Any]
    evaluate: Callable[[Any], list[float]] | None = None
    mark: Callable[[Any], Any] | None = None
    stop: Callable[[Any, Any], bool] | None = None
    horizon: int = 10_000


class Node:
    """A node of the tree: reached by `action` of `player`. `total` is the sum of `player`'s
    rewards over its `visits`; `avail` counts the iterations in which it could be chosen."""

    __slots__ = ("action", "avail", "children", "player", "total", "visits")

    def __init__(self, player: int, action: Any) -> None:
        self.player = player
        self.action = action
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[Any, Node] = {}


class ISMCTSBot:
    """Chooses by `iterations` of ISMCTS from its seat's view (see the module docstring).

    `exploration` is UCB1's constant (rewards are in [0, 1]), `bias` the weight of the policy's
    move, `widening` how fast a node tries more moves (None: all at once). The tree is built
    afresh for each decision, from the view alone.
    """

    name = "ismcts"

    def __init__(
        self,
        game: SearchGame,
        seat: int,
        seed: int,
        iterations: int = 100,
        exploration: float = 0.7,
        bias: float = 0.5,
        widening: float | None = 1.0,
    ) -> None:
        self.game = game
        self.seat = seat
        self.rng = random.Random(f"ismcts {seat} {seed}")
        self.iterations = max(1, iterations)
        self.exploration = exploration
        self.bias = bias
        self.widening = widening
        self.last_root: Node | None = None  # the last decision's tree (tests and benchmarks)

    def choose(self, view: Any, legal_actions: list[Any]) -> Any:
        """One of `legal_actions`, decided from `view` alone."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        root = Node(-1, None)
        for _ in range(self.iterations):
            self._iterate(root, view)
        self.last_root = root
        best, best_key = legal_actions[0], (-1, -math.inf)
        for action in legal_actions:
            child = root.children.get(action)
            if child is not None and child.visits:
                key = (child.visits, child.total / child.visits)
                if key > best_key:
                    best, best_key = action, key
        return best

    def _iterate(self, root: Node, view: Any) -> None:
        """One iteration: determinize, select and expand down the tree, roll out, back up."""
        rng = self.rng
        state = self.game.determinize(view, rng)
        policies: list[Any] = [
            self.game.policy(q, rng.randrange(1 << 30)) for q in range(len(state.seats))
        ]
        root.visits += 1
        node, path = root, []
        while not state.is_over:
            legal = state.legal_actions()
            player = state.to_act
            guide = policies[player].choose(state.view(player), legal) if len(legal) > 1 else None
            child, expanded = self._step(node, legal, player, guide)
            path.append(child)
            state.apply(child.action)
            node = child
            if expanded:
                break
        rewards = self._rollout(state, policies)
        for child in path:
            child.visits += 1
            child.total += rewards[child.player]

    def _step(self, node: Node, legal: list[Any], player: int, guide: Any) -> tuple[Node, bool]:
        """The child of `node` to go down to among `legal` (every one of them counted as
        available), and whether it was just added. The policy's move `guide` is added first;
        another untried action only while the node has fewer children legal here than its
        widening allows (all of them without one); else the best by UCB1 with availability
        counts."""
        children = node.children
        action = guide if guide is not None and guide not in children else None
        if action is None:
            untried = [a for a in legal if a not in children]
            if untried and len(legal) - len(untried) < self._width(node.visits):
                action = untried[self.rng.randrange(len(untried))]
        if action is not None:
            children[action] = Node(player, action)
        tried = [children[a] for a in legal if a in children]
        for child in tried:
            child.avail += 1
        if action is not None:
            return children[action], True
        c, bias = self.exploration, self.bias
        best, best_score = tried[0], -math.inf
        for child in tried:
            n = child.visits
            score = child.total / n + c * math.sqrt(math.log(child.avail) / n)
            if child.action == guide:
                score += bias / (n + 1)
            if score > best_score:
                best, best_score = child, score
        return best, False

    def _width(self, visits: int) -> float:
        """How many children a node visited `visits` times may have (progressive widening:
        the policy's move, then more as the node is visited more)."""
        if self.widening is None:
            return math.inf
        return 1 + self.widening * math.sqrt(visits)

    def _rollout(self, state: Any, policies: list[Any]) -> list[float]:
        """Play on with the policy bots until the end, the game's stop or the horizon; each
        seat's reward."""
        game = self.game
        start = game.mark(state) if game.mark is not None else None
        stop = game.stop
        steps = 0
        while not state.is_over:
            if steps >= game.horizon or (stop is not None and stop(state, start)):
                n = len(state.seats)
                return game.evaluate(state) if game.evaluate else [1.0 / n] * n
            p = state.to_act
            state.apply(policies[p].choose(state.view(p), state.legal_actions()))
            steps += 1
        return outcome(state)


def bot_factory(game: SearchGame, iterations: int, **settings: Any) -> Callable[..., ISMCTSBot]:
    """The registered factory of a game's ISMCTS bot, `(seat, seed, iterations)`: a budget of
    `iterations` per decision unless the seat gives its own, and the game's `settings` (e.g.
    `bias`) passed on to every bot it makes."""

    def make(seat: int, seed: int, budget: int = iterations) -> ISMCTSBot:
        return ISMCTSBot(game, seat, seed, budget, **settings)

    return make


def blank_state(state_class: Callable[..., Any], seats: int, rng: random.Random) -> Any:
    """A new game of a small game with `seats` seats, its own chance seeded from `rng` and no
    record: what a determinization overwrites with what the view says."""
    return state_class([{"name": f"P{i}"} for i in range(seats)], None, rng.randrange(1 << 30))


def deal(pool: list[Any], sizes: list[int]) -> list[list[Any]]:
    """`pool` (already shuffled) cut into consecutive parts of `sizes`."""
    out, at = [], 0
    for size in sizes:
        out.append(pool[at : at + size])
        at += size
    return out


def logistic(x: float) -> float:
    """1 / (1 + e^-x), safe for any x: a lead turned into a reward in [0, 1]."""
    return 1.0 / (1.0 + math.exp(max(min(-x, 30.0), -30.0)))
