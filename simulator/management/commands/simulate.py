"""`manage.py simulate`: a run played in this process (or N processes), no worker needed.

    manage.py simulate --game quickdraw --bots heuristic random --games 10000
    manage.py simulate --starters HSD-S1 HSD-S2 --bots random random --games 500 --processes 2
    manage.py simulate --run 12          # finish an existing run's unfinished chunks here

The run is created by the same service as the API (same checks, same chunks, same seeds) and
its chunks are played by the same `chunk_execute` a Celery worker calls, so the report printed
is the one the site shows.
"""

from __future__ import annotations

import sys
import time

from django.core.management.base import BaseCommand, CommandError

from simulator.games.problems import RunRefused
from simulator.management.owners import command_owner
from simulator.runs import selectors
from simulator.runs.models import SimulationRun
from simulator.runs.services import run_create, run_execute_locally


class ProgressBar:
    """A one-line terminal progress bar: games done, rate and time left."""

    def __init__(self, total: int, stream) -> None:
        self.total, self.done, self.stream = total, 0, stream
        self.began = time.monotonic()

    def advance(self, games: int) -> None:
        self.done += games
        elapsed = time.monotonic() - self.began
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate else 0.0
        filled = int(30 * self.done / self.total) if self.total else 30
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done:,}/{self.total:,} games "
            f"{rate:,.0f}/s, {left:,.0f}s left "
        )
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")


class Command(BaseCommand):
    help = "Play a simulation run in-process (no Celery worker) and print its report."

    def add_arguments(self, parser):
        parser.add_argument("--run", type=int, help="Finish this existing run instead.")
        parser.add_argument("--game", default="drifter")
        parser.add_argument(
            "--kind", default="match", choices=[k for k, _ in SimulationRun.Kind.choices]
        )
        parser.add_argument("--format", default="")
        parser.add_argument("--variants", nargs="*", default=[])
        parser.add_argument("--games", type=int, default=100, help="Games per matchup.")
        parser.add_argument("--seed", type=int)
        parser.add_argument("--starters", nargs="*", default=[], help="Starter deck codes.")
        parser.add_argument("--decks", nargs="*", type=int, default=[], help="Deck ids.")
        parser.add_argument("--bots", nargs="*", default=[], help="One bot per player.")
        parser.add_argument("--players", type=int, default=2, help="Players, for fixed games.")
        parser.add_argument("--user", default=None, help="Owner (default: the first superuser).")
        parser.add_argument("--processes", type=int, default=1)

    def handle(self, *args, **opts):
        if opts["run"]:
            run = SimulationRun.objects.filter(pk=opts["run"]).first()
            if run is None:
                raise CommandError(f"no run {opts['run']}")
        else:
            run = self._create(opts)
        bar = ProgressBar(run.total_games - run.games_done, sys.stderr)
        run = run_execute_locally(run=run, processes=opts["processes"], on_chunk=bar.advance)
        bar.close()
        self.stdout.write(selectors.report_text(run))

    def _create(self, opts) -> SimulationRun:
        owner = command_owner(opts["user"])
        sources = [{"starter": s} for s in opts["starters"]] + [{"deck": d} for d in opts["decks"]]
        n = len(sources) or opts["players"]
        bots = opts["bots"] or []
        players = []
        for i in range(n):
            player = dict(sources[i]) if i < len(sources) else {}
            if i < len(bots):
                player["bot"] = bots[i]
            players.append(player)
        try:
            run, _ = run_create(
                owner=owner, game=opts["game"], kind=opts["kind"], players=players,
                games=opts["games"], seed=opts["seed"], format=opts["format"],
                variants=opts["variants"], dispatch=False,
            )  # fmt: skip
        except RunRefused as exc:
            problems = "; ".join(f"{e.get('attr')}: {e['detail']}" for e in exc.problems)
            raise CommandError(problems) from None
        return run
