"""Simulation throughput: heuristic heads-up High Stakes Drifter games through Celery with two
worker processes, against the same games played in one in-process loop.

    .venv/bin/python benchmarks/simulations.py [--games 100000] [--workers 2] [--layout solo]

Not a test: prints the wall times, the ratio (goal >= 1.8 on 2 cores) and the per-task
overhead (the workers' time from submission to the run's last game counted, beyond the chunks'
own play time, per chunk). The run is submitted as by a web server that has started: this
process warms up as one does (`runs.services.submit_warm`; `--cold`: not). The workers are the
layout `make run` starts (`--layout solo`: `manage.py simulation_workers`) or the one it
started before (`--layout prefork`), at the configured CPU priority unless `--worker-nice` says
otherwise. The database and broker are throwaway ones in a temporary folder (SQLite +
filesystem://) unless CELERY_BROKER_URL / DATABASE_URL are set (`--postgres`: a throwaway
PostgreSQL database). The same plan and seeds are played both ways, and the two aggregates are
checked to be identical.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import itertools

from benchmarks.simruns import (
    LAYOUTS,
    bench_settings,
    play_run,
    prepare,
    start_workers,
    stop_workers,
    tree_cpu_seconds,
    wait_until_ready,
)


def _play(plan: dict, start: int, end: int) -> int:
    from decks.engine_catalogue import engine_catalogue
    from simulator.games.runner import play_chunk

    return play_chunk(plan, start, end, catalogue=engine_catalogue()).games


def _engine_only(plan: dict, games: int) -> float:
    """Seconds to play the plan's first `games` games as play_chunk plays them (same seeds,
    seats, bots) with none of its per-game bookkeeping (facts, the matchup and per-card
    tallies): the engine's share of the in-process loop."""
    from decks.engine_catalogue import engine_catalogue
    from simulator.games import service_for
    from simulator.games.runner import game_seed, rotation

    catalogue = engine_catalogue()
    game = service_for(plan["game"])
    rules = game.engine_rules(plan.get("rules") or {})
    players = plan["players"]
    seats_of = [game.engine_seat(p) for p in players]
    began = time.perf_counter()
    for i in range(games):
        seed = game_seed(plan["seed"], i)
        for matchup in plan["matchups"]:
            entrants = [matchup[pos] for pos in rotation(i, len(matchup))]
            state = game.new_game([seats_of[e] for e in entrants], rules, seed, False, catalogue)
            bots = [
                game.make_bot(players[e]["bot"], s, seed * 16 + s, players[e].get("budget"))
                for s, e in enumerate(entrants)
            ]
            while not state.is_over:
                p = state.to_act
                state.apply(bots[p].choose(state.view(p), state.legal_actions()))
    return time.perf_counter() - began


