"""Writes of the simulation service: creating, dispatching, executing, reconciling, finishing
and cancelling runs. Lifecycle and guarantees: docs/simulations.md.

The run's state lives in our tables. A chunk's result is inserted under a unique
(run, chunk) constraint and merged into the run in the same transaction, with the run row
locked, so a chunk that runs twice counts once and the run is finished exactly once.
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import itertools
import json
import logging
import multiprocessing
import random
import time
import traceback
from collections.abc import Callable, Iterator
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any, cast

from celery import current_app
from django.conf import settings
from django.db import DatabaseError, IntegrityError, connections, transaction
from django.db.models import CharField, F, Q, QuerySet, Value
from django.utils import timezone

from simulator.common import conf
from simulator.common.conf import cores
from simulator.engine.core import GameSpec
from simulator.engine.core.errors import RulesError
from simulator.games import GameService, service_for, service_specs
from simulator.games.base import CatalogueChanged, PreparedRules
from simulator.games.plans import Plan, PlanPlayer, Problem
from simulator.games.players import budget_problems, prepare_player
from simulator.games.problems import RunRefused, refuse
from simulator.games.runner import ChunkOutcome, estimate_cost, play_chunk, sample_indices
from simulator.runs.followers import followers
from simulator.runs.leases import Leased, lease
from simulator.runs.models import (
    ChunkResult,
    GameSample,
    SimulationChunk,
    SimulationRun,
    WorkerPing,
)
from simulator.runs.stats import merge

log = logging.getLogger(__name__)
Run = SimulationRun
# The names the tasks are registered under (simulator/runs/tasks.py).
PING = "simulator.ping"
SIMULATE_CHUNK = "simulator.simulate_chunk"
RECONCILE = "simulator.reconcile"
Chunk = SimulationChunk
MAX_GAMES_PER_MATCHUP = 1_000_000


def _task(name: str) -> Any:
    """A task of simulator/runs/tasks.py by its name. The tasks call this service, so the
    service finds them in Celery's registry (SimulatorConfig.ready imports them) instead of
    importing them back: the same task object, eager in tests where Celery is set so."""
    return current_app.tasks[name]


def worker_ping_send() -> WorkerPing:
    """Create a ping and enqueue it for a worker once the row is committed."""
    with transaction.atomic():
        record = WorkerPing.objects.create()
        transaction.on_commit(lambda: _task(PING).delay(record.pk))
    return record


# --- creating a run --------------------------------------------------------------------------


def matchups_for(kind: str, n_players: int) -> tuple[list[list[int]], list[list[int]]]:
    """The matchups (player indices per table) and what-if pairs of a run of `kind`.

    match: everyone at one table. gauntlet: player 0 against each other player. round robin:
    every pair. what-if: players 0 (A) and 1 (A changed) each against every opponent (players
    2+, or A itself when there are none); pair k compares matchups 2k and 2k + 1.
    """
    if kind == Run.Kind.MATCH:
        return [list(range(n_players))], []
    if kind == Run.Kind.GAUNTLET:
        return [[0, j] for j in range(1, n_players)], []
    if kind == Run.Kind.ROUND_ROBIN:
        return [[i, j] for i in range(n_players) for j in range(i + 1, n_players)], []
    if kind == Run.Kind.WHAT_IF:
        opponents = list(range(2, n_players)) or [0]
        matchups: list[list[int]] = []
        pairs: list[list[int]] = []
        for opp in opponents:
            pairs.append([len(matchups), len(matchups) + 1])
            matchups += [[0, opp], [1, opp]]
        return matchups, pairs
    raise refuse(f"Unknown kind of run {kind!r}.", attr="kind")


def _cost_key(game: str, players: list[PlanPlayer], matchups: list[list[int]]) -> str:
    """What decides the cost of a game: the game, the bots (and budgets) and the table sizes."""
    bots = sorted({_bot_key(players[p]) for m in matchups for p in m})
    sizes = sorted({len(m) for m in matchups})
    return f"{game}:{'+'.join(bots)}:{'+'.join(map(str, sizes))}"


def _bot_key(player: PlanPlayer) -> str:
    budget = player.get("budget")
    return player["bot"] if budget is None else f"{player['bot']}@{budget}"


def _calibrated_cost(key: str, sample: int = 30) -> float | None:
    """Seconds per game measured by recent chunks of runs like this one (None: no history).

    The median of the last chunks' seconds per game, so chunk sizes follow the machine's real
    speed (a slow bot, a loaded host) rather than a fixed estimate.
    """
    rows = list(
        ChunkResult.objects.filter(run__plan__cost_key=key, games__gt=0)
        .order_by("-pk")
        .values_list("seconds", "games")[:sample]
    )
    if len(rows) < 3:
        return None
    per_game = sorted(seconds / games for seconds, games in rows)
    return per_game[len(per_game) // 2]


def _chunking(
    games: int, cost_per_game: float, matchups: int, alongside: int = 1
) -> list[tuple[int, int]]:
    """The chunks' [start, end) game indices: about SIMULATION_CHUNK_SECONDS of work each, as
    many as a multiple of the workers that play them at once (`parallelism`, shared among the
    `alongside` runs started together: a metagame round's dozens of small runs keep every
    worker busy with one chunk each, where cutting each in two would double the chunks' cost
    of claiming and counting), so that the workers end together (7 chunks on 2 workers left
    one idle for a seventh of the run); and the last round of chunks cut into a round of
    halves, a round of quarters and two rounds of eighths, so that a worker whose chunks played
    slower holds the others up by an eighth of a chunk at most (with halves then quarters, one
    of the benchmark's two workers stood idle for about 80 ms at the end of 10,000 games: the
    largest share of the run's overhead once a chunk cost 6 ms to claim and count).

    A chunk plays its indices for every matchup, so one index costs `matchups` games.
    """
    cost_per_index = max(cost_per_game, 1e-9) * matchups
    size = max(1, round(conf.get("SIMULATION_CHUNK_SECONDS") / cost_per_index))
    size = min(size, games)
    max_chunks = conf.get("SIMULATION_MAX_CHUNKS")
    if -(-games // size) > max_chunks:
        size = -(-games // max_chunks)
    workers = -(-parallelism() // max(1, alongside))
    count = -(-games // size)
    balanced = min(-(-count // workers) * workers, max_chunks, games)
    size = -(-games // balanced)
    bounds = [(start, min(games, start + size)) for start in range(0, games, size)]
    rounds = len(bounds) // workers
    if rounds >= 2 and len(bounds) + 3 * workers <= max_chunks:
        tail = bounds[-workers][0]
        eighths = 8 * workers
        if games - tail >= eighths:
            # in eighths of a chunk: a round of halves (4), of quarters (2), two of eighths (1)
            steps = itertools.accumulate([0] + [4] * workers + [2] * workers + [1] * 2 * workers)
            cuts = [tail + (games - tail) * j // eighths for j in steps]
            bounds = bounds[:-workers] + list(itertools.pairwise(cuts))
    return bounds


def parallelism() -> int:
    """The worker processes that play a run's chunks at once: SIMULATION_WORKERS, else this
    machine's cores (`make run` starts a worker per core), at most the dispatch window."""
    workers = conf.get("SIMULATION_WORKERS") or cores()
    return max(1, min(int(workers), conf.get("SIMULATION_DISPATCH_WINDOW")))


@transaction.atomic
def run_create(
    *,
    owner,
    game: str,
    players: list[dict],
    games: int,
    kind: str = Run.Kind.MATCH,
    seed: int | None = None,
    format: str = "",
    variants: list[str] | None = None,
    idempotency_key: str | None = None,
    dispatch: bool = True,
    count_active: bool = True,
    alongside: int = 1,
    sample_records: int | None = None,
) -> tuple[SimulationRun, bool]:
    """Check and create a run, cut it into chunks and (after commit) send the first ones.

    Returns (run, created): with an `idempotency_key` already used by `owner`, the run made
    then is returned unchanged. Every problem with the input is refused here (RunRefused),
    never inside a worker. `dispatch=False` leaves the chunks for `simulate` to play in-process.
    `count_active=False` skips the cap on active runs: the deck doctor's stage runs, whose
    doctor run is itself capped (simulator/doctor/services.py). `alongside`: how many runs are
    started together with this one (a metagame round's), which share the workers (_chunking).
    `sample_records`: the replayable games the run keeps, instead of SIMULATION_SAMPLE_RECORDS.
    """
    if idempotency_key:
        existing = Run.objects.filter(owner=owner, idempotency_key=idempotency_key).first()
        if existing is not None:
            return existing, False
    service = _checked_service(kind=kind, game=game)
    spec = service.spec
    _check_size(spec=spec, kind=kind, games=games, players=players)
    prepared = service.prepare_rules(format, list(variants or []))
    matchups, pairs = matchups_for(kind, len(players))
    total = games * len(matchups)
    _check_caps(owner=owner, total=total, count_active=count_active)
    # Read before the decks are checked: a catalogue loaded meanwhile is a newer version.
    catalogue_version = service.catalogue_version()
    plan_players = _plan_players(owner=owner, service=service, players=players, prepared=prepared)
    seed = checked_seed(seed)
    plan = _plan(
        spec=spec, prepared=prepared, seed=seed, games=games, players=plan_players,
        matchups=matchups, pairs=pairs, catalogue_version=catalogue_version,
    )  # fmt: skip
    if sample_records is not None:
        plan["sample_records"] = max(0, sample_records)
    fields = {"kind": kind, "format": prepared.format, "variants": prepared.variants}
    return _saved_run(
        owner=owner, plan=plan, fields=fields, idempotency_key=idempotency_key,
        dispatch=dispatch, alongside=alongside,
    )  # fmt: skip


def _saved_run(
    *,
    owner,
    plan: Plan,
    fields: dict[str, Any],
    idempotency_key: str | None,
    dispatch: bool,
    alongside: int = 1,
) -> tuple[SimulationRun, bool]:
    """The run of a checked `plan` written, cut into chunks and (`dispatch`, after commit) sent;
    `fields` are the run's other columns (kind, format, variants, checks)."""
    games = plan["games"]
    matchups = len(plan["matchups"])
    bounds = _chunking(games, _cost_per_game(plan), matchups, alongside)
    chunk_size, chunk_count = bounds[0][1] - bounds[0][0], len(bounds)
    try:
        with transaction.atomic():
            run = Run.objects.create(
                owner=owner, game=plan["game"], games=games, total_games=games * matchups,
                seed=plan["seed"], chunk_size=chunk_size, chunk_count=chunk_count, plan=plan,
                idempotency_key=idempotency_key or None, **fields,
            )  # fmt: skip
    except IntegrityError:
        # The same key raced in from another request: that one's run is the answer.
        return Run.objects.get(owner=owner, idempotency_key=idempotency_key), False
    _cut_into_chunks(run=run, bounds=bounds)
    if dispatch:
        transaction.on_commit(lambda: run_dispatch(run_id=run.pk))
    return run, True


# --- checking a run's headline with stronger bots -------------------------------------------

# Games a check plays at least (unless the run it checks played fewer): fewer say nothing.
MIN_CHECK_GAMES = 20


@transaction.atomic
def run_check(
    *,
    run: SimulationRun,
    bot: str | None = None,
    budget: Any = None,
    games: Any = None,
    idempotency_key: str | None = None,
    dispatch: bool = True,
) -> tuple[SimulationRun, bool]:
    """A run that checks `run`'s headline with stronger bots: the same game, format, variants,
    kind, seed and players (their decks as `run` played them), every seat's bot replaced by
    `bot` at `budget` (none: the bot's default), linked to `run` by `checks`.

    `bot` defaults to the next one up the game's `bot_strength` from the strongest bot of `run`
    (`GameService.stronger_bot`); `games` to what the check's bots play in about
    SIMULATION_CHECK_SECONDS of work, at most `run`'s own. A run not done is refused with 409
    (`not_finished`), as is one whose catalogue changed since; a bot the game lacks, a bad
    budget or number of games with 400, every problem at once. Returns (run, created) as
    `run_create` does for an `idempotency_key`.
    """
    owner = run.owner
    if idempotency_key:
        existing = Run.objects.filter(owner=owner, idempotency_key=idempotency_key).first()
        if existing is not None:
            return existing, False
    if run.status != Run.Status.DONE:
        raise RunRefused(
            f"Run {run.pk} is {run.status}: only a finished run's headline can be checked.",
            code="not_finished", status=409,
        )  # fmt: skip
    service = service_for(run.game)
    bot = _check_bot(service=service, run=run, bot=bot, budget=budget, games=games)
    planned = run.plan.get("catalogue_version")
    if planned is not None and planned != service.catalogue_version():
        raise RunRefused(
            "The card catalogue changed since this run: its decks cannot be played again as "
            "they were. Start a new run.", code="catalogue_changed", status=409,
        )  # fmt: skip
    players = [_stronger(p, i, bot, budget) for i, p in enumerate(run.plan["players"])]
    plan = cast(Plan, copy.deepcopy(run.plan))
    plan["players"] = players
    plan["queue"] = conf.get("SIMULATION_QUEUE")
    plan["cost_key"] = _cost_key(run.game, players, plan["matchups"])
    plan["games"] = games if games is not None else check_games(plan, most=run.games)
    _check_caps(owner=owner, total=plan["games"] * len(plan["matchups"]), count_active=True)
    fields = {"kind": run.kind, "format": run.format, "variants": run.variants, "checks": run}
    return _saved_run(
        owner=owner, plan=plan, fields=fields, idempotency_key=idempotency_key, dispatch=dispatch
    )


def _check_bot(
    *, service: GameService, run: SimulationRun, bot: Any, budget: Any, games: Any
) -> str:
    """The check's bot (the caller's, or the next stronger one), its budget and games checked:
    RunRefused with every problem."""
    if bot is None:
        bot = service.stronger_bot(p["bot"] for p in run.plan["players"])
        if bot is None:
            raise refuse(
                f"This run was played by {service.title}'s strongest bot already: name a `bot` "
                "to check it with another.", code="strongest_bot", attr="bot",
            )  # fmt: skip
    problems: list[Problem] = []
    if bot not in service.spec.bots:
        bots = ", ".join(sorted(service.spec.bots))
        detail = f"{service.title} has no bot {bot!r}; the bots are {bots}."
        problems.append({"code": "unknown_bot", "detail": detail, "attr": "bot"})
    elif budget is not None:
        problems += budget_problems(service, bot, budget, "budget")
    if games is not None and (type(games) is not int or not 1 <= games <= run.games):
        detail = f"games is a whole number from 1 to {run.games:,} (the run's own games)."
        problems.append({"code": "invalid", "detail": detail, "attr": "games"})
    if problems:
        raise RunRefused(problems=problems)
    return bot


def _stronger(player: PlanPlayer, index: int, bot: str, budget: int | None) -> PlanPlayer:
    """A plan player as it was, played by `bot` at `budget` (a default label names the bot)."""
    out = copy.deepcopy(player)
    if out["label"] == f"Player {index + 1} ({player['bot']})":
        out["label"] = f"Player {index + 1} ({bot})"
    out["bot"] = bot
    out.pop("budget", None)
    if budget is not None:
        out["budget"] = budget
    if "bot" in out.get("seat", {}):
        out["seat"]["bot"] = bot
    return out


def check_games(plan: Plan, *, most: int) -> int:
    """The games of a check by default: what its bots play in about SIMULATION_CHECK_SECONDS of
    work (measured on runs like it, else estimated), at least MIN_CHECK_GAMES, at most `most`."""
    per_index = _cost_per_game(plan) * len(plan["matchups"])
    affordable = int(conf.get("SIMULATION_CHECK_SECONDS") / max(per_index, 1e-9))
    return max(1, min(most, max(MIN_CHECK_GAMES, affordable)))


def _cut_into_chunks(*, run: SimulationRun, bounds: list[tuple[int, int]]) -> None:
    """The run's chunks, each its [start, end) of game indices, in one query."""
    Chunk.objects.bulk_create(
        Chunk(run=run, index=i, start=start, end=end) for i, (start, end) in enumerate(bounds)
    )


def _checked_service(*, kind: str, game: str) -> GameService:
    """The service spec of `game`; refused for an unknown kind of run (first) or game."""
    if kind not in Run.Kind.values:
        raise refuse(f"kind is one of {', '.join(Run.Kind.values)}, not {kind!r}.", attr="kind")
    try:
        return service_for(game)
    except RulesError as exc:
        raise refuse(str(exc), code="unknown_game", attr="game") from None


def _check_size(*, spec: GameSpec, kind: str, games: Any, players: Any) -> None:
    """Refuse a number of games, or a list of players, that a `kind` run of `spec` cannot have."""
    if type(games) is not int or not 1 <= games <= MAX_GAMES_PER_MATCHUP:
        raise refuse(f"games is a whole number from 1 to {MAX_GAMES_PER_MATCHUP:,}.", attr="games")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise refuse("players is a list of objects.", attr="players")
    n = len(players)
    heads_up = kind != Run.Kind.MATCH
    low = max(2, spec.min_players)
    high = 8 if heads_up else min(8, spec.max_players)
    if heads_up and spec.min_players > 2:
        raise refuse(f"{spec.title} is not played heads-up.", attr="kind")
    if not low <= n <= high:
        raise refuse(f"A {kind} run of {spec.title} has {low} to {high} players.", attr="players")


def _check_caps(*, owner, total: int, count_active: bool) -> None:
    """Refuse a run over the cap on games, or (`count_active`) over the owner's active runs."""
    cap = conf.get("SIMULATION_MAX_GAMES_PER_RUN")
    if total > cap:
        raise refuse(
            f"{total:,} games is more than the {cap:,} a run may have.", code="over_cap",
            attr="games",
        )  # fmt: skip
    active_cap = conf.get("SIMULATION_MAX_ACTIVE_RUNS")
    active = Run.objects.filter(owner=owner, status__in=Run.ACTIVE)
    for follower in followers():  # a feature's stage runs count as its own capped objects do
        if follower.stage_runs is not None:
            active = active.exclude(follower.stage_runs)
    if count_active and active.count() >= active_cap:
        raise refuse(
            f"You already have {active_cap} runs queued or running; wait or cancel one.",
            code="too_many_runs",
        )


_checked_players: contextvars.ContextVar[dict[str, PlanPlayer] | None] = contextvars.ContextVar(
    "checked_players", default=None
)


@contextlib.contextmanager
def players_checked_once() -> Iterator[None]:
    """Within the block, run_create checks a player it was given before (the same input, owner,
    game and format) only once: a metagame round makes 45 runs of its ten decks, and reading
    and checking a deck for each of them took most of the time of making them. For the runs
    of one round, made together: a deck is read once for all of them."""
    token = _checked_players.set({})
    try:
        yield
    finally:
        _checked_players.reset(token)


def _prepared_player(
    *, owner, service: GameService, data: dict, index: int, prepared: PreparedRules
) -> tuple[PlanPlayer, list[Problem]]:
    """prepare_player, once a block for a player checked without a problem (players_checked_once;
    a player with problems is checked again, its problems named by its place in each run)."""
    memo = _checked_players.get()
    key = json.dumps(
        [owner.pk, service.name, prepared.format, prepared.rules, data], sort_keys=True, default=str
    )
    if memo is not None and key in memo:
        return copy.deepcopy(memo[key]), []
    player, found = prepare_player(
        owner=owner, service=service, data=data, index=index, prepared=prepared
    )
    if memo is not None and not found:
        memo[key] = copy.deepcopy(player)
    return player, found


def _plan_players(
    *, owner, service: GameService, players: list[dict], prepared: PreparedRules
) -> list[PlanPlayer]:
    """The plan's players, each checked; RunRefused with every problem of every player."""
    plan_players: list[PlanPlayer] = []
    problems: list[Problem] = []
    for index, data in enumerate(players):
        player, found = _prepared_player(
            owner=owner, service=service, data=data, index=index, prepared=prepared
        )
        plan_players.append(player)
        problems += found
    if problems:
        raise RunRefused(problems=problems)
    return plan_players


def stage_seed(seed: int, rnd: int, i: int = 0, j: int = 0) -> int:
    """The seed of a feature's stage run (a deck doctor's round, a field run's pair i, j in a
    round) from the feature's own seed: plain arithmetic, like the runs' own seeds
    (runner.game_seed), so it is reproducible in any process."""
    return (seed * 1_000_003 + rnd * 7_919 + i * 104_729 + j * 1_299_709) % 2**53


def checked_seed(seed: Any) -> int:
    """A run's (or a search's) seed: the caller's, checked, or a new one; RunRefused with
    `attr` "seed" for one that is not a whole number from 0 to 2**53 - 1."""
    if seed is None:
        return random.SystemRandom().randrange(2**31)
    if type(seed) is not int or not 0 <= seed < 2**53:
        raise refuse("seed is a whole number from 0 to 2**53 - 1.", attr="seed")
    return seed


def _plan(
    *,
    spec: GameSpec,
    prepared: PreparedRules,
    seed: int,
    games: int,
    players: list[PlanPlayer],
    matchups: list[list[int]],
    pairs: list[list[int]],
    catalogue_version: int | None,
) -> Plan:
    """Everything a worker needs to play any chunk of the run."""
    plan: Plan = {
        "game": spec.name,
        "rules": prepared.rules,
        "seed": seed,
        "games": games,
        "players": players,
        "matchups": matchups,
        "pairs": pairs,
        "queue": conf.get("SIMULATION_QUEUE"),
        "cost_key": _cost_key(spec.name, players, matchups),
    }
    if catalogue_version is not None:
        plan["catalogue_version"] = catalogue_version
    return plan


def _cost_per_game(plan: Plan) -> float:
    """Seconds per game of the plan: measured on runs like it, or else estimated."""
    cost = _calibrated_cost(plan["cost_key"])
    return _estimated_cost(plan) if cost is None else cost


def _estimated_cost(plan: Plan) -> float:
    """Seconds per game of the plan from the game's cost figures (runner.estimate_cost), a bot
    given a budget above its default costing that much more (its work grows with it)."""
    service = service_for(plan["game"])
    matchups = plan["matchups"]
    total = 0.0
    for m in matchups:
        players = [plan["players"][p] for p in m]
        scale = max(_budget_scale(service, p) for p in players)
        total += estimate_cost(plan["game"], [p["bot"] for p in players], len(m)) * scale
    return total / len(matchups)


def _budget_scale(service: GameService, player: PlanPlayer) -> float:
    # A budget's rollouts or iterations over the bot's default: its decisions' cost grows so.
    bounds = service.bot_budgets.get(player["bot"])
    budget = player.get("budget")
    return max(1.0, budget / bounds[0]) if bounds and budget else 1.0


# --- dispatch --------------------------------------------------------------------------------


def _send(chunk_id: int, send_no: int, queue: str) -> None:
    if settings.CELERY_BROKER_URL.startswith("filesystem://"):
        _next_millisecond()
    _task(SIMULATE_CHUNK).apply_async(args=[chunk_id, send_no], queue=queue)


_last_sent_ms = [0]


def _next_millisecond() -> None:
    """Wait, at most 2 ms, until a message sent now files after the one before: the embedded
    broker takes messages in the order of the millisecond they were written (kombu's
    filesystem transport names each file by it), so the chunks dispatched within one would be
    played in a random order, and a run's last, shorter chunks played before its first."""
    while (now := int(time.monotonic() * 1000)) <= _last_sent_ms[0] + 1:
        time.sleep(0.0002)
    _last_sent_ms[0] = now


def _queue_of(run_id: int) -> str:
    # The queue is fixed when the run is created, so a worker's re-sends go where it listens.
    plan = Run.objects.values_list("plan", flat=True).get(pk=run_id)
    return plan.get("queue") or conf.get("SIMULATION_QUEUE")


def run_dispatch(*, run_id: int) -> int:
    """Send pending chunks until the run has a window of them in flight; how many were sent.

    Each chunk is claimed with a conditional UPDATE (pending -> queued), so two dispatchers
    racing never send the same chunk twice; the message goes out after the claim commits.
    """
    window = conf.get("SIMULATION_DISPATCH_WINDOW")
    sent = 0
    chunks = Chunk.objects.filter(run_id=run_id)
    if not chunks.filter(status=Chunk.Status.PENDING).exists():
        # Nothing left to send (a chunk never goes back to pending): most of a run's chunks
        # end here, without a transaction.
        return 0
    with transaction.atomic():
        if not Run.objects.filter(pk=run_id, status__in=Run.ACTIVE).exists():
            return 0
        in_flight = chunks.filter(status__in=[Chunk.Status.QUEUED, Chunk.Status.RUNNING]).count()
        free = window - in_flight
        if free <= 0:
            return 0
        now = timezone.now()
        queue = _queue_of(run_id)
        for chunk_id in chunks.filter(status=Chunk.Status.PENDING).values_list("pk", flat=True)[
            :free
        ]:
            claimed = Chunk.objects.filter(pk=chunk_id, status=Chunk.Status.PENDING).update(
                status=Chunk.Status.QUEUED, sends=F("sends") + 1, sent_at=now
            )
            if claimed:
                send_no = Chunk.objects.values_list("sends", flat=True).get(pk=chunk_id)
                transaction.on_commit(partial(_send, chunk_id, send_no, queue))
                sent += 1
    return sent


# --- executing a chunk -----------------------------------------------------------------------


#: The run's fields _finish_chunk_locked may change.
FINISH_FIELDS = ("chunks_done", "chunks_failed", "status", "started_at", "error", "finished_at")


def _finish_chunk_locked(run: SimulationRun, *, failed: bool) -> None:
    """Count a finished chunk on the (locked) run and finish the run if it was the last."""
    if failed:
        run.chunks_failed += 1
    else:
        run.chunks_done += 1
    if run.status == Run.Status.QUEUED:
        run.status = Run.Status.RUNNING
        run.started_at = run.started_at or timezone.now()
    if run.chunks_done + run.chunks_failed >= run.chunk_count and run.is_active:
        # Under the run's row lock with a status check: the run is finished exactly once.
        run.status = Run.Status.FAILED if run.chunks_failed else Run.Status.DONE
        if run.chunks_failed:
            run.error = (
                f"{run.chunks_failed} of the run's {run.chunk_count} batches of games failed "
                "to play."
            )
        run.finished_at = timezone.now()


def _lock_run(run_id: int) -> SimulationRun:
    return Run.objects.select_for_update().get(pk=run_id)


def _fail_chunk(chunk_id: int, error: str) -> bool:
    """Fail a live chunk and count it on its run; False if it had already ended."""
    with transaction.atomic():
        chunk = Chunk.objects.select_related(None).get(pk=chunk_id)
        run = _lock_run(chunk.run_id)
        live = [Chunk.Status.PENDING, Chunk.Status.QUEUED, Chunk.Status.RUNNING]
        updated = Chunk.objects.filter(pk=chunk_id, status__in=live).update(
            status=Chunk.Status.FAILED, error=error[:4000], finished_at=timezone.now()
        )
        if updated and run.is_active:
            _finish_chunk_locked(run, failed=True)
            run.save(update_fields=FINISH_FIELDS)
            if not run.is_active:
                transaction.on_commit(partial(_run_ended, run.pk))
    return bool(updated)


def _claim(chunk_id: int, send_no: int, worker: str) -> SimulationChunk | None:
    """Take a chunk for this attempt; None when there is nothing to do (and why, in the log)."""
    with transaction.atomic():
        chunk = Chunk.objects.select_for_update().filter(pk=chunk_id).first()
        if chunk is None or chunk.status in (
            Chunk.Status.DONE, Chunk.Status.FAILED, Chunk.Status.SKIPPED
        ):  # fmt: skip
            return None
        run = Run.objects.get(pk=chunk.run_id)
        chunk.run = run  # the caller plays it: no second read of the run
        if not run.is_active:
            # Cancelled (or finished): the worker skips the chunk instead of playing it.
            chunk.status = Chunk.Status.SKIPPED
            chunk.save(update_fields=["status"])
            return None
        if send_no != chunk.sends:
            return None  # a message superseded by the reconciler's re-send
        chunk.attempts += 1
        if chunk.attempts > conf.get("SIMULATION_MAX_ATTEMPTS"):
            failing = True
        else:
            failing = False
            chunk.status = Chunk.Status.RUNNING
            chunk.started_at = timezone.now()
            chunk.lease_until = chunk.started_at + lease()
            chunk.worker = worker[:200]
            chunk.save(update_fields=["attempts", "status", "started_at", "lease_until", "worker"])
            if run.status == Run.Status.QUEUED:
                Run.objects.filter(pk=run.pk, status=Run.Status.QUEUED).update(
                    status=Run.Status.RUNNING, started_at=timezone.now()
                )
    if failing:
        _fail_chunk(chunk_id, f"gave up after {chunk.attempts - 1} attempts")
        return None
    return chunk


def worker_warm() -> None:
    """Load what a worker's first chunk would otherwise load while its run waits: each game's
    current card catalogue (about 0.1 s; cached per process). A worker calls this as it
    starts (simulator/runs/tasks.py, on `worker_ready`); a database that is not ready yet is
    left to the first chunk."""
    for service in service_specs().values():
        try:
            service.catalogue()
        except DatabaseError:
            log.warning("the %s catalogue could not be loaded ahead of the first chunk", service)
            return


def submit_warm() -> None:
    """What a process that submits runs (the web server) would otherwise do in its first
    submission, while the workers wait for it: import every game's service, load each game's
    catalogue (prepare_player reads it) and connect to the broker (about 30 ms of a run's
    start on this project's machines: benchmarks/simulations.py --cold). The web server calls
    this in a thread of its own as it starts (config/asgi.py); what cannot be done yet (a
    database not migrated, a broker not up) is left to the first submission."""
    worker_warm()
    try:
        with current_app.producer_pool.acquire(block=True, timeout=5) as producer:
            producer.connection.ensure_connection(max_retries=1)
    except Exception:  # any broker's error: the first submission connects (and reports it)
        log.warning("the broker could not be reached ahead of the first submission")


def _catalogue_for(run: SimulationRun) -> Any:
    """The card catalogue a run's chunks play with: the version its plan pinned.

    The engine catalogue is cached per process by its version (decks/engine_catalogue.py), so a
    worker that last played another version rebuilds it here; if the database's catalogue is
    no longer the pinned version (a set file was loaded since the run was planned), the game's
    spec raises CatalogueChanged and the run fails (chunk_execute) rather than mixing cards.
    """
    plan: Plan = run.plan
    return service_for(run.game).catalogue(plan.get("catalogue_version"))


def _fail_run(run_id: int, chunk_id: int, error: str) -> None:
    """Fail a run at once from one of its chunks: the chunk failed, the pending ones skipped
    and queued ones skipped by their workers (_claim), the run failed with `error`."""
    with transaction.atomic():
        run = _lock_run(run_id)
        live = [Chunk.Status.PENDING, Chunk.Status.QUEUED, Chunk.Status.RUNNING]
        updated = Chunk.objects.filter(pk=chunk_id, status__in=live).update(
            status=Chunk.Status.FAILED, error=error[:4000], finished_at=timezone.now()
        )
        if not run.is_active:
            return
        if updated:
            run.chunks_failed += 1
        run.status = Run.Status.FAILED
        run.error = error
        run.finished_at = timezone.now()
        run.save()
        Chunk.objects.filter(run_id=run_id, status=Chunk.Status.PENDING).update(
            status=Chunk.Status.SKIPPED
        )
        transaction.on_commit(partial(_run_ended, run_id))


def _cancel_probe(run_id: int, every: float = 0.5) -> Callable[[], bool]:
    """A cheap `should_stop` for play_chunk: looks at the run at most every `every` seconds."""
    last = [time.monotonic()]

    def should_stop() -> bool:
        now = time.monotonic()
        if now - last[0] < every:
            return False
        last[0] = now
        return Run.objects.filter(pk=run_id, status=Run.Status.CANCELLED).exists()

    return should_stop


def chunk_execute(*, chunk_id: int, send_no: int, worker: str = "") -> str:
    """Play one chunk and count it once; what happened ("done", "duplicate", "skipped"...).

    Safe to call any number of times for the same chunk, concurrently or not: the result row
    is unique per (run, chunk) and merged into the run in the same transaction.
    """
    chunk = _claim(chunk_id, send_no, worker)
    if chunk is None:
        return "skipped"
    run = chunk.run
    plan: Plan = run.plan
    kept = plan.get("sample_records", conf.get("SIMULATION_SAMPLE_RECORDS"))
    per_matchup = max(1, kept // len(plan["matchups"])) if kept else 0
    sample = {i for i in sample_indices(run.games, per_matchup) if chunk.start <= i < chunk.end}
    try:
        catalogue = _catalogue_for(run)
    except CatalogueChanged as exc:
        log.warning("run %s: %s", run.pk, exc)
        _fail_run(run.pk, chunk_id, str(exc))
        return "failed"
    try:
        with Leased(chunk_id, send_no):
            outcome = play_chunk(
                plan, chunk.start, chunk.end, sample=sample, catalogue=catalogue,
                should_stop=_cancel_probe(run.pk),
            )  # fmt: skip
    except Exception:
        # An engine error is deterministic for this chunk: retrying would fail the same way.
        log.exception("chunk %s of run %s failed", chunk.index, run.pk)
        _fail_chunk(chunk_id, traceback.format_exc(limit=8))
        return "failed"
    if outcome.games != (chunk.end - chunk.start) * len(plan["matchups"]):
        return "cancelled"
    counted = _count_outcome(
        run_id=run.pk, chunk=chunk, chunk_id=chunk_id, outcome=outcome, worker=worker
    )
    if counted != "done":
        return counted
    run_dispatch(run_id=run.pk)
    return "done"


def _count_outcome(
    *, run_id: int, chunk: SimulationChunk, chunk_id: int, outcome: ChunkOutcome, worker: str
) -> str:
    """Store a played chunk's result and merge it into its run, in one transaction with the
    run locked: "done", or "duplicate" (already stored), or "late" (the run ended meanwhile).
    """
    with transaction.atomic():
        try:
            with transaction.atomic():
                ChunkResult.objects.create(
                    run_id=run_id, chunk_index=chunk.index, games=outcome.games,
                    seconds=outcome.seconds, aggregate=outcome.aggregate, worker=worker[:200],
                )  # fmt: skip
        except IntegrityError:
            return "duplicate"
        locked = _lock_run(run_id)
        Chunk.objects.filter(pk=chunk_id).update(
            status=Chunk.Status.DONE, finished_at=timezone.now()
        )
        if not locked.is_active:
            return "late"  # cancelled while it played: kept, not counted
        GameSample.objects.bulk_create(
            [
                GameSample(run_id=run_id, matchup=r["matchup"], index=r["index"],
                           seats=r["seats"], final=r["final"], record=r["record"])
                for r in outcome.records
            ],
            ignore_conflicts=True,
        )  # fmt: skip
        locked.aggregate = merge(locked.aggregate, outcome.aggregate)
        locked.games_done += outcome.games
        _finish_chunk_locked(locked, failed=False)
        locked.save(update_fields=["aggregate", "games_done", *FINISH_FIELDS])
        if not locked.is_active:
            transaction.on_commit(partial(_run_ended, run_id))
    return "done"


def _run_ended(run_id: int) -> None:
    """A run just ended: tell the features that follow runs (followers.py; the deck doctor
    takes its next step if the run was one of its stages).

    A prompt hook only: a worker killed between the commit and this call loses it, and the
    reconciler's tick (runs_reconcile_due) asks the followers what is due anyway.
    """
    for follower in followers():
        follower.run_ended(run_id)


# --- reconciling, cancelling -----------------------------------------------------------------


def run_reconcile(*, run: SimulationRun | None = None) -> dict[str, int]:
    """Re-send chunks that went missing; fail chunks re-sent too often; top up dispatch.

    A chunk queued for longer than SIMULATION_QUEUED_STALE_SECONDS without starting (the broker
    lost the message), or playing with its lease run out (its worker died: see `leases.Leased`), is
    sent again with a new send number; the old message, if it ever arrives, is then ignored.
    This reconciles every active run (or just `run`) at once, for the `simulation_reconcile`
    command and the `simulator.reconcile` task; the workers' timer calls `runs_reconcile_due`,
    and a status read never reconciles.
    """
    runs = Run.objects.filter(status__in=Run.ACTIVE)
    if run is not None:
        runs = runs.filter(pk=run.pk)
    counts = {"resent": 0, "failed": 0, "dispatched": 0}
    for run_id in runs.values_list("pk", flat=True):
        _reconcile_one(run_id, counts)
    return counts


def runs_reconcile_due() -> dict[str, int]:
    """Reconcile each active run that nobody reconciled in the last SIMULATION_RECONCILE_SECONDS.

    Every worker process calls this on a timer (simulator.runs.tasks.ReconcileTimer). A run is
    claimed by a conditional UPDATE of its `reconciled_at`, so however many workers look, one
    reconciles a given run at a time and at most once a period; with no active run it costs
    one query. What it does to a run is safe to repeat anyway: every re-send and every failure
    is itself a conditional UPDATE.
    """
    now = timezone.now()
    every = timedelta(seconds=conf.get("SIMULATION_RECONCILE_SECONDS"))
    due = Q(reconciled_at__isnull=True) | Q(reconciled_at__lte=now - every)
    counts = {"resent": 0, "failed": 0, "dispatched": 0}
    active = Run.objects.filter(status__in=Run.ACTIVE)
    # One query when idle: the runs due and what the followers have due (a deck doctor whose
    # stage runs have all ended, its "run ended" hook lost with its worker), told apart by a
    # tag: "run", or the follower's name.
    kind = CharField()
    due_ids = active.filter(due).order_by().values_list("pk", Value("run", output_field=kind))
    by_name = {f.name: f for f in followers()}
    for f in by_name.values():
        counts[f"{f.name}s"] = 0
        due_ids = due_ids.union(
            f.due().order_by().values_list("pk", Value(f.name, output_field=kind))
        )
    for pk, tag in due_ids:
        if tag != "run":
            counts[f"{tag}s"] += by_name[tag].advance(pk)
        elif active.filter(due, pk=pk).update(reconciled_at=now):
            _reconcile_one(pk, counts)
    return counts


def _reconcile_one(run_id: int, counts: dict[str, int]) -> None:
    now = timezone.now()
    queued_before = now - timedelta(seconds=conf.get("SIMULATION_QUEUED_STALE_SECONDS"))
    queue = _queue_of(run_id)
    stale = Chunk.objects.filter(run_id=run_id).filter(
        Q(status=Chunk.Status.QUEUED, sent_at__lt=queued_before)
        | Q(status=Chunk.Status.RUNNING, lease_until__lt=now)
        # started before leases were kept: one lease after its start
        | Q(status=Chunk.Status.RUNNING, lease_until__isnull=True, started_at__lt=now - lease())
    )
    for chunk in stale:
        _resend(chunk, queue, now, counts, why=f"{chunk.status} too long")
    counts["dispatched"] += run_dispatch(run_id=run_id)


def _resend(
    chunk: SimulationChunk, queue: str, now: Any, counts: dict[str, int], *, why: str
) -> None:
    """Send `chunk` again with a new send number (the message it had, if it ever arrives, is
    then ignored), or fail it if it was sent SIMULATION_MAX_SENDS times. Conditional on the
    chunk being as read, so two reconcilers never both re-send it."""
    if chunk.sends >= conf.get("SIMULATION_MAX_SENDS"):
        if _fail_chunk(chunk.pk, f"lost {chunk.sends} times; given up"):
            log.warning(
                "run %s: chunk %s lost %s times: failed", chunk.run_id, chunk.index, chunk.sends
            )
            counts["failed"] += 1
        return
    with transaction.atomic():
        claimed = Chunk.objects.filter(pk=chunk.pk, status=chunk.status, sends=chunk.sends).update(
            status=Chunk.Status.QUEUED, sends=F("sends") + 1, sent_at=now
        )
        if claimed:
            transaction.on_commit(partial(_send, chunk.pk, chunk.sends + 1, queue))
            log.warning("run %s: chunk %s %s: re-sent", chunk.run_id, chunk.index, why)
            counts["resent"] += 1


def _received_path(worker: str) -> Path:
    """Where a worker process notes the chunk message it took last (`chunk_received`)."""
    safe = "".join(c if c.isalnum() or c in "-_.@" else "_" for c in worker)
    return Path(settings.VAR_DIR) / "workers" / f"{safe}.received"


def chunk_received(*, worker: str, chunk_id: int, send_no: int) -> None:
    """A worker took a chunk's message from the broker: note it in a file of its own on this
    machine, before anything else (`simulator.runs.tasks`, on Celery's `task_received`).

    Between taking the message and claiming the chunk in the database (a connection opened, a
    row locked: several milliseconds on PostgreSQL) a worker killed has the message with it,
    and the chunk, still queued, records no worker: its re-send then waited for
    SIMULATION_QUEUED_STALE_SECONDS (a 20,000-game run with three kill rounds took 123 s
    instead of 15, once in six). The note is a local file written in well under a
    millisecond; the supervisor reads it when the worker dies (`chunks_of_lost_worker`)."""
    path = _received_path(worker)
    try:
        path.write_text(f"{chunk_id} {send_no}")
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{chunk_id} {send_no}")


def _last_received(worker: str) -> tuple[int, int] | None:
    """The (chunk id, send number) the worker noted last, or None (no note, or a torn one)."""
    try:
        chunk_id, send_no = _received_path(worker).read_text().split()
        return int(chunk_id), int(send_no)
    except (OSError, ValueError):
        return None


def chunks_of_lost_worker(*, worker: str) -> dict[str, int]:
    """A worker process died (its supervisor saw it, `simulation_workers`): re-send at once
    the chunks it was playing, and the one whose message it had taken but not yet claimed (its
    note, `chunk_received`: still queued under the send number it took), instead of waiting
    for their leases, or the queued chunks' staleness, to run out. Exactly once still: the
    result row is unique per chunk, and a re-send is conditional on the chunk's send number
    and status. `worker` is the Celery hostname the chunks recorded (NAME-1@host)."""
    counts = {"resent": 0, "failed": 0}
    now = timezone.now()
    queues: dict[int, str] = {}
    lost = Q(status=Chunk.Status.RUNNING, worker=worker[:200])
    taken = _last_received(worker)
    if taken is not None:
        lost |= Q(pk=taken[0], status=Chunk.Status.QUEUED, sends=taken[1])
    for chunk in Chunk.objects.filter(lost, run__status__in=Run.ACTIVE):
        if chunk.run_id not in queues:
            queues[chunk.run_id] = _queue_of(chunk.run_id)
        _resend(chunk, queues[chunk.run_id], now, counts, why=f"lost with worker {worker}")
    return counts


def run_cancel(*, run: SimulationRun) -> SimulationRun:
    """Cancel a queued or running run: nothing more is sent, workers skip its chunks."""
    with transaction.atomic():
        updated = Run.objects.filter(pk=run.pk, status__in=Run.ACTIVE).update(
            status=Run.Status.CANCELLED, finished_at=timezone.now()
        )
        if updated:
            Chunk.objects.filter(run_id=run.pk, status=Chunk.Status.PENDING).update(
                status=Chunk.Status.SKIPPED
            )
    run.refresh_from_db()
    return run


def run_execute_locally(
    *, run: SimulationRun, processes: int = 1, on_chunk: Callable[[int], None] | None = None
) -> SimulationRun:
    """Play every unfinished chunk of `run` in this process (or `processes` processes).

    The same chunks and the same `chunk_execute` a worker runs, so the results are identical;
    `on_chunk(games)` is called after each chunk (the progress bar).
    """
    todo = list(
        Chunk.objects.filter(run=run)
        .exclude(status__in=[Chunk.Status.DONE, Chunk.Status.FAILED, Chunk.Status.SKIPPED])
        .values_list("pk", "start", "end")
    )
    tickets = []
    for chunk_id, start, end in todo:
        Chunk.objects.filter(pk=chunk_id).update(
            status=Chunk.Status.QUEUED, sends=F("sends") + 1, sent_at=timezone.now()
        )
        send_no = Chunk.objects.values_list("sends", flat=True).get(pk=chunk_id)
        tickets.append((chunk_id, send_no, (end - start) * len(run.plan["matchups"])))
    if processes <= 1:
        for chunk_id, send_no, games in tickets:
            chunk_execute(chunk_id=chunk_id, send_no=send_no, worker="local")
            if on_chunk:
                on_chunk(games)
    else:
        connections.close_all()  # each forked process opens its own connection
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(processes, initializer=_child_init) as pool:
            for games in pool.imap_unordered(_execute_ticket, tickets):
                if on_chunk:
                    on_chunk(games)
    run.refresh_from_db()
    return run


def stages_execute_locally(*, feature: Any, stages: QuerySet, advance: Callable[[], int]) -> None:
    """Play a feature's stage runs in this process, round by round (tests, benchmarks): the
    deck doctor's and the metagame lab's. `feature` is its row (with `is_active` and `round`),
    `stages` its stage rows (each with `run` and `round`), `advance()` takes its next step (1
    if it did). The same runs and `chunk_execute` a worker uses, advanced by the same step as
    the workers' hook; `feature` is read again at the end."""
    while True:
        feature.refresh_from_db()
        if not feature.is_active:
            return
        played = 0
        for stage in stages.filter(round=feature.round).select_related("run"):
            if stage.run.is_active:
                run_execute_locally(run=stage.run)
                played += 1
        # Outside a test's transaction the hook has advanced it already; this is then a no-op.
        if not advance() and not played:
            feature.refresh_from_db()
            return


def _child_init() -> None:
    connections.close_all()  # never share the parent's socket or SQLite handle


def _execute_ticket(ticket: tuple[int, int, int]) -> int:
    chunk_id, send_no, games = ticket
    chunk_execute(chunk_id=chunk_id, send_no=send_no, worker="local")
    return games
