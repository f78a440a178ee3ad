"""Collections at size: a 100,000-row CSV import, and set completion (selector, API and page)
for a collection of 20,000 entries. Not a test: prints timings and ratios against a peer
measured in the same run (reading the same CSV with the csv module; counting the entries).

    python benchmarks/collections.py [--rows 100000] [--entries 20000]

Honours DATABASE_URL (its data is created under a throwaway user and set and deleted again);
without it a fresh PostgreSQL database is made for the run (BENCH_PG_ADMIN_URL) and dropped,
falling back to a throwaway SQLite file when no PostgreSQL answers.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GOAL_IMPORT_SECONDS = 5.0
CONDITIONS = ["Mint", "Near Mint", "Excellent", "Good", "Light Played", "Played", "Poor"]


def best_of(fn, repeat: int = 3) -> float:
    """The fastest of `repeat` runs, in seconds (the least disturbed by a noisy machine)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def database() -> tuple[str, str | None]:
    """The database URL to use and, when this run made it, its name (to drop afterwards)."""
    if os.environ.get("DATABASE_URL"):
        return os.environ["DATABASE_URL"], None
    try:
        from benchmarks.harness import bench_database_url

        name = "drifter_bench_collections"
        return bench_database_url(name), name
    except Exception as exc:  # no PostgreSQL here: still measure, on SQLite
        print(f"(no PostgreSQL: {type(exc).__name__}; using a throwaway SQLite file)")
        path = Path(tempfile.mkdtemp(prefix="drifter-bench-")) / "bench.sqlite3"
        return f"sqlite:///{path}", None


def make_csv(rows: int, rng: random.Random) -> bytes:
    """A full-form CSV of `rows` rows over the real catalogue (duplicates merge on import)."""
    from cards.models import Card, KickerChip

    cards = list(Card.objects.values_list("card_set__code", "number", "name"))
    chips = list(KickerChip.objects.values_list("card_set__code", "code"))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["set_code", "collector_number", "name", "condition", "quantity", "notes"])
    for i in range(rows):
        if i % 50 == 0 and chips:
            set_code, code = rng.choice(chips)
            writer.writerow([set_code, code.rsplit("-", 1)[1], code, "", 1, ""])
            continue
        set_code, number, name = rng.choice(cards)
        writer.writerow([set_code, number, name, rng.choice(CONDITIONS), rng.randint(1, 3), ""])
    return out.getvalue().encode("utf-8")


def bench_import(owner, rows: int) -> None:
    from collecting import csv_format as collection_csv
    from collecting import services as collection_services
    from collecting.models import Collection

    data = make_csv(rows, random.Random(2005))
    peer = best_of(lambda: sum(1 for _ in csv.reader(io.StringIO(data.decode("utf-8")))))
    parse = best_of(lambda: collection_csv.parse(data))
    timings = []
    for attempt in range(3):
        target = Collection.objects.create(owner=owner, name=f"Import {attempt}")
        start = time.perf_counter()
        try:
            result = collection_services.collection_import_csv(
                collection=target, file=io.BytesIO(data), mode="add"
            )
        except collection_services.CollectionImportError as exc:
            raise SystemExit(f"import refused: {exc.problems[:5]}") from exc
        timings.append(time.perf_counter() - start)
    seconds = min(timings)
    print(
        f"import {rows:,} rows ({len(data) / 2**20:.1f} MB) -> {result.entries:,} entries, "
        f"{result.chips} chip rows: best {seconds:.2f} s, median {statistics.median(timings):.2f} s"
        f" (parse alone {parse:.2f} s; peer csv.reader {peer:.3f} s; ratio import/peer "
        f"{seconds / peer:.1f})  goal <= {GOAL_IMPORT_SECONDS:.0f} s: "
        f"{'met' if seconds <= GOAL_IMPORT_SECONDS else 'NOT met'}"
    )


def bench_completion(owner, entries: int) -> None:
    from django.db import connection
    from django.test import Client

    from cards.models import Card, CardSet
    from collecting.models import Collection, CollectionEntry, Condition
    from collecting.selectors import completion

    rng = random.Random(7)
    conditions = Condition.values
    per_card = len(conditions)
    needed_cards = -(-entries // per_card)
    code = "BN" + uuid.uuid4().hex[:6].upper()
    bench_set = CardSet.objects.create(code=code, name="Bench", order=999, booster_layout={})
    Card.objects.bulk_create(
        [
            Card(
                card_set=bench_set,
                number=i,
                code=f"{code}-{i:05d}",
                name=f"Bench card {i}",
                type="gear",
                rarity=rng.choice(["common", "uncommon", "rare"]),
                cost=1,
            )
            for i in range(1, needed_cards + 1)
        ],
        batch_size=2000,
    )
    try:
        big = Collection.objects.create(owner=owner, name="Twenty thousand")
        card_ids = list(Card.objects.filter(card_set=bench_set).values_list("id", flat=True))
        CollectionEntry.objects.bulk_create(
            [
                CollectionEntry(
                    collection=big, card_id=card_id, condition=cond, quantity=rng.randint(1, 4)
                )
                for card_id in card_ids
                for cond in conditions
            ][:entries],
            batch_size=5000,
        )
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        count = CollectionEntry.objects.filter(collection=big).count()
        peer = best_of(lambda: CollectionEntry.objects.filter(collection=big).count(), 5)
        selector = best_of(lambda: completion(collection=big), 5)
        client = Client()
        client.force_login(owner)
        api = best_of(lambda: client.get(f"/api/v1/collections/{big.pk}/completion/"), 5)
        page = best_of(lambda: client.get(f"/collections/{big.pk}/"), 5)
        assert client.get(f"/collections/{big.pk}/").status_code == 200
        print(
            f"completion of {count:,} entries: selector {selector * 1000:.1f} ms, API "
            f"{api * 1000:.1f} ms, page {page * 1000:.1f} ms (peer COUNT(*) "
            f"{peer * 1000:.2f} ms; ratio API/peer {api / peer:.0f})"
        )
    finally:
        CollectionEntry.objects.filter(card__card_set=bench_set).delete()
        Card.objects.filter(card_set=bench_set).delete()
        bench_set.delete()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--entries", type=int, default=20_000)
    args = parser.parse_args()

    url, made = database()
    os.environ.update(
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_DEBUG="false",
        SECURE_SSL_REDIRECT="false",
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
        SECRET_KEY=os.environ.get("SECRET_KEY", "bench-" + "x" * 50),
    )
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from cards.services import catalogue_load

    call_command("migrate", "--noinput", verbosity=0)
    catalogue_load()
    print(f"database: {connection.vendor}")
    owner = get_user_model().objects.create_user(f"bench-{uuid.uuid4().hex[:10]}")
    try:
        bench_import(owner, args.rows)
        bench_completion(owner, args.entries)
    finally:
        owner.delete()  # collections, entries and chips go with their owner
        connection.close()
        if made:
            import psycopg

            from benchmarks.harness import PG_ADMIN_URL

            admin = PG_ADMIN_URL.replace("postgres://", "postgresql://")
            with psycopg.connect(admin, autocommit=True) as c:
                c.execute(f'DROP DATABASE IF EXISTS "{made}" WITH (FORCE)')


if __name__ == "__main__":
    main()
