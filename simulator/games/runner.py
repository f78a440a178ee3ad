"""Playing a chunk of a run: generic over the games' service specs (simulator.games), no Django.

A run's *plan* is plain JSON (stored on the run row, sent to nobody: tasks take ids), typed
as `simulator.games.plans.Plan`:

    {"game": "drifter", "rules": {...}, "seed": 7, "games": 1000,
     "players": [{"label": "Sam's deck", "bot": "heuristic", "seat": {...engine seat...}}, ...],
     "matchups": [[0, 1], [0, 2]], "pairs": [[0, 1]], "catalogue_version": 3, ...}

`games` is the number of games of *each* matchup. Game `i` of every matchup is played with the
same seed, `game_seed(seed, i)`, so results never depend on which worker played what, nor on
the chunk size, and a what-if run compares decks on common random numbers. Seats rotate with
`i` so every player sits in every seat, and goes first, once in every `n` consecutive games:
seat 0 acts first in Quickdraw, Gunfighter and Duel, and a High Stakes Drifter plan fixes
`first_player: 0` in its rules (simulator/games/drifter.py, `prepare_rules`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from simulator.engine.compiled import active
from simulator.games import service_for
from simulator.games.base import DEFAULT_GAME_COST
from simulator.games.plans import (
    CardAggregate,
    GameFacts,
    MatchupAggregate,
    PairAggregate,
    Plan,
    PositionAggregate,
    RunAggregate,
    SampleRecord,
)

SEED_MULTIPLIER = 1_000_003
SEED_MODULUS = 2**62


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game `index` of a run: a plain formula (no hash, no PYTHONHASHSEED)."""
    return (run_seed * SEED_MULTIPLIER + index) % SEED_MODULUS


def rotation(index: int, n_seats: int) -> list[int]:
    """Which matchup position sits in each seat for game `index`: seat s holds (s + r) mod n."""
    r = index % n_seats
    return [(s + r) % n_seats for s in range(n_seats)]


def estimate_cost(game: str, bots: Iterable[str], n_seats: int = 2) -> float:
    """Seconds one game is expected to take, from the game's service spec (its `game_cost`
    per bot): the slowest bot decides, more seats cost more; `pure_game_cost` where the
    game's engine could run compiled but runs as pure Python."""
    service = service_for(game)
    pure = {} if _runs_compiled(game) else service.pure_game_cost
    costs = [pure.get(bot) or service.game_cost.get(bot, DEFAULT_GAME_COST) for bot in bots] or [
        DEFAULT_GAME_COST
    ]
    return max(costs) * max(1.0, n_seats / 2)


def _runs_compiled(game: str) -> bool:
    """Whether the game's engine package runs its compiled build in this process."""
    return active().get(f"simulator.engine.{game}", "").startswith("compiled")


