"""Deck validation speed: the engine's `validate_deck` per 54-card deck, and the stateless
`POST /api/v1/decks/validate/` under 50 concurrent clients (gunicorn on 127.0.0.1, SQLite in a
throwaway directory). Prints p50/p95 and the ratio against `/healthz` measured in the same run.

    python benchmarks/decks.py [--requests 4000] [--clients 50]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.client import HTTPConnection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import LoadResult, gunicorn, served_sqlite_env, timeit
from simulator.engine.drifter.cards import load_catalogue
from simulator.engine.drifter.formats import validate_deck


def sample_decks(catalogue) -> dict[str, tuple[dict[str, int], dict[str, int]]]:
    """A legal standard deck, and an illegal one with several problems of each kind."""
    commons = [c.code for c in catalogue.cards if c.rarity == "common" and c.set_code == "HSD"]
    greens = [k.code for k in catalogue.chips if k.color == "green"]
    legal = {code: 3 for code in commons[:18]}
    rares = [c.code for c in catalogue.cards if c.rarity == "rare"][:6]
    illegal = {**{code: 4 for code in commons[:12]}, **{code: 2 for code in rares}, "XXX-001": 1}
    return {"legal": (legal, {greens[0]: 2}), "illegal": (illegal, {greens[0]: 1, "XXX-K1": 1})}


def engine_bench(repeat: int = 20_000) -> None:
    catalogue = load_catalogue()
    for label, (cards, chips) in sample_decks(catalogue).items():
        problems = validate_deck(
            fmt="standard", cards=cards, kicker_chips=chips, catalogue=catalogue
        )
        seconds = timeit(
            lambda c=cards, k=chips: validate_deck(
                fmt="standard", cards=c, kicker_chips=k, catalogue=catalogue
            ),
            repeat=5,
            number=repeat,
        )
        # Peer: one pass over the same deck doing nothing but a dict lookup per entry.
        peer = timeit(
            lambda c=cards: [catalogue.card_by_code.get(x) for x in c], repeat=5, number=repeat
        )
        goal = "met" if seconds <= 2e-4 else "NOT met"
        print(
            f"engine validate_deck, {label:<7} ({len(problems)} problems): "
            f"{seconds * 1e6:7.1f} µs/deck  (goal <= 200 µs: {goal}); "
            f"ratio to a bare lookup pass {seconds / peer:5.1f}x"
        )


def load(
    port: int, method: str, path: str, body: bytes | None, *, requests: int, clients: int
) -> LoadResult:
    """`requests` requests from a pool of `clients` threads, each with its own keep-alive
    connection (closed loop: a client sends its next request when the last is answered)."""
    local = threading.local()
    headers = {"Content-Type": "application/json"} if body else {}
    errors = [0]
    lock = threading.Lock()

    def one(_: int) -> float:
        conn = getattr(local, "conn", None)
        if conn is None:
            conn = local.conn = HTTPConnection("127.0.0.1", port, timeout=30)
        start = time.perf_counter()
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            response.read()
            bad = response.status >= 400
        except OSError:
            local.conn = None
            bad = True
        if bad:
            with lock:
                errors[0] += 1
        return (time.perf_counter() - start) * 1000

    begin = time.monotonic()
    with ThreadPoolExecutor(max_workers=clients) as pool:
        latencies = list(pool.map(one, range(requests)))
    return LoadResult(requests, errors[0], time.monotonic() - begin, latencies)


def http_bench(requests: int, clients: int) -> None:
    env = served_sqlite_env("decks")
    cards, chips = sample_decks(load_catalogue())["legal"]
    body = json.dumps(
        {
            "format": "standard",
            "cards": [{"code": c, "qty": q} for c, q in cards.items()],
            "kicker_chips": [{"code": c, "qty": q} for c, q in chips.items()],
        }
    ).encode()
    try:
        with gunicorn(env, workers=2, threads=4) as port:
            load(port, "POST", "/api/v1/decks/validate/", body, requests=200, clients=10)  # warm
            peer = load(port, "GET", "/healthz", None, requests=requests, clients=clients)
            validate = load(
                port, "POST", "/api/v1/decks/validate/", body, requests=requests, clients=clients
            )
    finally:
        shutil.rmtree(env["DRIFTER_VAR_DIR"], ignore_errors=True)
    print(f"gunicorn 2 workers x 4 threads (gthread), SQLite; {clients} concurrent clients")
    print(peer.line("peer GET /healthz"))
    print(validate.line("POST /api/v1/decks/validate/"))
    print(
        f"ratio validate/healthz p50 {validate.pct(50) / peer.pct(50):.2f}  "
        f"p95 {validate.pct(95) / peer.pct(95):.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--engine-only", action="store_true")
    args = parser.parse_args()
    engine_bench()
    if not args.engine_only:
        http_bench(args.requests, args.clients)


if __name__ == "__main__":
    main()
