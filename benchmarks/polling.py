"""The site while a run keeps the workers busy: status polls and page loads, with the web
server (gunicorn, as the Procfile runs it) and the workers (`--layout`, two processes) on this
one machine.

    .venv/bin/python benchmarks/polling.py [--games 20000] [--pollers 50] [--browsers 30]

1. Throughput: the same run (heuristic heads-up High Stakes Drifter) played with nobody
   watching, then with `--pollers` clients each reading its status once a second
   (`GET /api/v1/simulations/{id}/` with a token), alternately `--repeat` times; prints the
   games a second both ways and their ratio (goal: the pollers cost under 5%), and the web's
   CPU either way, which decides that ratio where the workers keep every core busy and moves
   far less than wall times when other work shares the machine.
2. Pages: `--browsers` clients browsing the catalogue (about 50 requests a second in all) with
   the workers idle, then while a `--browse-games` run plays, in `--windows` windows that
   alternate the workers' priority between their own nice and `--compare-nice` (0, as before
   issue #13); prints p50, p95 and max for each (goal: p95 <= 100 ms while the run plays).

Not a test. A throwaway SQLite database and filesystem broker in a temporary folder unless
DATABASE_URL / CELERY_BROKER_URL are set (`--postgres`: a throwaway PostgreSQL database).
Throttling is off: 50 pollers under one account would be refused past 20 requests a second.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
import uuid
from http.client import HTTPConnection
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import LoadResult, drive, gunicorn
from benchmarks.simruns import (
    LAYOUTS,
    play_run,
    prepare,
    start_workers,
    stop_workers,
    tree_pids,
)
from benchmarks.simruns import wait_until_ready as workers_ready

# Pages and searches anyone browsing the catalogue asks for (HTML and API).
BROWSING = [
    ("GET", "/", None),
    ("GET", "/cards/", None),
    ("GET", "/cards/?q=" + quote("t:dude skill>=8"), None),
    ("GET", "/cards/HSD-012/", None),
    ("GET", "/sets/", None),
    ("GET", "/sets/HSD/", None),
    ("GET", "/api/v1/cards/?limit=20&q=" + quote("f:outlaws cost<=4 sort:-cost"), None),
    ("GET", "/api/v1/cards/?limit=20&q=" + quote('o:"reinvest"'), None),
    ("GET", "/api/v1/sets/", None),
]


class Pollers:
    """`count` clients, each reading one URL with a token once a second (random phase) on a
    keep-alive connection of its own, until stopped."""

    def __init__(self, port: int, path: str, token: str, count: int) -> None:
        self.port, self.path, self.token, self.count = port, path, token, count
        self.stop = threading.Event()
        self.latencies: list[float] = []
        self.errors = 0
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._poll, args=(i,)) for i in range(count)]

    def __enter__(self) -> Pollers:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join()

    def _poll(self, index: int) -> None:
        rng = random.Random(index)
        conn = HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Authorization": f"Token {self.token}"}
        next_at = time.monotonic() + rng.random()
        mine, bad = [], 0
        while not self.stop.wait(max(0.0, next_at - time.monotonic())):
            next_at += 1.0
            start = time.perf_counter()
            try:
                conn.request("GET", self.path, headers=headers)
                response = conn.getresponse()
                response.read()
                bad += response.status != 200
            except OSError:
                bad += 1
                conn.close()
                conn = HTTPConnection("127.0.0.1", self.port, timeout=30)
                continue
            mine.append((time.perf_counter() - start) * 1000)
        with self.lock:
            self.latencies += mine
            self.errors += bad


def web_cpu_seconds(port: int) -> float:
    """CPU seconds used so far by the gunicorn processes serving `port` (Linux /proc)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        try:
            if (
                entry.name.isdigit()
                and f"127.0.0.1:{port}".encode() in (entry / "cmdline").read_bytes()
            ):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            continue
    return total


