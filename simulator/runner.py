"""Playing a chunk of a run: generic over the engine's registry, no Django.

A run's *plan* is plain JSON (stored on the run row, sent to nobody: tasks take ids):

    {"game": "drifter", "rules": {...}, "seed": 7, "games": 1000,
     "players": [{"label": "Sam's deck", "bot": "heuristic", "seat": {...engine seat...}}, ...],
     "matchups": [[0, 1], [0, 2]], "pairs": [[0, 1]]}

`games` is the number of games of *each* matchup. Game `i` of every matchup is played with the
same seed, `game_seed(seed, i)`, so results never depend on which worker played what, nor on
the chunk size, and a what-if run compares decks on common random numbers. Seats rotate with
`i` so every player sits in every seat, and goes first, once in every `n` consecutive games:
seat 0 acts first in Quickdraw, Gunfighter and Duel, and a High Stakes Drifter plan fixes
`first_player: 0` in its rules (adapters.prepare_rules).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from simulator.engine.core import GameSpec, get_game

SEED_MULTIPLIER = 1_000_003
SEED_MODULUS = 2**62
# A rough cost of one game (seconds) per game and bot, used to size chunks before any run
# has been measured (after three runs of a plan's kind the measured cost takes over,
# simulator.services). High Stakes Drifter's figures are for its compiled engine, and
# PURE_GAME_COST's for where it runs as pure Python (no build, or DRIFTER_PURE_ENGINE), both
# measured on 2026-11-22 (heads-up starter decks, one core, plus a quarter for play_chunk's
# bookkeeping: 1,388 compiled heuristic games/s through it in benchmarks/simulations.py). Sized
# for the pure engine, the first runs' chunks took a tenth of their intended second once the
# engine ran compiled, and Celery's per-task overhead grew to 12% of the workers' time.
GAME_COST = {
    ("quickdraw", "random"): 0.0002,
    ("quickdraw", "heuristic"): 0.0004,
    ("gunfighter", "random"): 0.0007,
    ("gunfighter", "heuristic"): 0.0007,
    ("duel", "random"): 0.0005,
    ("duel", "heuristic"): 0.0012,
    ("drifter", "random"): 0.00023,  # 0.00018 s a game in a bare loop
    ("drifter", "heuristic"): 0.0007,  # 0.00056
    ("drifter", "search"): 0.017,  # 0.0137 (against a heuristic bot)
}
PURE_GAME_COST = {
    ("drifter", "random"): 0.0011,  # 0.00088
    ("drifter", "heuristic"): 0.0047,  # 0.00377
    ("drifter", "search"): 0.049,  # 0.0391
}
DEFAULT_GAME_COST = 0.01


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game `index` of a run: a plain formula (no hash, no PYTHONHASHSEED)."""
    return (run_seed * SEED_MULTIPLIER + index) % SEED_MODULUS


def rotation(index: int, n_seats: int) -> list[int]:
    """Which matchup position sits in each seat for game `index`: seat s holds (s + r) mod n."""
    r = index % n_seats
    return [(s + r) % n_seats for s in range(n_seats)]


def estimate_cost(game: str, bots: Iterable[str], n_seats: int = 2) -> float:
    """Seconds one game is expected to take: the slowest bot decides, more seats cost more;
    PURE_GAME_COST where the game's engine could run compiled but runs as pure Python."""
    pure = {} if _runs_compiled(game) else PURE_GAME_COST
    costs = [
        pure.get((game, bot)) or GAME_COST.get((game, bot), DEFAULT_GAME_COST) for bot in bots
    ] or [DEFAULT_GAME_COST]
    return max(costs) * max(1.0, n_seats / 2)


def _runs_compiled(game: str) -> bool:
    """Whether the game's engine package runs its compiled build in this process."""
    from simulator.engine.compiled import active

    return active().get(f"simulator.engine.{game}", "").startswith("compiled")


@dataclass
class GameFacts:
    """What the report needs from one finished game, in seat numbers, all from `final()`:
    winners, who went first, stakes, turns, shootouts and, for High Stakes Drifter, the cards
    each seat played and its shootout log (docs/game-record.md, "final")."""

    winners: list[int]
    first: int
    stakes: list[int] | None = None
    turns: int | None = None
    shootouts: int | None = None
    # Card codes each seat played, once each (None: the game reports no cards).
    played: list[list[str]] | None = None
    # The engine's shootout entries: stat, challenger, seats, winners, net, pot, cards.
    shootout_log: list[dict[str, Any]] = field(default_factory=list)


