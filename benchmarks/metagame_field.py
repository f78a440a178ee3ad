"""A field of ten decks to its answer on this machine's workers (issue #28, "Speed and scale").

    .venv/bin/python benchmarks/metagame_field.py [--decks 10] [--budget 6000] [--workers 2]
                                                  [--target best] [--seed 1] [--postgres]

Not a test. The layout `make run` starts (`manage.py simulation_workers`, one worker per core)
plays a field run on a throwaway database and broker: the two starter decks and random decks
legal in the standard format (the same ones for the same `--seed`), heuristic bot, shares drawn
once, the page's default budget of 6,000 games. The field run plays in rounds of ordinary match
runs, one per pair of decks given games, which is why more worker machines make it faster with
no change. The field is run twice on the same workers, with two seeds and no games reused:
first on workers just started (the first field run a worker advances imports scipy, about a
second, on the way from one round to the next), then again. For each it prints the wall time
from the start to the answer, the rounds, the games and how the run stopped, the games a
second end to end against the same decks' games played in one in-process loop in the same run
(the ratio to the cores is how much of the machine the rounds used), a timeline per round from
the chunks' own times (the wait before its first chunk was sent, its span, the play inside its
chunks and their time outside play), and the answer.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.engine import random_deck
from benchmarks.simruns import (
    bench_settings,
    prepare,
    start_workers,
    stop_workers,
    wait_until_ready,
)


def _entries(owner, decks: int, seed: int) -> list[dict]:
    """The starter decks and `decks - 2` random legal decks of `owner`, each with a share."""
    from decks.services import deck_create
    from simulator.engine.drifter.cards import load_catalogue

    rng = random.Random(seed)
    catalogue = load_catalogue()
    entries = [{"starter": "HSD-S1"}, {"starter": "HSD-S2"}]
    for k in range(decks - 2):
        cards, chips = random_deck(rng, catalogue)
        deck = deck_create(
            owner=owner, name=f"Random deck {k + 1}",
            cards={c: cards.count(c) for c in set(cards)},
            kicker_chips={c: chips.count(c) for c in set(chips)},
        )  # fmt: skip
        entries.append({"deck": deck.pk})
    return [{**entry, "share": rng.randint(1, 6)} for entry in entries]


def _in_process_rate(field_run, games: int) -> float:
    """Games a second of the field's pairs played in one in-process loop (no Celery, no
    database): `games` games spread over every pair."""
    from decks.engine_catalogue import engine_catalogue
    from simulator.games.runner import play_chunk
    from simulator.runs.models import SimulationRun

    runs = list(SimulationRun.objects.filter(field_stage__field_run=field_run)[:45])

    catalogue = engine_catalogue()
    per = max(1, games // len(runs))
    began = time.perf_counter()
    for run in runs:
        play_chunk(run.plan, 0, per, catalogue=catalogue)
    return per * len(runs) / (time.perf_counter() - began)


def _round_timeline(field_run, began_at) -> list[str]:
    """Per round, from the chunks' own times (ms): when its first chunk was sent after the last
    round's last chunk ended (or after submission), how long its chunks took from the first
    sent to the last finished, the play inside them, and the workers' time outside play."""
    from simulator.runs.models import ChunkResult, SimulationChunk

    lines = []
    before = began_at
    for rnd in range(field_run.round + 1):
        chunks = list(
            SimulationChunk.objects.filter(run__field_stage__field_run=field_run,
                                           run__field_stage__round=rnd)
            .values("run_id", "index", "sent_at", "started_at", "finished_at")
        )  # fmt: skip
        if not chunks:
            continue
        play = sum(
            ChunkResult.objects.filter(
                run__field_stage__field_run=field_run, run__field_stage__round=rnd
            ).values_list("seconds", flat=True)
        )
        sent = min(c["sent_at"] for c in chunks)
        end = max(c["finished_at"] for c in chunks)
        busy = sum((c["finished_at"] - c["started_at"]).total_seconds() for c in chunks)
        gap, span = (sent - before).total_seconds(), (end - sent).total_seconds()
        lines.append(
            f"round {rnd}: {len(chunks)} chunks; first sent {1000 * gap:.0f} after the last round"
            f" ended; sent to last finished {1000 * span:.0f}; play {1000 * play:.0f}, in chunks"
            f" outside play {1000 * (busy - play):.0f}"
        )
        before = end
    return lines


