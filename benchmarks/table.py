"""A move at the table (issue #16, section 6): `POST /api/v1/games/{id}/actions/` in a two-seat
High Stakes Drifter game against the heuristic bot, the bot's answers included, on the
embedded default (SQLite, gunicorn on 127.0.0.1). Whole games are played by one client taking
the first legal action; p50/p95 of every move, against `GET /healthz` measured in the same run.
The issue's goal is p95 <= 50 ms.

    python benchmarks/table.py [--games 6] [--in-process 20]

`--in-process` games are also played through the service alone (no HTTP, an in-memory test
database), to show what the move itself costs: rebuilding the state from the record, the
decision, the bot's answers and storing the record.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from http.client import HTTPConnection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import gunicorn, manage, served_sqlite_env

SEATS = [{"starter": "HSD-S1"}, {"starter": "HSD-S2", "bot": "heuristic"}]
GOAL_MS = 50.0


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def line(label: str, ms: list[float]) -> str:
    return f"{label:<34} n={len(ms):5d}  p50 {pct(ms, 50):6.1f} ms  p95 {pct(ms, 95):6.1f} ms"


class Client:
    def __init__(self, port: int, token: str) -> None:
        self.conn = HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict, float]:
        start = time.perf_counter()
        data = json.dumps(body).encode() if body is not None else None
        self.conn.request(method, path, body=data, headers=self.headers)
        response = self.conn.getresponse()
        payload = response.read()
        ms = (time.perf_counter() - start) * 1000
        return response.status, json.loads(payload) if payload else {}, ms


def play_http(client: Client, games: int) -> tuple[list[float], list[float], int]:
    """(ms per move, ms per game start, bot decisions) over `games` whole games."""
    moves, starts, bot_moves = [], [], 0
    for _ in range(games):
        status, game, ms = client.call("POST", "/api/v1/games/", {"seats": SEATS})
        assert status == 201, game
        starts.append(ms)
        path = f"/api/v1/games/{game['id']}/actions/"
        while game["status"] != "over":
            body = {"move": game["move"], "action": game["legal_actions"][0]["action"]}
            status, game, ms = client.call("POST", path, body)
            assert status == 200, game
            moves.append(ms)
            bot_moves += len(game["bot_moves"])
    return moves, starts, bot_moves


def http_bench(games: int) -> None:
    env = served_sqlite_env("table")
    token = manage(
        "shell",
        "-c",
        "from django.contrib.auth import get_user_model; "
        "from rest_framework.authtoken.models import Token; "
        "u = get_user_model().objects.create_user('bench', password='bench-pass-1'); "
        "print(Token.objects.create(user=u).key)",
        env=env,
    ).split()[-1]  # the key is the last word (the shell may say what it imported first)
    try:
        with gunicorn(env, workers=1, threads=1) as port:
            client = Client(port, token)
            play_http(client, 1)  # warm the worker: imports, the catalogue
            peer = [client.call("GET", "/healthz")[2] for _ in range(300)]
            moves, starts, bots = play_http(client, games)
    finally:
        shutil.rmtree(env["DRIFTER_VAR_DIR"], ignore_errors=True)
    print("gunicorn 1 worker (gthread, 1 thread), SQLite, one client playing whole games")
    print(line("peer GET /healthz", peer))
    print(line("POST /api/v1/games/ (start)", starts))
    print(line("POST .../actions/ (a move)", moves))
    print(f"bot decisions per move: {bots / len(moves):.2f}")
    p95 = pct(moves, 95)
    print(
        f"ratio move/healthz p50 {pct(moves, 50) / pct(peer, 50):.1f}  "
        f"p95 {p95 / pct(peer, 95):.1f}; goal p95 <= {GOAL_MS:.0f} ms: "
        f"{'met' if p95 <= GOAL_MS else 'NOT met'}"
    )


def in_process_bench(games: int) -> None:
    """Moves through the service alone, in a throwaway SQLite database."""
    var = tempfile.mkdtemp(prefix="drifter-bench-table-ip-")
    os.environ.pop("DATABASE_URL", None)
    os.environ.update(DRIFTER_VAR_DIR=var, DJANGO_SETTINGS_MODULE="config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from simulator.table import seating
    from simulator.table import services as table

    try:
        call_command("migrate", "--noinput", verbosity=0)
        call_command("load_catalogue", verbosity=0)
        user = get_user_model().objects.create_user("bench-ip", password="bench-pass-1")
        moves, rebuilds = [], []
        for seed in range(games):
            seen = seating.table_game_create(owner=user, game="drifter", seats=SEATS, seed=seed)
            while seen.seat is not None:
                start = time.perf_counter()
                table.state_of(seen.game)
                rebuilds.append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                seen = table.table_game_act(
                    owner=user, pk=seen.game.pk, move=seen.game.move,
                    action=seen.legal_actions[0]["action"],
                )  # fmt: skip
                moves.append((time.perf_counter() - start) * 1000)
    finally:
        shutil.rmtree(var, ignore_errors=True)
    print(f"in process (no HTTP), {games} games, SQLite")
    print(line("table_game_act (a move)", moves))
    print(line("state rebuilt from the record", rebuilds))
    print(f"mean rebuild share of a move: {statistics.mean(rebuilds) / statistics.mean(moves):.0%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--in-process", type=int, default=20)
    args = parser.parse_args()
    http_bench(args.games)
    if args.in_process:
        in_process_bench(args.in_process)


if __name__ == "__main__":
    main()
