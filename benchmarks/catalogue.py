"""Card search under load: a generated 20,000-card catalogue in PostgreSQL, served by gunicorn
on 127.0.0.1, searched by 50 concurrent clients. Prints p50/p95 and the ratio against the
cheapest Django request in the same run (`/healthz`: one `SELECT 1`).

    python benchmarks/catalogue.py [--cards 20000] [--seconds 10] [--clients 50]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import bench_database_url, drive, gunicorn, manage

FIRST = ["Wild", "Black", "Silent", "Big", "Lucky", "Doc", "Deadeye", "Kid", "Lone", "Iron"]
LAST = ["Hickok", "Cassidy", "Earp", "Starr", "Holliday", "Masterson", "Reeves", "Oakley"]
WORDS = ["reinvest", "concealed", "shootout", "kicker", "chip", "saloon", "street", "bluff"]
FACTIONS = ["Law Dogs", "Outlaws", "Cavalry", "Townsfolk", "Drifters"]

SEARCHES = [
    "t:dude skill>=8",
    "Hickok",
    '"Doc Earp"',
    'o:"reinvest"',
    "f:outlaws cost<=4 sort:-cost",
    "t:gear r:rare",
    "t:dude (smarts>8 or luck>8) -f:cavalry",
    "kl>=15 sort:name",
    "s:GEN t:fortune cost<3",
    "Kid",
]


def generate(n: int) -> None:
    from cards.models import Card, CardSet

    rng = random.Random(2005)
    gen, _ = CardSet.objects.get_or_create(
        code="GEN", defaults={"name": "Generated", "order": 99, "booster_layout": {}}
    )
    cards = []
    for i in range(1, n + 1):
        kind = rng.choices(["dude", "gear", "fortune"], [6, 2, 2])[0]
        dude = kind == "dude"
        card = Card(
            card_set=gen,
            set_order=gen.order,
            number=i,
            code=f"GEN-{i:05d}",
            name=f"{rng.choice(FIRST)} {rng.choice(LAST)} {i}",
            type=kind,
            faction=rng.choice(FACTIONS),
            rarity=rng.choice(["common", "common", "uncommon", "rare"]),
            cost=rng.randint(1, 10),
            text=" ".join(rng.sample(WORDS, 5)).capitalize() + ".",
        )
        if dude:
            card.smarts, card.skill, card.luck = (rng.randint(0, 12) for _ in range(3))
            card.kicker_limit = rng.choice([5, 10, 15, 20])
        cards.append(card)
    Card.objects.bulk_create(cards, batch_size=2000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=20_000)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--clients", type=int, default=50)
    args = parser.parse_args()

    env = dict(os.environ)
    env.update(
        DATABASE_URL=bench_database_url("drifter_bench_catalogue"),
        DJANGO_DEBUG="false",
        SECURE_SSL_REDIRECT="false",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECRET_KEY="bench-" + "x" * 50,
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    os.environ.update(env)
    manage("migrate", "--noinput", env=env)
    manage("load_catalogue", env=env)
    import django

    django.setup()
    generate(args.cards)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    from cards.models import Card

    print(f"catalogue: {Card.objects.count():,} cards in PostgreSQL; gunicorn 4x2 gthread")

    searches = [("GET", f"/api/v1/cards/?limit=20&q={quote(q)}", None) for q in SEARCHES]
    with gunicorn(env) as port:
        drive(port, searches, clients=10, seconds=2)  # warm up connections and caches
        peer = drive(port, [("GET", "/healthz", None)], clients=args.clients, seconds=args.seconds)
        closed = drive(port, searches, clients=args.clients, seconds=args.seconds)
        paced = drive(
            port, searches, clients=args.clients, seconds=args.seconds, per_client_rate=2.0
        )
    print(peer.line("peer /healthz, closed loop"))
    print(closed.line("card search, closed loop"))
    print(paced.line("card search, 50 clients x 2/s"))
    print(
        f"ratio search/healthz p50: {closed.pct(50) / peer.pct(50):.2f}  "
        f"p95: {closed.pct(95) / peer.pct(95):.2f}   goal p95 <= 25 ms: "
        f"closed {'met' if closed.pct(95) <= 25 else 'NOT met'}, "
        f"paced {'met' if paced.pct(95) <= 25 else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
