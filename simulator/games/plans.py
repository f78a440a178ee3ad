"""The shapes of a run's JSON: its plan, its aggregates and its report, typed.

These are TypedDicts rather than dataclasses on purpose: each is stored as JSON in the
database (`SimulationRun.plan`, `.aggregate`, `ChunkResult.aggregate`) or answered by the API,
and a TypedDict is that JSON itself, so typing them changed no byte of what is stored or sent.
Plain Python, no Django: the runner and the engine's drivers use them in workers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

# --- the plan (SimulationRun.plan) ----------------------------------------------------------


class Problem(TypedDict):
    """One problem with a run's input: the API's error shape (docs/api.md), with the deck
    validator's extras where it set them (`formats.Problem`)."""

    code: str
    detail: str
    attr: str | None
    card: NotRequired[str]
    kicker_chip: NotRequired[str]
    qty: NotRequired[int]
    limit: NotRequired[int]
    line: NotRequired[int]


class Change(TypedDict):
    """A what-if change to a deck: card code -> copies added or removed."""

    add: dict[str, int]
    remove: dict[str, int]


class PlanPlayer(TypedDict):
    """A player of a plan. `seat` is the engine seat's JSON, for games played with decks
    (High Stakes Drifter: name, deck, chips, bot); fixed-component games have none."""

    label: str
    bot: str
    source: str | None
    seat: NotRequired[dict[str, Any]]
    # The bot's budget, for a bot of the game's `bot_budgets` (none: the bot's default).
    budget: NotRequired[int]
    change: NotRequired[Change]


class Plan(TypedDict):
    """Everything a worker needs to play any chunk of a run (docs/simulations.md, "The plan").

    `catalogue_version` pins the card catalogue the run was planned with (games that play
    with the catalogue; None for the others and for plans made before it was pinned).
    """

    game: str
    rules: dict[str, Any]
    seed: int
    games: int
    players: list[PlanPlayer]
    matchups: list[list[int]]
    pairs: list[list[int]]
    queue: NotRequired[str]
    cost_key: NotRequired[str]
    catalogue_version: NotRequired[int | None]
    sample_records: NotRequired[int]


# --- aggregates (ChunkResult.aggregate, merged into SimulationRun.aggregate) -----------------


class CardAggregate(TypedDict):
    """One card of one position: games it was played in, solo wins among them, and chips won
    in the shootouts it took part in (sum and sum of squares)."""

    games: int
    wins: int
    shootouts: int
    chips: int
    chips_sq: int


class PositionAggregate(TypedDict):
    """One matchup position (a player in a matchup). Histograms map an exact value (as a
    string: JSON keys) to a count; `shootouts_by_stat` maps a stat to [won, fought]."""

    games: int
    wins: int
    losses: int
    ties: int
    first_games: int
    first_wins: int
    other_games: int
    other_wins: int
    stakes: dict[str, int]
    shootouts_by_stat: dict[str, list[int]]
    cards: dict[str, CardAggregate]
    # Tables of more than two seats only (runner._record_table_seat): how many seats shared
    # each win of this position (1: it won alone; no winner at all is every seat's share), and
    # its finishing place by ending stake where the game reports stakes (tied seats share the
    # mean of their places: "1.5"), each a histogram.
    shared_wins: NotRequired[dict[str, int]]
    places: NotRequired[dict[str, int]]


class MatchupAggregate(TypedDict):
    games: int
    draws: int
    turns: dict[str, int]
    shootouts: dict[str, int]
    positions: list[PositionAggregate]


class PairAggregate(TypedDict):
    """A what-if pair: B's score minus A's, game by game (count, sum, sum of squares) and the
    games only one of them won."""

    n: int
    sum_d: float
    sum_d2: float
    a_only: int
    b_only: int


class RunAggregate(TypedDict):
    games: int
    matchups: list[MatchupAggregate]
    pairs: list[PairAggregate]


class SampleRecord(TypedDict):
    """A kept game of a chunk (stored as a GameSample row)."""

    matchup: int
    index: int
    seats: list[int]
    final: dict[str, Any]
    record: dict[str, Any]


# --- the report (selectors.run_report; the API's `report`) ------------------------------------


class Rate(TypedDict):
    """A proportion with its 95% Wilson interval (stats.rate)."""

    n: float
    k: float
    rate: float | None
    low: float | None
    high: float | None
    enough: bool


class MeanInterval(TypedDict):
    """A mean with its 95% normal interval (stats.mean_interval)."""

    n: float
    mean: float | None
    low: float | None
    high: float | None
    enough: bool


class Bin(TypedDict):
    low: float
    high: float
    count: int


class Length(TypedDict):
    """A length's distribution (turns or shootouts per game)."""

    mean: float | None
    median: float | None
    p90: float | None
    histogram: list[Bin]


class Stakes(TypedDict):
    mean: float | None
    histogram: list[Bin]


class CardRow(TypedDict):
    code: str
    name: str
    played: Rate
    not_played: Rate
    delta: float | None
    enough: bool
    chips_per_shootout: MeanInterval


class PlayerRow(TypedDict):
    """A player of the report; a player with no game yet has only the first five keys."""

    index: int
    label: str
    bot: str
    source: str | None
    games: int
    wins: NotRequired[int]
    losses: NotRequired[int]
    ties: NotRequired[int]
    win_rate: NotRequired[Rate]
    first: NotRequired[Rate]
    other: NotRequired[Rate]
    stakes: NotRequired[Stakes | None]
    shootouts_by_stat: NotRequired[dict[str, Rate]]
    cards: NotRequired[list[CardRow]]


class MatchupRow(TypedDict):
    index: int
    players: list[int]
    labels: list[str]
    games: int
    draws: int
    win_rates: list[Rate]


class WhatIfRow(TypedDict):
    opponent: str
    a: Rate
    b: Rate
    difference: dict[str, Any]


class Report(TypedDict):
    games: int
    players: list[PlayerRow]
    turns: Length | None
    shootouts: Length | None
    matchups: list[MatchupRow]
    matrix: list[list[Rate | None]] | None
    what_if: list[WhatIfRow]


# --- one game's facts (runner.play_chunk, GameService.facts) ----------------------------------


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
    # Per seat, its shootouts as the engine sums them (a game that has shootouts:
    # DrifterState.shootout_tallies): (by stat [won, fought], by card code [shootouts, chips,
    # chips squared]).
    shootout_tallies: list[tuple[dict[str, list[int]], dict[str, list[int]]]] = field(
        default_factory=list
    )