def _timeline(run, began_at) -> str:
    """Where the workers' wall time beyond play went, from the chunks' own times: the wait
    for the first chunk after submission, each worker's gaps between finishing a chunk and
    starting its next, the time each chunk spent outside its play (loading the run, storing
    its result), and the idle tail after a worker's last chunk until the run was counted."""
    from simulator.models import ChunkResult

    chunks = list(
        run.chunks.order_by("started_at").values("index", "worker", "started_at", "finished_at")
    )
    seconds = dict(ChunkResult.objects.filter(run=run).values_list("chunk_index", "seconds"))
    by_worker: dict[str, list[dict]] = {}
    for chunk in chunks:
        by_worker.setdefault(chunk["worker"], []).append(chunk)
    firsts = sorted(
        (mine[0]["started_at"] - began_at).total_seconds() for mine in by_worker.values()
    )
    gaps = [
        (b["started_at"] - a["finished_at"]).total_seconds()
        for mine in by_worker.values()
        for a, b in itertools.pairwise(mine)
    ]
    outside = [
        (c["finished_at"] - c["started_at"]).total_seconds() - seconds.get(c["index"], 0.0)
        for c in chunks
    ]
    end = max(c["finished_at"] for c in chunks)
    tails = [(end - mine[-1]["finished_at"]).total_seconds() for mine in by_worker.values()]
    counted = (run.finished_at - end).total_seconds()
    ms = lambda xs: " ".join(f"{1000 * x:.0f}" for x in xs)  # noqa: E731
    return (
        f"timeline (ms): each worker's first chunk started {ms(firsts)} after submit; "
        f"gaps between a worker's chunks {ms(gaps)} (sum {1000 * sum(gaps):.0f}); a chunk outside "
        f"its play {ms(outside)} (sum {1000 * sum(outside):.0f}); idle tails {ms(tails)}; "
        f"last chunk -> run done {1000 * counted:.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--layout", choices=LAYOUTS, default="solo")
    parser.add_argument(
        "--worker-nice", type=int, help="SIMULATION_WORKER_NICE for the workers (default: 10)."
    )
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--chunk-seconds", type=float, default=1.0)
    parser.add_argument(
        "--cold",
        action="store_true",
        help="Submit the run without the warm-up a web server does as it starts.",
    )
    parser.add_argument(
        "--postgres", action="store_true", help="A throwaway PostgreSQL database (see harness)."
    )
    args = parser.parse_args()
    tmp = prepare(postgres=args.postgres, name="bench_simulations")
    from django.conf import settings

    from simulator.common import conf
    from simulator.games.runner import play_chunk
    from simulator.models import ChunkResult

    queue, worker_env, owner = bench_settings(args.games, args.workers)
    settings.SIMULATION_CHUNK_SECONDS = args.chunk_seconds
    if args.worker_nice is not None:
        worker_env["SIMULATION_WORKER_NICE"] = str(args.worker_nice)
    players = [
        {"starter": "HSD-S1", "bot": args.bot},
        {"starter": "HSD-S2", "bot": args.bot},
    ]

    # Workers first (they take a few seconds to boot); the clock starts at submission.
    workers = start_workers(args.layout, args.workers, queue, tmp, worker_env)
    try:
        wait_until_ready(queue, args.workers if args.layout == "solo" else 1)
        if not args.cold:
            # As the web server does as it starts (config/asgi.py): the games' services
            # imported, their catalogues loaded and the broker connected.
            from simulator.runs.services import submit_warm

            submit_warm()
        cpu_before = tree_cpu_seconds(workers.pid)
        from django.utils import timezone

        submitted_at = timezone.now()
        run, celery_wall = play_run(owner, players, args.games)
        worker_cpu = tree_cpu_seconds(workers.pid) - cpu_before
    finally:
        stop_workers(workers)

    from decks.engine_catalogue import engine_catalogue

    catalogue = engine_catalogue()
    # The engine alone before and after the loop (their mean), so that neither a first-run
    # warm-up nor a load passing over the machine bills the bookkeeping alone.
    engine_before = _engine_only(run.plan, args.games)
    began = time.perf_counter()
    local = play_chunk(run.plan, 0, args.games, catalogue=catalogue)
    loop_wall = time.perf_counter() - began
    engine_wall = (engine_before + _engine_only(run.plan, args.games)) / 2

    # The peer: the same games split over bare processes (no broker, no database). Its ratio
    # is the ceiling this machine allows right now (cores shared with other work lower it).
    import multiprocessing

    from django.db import connections

    connections.close_all()
    bounds = [args.games * i // args.workers for i in range(args.workers + 1)]
    began = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        pool.starmap(_play, [(run.plan, bounds[i], bounds[i + 1]) for i in range(args.workers)])
    bare_wall = time.perf_counter() - began

    busy = sum(ChunkResult.objects.filter(run=run).values_list("seconds", flat=True))
    chunks = run.chunk_count
    # The workers' span: from submission to the moment the run counted its last game, by the
    # server's clock (the wall time above also holds this process's last poll, up to 20 ms).
    span = (run.finished_at - submitted_at).total_seconds()
    overhead = (span * args.workers - busy) / chunks
    same = local.aggregate["matchups"] == run.aggregate["matchups"]
    print(f"games: {args.games:,} heuristic heads-up (HSD-S1 vs HSD-S2), bot {args.bot}")
    nice = args.worker_nice if args.worker_nice is not None else conf.get("SIMULATION_WORKER_NICE")
    print(f"workers: layout {args.layout}, {args.workers} processes, nice {nice}")
    print(
        f"broker: {settings.CELERY_BROKER_URL.split('://')[0]}, "
        f"database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}"
    )
    print(f"in-process loop: {loop_wall:8.2f} s  ({args.games / loop_wall:,.1f} games/s)")
    print(
        f"the same games, engine only: {engine_wall:8.2f} s  ({args.games / engine_wall:,.1f} "
        f"games/s): play_chunk's per-game bookkeeping costs "
        f"{100 * (loop_wall / engine_wall - 1):.1f}% on top (goal <= 10%)"
    )
    print(
        f"celery x{args.workers}:        {celery_wall:8.2f} s  ({args.games / celery_wall:,.1f} "
        f"games/s), {chunks} chunks of {run.chunk_size} games"
    )
    print(f"bare processes x{args.workers}: {bare_wall:8.2f} s  (no Celery, no database)")
    print(f"ratio (loop / celery): {loop_wall / celery_wall:.2f}  (goal >= 1.8 on 2 cores)")
    print(
        f"ratio (loop / bare processes): {loop_wall / bare_wall:.2f}  (this machine's ceiling now)"
    )
    print(f"celery efficiency against bare processes: {bare_wall / celery_wall:.0%}")
    print(
        f"end to end (submit -> every game counted) / bare processes: "
        f"{celery_wall / bare_wall:.2f}  (goal <= 1.10)"
    )
    print(
        f"per-task overhead: {1000 * overhead:.0f} ms per chunk "
        f"({100 * overhead * chunks / (span * args.workers):.1f}% of the workers' time from "
        f"submission to the last game counted, {span:.2f} s x {args.workers}; "
        "goal <= 5%)"
    )
    print(
        f"play time inside chunks: {busy:.2f} s in all vs {loop_wall:.2f} s in the loop "
        f"(above 1: the workers' cores were shared)"
    )
    print(
        f"CPU time the worker processes got: {worker_cpu:.2f} s of "
        f"{args.workers * celery_wall:.2f} s wall x workers"
    )
    print(f"load average now: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(_timeline(run, submitted_at))
    print(f"same aggregate both ways: {same}")


if __name__ == "__main__":
    main()