class GameDriver:
    """How the service drives one registered game; fixed-component games need nothing more."""

    def __init__(self, spec: GameSpec, catalogue: Any = None) -> None:
        self.spec = spec
        self.catalogue = catalogue

    def rules(self, rules: dict) -> Any:
        """The `rules` argument of `new_game` from the plan's JSON rules."""
        return rules or None

    def seat(self, player: dict) -> Any:
        """The engine seat of a plan player."""
        return player.get("seat") or {"name": player["label"]}

    def new_game(self, seats: list, rules: Any, seed: int, record: bool) -> Any:
        return self.spec.new_game(seats=seats, rules=rules, seed=seed, record=record)

    def facts(self, state: Any, first: int) -> GameFacts:
        """What `final()` reports, in seat numbers. `first` is the seat that was to act when
        the game started, used when `final()` does not say who went first."""
        final = state.final()
        if "winners" in final:
            winners = [int(w) for w in final["winners"] or []]
        else:
            winner = final.get("winner")
            winners = [] if winner is None else [int(winner)]
        stakes = final.get("stakes")
        played = final.get("cards_played")
        return GameFacts(
            winners=winners,
            first=int(final.get("first", first)),
            stakes=[int(s) for s in stakes] if stakes is not None else None,
            turns=final.get("turns"),
            shootouts=final.get("shootouts"),
            played=[list(codes) for codes in played] if played is not None else None,
            shootout_log=list(final.get("shootout_log") or []),
        )


class DrifterDriver(GameDriver):
    """High Stakes Drifter: Rules objects, Seat records and the catalogue of the run."""

    def rules(self, rules: dict) -> Any:
        from simulator.engine.drifter import Rules

        return Rules.from_json(rules or {})

    def seat(self, player: dict) -> Any:
        from simulator.engine.drifter import Seat

        data = dict(player["seat"])
        data["bot"] = player["bot"]
        return Seat.from_json(data)

    def new_game(self, seats: list, rules: Any, seed: int, record: bool) -> Any:
        kwargs: dict[str, Any] = {}
        if self.catalogue is not None:
            kwargs["catalogue"] = self.catalogue
        return self.spec.new_game(seats=seats, rules=rules, seed=seed, record=record, **kwargs)


DRIVERS: dict[str, type[GameDriver]] = {"drifter": DrifterDriver}


def driver_for(game: str, catalogue: Any = None) -> GameDriver:
    """The driver of a registered game (RulesError if there is no such game)."""
    spec = get_game(game)
    return DRIVERS.get(game, GameDriver)(spec, catalogue)


