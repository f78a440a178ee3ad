"""`manage.py bots_ladder`: build (and rate) the bots' ladder of every game, or of one.

    manage.py bots_ladder                          # every game; the runs play on the workers
    manage.py bots_ladder --game quickdraw --games 200 --local   # played and rated here

Without `--local` the ladders' runs are sent to the workers, and each ladder is rated when its
last run ends (docs/bots.md). With `--local` the same runs are played in this process by the
same `chunk_execute` a worker calls, then rated, and the ladder is printed.
"""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError

from config.api import DomainError
from simulator.engine.core.registry import games as registered_games
from simulator.ladder import selectors
from simulator.ladder.services import ladder_create, ladder_rate
from simulator.management.commands.simulate import ProgressBar
from simulator.management.owners import command_owner
from simulator.runs.services import run_execute_locally


class Command(BaseCommand):
    help = "Build the bots' ladder of every game (or one) and, with --local, play and rate it."

    def add_arguments(self, parser):
        parser.add_argument("--game", help="One game (default: every game).")
        parser.add_argument(
            "--games", type=int, default=200, help="Games of each pair of bots, on each deck."
        )
        parser.add_argument("--seed", type=int)
        parser.add_argument(
            "--bots", help="Some of the game's bots, comma-separated (default: all)."
        )
        parser.add_argument("--local", action="store_true", help="Play in this process.")
        parser.add_argument("--processes", type=int, default=1, help="With --local.")
        parser.add_argument("--user", default=None, help="Owner of the runs.")

    def handle(self, *args, **opts):
        names = [opts["game"]] if opts["game"] else list(registered_games())
        owner = command_owner(opts["user"])
        for name in names:
            try:
                ladder = ladder_create(
                    owner=owner, game=name, games=opts["games"], seed=opts["seed"],
                    bots=opts["bots"].split(",") if opts["bots"] else None,
                    dispatch=not opts["local"],
                )  # fmt: skip
            except DomainError as exc:
                problems = "; ".join(f"{p.get('attr')}: {p['detail']}" for p in exc.problems)
                raise CommandError(problems) from None
            if not opts["local"]:
                runs = ", ".join(str(pk) for pk in ladder.runs.values_list("pk", flat=True))
                self.stdout.write(
                    f"{name}: ladder {ladder.pk} built; its runs ({runs}) play on the workers "
                    "and it is rated when they end."
                )
                continue
            for run in ladder.runs.order_by("pk"):
                bar = ProgressBar(run.total_games, sys.stderr)
                run_execute_locally(run=run, processes=opts["processes"], on_chunk=bar.advance)
                bar.close()
            ladder_rate(ladder_id=ladder.pk)
            ladder.refresh_from_db()
            self.stdout.write(selectors.ladder_text(ladder))