def page_line(label: str, result: LoadResult) -> str:
    worst = max(result.latencies_ms, default=float("nan"))
    return (
        f"{label:<40} {result.rps:5.1f} req/s  p50 {result.pct(50):6.1f} ms  "
        f"p95 {result.pct(95):6.1f} ms  max {worst:7.1f} ms  errors {result.errors}"
    )


def browse(args, port: int, owner, players: list[dict], workers: int, nice: int) -> str:
    """Page loads with the workers idle, then while one run plays, in windows that alternate
    the workers' priority between `nice` and `--compare-nice` (the same run, the same
    moment's other load: what differs is the priority). Lowering a priority back needs root
    (CAP_SYS_NICE); without it only `nice` is measured."""
    from simulator.runs.services import run_cancel, run_create

    per_client = args.browse_rate / args.browsers

    def window() -> LoadResult:
        return drive(
            port, BROWSING, clients=args.browsers, seconds=args.browse_seconds,
            per_client_rate=per_client,
        )  # fmt: skip

    drive(port, BROWSING, clients=5, seconds=2, per_client_rate=5)  # warm up
    idle = window()
    levels = [nice] if args.compare_nice is None else [nice, args.compare_nice]
    run, _ = run_create(
        owner=owner, game="drifter", players=players, games=args.browse_games, seed=7
    )
    while not run.chunks.filter(status="running").exists():
        time.sleep(0.1)
    busy: dict[int, list[LoadResult]] = {level: [] for level in levels}
    for w in range(args.windows):
        level = levels[w % len(levels)]
        try:
            for pid in tree_pids(workers):
                os.setpriority(os.PRIO_PROCESS, pid, level)
        except PermissionError:
            levels = [nice]
            continue
        busy[level].append(window())
    run.refresh_from_db()
    still = run.is_active
    run_cancel(run=run)
    lines = [page_line(f"{args.browsers} browsing, workers idle", idle)]
    for level, results in busy.items():
        if results:
            merged = LoadResult(
                sum(r.requests for r in results), sum(r.errors for r in results),
                sum(r.seconds for r in results), [ms for r in results for ms in r.latencies_ms],
            )  # fmt: skip
            lines.append(
                page_line(f"{args.browsers} browsing, a run playing, nice {level}", merged)
            )
    mine = busy[nice]
    p95 = LoadResult(0, 0, 1, [ms for r in mine for ms in r.latencies_ms]).pct(95)
    lines.append(
        f"goal p95 <= 100 ms while the run plays (nice {nice}): "
        f"{'met' if p95 <= 100 else 'NOT met'} ({p95:.0f} ms)"
        + ("" if still else " (the run ended before the last window did)")
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="Games of each timed run.")
    parser.add_argument("--pollers", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=2, help="Runs each way, alternately.")
    parser.add_argument("--browsers", type=int, default=30)
    parser.add_argument("--browse-rate", type=float, default=50.0, help="Requests/s in all.")
    parser.add_argument("--browse-games", type=int, default=40_000)
    parser.add_argument("--browse-seconds", type=float, default=8.0, help="Per window.")
    parser.add_argument("--windows", type=int, default=4, help="Windows while the run plays.")
    parser.add_argument(
        "--compare-nice", type=int, default=0,
        help="Alternate windows at this worker priority (default 0, as before issue #13).",
    )  # fmt: skip
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--layout", choices=LAYOUTS, default="solo")
    parser.add_argument(
        "--worker-nice", type=int, help="SIMULATION_WORKER_NICE for the workers (default: 10)."
    )
    parser.add_argument("--skip", choices=["polling", "browsing"], help="Leave one part out.")
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    tmp = prepare(postgres=args.postgres, name="bench_polling")
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from simulator.common import conf

    queue = f"bench-{uuid.uuid4().hex[:8]}"
    settings.SIMULATION_QUEUE = queue
    worker_env = (
        {} if args.worker_nice is None else {"SIMULATION_WORKER_NICE": str(args.worker_nice)}
    )
    nice = args.worker_nice if args.worker_nice is not None else conf.get("SIMULATION_WORKER_NICE")
    owner, _ = get_user_model().objects.get_or_create(username="bench")
    token, _ = Token.objects.get_or_create(user=owner)
    players = [{"starter": "HSD-S1", "bot": "heuristic"}, {"starter": "HSD-S2", "bot": "heuristic"}]
    web_env = dict(
        os.environ, DJANGO_DEBUG="false", SECURE_SSL_REDIRECT="false",
        ALLOWED_HOSTS="127.0.0.1,localhost", THROTTLE_ENABLED="false",
    )  # fmt: skip
    print(
        f"web: gunicorn 2 workers x 4 threads; simulation workers: layout {args.layout}, "
        f"{args.workers} processes, nice {nice}; {settings.DATABASES['default']['ENGINE']}, "
        f"{settings.CELERY_BROKER_URL.split('://')[0]}; {os.cpu_count()} cores"
    )
    workers = start_workers(args.layout, args.workers, queue, tmp, worker_env)
    try:
        workers_ready(queue, args.workers if args.layout == "solo" else 1)
        with gunicorn(web_env, workers=2, threads=4) as port:
            if args.skip != "polling":
                rates: dict[str, list[float]] = {"nobody polling": [], "pollers": []}
                web_cores: dict[str, list[float]] = {mode: [] for mode in rates}
                latencies: list[float] = []
                errors = 0
                # Untimed: the first runs of a plan are chunked by an estimate, the rest by the
                # cost measured then (services._calibrated_cost); every timed run by the latter.
                play_run(owner, players, 3000, seed=0)
                for i in range(args.repeat):
                    for mode in rates:
                        pollers: list[Pollers] = []

                        def watch(run, mode=mode, pollers=pollers):
                            count = args.pollers if mode == "pollers" else 0
                            path = f"/api/v1/simulations/{run.pk}/"
                            pollers.append(Pollers(port, path, token.key, count))
                            return pollers[0]

                        web_before = web_cpu_seconds(port)
                        _, wall = play_run(owner, players, args.games, seed=1 + i, watch=watch)
                        web_cores[mode].append((web_cpu_seconds(port) - web_before) / wall)
                        rates[mode].append(args.games / wall)
                        latencies += pollers[0].latencies
                        errors += pollers[0].errors
                        print(f"  {mode:<15} run {i + 1}: {args.games / wall:7.1f} games/s")
                quiet, polled = (statistics.median(rates[m]) for m in rates)
                polls = LoadResult(len(latencies), errors, 1.0, latencies)
                print(
                    f"throughput with {args.pollers} pollers at 1/s against nobody polling: "
                    f"{polled / quiet:.3f} (median of {args.repeat} runs each: {polled:.1f} vs "
                    f"{quiet:.1f} games/s; goal >= 0.95)"
                )
                print(
                    f"a status poll: p50 {polls.pct(50):.1f} ms, p95 {polls.pct(95):.1f} ms over "
                    f"{len(latencies):,} polls, {errors} errors"
                )
                # What decides the ratio on a machine the workers keep busy, and moves far less
                # than wall times when other work shares the cores: the web's CPU.
                quiet_web, polled_web = (statistics.median(web_cores[m]) for m in web_cores)
                cores = os.cpu_count() or 1
                print(
                    f"the web's CPU while a run played: {quiet_web:.3f} cores with nobody "
                    f"polling, {polled_web:.3f} with the pollers, so "
                    f"{1000 * (polled_web - quiet_web) / args.pollers:.1f} ms a poll and "
                    f"{(polled_web - quiet_web) / cores:.1%} of this machine's {cores} cores"
                )
            if args.skip != "browsing":
                print(browse(args, port, owner, players, workers.pid, nice))
    finally:
        stop_workers(workers)
    print(f"load average now: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
