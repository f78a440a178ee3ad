"""Shared benchmark plumbing: a throwaway database, gunicorn on loopback, a load driver.

Benchmarks are not tests: they print figures and ratios against a peer measured in the same
run (machines here are noisy, so only ratios travel). Traffic goes to 127.0.0.1 only, bounded
in count and time.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from http.client import HTTPConnection
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
PG_ADMIN_URL = os.environ.get("BENCH_PG_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres")


def bench_database_url(name: str) -> str:
    """A fresh PostgreSQL database for one benchmark (dropped and re-created)."""
    import psycopg

    with psycopg.connect(
        PG_ADMIN_URL.replace("postgres://", "postgresql://"), autocommit=True
    ) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        c.execute(f'CREATE DATABASE "{name}"')
    return PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"


def served_sqlite_env(name: str) -> dict:
    """The environment of a site served as in production on a throwaway embedded default
    (SQLite and the filesystem broker in a new folder), migrated and with the catalogue."""
    env = dict(os.environ)
    for key in ("DATABASE_URL", "CELERY_BROKER_URL"):
        env.pop(key, None)
    env.update(
        DRIFTER_VAR_DIR=tempfile.mkdtemp(prefix=f"drifter-bench-{name}-"),
        DJANGO_DEBUG="false",
        SECURE_SSL_REDIRECT="false",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECRET_KEY="bench-" + "x" * 50,
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    manage("migrate", "--noinput", env=env)
    manage("load_catalogue", env=env)
    return env


def manage(*args: str, env: dict) -> str:
    out = subprocess.run(
        [PYTHON, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True, text=True
    )
    if out.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{out.stdout}\n{out.stderr}")
    return out.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def gunicorn(env: dict, *, workers: int = 4, threads: int = 2) -> Iterator[int]:
    """Serve config.wsgi with gunicorn on a free loopback port; yields the port."""
    port = free_port()
    proc = subprocess.Popen(
        [PYTHON, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "--threads", str(threads), "--worker-class", "gthread",
         "--log-level", "warning", "--keep-alive", "30"],
        # A load test drives one address far past the API's rates (docs/operations.md).
        cwd=BASE_DIR, env={**env, "THROTTLE_ENABLED": "false"},
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                conn = HTTPConnection("127.0.0.1", port, timeout=2)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    break
            time.sleep(0.3)
        else:
            raise RuntimeError("gunicorn did not come up")
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@dataclass
class LoadResult:
    requests: int
    errors: int
    seconds: float
    latencies_ms: list[float]

    @property
    def rps(self) -> float:
        return self.requests / self.seconds

    def pct(self, p: float) -> float:
        data = sorted(self.latencies_ms)
        if not data:
            return float("nan")
        return data[min(len(data) - 1, round(p / 100 * (len(data) - 1)))]

    def line(self, label: str) -> str:
        return (
            f"{label:<34} {self.requests:>7} req {self.rps:>8.0f} req/s  "
            f"p50 {self.pct(50):7.2f} ms  p95 {self.pct(95):7.2f} ms  errors {self.errors}"
        )


def drive(
    port: int,
    requests: Sequence[tuple[str, str, bytes | None]],
    *,
    clients: int = 50,
    seconds: float = 10.0,
    per_client_rate: float | None = None,
    seed: int = 1,
) -> LoadResult:
    """`clients` concurrent keep-alive clients send random picks from `requests`
    (method, path, body) for `seconds`. Closed loop by default (each client sends its next
    request when the last is answered); with `per_client_rate`, each client paces itself to
    that many requests per second, like people typing in a search box.
    """
    if per_client_rate is None and shutil.which("wrk"):
        return _drive_wrk(port, requests, clients=clients, seconds=seconds)
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def client(index: int) -> None:
        rng = random.Random(seed * 1000 + index)
        conn = HTTPConnection("127.0.0.1", port, timeout=30)
        mine, bad = [], 0
        next_at = time.monotonic() + rng.random() / (per_client_rate or 1e9)
        while True:
            now = time.monotonic()
            if now >= stop_at:
                break
            if per_client_rate and now < next_at:
                time.sleep(min(next_at - now, stop_at - now))
                continue
            method, path, body = rng.choice(requests)
            headers = {"Content-Type": "application/json"} if body else {}
            start = time.perf_counter()
            try:
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                if response.status >= 400:
                    bad += 1
            except OSError:
                bad += 1
                conn.close()
                conn = HTTPConnection("127.0.0.1", port, timeout=30)
                continue
            mine.append((time.perf_counter() - start) * 1000)
            if per_client_rate:
                next_at += rng.expovariate(per_client_rate)
        with lock:
            latencies.extend(mine)
            errors[0] += bad

    begin = time.monotonic()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - begin
    return LoadResult(len(latencies), errors[0], elapsed, latencies)


WRK_SCRIPT = """
local reqs = {%s}
local i = 0
request = function()
  i = i + 1
  local r = reqs[(i %% #reqs) + 1]
  if r[3] ~= "" then
    return wrk.format(r[1], r[2], {["Content-Type"]="application/json"}, r[3])
  end
  return wrk.format(r[1], r[2])
end
done = function(summary, latency, requests)
  io.write(string.format("WRK %%d %%d %%f %%f %%f\\n", summary.requests,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout, summary.duration / 1e6, latency:percentile(50) / 1e3,
    latency:percentile(95) / 1e3))
end
"""


def _drive_wrk(port, requests, *, clients, seconds) -> LoadResult:
    def lua(s: str) -> str:
        return "[[" + s + "]]"

    rows = ", ".join(
        "{" + f"{lua(m)}, {lua(p)}, {lua((b or b'').decode())}" + "}" for m, p, b in requests
    )
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(WRK_SCRIPT % rows)
    out = subprocess.run(
        ["wrk", "-t2", f"-c{clients}", f"-d{int(seconds)}s", "-s", f.name,
         f"http://127.0.0.1:{port}/"],
        capture_output=True, text=True,
    )  # fmt: skip
    os.unlink(f.name)
    line = next(x for x in out.stdout.splitlines() if x.startswith("WRK "))
    _, n, errs, duration, p50, p95 = line.split()
    result = LoadResult(int(n), int(errs), float(duration), [])
    result.pct = lambda p, a=float(p50), b=float(p95): a if p <= 50 else b  # type: ignore[method-assign]
    return result


def timeit(fn, *, repeat: int = 5, number: int = 1) -> float:
    """Best-of-`repeat` seconds per call of fn (best-of filters out noise from other load)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def median(values: Sequence[float]) -> float:
    return statistics.median(values)
