"""People at one table (issue #26, section 4): the push channel under load. On a throwaway
database the site is served as `make run` serves it (uvicorn, config.asgi:application, DEBUG
off), and simulated people play High Stakes Drifter over the real HTTP API and WebSockets:
`--tables` tables of four people at a human pace (each decision after a random think time of
2-8 s: a quick player's)
plus one table of four played as fast as they can. Every client holds the table's push channel
(`ws://host/ws/tables/<id>/`, `Authorization: Token <key>`, hello, ping every 10 s as the page
does) and acts by `POST /api/v1/games/{id}/actions/`.

    .venv/bin/python benchmarks/tables_live.py [--redis] [--seconds 60] [--tables 50]

- embedded default: ONE uvicorn process, SQLite, the in-memory channel layer;
- `--redis`: PostgreSQL (a throwaway database on BENCH_PG_ADMIN_URL's server, dropped at the
  end) and Redis (`redis://127.0.0.1:6379/<--redis-db>`, flushed before and after) with TWO
  uvicorn processes on two ports: each table's seats are spread over both, and each decision is
  sent to the process the actor's socket is not on, so every decision reaches clients held by
  the other process through Redis.

For every decision: from the moment the acting client sends its HTTP action until EACH other
seat's client receives a pushed table message with that version or a later one (the consumer
builds the table as it is when it builds, so two quick changes may reach a client as one: a
"coalesced" receipt; a "lost" one never arrives). Goals (issue #26): p95 <= 150 ms, p99 <= 400
ms, 0 errors (a non-2xx answer or any exception), 0 lost, in both modes. Peers measured in the
same run: `GET /healthz` on the same server a few times a second (no database) and the push
channel's own ping/pong (one small write through the same worker thread as a push), so the
latency can be read as a ratio. Also: the HTTP action's round trip, the fast table's decisions
a second, and the CPU of the server processes and of this client process.

`--profile DIR`: py-spy (PATH, or `--py-spy`) records each server process into DIR as a
flame graph (SVG) and a collapsed-stack file for the measured window.

Not a test. Throttling stays on, as served (four people a table stay far below the API's
rates); the clients need `websockets` and use httpx if installed, else `requests` in threads.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import (
    BASE_DIR,
    PG_ADMIN_URL,
    bench_database_url,
    free_port,
    manage,
    served_sqlite_env,
)

try:
    import httpx
except ImportError:  # pragma: no cover - the fallback: blocking requests in threads
    httpx = None  # type: ignore[assignment]
from websockets.asyncio.client import connect as ws_connect

GOAL_P95_MS, GOAL_P99_MS = 150.0, 400.0
PG_NAME = "bench_tables_live"
HEARTBEAT_S = 10.0
SEATS = 4
STARTERS = ["HSD-S1", "HSD-S2", "HSD-S1", "HSD-S2"]

# Made in the served database: `count` users (no password: nothing to hash) with API tokens.
MAKE_USERS = """
import json
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
User = get_user_model()
users = User.objects.bulk_create([User(username=f"live{{i:04d}}") for i in range({count})])
users = list(User.objects.filter(username__startswith="live").order_by("username"))
tokens = Token.objects.bulk_create([Token(user=u, key=Token.generate_key()) for u in users])
print("USERS " + json.dumps([[t.user.username, t.key] for t in tokens]))
"""


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def dist(values: list[float]) -> str:
    if not values:
        return "n=    0"
    return (
        f"n={len(values):6d}  p50 {pct(values, 50):7.1f}  p95 {pct(values, 95):7.1f}  "
        f"p99 {pct(values, 99):7.1f}  max {max(values):8.1f} ms"
    )


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --- the servers -------------------------------------------------------------------------------


@dataclass
class Site:
    env: dict[str, str]
    var: Path
    ports: list[int] = field(default_factory=list)
    procs: list[subprocess.Popen] = field(default_factory=list)
    label: str = ""
    cleanup: list[Any] = field(default_factory=list)


def prepare_site(args: argparse.Namespace) -> Site:
    """A migrated throwaway database with the catalogue, and the environment to serve it."""
    if not args.redis:
        env = served_sqlite_env("tables-live")
        site = Site(env, Path(env["DRIFTER_VAR_DIR"]))
        site.label = "embedded default: 1 uvicorn process, SQLite, in-memory channel layer"
        return site
    import redis

    redis_url = f"redis://127.0.0.1:6379/{args.redis_db}"
    try:
        redis.Redis.from_url(redis_url).flushdb()
        database_url = bench_database_url(PG_NAME)
    except Exception as exc:
        sys.exit(
            f"--redis needs Redis at {redis_url} and PostgreSQL at {PG_ADMIN_URL} "
            f"(BENCH_PG_ADMIN_URL): {type(exc).__name__}: {exc}"
        )
    var = Path(tempfile.mkdtemp(prefix="drifter-bench-tables-live-"))
    env = dict(os.environ)
    env.update(
        DRIFTER_VAR_DIR=str(var),
        DATABASE_URL=database_url,
        # As `make run` is run on Redis: the broker's URL names the channel layer too.
        CELERY_BROKER_URL=redis_url,
        DJANGO_DEBUG="false",
        SECURE_SSL_REDIRECT="false",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECRET_KEY="bench-" + "x" * 50,
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    env.pop("CHANNEL_LAYER_URL", None)
    manage("migrate", "--noinput", env=env)
    manage("load_catalogue", env=env)
    site = Site(env, var)
    site.label = (
        f"PostgreSQL + Redis (db {args.redis_db}): 2 uvicorn processes, channels-redis layer"
    )
    site.cleanup.append(lambda: redis.Redis.from_url(redis_url).flushdb())
    site.cleanup.append(drop_pg_database)
    return site


def drop_pg_database() -> None:
    import psycopg

    admin = PG_ADMIN_URL.replace("postgres://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{PG_NAME}" WITH (FORCE)')


def make_users(site: Site, count: int) -> list[tuple[str, str]]:
    out = manage("shell", "-c", MAKE_USERS.format(count=count), env=site.env)
    line = next(x for x in out.splitlines() if x.startswith("USERS "))
    return [tuple(pair) for pair in json.loads(line[6:])]


def start_servers(site: Site, processes: int) -> None:
    """uvicorn as the Procfile runs it (`--workers 1` each: one process a port; connections
    kept, CONN_MAX_AGE 600)."""
    uvicorn = str(Path(sys.executable).parent / "uvicorn")
    for i in range(processes):
        port = free_port()
        log = open(site.var / f"uvicorn-{i}.log", "w")  # noqa: SIM115 (closed with the site)
        proc = subprocess.Popen(
            [uvicorn, "config.asgi:application", "--host", "127.0.0.1", "--port", str(port),
             "--workers", "1", "--lifespan", "on", "--timeout-graceful-shutdown", "10",
             "--ws-per-message-deflate", "false"],
            cwd=BASE_DIR, env={"CONN_MAX_AGE": "600", **site.env}, stdout=log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        proc.log = log  # type: ignore[attr-defined]
        site.ports.append(port)
        site.procs.append(proc)
    import requests

    for port in site.ports:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError, requests.RequestException):
                if requests.get(f"http://127.0.0.1:{port}/healthz", timeout=2).ok:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"uvicorn on {port} did not come up (see {site.var})")
            time.sleep(0.3)


def stop_site(site: Site, keep: bool) -> None:
    for proc in site.procs:
        proc.terminate()
    for i, proc in enumerate(site.procs):
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        proc.log.close()  # type: ignore[attr-defined]
        server_errors(site.var / f"uvicorn-{i}.log")
    for step in site.cleanup:
        with contextlib.suppress(Exception):
            step()
    if not keep:
        shutil.rmtree(site.var, ignore_errors=True)


def server_errors(log: Path) -> None:
    """Say what the server logged as errors (tracebacks' last lines), if anything."""
    lines = log.read_text(errors="replace").splitlines()
    found = Counter(
        lines[i - 1] if line.startswith("Traceback") and i else line
        for i, line in enumerate(lines)
        if line.startswith(("ERROR", "Traceback"))
    )
    last = Counter(
        lines[j]
        for i, line in enumerate(lines)
        if line.startswith("Traceback")
        for j in [next((k for k in range(i + 1, len(lines)) if not lines[k].startswith(" ")), i)]
    )
    if found:
        print(f"{log.name}: {sum(found.values())} errors logged: {dict(found.most_common(3))}")
        print(f"  exceptions: {dict(last.most_common(3))}")


# --- the clients -------------------------------------------------------------------------------


class Http:
    """An async HTTP client for one port: httpx if installed, else requests in threads."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        if httpx is not None:
            # Idle connections dropped before the server does (uvicorn: 5 s), or a request may
            # go out on a connection the server is closing (a ReadError).
            limits = httpx.Limits(
                max_connections=400, max_keepalive_connections=400, keepalive_expiry=3.0
            )
            self.client = httpx.AsyncClient(base_url=self.base, timeout=30, limits=limits)
        else:
            import requests

            self.session = requests.Session()

    async def call(self, method: str, path: str, token: str | None, body: Any = None):
        headers = {"Authorization": f"Token {token}"} if token else {}
        if httpx is not None:
            r = await self.client.request(method, path, json=body, headers=headers)
            return r.status_code, (r.json() if r.content else None)
        r = await asyncio.to_thread(
            self.session.request, method, self.base + path, json=body, headers=headers, timeout=30
        )
        return r.status_code, (r.json() if r.content else None)

    async def close(self) -> None:
        if httpx is not None:
            await self.client.aclose()


@dataclass
class Decision:
    game: int
    version: int
    move: int
    actor: int  # seat index
    sent: float
    answered: float
    fast: bool


@dataclass
class Stats:
    decisions: list[Decision] = field(default_factory=list)
    #: (game, seat) -> receipts [(time, version)] in arrival order
    receipts: dict[tuple[int, int], list[tuple[float, int]]] = field(default_factory=dict)
    errors: Counter = field(default_factory=Counter)
    pongs: list[float] = field(default_factory=list)
    healthz: list[float] = field(default_factory=list)
    fast_decisions: int = 0
    games_started: int = 0
    games_over: int = 0
    measuring: bool = False

    def error(self, what: str) -> None:
        self.errors[what] += 1


class Person:
    """One seat's client at one table: a WebSocket that records every pushed version, and the
    decisions it makes when its seat is to act."""

    def __init__(self, *, name, token, http, ws_url, seat, stats, fast, rng, stop):
        self.name, self.token, self.http, self.ws_url = name, token, http, ws_url
        self.seat, self.stats, self.fast, self.rng, self.stop = seat, stats, fast, rng, stop
        self.game_id = 0
        self.latest: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.ws: Any = None
        self.ping_sent: float | None = None

    async def open(self, game_id: int) -> None:
        self.game_id = game_id
        self.latest = None
        self.stats.receipts[(game_id, self.seat)] = []
        self.ws = await ws_connect(
            f"{self.ws_url}/ws/tables/{game_id}/",
            additional_headers={"Authorization": f"Token {self.token}"},
            origin=self.ws_url.replace("ws://", "http://"),
            open_timeout=30,
            max_size=2**22,
        )
        await self.ws.send(json.dumps({"type": "hello", "version": -1}))

    def note(self, game: dict[str, Any]) -> None:
        """A newer state of the table (pushed, or this person's own HTTP answer)."""
        if self.latest is None or game["version"] > self.latest["version"]:
            self.latest = game
            self.changed.set()

    async def read(self) -> None:
        """Record every pushed message until the socket closes."""
        receipts = self.stats.receipts[(self.game_id, self.seat)]
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "table":
                    receipts.append((now, message["version"]))
                    self.note({**message["game"], "version": message["version"]})
                elif kind == "pong":
                    if self.ping_sent is not None and self.stats.measuring:
                        self.stats.pongs.append((now - self.ping_sent) * 1000)
                    self.ping_sent = None
                else:
                    self.stats.error(f"ws message {kind}: {message.get('code')}")
        except Exception as exc:  # a dropped connection is an error unless we closed it
            if not getattr(self, "closing", False):
                code = getattr(getattr(exc, "rcvd", None), "code", "")
                self.stats.error(f"ws {type(exc).__name__} {code}".strip())
        finally:
            self.changed.set()

    async def heartbeat(self) -> None:
        await asyncio.sleep(self.rng.uniform(0, HEARTBEAT_S))
        while True:
            self.ping_sent = time.perf_counter()
            with contextlib.suppress(Exception):
                await self.ws.send(json.dumps({"type": "ping"}))
            await asyncio.sleep(HEARTBEAT_S)

    async def play(self, think: tuple[float, float]) -> None:
        """Act whenever this seat is to act, until the game is over or the run stops."""
        acted: int | None = None
        while not self.stop.is_set():
            game = self.latest
            if game is not None and game["status"] == "over":
                return
            if game is None or game["status"] != "your_turn" or game["move"] == acted:
                self.changed.clear()
                waiter = asyncio.ensure_future(self.changed.wait())
                stopper = asyncio.ensure_future(self.stop.wait())
                await asyncio.wait([waiter, stopper], return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                stopper.cancel()
                continue
            if not self.fast:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stop.wait(), self.rng.uniform(*think))
                if self.stop.is_set():
                    return
            acted = game["move"]
            action = self.rng.choice(game["legal_actions"])["action"]
            await self.act(game, action)

    async def act(self, game: dict[str, Any], action: dict[str, Any]) -> None:
        path = f"/api/v1/games/{self.game_id}/actions/"
        sent = time.perf_counter()
        try:
            status, answer = await self.http.call(
                "POST", path, self.token, {"move": game["move"], "action": action}
            )
        except Exception as exc:
            self.stats.error(f"POST actions {type(exc).__name__}")
            return
        answered = time.perf_counter()
        if not 200 <= status < 300:
            self.stats.error(f"POST actions {status} {(answer or {}).get('code', '')}")
            return
        decision = Decision(
            self.game_id, answer["version"], answer["move"], self.seat, sent, answered, self.fast
        )
        self.stats.decisions.append(decision)
        if self.fast and self.stats.measuring:
            self.stats.fast_decisions += 1
        self.note(answer)

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()


async def call_ok(stats: Stats, http: Http, method: str, path: str, token: str, body=None):
    try:
        status, answer = await http.call(method, path, token, body)
    except Exception as exc:
        stats.error(f"{method} {path.split('/')[-2]} {type(exc).__name__}")
        return None
    if not 200 <= status < 300:
        stats.error(f"{method} {path.split('/')[-2] or 'games'} {status}")
        return None
    return answer


async def table_loop(
    *,
    slot: int,
    people: list[tuple[str, str]],
    https: list[Http],
    ws_urls: list[str],
    stats: Stats,
    fast: bool,
    think: tuple[float, float],
    stop: asyncio.Event,
    drained: asyncio.Event,
) -> None:
    """One table's four people: open, join, start and play games one after another until the
    run stops; then wait for the drain (the last pushes) before closing the sockets."""
    rng = random.Random(slot)
    n = len(https)
    while not stop.is_set():
        # Seat i's socket on process i % n; its HTTP on the next process (so with two processes
        # a decision is always taken by the process the actor's socket is not on).
        seats = [
            Person(
                name=people[i][0],
                token=people[i][1],
                http=https[(i + slot + 1) % n],
                ws_url=ws_urls[(i + slot) % n],
                seat=i,
                stats=stats,
                fast=fast,
                rng=random.Random(rng.random()),
                stop=stop,
            )
            for i in range(SEATS)
        ]
        host = seats[0]
        body = {
            "game": "drifter",
            "seats": [{"starter": STARTERS[0]}] + [{"player": p[0]} for p in people[1:SEATS]],
        }
        game = await call_ok(stats, host.http, "POST", "/api/v1/games/", host.token, body)
        if game is None:
            await asyncio.sleep(1)
            continue
        gid = game["id"]
        joins = [
            (p.http, f"/api/v1/games/{gid}/join/", p.token, {"starter": STARTERS[p.seat]})
            for p in seats[1:]
        ]
        joined = await asyncio.gather(*(call_ok(stats, h, "POST", *rest) for h, *rest in joins))
        tasks: list[asyncio.Task] = []
        try:
            if not all(joined):
                continue
            try:
                await asyncio.gather(*(p.open(gid) for p in seats))
            except Exception as exc:
                stats.error(f"ws connect {type(exc).__name__}")
                continue
            tasks = [asyncio.create_task(p.read()) for p in seats]
            tasks += [asyncio.create_task(p.heartbeat()) for p in seats]
            start = f"/api/v1/games/{gid}/start/"
            if await call_ok(stats, host.http, "POST", start, host.token, {}):
                stats.games_started += 1
                await asyncio.gather(*(p.play(think) for p in seats))
                if all(p.latest and p.latest["status"] == "over" for p in seats):
                    stats.games_over += 1
            if stop.is_set():
                await drained.wait()
            else:  # the game is over: let the last pushes arrive before leaving the table
                await asyncio.sleep(1.0)
        finally:
            for p in seats:
                await p.close()
            for t in tasks:
                t.cancel()


async def probe_healthz(http: Http, stats: Stats, stop: asyncio.Event) -> None:
    """The peer: `GET /healthz` on the same server, four times a second."""
    while not stop.is_set():
        start = time.perf_counter()
        try:
            status, _ = await http.call("GET", "/healthz", None)
            if status == 200 and stats.measuring:
                stats.healthz.append((time.perf_counter() - start) * 1000)
        except Exception as exc:
            stats.error(f"GET healthz {type(exc).__name__}")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.25)


async def run_load(args, site: Site, users: list[tuple[str, str]], result: dict) -> Stats:
    stats = Stats()
    https = [Http(p) for p in site.ports]
    ws_urls = [f"ws://127.0.0.1:{p}" for p in site.ports]
    idle = []
    for _ in range(100):  # the peer with the server idle
        start = time.perf_counter()
        await https[0].call("GET", "/healthz", None)
        idle.append((time.perf_counter() - start) * 1000)
    result["healthz_idle"] = idle
    stop, drained = asyncio.Event(), asyncio.Event()
    tables = []
    for slot in range(args.tables + 1):
        fast = slot == args.tables
        table = table_loop(
            slot=slot,
            people=users[slot * SEATS : (slot + 1) * SEATS],
            https=https,
            ws_urls=ws_urls,
            stats=stats,
            fast=fast,
            think=(args.think_min, args.think_max),
            stop=stop,
            drained=drained,
        )
        tables.append(asyncio.create_task(table))
        await asyncio.sleep(args.ramp / (args.tables + 1))  # people arrive over the ramp
    probes = [asyncio.create_task(probe_healthz(h, stats, stop)) for h in https]
    await asyncio.sleep(max(0.0, args.warmup))
    # The measured window: decisions sent in it, CPU over it.
    stats.measuring = True
    window_start = time.perf_counter()
    cpu0 = [cpu_seconds(p.pid) for p in site.procs]
    me0 = time.process_time()
    spies = start_profilers(args, site)
    await asyncio.sleep(args.seconds)
    stats.measuring = False
    window = time.perf_counter() - window_start
    result["server_cpu"] = [(cpu_seconds(p.pid) - c) / window for p, c in zip(site.procs, cpu0)]
    result["client_cpu"] = (time.process_time() - me0) / window
    result["window"] = window
    result["window_start"] = window_start
    result["window_end"] = window_start + window
    stop_profilers(spies)
    stop.set()
    await asyncio.gather(*probes)
    # The pushes still on their way: until none has arrived for 2 s (at most --drain s).
    deadline = time.perf_counter() + args.drain
    while time.perf_counter() < deadline:
        last = max((r[-1][0] for r in stats.receipts.values() if r), default=0.0)
        if time.perf_counter() - last > 2.0:
            break
        await asyncio.sleep(0.2)
    drained.set()
    await asyncio.gather(*tables, return_exceptions=True)
    for h in https:
        await h.close()
    return stats


def start_profilers(args, site: Site) -> list[subprocess.Popen]:
    if not args.profile:
        return []
    spy = args.py_spy or shutil.which("py-spy")
    if not spy:
        print("no py-spy: --profile ignored (pip install py-spy, or give --py-spy)")
        return []
    out = Path(args.profile)
    out.mkdir(parents=True, exist_ok=True)
    mode = "redis" if args.redis else "default"
    procs = []
    for i, proc in enumerate(site.procs):
        for fmt, ext in (("flamegraph", "svg"), ("raw", "txt")):
            command = [
                spy, "record", "--pid", str(proc.pid), "--duration", str(int(args.seconds)),
                "--rate", "50", "--threads", "--format", fmt, "--nonblocking",
                "--output", str(out / f"{mode}-web{i}.{ext}"),
            ]  # fmt: skip
            procs.append(
                subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            )
    return procs


def stop_profilers(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(timeout=60)


# --- the report --------------------------------------------------------------------------------


def analyse(stats: Stats, result: dict) -> dict[str, Any]:
    """Per decision sent in the measured window: each other seat's first receipt of a version
    at least the decision's."""
    start, end = result["window_start"], result["window_end"]
    latency = {False: [], True: []}
    http_ms = {False: [], True: []}
    spread: list[float] = []
    lost, coalesced = Counter(), 0
    versions = {key: [v for _, v in r] for key, r in stats.receipts.items()}
    count = 0
    for d in stats.decisions:
        if not start <= d.sent < end:
            continue
        count += 1
        http_ms[d.fast].append((d.answered - d.sent) * 1000)
        arrivals = []
        for seat in range(SEATS):
            if seat == d.actor:
                continue
            got = versions.get((d.game, seat), [])
            i = bisect.bisect_left(got, d.version)
            if i == len(got):
                lost["fast" if d.fast else "human"] += 1
                continue
            coalesced += got[i] != d.version
            at = stats.receipts[(d.game, seat)][i][0]
            latency[d.fast].append((at - d.sent) * 1000)
            arrivals.append(at)
        if len(arrivals) > 1:
            spread.append((max(arrivals) - min(arrivals)) * 1000)
    unordered = sum(1 for v in versions.values() if any(b < a for a, b in itertools.pairwise(v)))
    return dict(
        latency=latency, http=http_ms, spread=spread, lost=lost, coalesced=coalesced,
        unordered=unordered, decisions=count,
    )  # fmt: skip


def report(args, site: Site, stats: Stats, result: dict) -> bool:
    a = analyse(stats, result)
    every = a["latency"][False] + a["latency"][True]
    errors = sum(stats.errors.values())
    lost = sum(a["lost"].values())
    window = result["window"]
    print(
        f"{site.label}; {args.tables} tables of {SEATS} people at a {args.think_min:g}-"
        f"{args.think_max:g} s pace + 1 table as fast as they can; {args.seconds:g} s measured "
        f"after {args.warmup:g} s; {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    )
    print("decision -> each other seat's push (ms, from the actor's POST to the receipt):")
    print(f"  {'every decision':<28} {dist(every)}")
    print(f"  {'human-pace tables':<28} {dist(a['latency'][False])}")
    print(f"  {'fast table':<28} {dist(a['latency'][True])}")
    print(f"  {'fan-out spread (1st->3rd)':<28} {dist(a['spread'])}")
    print("the actor's HTTP action (POST .../actions/, answer received):")
    print(f"  {'human-pace tables':<28} {dist(a['http'][False])}")
    print(f"  {'fast table':<28} {dist(a['http'][True])}")
    print("peers in the same run:")
    print(f"  {'GET /healthz, idle':<28} {dist(result['healthz_idle'])}")
    print(f"  {'GET /healthz, under load':<28} {dist(stats.healthz)}")
    print(f"  {'ws ping -> pong, under load':<28} {dist(stats.pongs)}")
    print(
        f"decisions measured: {a['decisions']} ({a['decisions'] / window:.1f}/s), of which "
        f"the fast table's {stats.fast_decisions} ({stats.fast_decisions / window:.1f}/s); "
        f"games started {stats.games_started}, finished {stats.games_over}"
    )
    print(
        f"receipts coalesced (a later version arrived first): {a['coalesced']}; "
        f"out-of-order versions on a socket: {a['unordered']}"
    )
    cpu = ", ".join(f"{c:.2f}" for c in result["server_cpu"])
    per = 1000 * sum(result["server_cpu"]) / (a["decisions"] / window) if a["decisions"] else 0
    print(
        f"CPU (cores): server process(es) {cpu} (sum {sum(result['server_cpu']):.2f}); "
        f"this client process {result['client_cpu']:.2f}; the server's CPU a decision "
        f"(its action, its {SEATS} pushes, the pings' share): {per:.1f} ms"
    )
    print(f"errors: {errors} {dict(stats.errors) if errors else ''}")
    print(f"lost: {lost} {dict(a['lost']) if lost else ''}")
    p95, p99 = pct(every, 95), pct(every, 99)
    health95 = pct(stats.healthz, 95)
    print(
        f"ratio push / GET /healthz under load: p50 {pct(every, 50) / pct(stats.healthz, 50):.1f}, "
        f"p95 {p95 / health95:.1f}"
    )
    met = bool(every) and p95 <= GOAL_P95_MS and p99 <= GOAL_P99_MS and not errors and not lost
    print(
        f"goals p95 <= {GOAL_P95_MS:.0f} ms, p99 <= {GOAL_P99_MS:.0f} ms, 0 errors, 0 lost: "
        f"{'met' if met else 'NOT met'} (p95 {p95:.0f} ms, p99 {p99:.0f} ms)"
    )
    return met


def in_process(games: int, moves: int) -> None:
    """What one decision and one push cost the server, alone: through the service and the
    consumer's own build (no HTTP, no socket), on a throwaway SQLite database; four people a
    table, each of the four viewers' pushes built after every decision, as the push channel
    does (connections kept, as the server keeps them; the decision hands its snapshot to the
    pushes and its state to the next decision)."""
    var = tempfile.mkdtemp(prefix="drifter-bench-tables-live-ip-")
    os.environ.pop("DATABASE_URL", None)
    os.environ.update(
        DRIFTER_VAR_DIR=var, DJANGO_SETTINGS_MODULE="config.settings", CONN_MAX_AGE="600"
    )
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from simulator.table import seating
    from simulator.table import services as table
    from simulator.table.consumers import TableConsumer

    acts: list[float] = []
    kept: list[float] = []
    fresh: list[float] = []
    rebuilds: list[float] = []
    rng = random.Random(1)
    try:
        call_command("migrate", "--noinput", verbosity=0)
        call_command("load_catalogue", verbosity=0)
        User = get_user_model()
        users = [User.objects.create_user(f"ip{i}") for i in range(SEATS)]
        for _ in range(games):
            seats = [{"starter": STARTERS[0]}] + [{"player": u.username} for u in users[1:]]
            pk = seating.table_game_create(owner=users[0], game="drifter", seats=seats).game.pk
            for u, starter in zip(users[1:], STARTERS[1:], strict=True):
                seating.table_join(
                    user=u, pk=pk, token="", seat=None, deck={"starter": starter},
                    stand_in=None, stand_in_budget=None,
                )  # fmt: skip
            seating.table_start(user=users[0], pk=pk, fill=False, bot=None, deck=None)
            viewers = []
            for u in users:
                consumer = TableConsumer()
                consumer.user, consumer.table_id, consumer.origin = u, pk, None
                viewers.append(consumer)
            for _ in range(moves):
                seen = [table.table_game_seen(owner=u, pk=pk) for u in users]
                due = [(u, v) for u, v in zip(users, seen, strict=True) if v.seat is not None]
                if not due:
                    break
                user, view = due[0]
                action = rng.choice(view.legal_actions)["action"]
                start = time.process_time()
                acted = table.table_game_act(owner=user, pk=pk, move=view.game.move, action=action)
                acts.append(time.process_time() - start)
                note = {"version": acted.game.version, "saved": acted.game.updated_at.isoformat()}
                start = time.process_time()
                table.state_of(view.game)
                rebuilds.append(time.process_time() - start)
                # As served: the table's first viewer's build finds the snapshot the decision
                # kept (or reads it), the others build theirs from it.
                for n, consumer in enumerate(viewers):
                    start = time.process_time()
                    consumer._build(note, False)
                    (fresh if n == 0 else kept).append(time.process_time() - start)
    finally:
        shutil.rmtree(var, ignore_errors=True)
    ms = [x * 1000 for x in acts]
    print(f"in process, {games} games of {SEATS} people, {len(acts)} decisions, SQLite (CPU ms):")
    print(f"  {'a decision (table_game_act)':<36} {dist(ms)}")
    print(f"  {'a push, first viewer':<36} {dist([x * 1000 for x in fresh])}")
    print(f"  {'a push, each other viewer':<36} {dist([x * 1000 for x in kept])}")
    print(f"  {'the state rebuilt from the record':<36} {dist([x * 1000 for x in rebuilds])}")
    per = (sum(acts) + sum(fresh) + sum(kept)) / len(acts)  # SEATS builds a decision
    print(
        f"  a decision and its {SEATS} pushes as served: {1000 * per:.1f} ms of CPU "
        f"({1000 * sum(acts) / len(acts):.1f} + {1000 * sum(fresh) / len(fresh):.1f} + "
        f"{SEATS - 1} x {1000 * sum(kept) / len(kept):.1f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", action="store_true", help="PostgreSQL + Redis, 2 processes.")
    parser.add_argument("--seconds", type=float, default=60.0, help="The measured window.")
    parser.add_argument("--tables", type=int, default=50, help="Human-pace tables of four.")
    # A person's think time before a decision: 2-8 s, a quick player's (the table's own clock
    # gives 60 s); `--think-min 1 --think-max 3` is the stress run docs/performance.md reports.
    parser.add_argument("--think-min", type=float, default=2.0)
    parser.add_argument("--think-max", type=float, default=8.0)
    parser.add_argument("--ramp", type=float, default=5.0, help="Seconds over which tables open.")
    parser.add_argument(
        "--warmup",
        type=float,
        default=15.0,
        help="Play before measuring (the opening burst settles).",
    )
    parser.add_argument(
        "--drain", type=float, default=60.0, help="At most this long for the last pushes."
    )
    parser.add_argument("--redis-db", type=int, default=13, help="Redis database (flushed).")
    parser.add_argument("--profile", metavar="DIR", help="py-spy each server process into DIR.")
    parser.add_argument("--py-spy", help="The py-spy executable (default: on PATH).")
    parser.add_argument("--keep", action="store_true", help="Keep the scratch folder (logs).")
    parser.add_argument(
        "--in-process", type=int, default=0, metavar="GAMES",
        help="Instead: the CPU of a decision and of a push build in process (no server).",
    )  # fmt: skip
    args = parser.parse_args()
    if args.in_process:
        in_process(args.in_process, moves=60)
        return
    try:
        import uvloop

        run = uvloop.run
    except ImportError:
        run = asyncio.run
    site = prepare_site(args)
    try:
        users = make_users(site, (args.tables + 1) * SEATS)
        start_servers(site, 2 if args.redis else 1)
        result: dict[str, Any] = {}
        stats = run(run_load(args, site, users, result))
        report(args, site, stats, result)
    finally:
        stop_site(site, args.keep)


if __name__ == "__main__":
    main()