def _last_finished(field_run):
    from simulator.runs.models import SimulationChunk

    return max(
        SimulationChunk.objects.filter(run__field_stage__field_run=field_run).values_list(
            "finished_at", flat=True
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=10)
    parser.add_argument("--budget", type=int, default=6_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--target", choices=("best", "support"), default="best")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", action="store_true", help="A throwaway PostgreSQL database.")
    args = parser.parse_args()
    tmp = prepare(postgres=args.postgres, name="metagame")

    from simulator.metagame.services import field_create

    queue, worker_env, owner = bench_settings(args.budget, args.workers)
    # The workers start the later rounds (the field run advances where its stage runs end):
    # on this benchmark's queue, cut for its workers.
    worker_env |= {"SIMULATION_QUEUE": queue, "SIMULATION_WORKERS": str(args.workers)}
    entries = _entries(owner, args.decks, args.seed)
    field = field_create(
        owner=owner, name="Bench field", entries=entries, budget=args.budget, bot="heuristic",
        target=args.target,
    )  # fmt: skip
    workers = start_workers("solo", args.workers, queue, tmp, worker_env)
    played = []
    try:
        wait_until_ready(queue, args.workers)
        for k, when in enumerate(("new workers", "the same workers again")):
            # reuse=False: the second run plays every game again, with a seed of its own
            played.append((when, *_play(field, args.seed + k)))
    finally:
        stop_workers(workers)
    pairs = args.decks * (args.decks - 1) // 2
    print(
        f"field: {args.decks} decks ({pairs} pairs), target {args.target}, budget {args.budget:,}"
    )
    print(f"workers: {args.workers} processes (manage.py simulation_workers)")
    for when, field_run, wall, began_at in played:
        _report(field_run, wall, began_at, when, args.workers)


def _play(field, seed: int):
    """One field run to its answer: (the field run, wall seconds, when it was submitted)."""
    from django.utils import timezone

    from simulator.metagame.models import FieldRun
    from simulator.metagame.services import field_run_create

    began = time.perf_counter()
    began_at = timezone.now()
    field_run, _ = field_run_create(field=field, seed=seed, reuse=False)
    while field_run.is_active:
        time.sleep(0.05)
        field_run.refresh_from_db()
    wall = time.perf_counter() - began
    if field_run.status != FieldRun.Status.DONE:
        sys.exit(f"the field run ended {field_run.status}: {field_run.error}")
    return field_run, wall, began_at


def _report(field_run, wall: float, began_at, when: str, workers: int) -> None:
    result = field_run.result
    rate = _in_process_rate(field_run, 1_000)
    print(
        f"\n{when}: to the answer {wall:.1f} s, {field_run.round + 1} rounds, "
        f"{field_run.games_spent:,} games, stopped by {result['stopped_by']}"
    )
    end_to_end = field_run.games_spent / wall
    print(
        f"games/s end to end: {end_to_end:,.0f}; in-process loop of the same pairs: {rate:,.0f}"
        f" (one core); ratio {end_to_end / rate:.2f} on {workers} workers"
    )
    for line in _round_timeline(field_run, began_at):
        print(line)
    print(
        "after the last chunk to the answer: "
        f"{1000 * (field_run.finished_at - _last_finished(field_run)).total_seconds():.0f} ms"
    )
    best = result["best_response"]
    name = result["decks"][best["deck"]]
    print(
        f"answer: bring {name}, {best['estimate']:.1%} against the field"
        f" ({best['low']:.1%} to {best['high']:.1%}), chance best {best['p_best']:.0%}"
    )


if __name__ == "__main__":
    main()
