"""Writes of the bots' ladder: building one of ordinary round-robin runs, and rating it when
they have all ended (docs/bots.md, "The ladder").

A ladder names no game and no bot: its entrants are the bots the game registers, plus a
higher budget level of each bot in the game's `bot_budgets`; its decks are the game's
`ladder_decks()`. The runs play on the workers like any other; the ladder follows them
(runs/followers.py) and `ladder_rate` turns their results into Bradley–Terry ratings.
"""

from __future__ import annotations

import logging
import time
from typing import Any, TypedDict, cast

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from config.api import DomainError
from simulator.engine.core.errors import RulesError
from simulator.engine.core.registry import bot_label
from simulator.games import GameService, service_for
from simulator.games.base import CatalogueChanged
from simulator.games.plans import Plan, RunAggregate
from simulator.games.runner import DecisionTime, play_chunk
from simulator.ladder import rating
from simulator.ladder.models import BotLadder
from simulator.runs.followers import Follower
from simulator.runs.models import SimulationRun
from simulator.runs.services import checked_seed, run_create

log = logging.getLogger(__name__)

BUDGET_STEP = 4  # the higher budget level: this many times the default (at most the maximum)
MAX_GAMES = 100_000  # games of each pair on each deck
TIMING_GAMES = 4  # game indices of the first run the timing pass plays again, at most
TIMING_SECONDS = 20.0  # ... and for about this long at most (a worker's task has limits)
METHOD = (
    "Bradley–Terry (choix, maximum likelihood; a tie is half a win to each, plus one virtual "
    "drawn game per pair), Elo scale centred on 1500; 95% intervals from {bootstrap} "
    "bootstrap refits resampling each pair's games (seed {seed})."
)


class Entrant(TypedDict):
    """A bot on the ladder: its name, its budget (None: the bot as runs play it) and what
    people call it."""

    bot: str
    budget: int | None
    label: str


def ladder_entrants(service: GameService, bots: list[str] | None = None) -> list[Entrant]:
    """Every bot the game registers (or those of `bots`), and for a bot with a budget a second
    level at BUDGET_STEP times its default (capped at its maximum)."""
    entrants: list[Entrant] = []
    for bot in service.spec.bots:
        if bots is not None and bot not in bots:
            continue
        name = bot_label(bot)[0]
        bounds = service.bot_budgets.get(bot)
        if bounds is None:
            entrants.append({"bot": bot, "budget": None, "label": name})
            continue
        default, top = bounds
        entrants.append({"bot": bot, "budget": None, "label": f"{name} (budget {default})"})
        higher = min(top, default * BUDGET_STEP)
        if higher > default:
            entrants.append({"bot": bot, "budget": higher, "label": f"{name} (budget {higher})"})
    return entrants


def _service(game: Any) -> GameService:
    try:
        return service_for(str(game))
    except RulesError as exc:
        raise DomainError(str(exc), code="unknown_game", attr="game") from None


@transaction.atomic
def ladder_create(
    *,
    owner,
    game: str,
    games: int,
    seed: int | None = None,
    bots: list[str] | None = None,
    dispatch: bool = True,
) -> BotLadder:
    """A ladder of `game`'s bots: one round-robin run per ladder deck, `games` games of each
    pair (seats rotated, the same seeds for every pair and every deck: common random numbers),
    owned by `owner`; `bots` names some of the game's bots (default: all). DomainError (nothing
    written) for an unknown game or bot, a bad number of games or seed, or entrants a round
    robin cannot seat. `dispatch=False` leaves the chunks for
    `run_execute_locally` (the `bots_ladder --local` command)."""
    service = _service(game)
    if type(games) is not int or not 1 <= games <= MAX_GAMES:
        raise DomainError(f"games is a whole number from 1 to {MAX_GAMES:,}.", attr="games")
    seed = checked_seed(seed)
    unknown = sorted(set(bots or ()) - set(service.spec.bots))
    if unknown or (bots is not None and len(set(bots)) < 2):
        known = ", ".join(service.spec.bots)
        raise DomainError(
            f"A ladder takes two or more of {known}.", code="unknown_bot", attr="bots"
        )
    entrants = ladder_entrants(service, bots)
    ladder = BotLadder.objects.create(game=service.name, games=games, seed=seed, entrants=entrants)
    for deck, _name in service.ladder_decks():
        players = [
            {**deck, "bot": e["bot"], "label": e["label"]}
            | ({"budget": e["budget"]} if e["budget"] is not None else {})
            for e in entrants
        ]
        run, _ = run_create(
            owner=owner, game=service.name, players=players, games=games, seed=seed,
            kind=SimulationRun.Kind.ROUND_ROBIN, dispatch=dispatch, count_active=False,
        )  # fmt: skip
        ladder.runs.add(run)
    return ladder


# --- rating ----------------------------------------------------------------------------------


def ladders_due() -> QuerySet[BotLadder]:
    """Active ladders with no active run left: due to be rated (the reconciler's tick)."""
    return BotLadder.objects.filter(status__in=BotLadder.ACTIVE).exclude(
        runs__status__in=SimulationRun.ACTIVE
    )


def ladder_rate_for_run(*, run_id: int) -> None:
    """The hook where a run ends: rate its ladder, if it is a ladder's and the last to end."""
    for ladder_id in BotLadder.objects.filter(runs=run_id).values_list("pk", flat=True):
        ladder_rate(ladder_id=ladder_id)


