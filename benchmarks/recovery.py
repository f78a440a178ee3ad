"""Recovery: a run whose worker processes are all SIGKILLed mid-run, against the same run clean.

    .venv/bin/python benchmarks/recovery.py [--games 20000] [--workers 2] [--kills 3] [--postgres]

Not a test: the layout `make run` starts (`manage.py simulation_workers`) plays a run of
heuristic heads-up High Stakes Drifter games clean, then the same run (same plan, same seed)
again while every worker process is killed with SIGKILL `--kills` times, evenly spread over
the clean run's length. It prints both wall times and the difference (the goal: at most 10 s),
how many chunks were sent again and by whom, and checks that the killed run counted exactly
the games of the clean one with the identical aggregate (exactly once). The database and broker
are throwaway ones (SQLite + filesystem://) unless CELERY_BROKER_URL / DATABASE_URL say
otherwise (`--postgres`: a throwaway PostgreSQL database, as benchmarks/harness.py makes it).
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.simruns import (
    bench_settings,
    children,
    play_run,
    prepare,
    start_workers,
    stop_workers,
    wait_until_ready,
)


def _killer(supervisor: int, at: list[float], began: list[float], killed: list[int]) -> None:
    """Kill every worker process at each of `at` seconds after the run began."""
    for when in at:
        while time.perf_counter() - began[0] < when:
            time.sleep(0.01)
        for pid in children(supervisor) or []:  # its `celery worker` processes
            try:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            except ProcessLookupError:
                pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--kills", type=int, default=3, help="Rounds of killing every worker.")
    parser.add_argument(
        "--postgres", action="store_true", help="A throwaway PostgreSQL database (see harness)."
    )
    args = parser.parse_args()
    tmp = prepare(postgres=args.postgres, name="bench_recovery")
    from django.conf import settings

    from simulator.common import conf
    from simulator.models import SimulationChunk

    queue, env, owner = bench_settings(args.games, args.workers)
    players = [{"starter": "HSD-S1", "bot": "heuristic"}, {"starter": "HSD-S2", "bot": "heuristic"}]
    workers = start_workers("solo", args.workers, queue, tmp, env)
    killed: list[int] = []
    try:
        wait_until_ready(queue, args.workers)
        clean, clean_wall = play_run(owner, players, args.games, seed=7)
        wait_until_ready(queue, args.workers)
        at = [clean_wall * (i + 1) / (args.kills + 1) for i in range(args.kills)]
        began = [time.perf_counter()]
        killer = threading.Thread(target=_killer, args=(workers.pid, at, began, killed))
        killer.start()
        hurt, hurt_wall = play_run(owner, players, args.games, seed=7)
        killer.join()
    finally:
        stop_workers(workers)
    log = (tmp / f"workers-{queue}.log").read_text()
    by_supervisor = sum(int(n) for n in re.findall(r"chunks: (\d+) re-sent", log))
    chunks = SimulationChunk.objects.filter(run=hurt)
    resent = sum(c.sends - 1 for c in chunks)
    same = hurt.aggregate == clean.aggregate and hurt.games_done == clean.games_done == args.games
    print(f"games: {args.games:,} heuristic heads-up (HSD-S1 vs HSD-S2), {args.workers} workers")
    print(
        f"broker: {settings.CELERY_BROKER_URL.split('://')[0]}, "
        f"database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}, "
        f"lease {conf.get('SIMULATION_LEASE_SECONDS'):g} s"
    )
    print(f"clean run:   {clean_wall:7.2f} s, {clean.chunk_count} chunks of {clean.chunk_size}")
    print(
        f"killed run:  {hurt_wall:7.2f} s, every worker SIGKILLed {args.kills} times at "
        f"{', '.join(f'{t:.1f}' for t in at)} s ({len(killed)} processes killed)"
    )
    print(f"difference:  {hurt_wall - clean_wall:+7.2f} s  (goal: at most +10 s)")
    print(
        f"chunks sent again: {resent} ({by_supervisor} at once by the supervisor, the rest by "
        "the reconciler)"
    )
    print(f"exactly once (the same games and aggregate as the clean run): {same}")
    print(f"load average now: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if not same:
        sys.exit("the killed run did not count the games exactly once")


if __name__ == "__main__":
    main()