def sample_indices(games: int, per_matchup: int) -> set[int]:
    """The game indices whose records are kept: `per_matchup` spread evenly over the run."""
    if per_matchup <= 0 or games <= 0:
        return set()
    step = max(1, games // per_matchup)
    return {i for i in range(0, games, step)}.intersection(range(step * per_matchup))


def _bump(counts: dict[str, int], value: Any) -> None:
    key = str(value)
    counts[key] = counts.get(key, 0) + 1


def _score(seat: int, winners: list[int]) -> float:
    if not winners:
        return 0.5
    if seat in winners:
        return 1.0 if len(winners) == 1 else 0.5
    return 0.0


def empty_position() -> dict[str, Any]:
    """The aggregate of one matchup position (a player in a matchup) before any game."""
    return {
        "games": 0,
        "wins": 0,
        "losses": 0,
        "ties": 0,
        "first_games": 0,
        "first_wins": 0,
        "other_games": 0,
        "other_wins": 0,
        "stakes": {},
        "shootouts_by_stat": {},
        "cards": {},
    }


def _record_game(agg: dict, matchup: list[int], order: list[int], facts: GameFacts) -> None:
    """Add one game's facts to a matchup aggregate. `order[s]` = matchup position in seat s."""
    agg["games"] += 1
    if facts.turns is not None:
        _bump(agg["turns"], facts.turns)
    if facts.shootouts is not None:
        _bump(agg["shootouts"], facts.shootouts)
    if not facts.winners:
        agg["draws"] += 1
    for seat, pos in enumerate(order):
        entry = agg["positions"][pos]
        entry["games"] += 1
        won = seat in facts.winners
        if won and len(facts.winners) == 1:
            entry["wins"] += 1
        elif won or not facts.winners:
            entry["ties"] += 1
        else:
            entry["losses"] += 1
        solo_win = 1 if won and len(facts.winners) == 1 else 0
        if seat == facts.first:
            entry["first_games"] += 1
            entry["first_wins"] += solo_win
        else:
            entry["other_games"] += 1
            entry["other_wins"] += solo_win
        if facts.stakes is not None:
            _bump(entry["stakes"], facts.stakes[seat])
        if facts.played is not None:
            for code in facts.played[seat]:
                card = entry["cards"].setdefault(code, _empty_card())
                card["games"] += 1
                card["wins"] += solo_win
    for shootout in facts.shootout_log:
        key = shootout["stat"] or "highest"  # quick-start: each dude's highest stat
        for seat, chips, cards in zip(
            shootout["seats"], shootout["net"], shootout["cards"], strict=True
        ):
            entry = agg["positions"][order[seat]]
            pair = entry["shootouts_by_stat"].setdefault(key, [0, 0])
            pair[1] += 1
            if seat in shootout["winners"]:
                pair[0] += 1
            for code in cards:
                card = entry["cards"].setdefault(code, _empty_card())
                card["shootouts"] += 1
                card["chips"] += chips
                card["chips_sq"] += chips * chips


def _empty_card() -> dict[str, int]:
    return {"games": 0, "wins": 0, "shootouts": 0, "chips": 0, "chips_sq": 0}


def empty_matchup(size: int) -> dict[str, Any]:
    """The aggregate of one matchup before any game."""
    return {
        "games": 0,
        "draws": 0,
        "turns": {},
        "shootouts": {},
        "positions": [empty_position() for _ in range(size)],
    }


def empty_pair() -> dict[str, float]:
    """The paired (what-if) aggregate: B's score minus A's, game by game."""
    return {"n": 0, "sum_d": 0.0, "sum_d2": 0.0, "a_only": 0, "b_only": 0}


@dataclass
class ChunkOutcome:
    """What a chunk produced: its aggregate, the sampled records and how long it took."""

    aggregate: dict
    records: list[dict]
    games: int
    seconds: float


def play_chunk(
    plan: dict,
    start: int,
    end: int,
    *,
    sample: set[int] | None = None,
    catalogue: Any = None,
    should_stop: Callable[[], bool] | None = None,
    on_game: Callable[[], None] | None = None,
) -> ChunkOutcome:
    """Play games `start` to `end - 1` of every matchup of `plan`; aggregate them.

    `sample` names game indices whose full records are kept (for every matchup). The result
    depends only on the plan and the range, never on the process that ran it.
    """
    began = time.perf_counter()
    driver = driver_for(plan["game"], catalogue)
    rules = driver.rules(plan.get("rules") or {})
    players = plan["players"]
    seats_of = [driver.seat(p) for p in players]
    matchups = plan["matchups"]
    aggs = [empty_matchup(len(m)) for m in matchups]
    pairs = [empty_pair() for _ in plan.get("pairs", [])]
    records: list[dict] = []
    sample = sample or set()
    games = 0
    for i in range(start, end):
        if should_stop is not None and should_stop():
            break
        seed = game_seed(plan["seed"], i)
        scores: list[float] = []
        for m, matchup in enumerate(matchups):
            order = rotation(i, len(matchup))
            entrants = [matchup[pos] for pos in order]
            keep = i in sample
            state = driver.new_game([seats_of[e] for e in entrants], rules, seed, keep)
            bots = [
                driver.spec.bots[players[e]["bot"]](s, seed * 16 + s)
                for s, e in enumerate(entrants)
            ]
            first = state.to_act if not state.is_over else 0
            while not state.is_over:
                p = state.to_act
                state.apply(bots[p].choose(state.view(p), state.legal_actions()))
            facts = driver.facts(state, first)
            _record_game(aggs[m], matchup, order, facts)
            # Position 0 is the player a what-if pair compares.
            scores.append(_score(order.index(0), facts.winners))
            if keep:
                records.append(
                    {
                        "matchup": m,
                        "index": i,
                        "seats": entrants,
                        "final": state.final(),
                        "record": state.record(),
                    }
                )
            games += 1
            if on_game is not None:
                on_game()
        for pair, (a, b) in zip(pairs, plan.get("pairs", [])):
            d = scores[b] - scores[a]
            pair["n"] += 1
            pair["sum_d"] += d
            pair["sum_d2"] += d * d
            pair["a_only"] += 1 if scores[a] == 1.0 and scores[b] < 1.0 else 0
            pair["b_only"] += 1 if scores[b] == 1.0 and scores[a] < 1.0 else 0
    return ChunkOutcome(
        aggregate={"games": games, "matchups": aggs, "pairs": pairs},
        records=records,
        games=games,
        seconds=time.perf_counter() - began,
    )