def ladder_rate(*, ladder_id: int) -> int:
    """Rate the ladder if its runs have all ended; 1 if it did (or failed it), else 0.

    The ratings are computed outside any lock (a timing pass plays a few games), then saved
    under the ladder's row lock if it is still active, so a hook and a tick racing each other
    rate it once.
    """
    ladder = BotLadder.objects.filter(pk=ladder_id).first()
    if ladder is None or not ladder.is_active:
        return 0
    runs = list(ladder.runs.order_by("pk"))
    if any(run.is_active for run in runs):
        if any(run.status == SimulationRun.Status.RUNNING for run in runs):
            BotLadder.objects.filter(pk=ladder_id, status=BotLadder.Status.QUEUED).update(
                status=BotLadder.Status.RUNNING
            )
        return 0
    result: dict[str, Any] | None = None
    error = ""
    ended = [run for run in runs if run.status != SimulationRun.Status.DONE]
    if ended:
        error = f"Run {ended[0].pk} {ended[0].status}: the ladder cannot be rated."
    else:
        try:
            result = ladder_result(ladder, runs)
        except Exception as exc:  # a ladder that cannot be rated says why rather than hang
            log.exception("ladder %s could not be rated", ladder_id)
            error = f"The ladder could not be rated: {exc}"
    with transaction.atomic():
        locked = BotLadder.objects.select_for_update().get(pk=ladder_id)
        if not locked.is_active:
            return 0
        locked.status = BotLadder.Status.FAILED if error else BotLadder.Status.DONE
        locked.result = result
        locked.error = error
        locked.finished_at = timezone.now()
        locked.save()
    return 1


def pair_results(runs: list[SimulationRun]) -> list[rating.PairResult]:
    """Wins, losses and ties of each pair of entrants, added up over the ladder's runs (the
    players of every run are the entrants, in order)."""
    totals: dict[tuple[int, int], list[int]] = {}
    for run in runs:
        plan = cast(Plan, run.plan)
        aggregate = cast(RunAggregate, run.aggregate or {})
        for matchup, played in zip(plan["matchups"], aggregate.get("matchups") or []):
            a, b = matchup
            first, second = played["positions"]
            row = totals.setdefault((a, b), [0, 0, 0])
            row[0] += first["wins"]
            row[1] += second["wins"]
            row[2] += first["ties"]
    return [rating.PairResult(a, b, *row) for (a, b), row in sorted(totals.items())]


def decision_times(run: SimulationRun) -> tuple[list[DecisionTime], int, float] | None:
    """The timing pass: the first TIMING_GAMES game indices of `run` played again in this
    process with every decision timed (about TIMING_SECONDS at most, one index at least):
    (each player's decisions and seconds, games played, seconds). None when the run's card
    catalogue has changed since (its games can no longer be played as they were)."""
    plan = cast(Plan, run.plan)
    try:
        catalogue = service_for(run.game).catalogue(plan.get("catalogue_version"))
    except CatalogueChanged:
        return None
    timings = [DecisionTime() for _ in plan["players"]]
    began = time.perf_counter()
    outcome = play_chunk(
        plan, 0, min(TIMING_GAMES, plan["games"]), catalogue=catalogue, timings=timings,
        should_stop=lambda: time.perf_counter() - began > TIMING_SECONDS,
    )  # fmt: skip
    return timings, outcome.games, outcome.seconds


def ladder_result(ladder: BotLadder, runs: list[SimulationRun]) -> dict[str, Any]:
    """The ladder's ratings, superiority matrix, records and time per decision (the JSON
    stored as `BotLadder.result`, shaped for the page and the API)."""
    entrants = cast(list[Entrant], ladder.entrants)
    n = len(entrants)
    pairs = pair_results(runs)
    fit = rating.fit(n, pairs, seed=ladder.seed)
    record = [{"games": 0, "wins": 0, "losses": 0, "ties": 0} for _ in range(n)]
    for p in pairs:
        for me, won, lost in ((p.a, p.a_wins, p.b_wins), (p.b, p.b_wins, p.a_wins)):
            record[me]["games"] += p.games
            record[me]["wins"] += won
            record[me]["losses"] += lost
            record[me]["ties"] += p.ties
    timed = decision_times(runs[0])
    order = sorted(range(n), key=lambda i: (-fit.ratings[i]["rating"], i))
    rows = []
    for rank, i in enumerate(order, start=1):
        ms = None
        decisions = 0
        if timed is not None:
            decisions = timed[0][i].decisions
            ms = float(f"{1000 * timed[0][i].seconds / decisions:.3g}") if decisions else None
        rows.append(
            {"rank": rank, "entrant": i, **entrants[i], **fit.ratings[i], **record[i],
             "ms_per_decision": ms, "decisions_timed": decisions}
        )  # fmt: skip
    deck_names = [name for _, name in _service(ladder.game).ladder_decks()]
    return {
        "method": METHOD.format(bootstrap=rating.BOOTSTRAP, seed=ladder.seed),
        "games": sum(p.games for p in pairs),
        "decks": [name for name in deck_names if name],
        "runs": [run.pk for run in runs],
        "entrants": rows,
        "superiority": [[fit.superiority[i][j] for j in order] for i in order],
        "win_chance": [[fit.win_chance[i][j] for j in order] for i in order],
        "timing": {
            "games": timed[1] if timed else 0,
            "seconds": round(timed[2], 3) if timed else 0.0,
            "how": "Each bot's decisions timed while the first games of the first deck's "
            "round robin were played again in one process.",
        },
    }


FOLLOWER = Follower(
    name="ladder",
    run_ended=lambda run_id: ladder_rate_for_run(run_id=run_id),
    due=ladders_due,
    advance=lambda ladder_id: ladder_rate(ladder_id=ladder_id),
)