def sample_indices(games: int, per_matchup: int) -> set[int]:
    """The game indices whose records are kept: `per_matchup` spread evenly over the run."""
    if per_matchup <= 0 or games <= 0:
        return set()
    step = max(1, games // per_matchup)
    return set(range(0, min(games, step * per_matchup), step))


def _bump(counts: dict[str, int], value: object) -> None:
    key = str(value)
    counts[key] = counts.get(key, 0) + 1


def _score(seat: int, winners: list[int]) -> float:
    if not winners:
        return 0.5
    if seat in winners:
        return 1.0 if len(winners) == 1 else 0.5
    return 0.0


def empty_position() -> PositionAggregate:
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


def _record_game(
    agg: MatchupAggregate, matchup: list[int], order: list[int], facts: GameFacts
) -> None:
    """Add one game's facts to a matchup aggregate. `order[s]` = matchup position in seat s."""
    agg["games"] += 1
    if facts.turns is not None:
        _bump(agg["turns"], facts.turns)
    if facts.shootouts is not None:
        _bump(agg["shootouts"], facts.shootouts)
    if not facts.winners:
        agg["draws"] += 1
    table = len(order) > 2
    places = finishing_places(facts.stakes) if table and facts.stakes is not None else None
    for seat, pos in enumerate(order):
        entry = agg["positions"][pos]
        entry["games"] += 1
        if table:
            _record_table_seat(entry, seat, len(order), facts.winners, places)
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
            cards = entry["cards"]
            for code in facts.played[seat]:
                card = cards.get(code)
                if card is None:
                    card = cards[code] = _empty_card()
                card["games"] += 1
                card["wins"] += solo_win
    _record_tallies(agg, order, facts.shootout_tallies)


def _record_tallies(
    agg: MatchupAggregate,
    order: list[int],
    tallies: list[tuple[dict[str, list[int]], dict[str, list[int]]]],
) -> None:
    """A game's shootouts as the engine summed them per seat (GameFacts.shootout_tallies):
    the totals the shootout log adds up entry by entry, added once per stat and card."""
    for seat, (by_stat, by_card) in enumerate(tallies):
        if not by_stat:
            continue
        entry = agg["positions"][order[seat]]
        stats = entry["shootouts_by_stat"]
        for key, (won, fought) in by_stat.items():
            pair = stats.setdefault(key, [0, 0])
            pair[0] += won
            pair[1] += fought
        cards = entry["cards"]
        for code, (fought, chips, chips_sq) in by_card.items():
            card = cards.get(code)
            if card is None:
                card = cards[code] = _empty_card()
            card["shootouts"] += fought
            card["chips"] += chips
            card["chips_sq"] += chips_sq


def finishing_places(stakes: list[int]) -> list[float]:
    """Each seat's finishing place by its ending stake: 1 + the seats with more, seats tied
    sharing the mean of their places (two tied at the top are both 1.5)."""
    return [1 + sum(o > s for o in stakes) + (sum(o == s for o in stakes) - 1) / 2 for s in stakes]


def _record_table_seat(
    entry: PositionAggregate, seat: int, n_seats: int, winners: list[int],
    places: list[float] | None,
) -> None:  # fmt: skip
    """A table of more than two seats: how many seats shared this seat's win (none won: all of
    them did), and its finishing place, as exact histograms (merged by key, like `stakes`)."""
    if seat in winners or not winners:
        _bump(entry.setdefault("shared_wins", {}), len(winners) or n_seats)
    if places is not None:
        _bump(entry.setdefault("places", {}), f"{places[seat]:g}")


def _empty_card() -> CardAggregate:
    return {"games": 0, "wins": 0, "shootouts": 0, "chips": 0, "chips_sq": 0}


def empty_matchup(size: int) -> MatchupAggregate:
    """The aggregate of one matchup before any game."""
    return {
        "games": 0,
        "draws": 0,
        "turns": {},
        "shootouts": {},
        "positions": [empty_position() for _ in range(size)],
    }


def empty_pair() -> PairAggregate:
    """The paired (what-if) aggregate: B's score minus A's, game by game."""
    return {"n": 0, "sum_d": 0.0, "sum_d2": 0.0, "a_only": 0, "b_only": 0}


@dataclass
class DecisionTime:
    """A player's decisions in a timing pass, and the seconds its bot took over them."""

    decisions: int = 0
    seconds: float = 0.0


class _TimedBot:
    """A bot whose every decision is timed into a `DecisionTime` (play_chunk's `timings`)."""

    def __init__(self, bot: Any, timing: DecisionTime) -> None:
        self.bot = bot
        self.timing = timing
        self.name = getattr(bot, "name", "")

    def choose(self, view: Any, legal_actions: Any) -> Any:
        began = time.perf_counter()
        action = self.bot.choose(view, legal_actions)
        self.timing.seconds += time.perf_counter() - began
        self.timing.decisions += 1
        return action


@dataclass
class ChunkOutcome:
    """What a chunk produced: its aggregate, the sampled records and how long it took."""

    aggregate: RunAggregate
    records: list[SampleRecord]
    games: int
    seconds: float


# long: the workers' hot loop: a game's steps stay inline (no call per game), on its locals
def play_chunk(
    plan: Plan,
    start: int,
    end: int,
    *,
    sample: set[int] | None = None,
    catalogue: Any = None,
    should_stop: Callable[[], bool] | None = None,
    on_game: Callable[[], None] | None = None,
    timings: list[DecisionTime] | None = None,
) -> ChunkOutcome:
    """Play games `start` to `end - 1` of every matchup of `plan`; aggregate them.

    `sample` names game indices whose full records are kept (for every matchup); `catalogue`
    is the card catalogue of a game that plays with one (the plan's pinned version). The
    result depends only on the plan and the range, never on the process that ran it.
    `timings` (one per player of the plan) adds up the time each player's bot takes to decide:
    a timing pass, never a worker's chunk (the bots are wrapped only then).
    """
    began = time.perf_counter()
    game = service_for(plan["game"])
    rules = game.engine_rules(plan.get("rules") or {})
    players = plan["players"]
    seats_of = [game.engine_seat(p) for p in players]
    matchups = plan["matchups"]
    aggs = [empty_matchup(len(m)) for m in matchups]
    pairs = [empty_pair() for _ in plan.get("pairs", [])]
    records: list[SampleRecord] = []
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
            state = game.new_game([seats_of[e] for e in entrants], rules, seed, keep, catalogue)
            bots = [
                game.make_bot(players[e]["bot"], s, seed * 16 + s, players[e].get("budget"))
                for s, e in enumerate(entrants)
            ]
            if timings is not None:
                bots = [_TimedBot(bot, timings[e]) for bot, e in zip(bots, entrants)]
            first = state.to_act if not state.is_over else 0
            while not state.is_over:
                p = state.to_act
                state.apply(bots[p].choose(state.view(p), state.legal_actions()))
            facts = game.facts(state, first)
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
