"""The deck doctor's search against the naive one, on the same budget and seed (#18).

The deck is starter HSD-S1 with its three Henry Meeks replaced by a planted dude (cost $10, no
smarts, skill or luck); additions come from a collection of Meeks and Dr. George Goodfellows;
the gauntlet is starter HSD-S2, heuristic bots. `--source format` adds from the whole card
pool instead (16 swaps: where halving has something to halve). For each seed:

* doctor: round 0 ranks the cuts, successive halving with a test at each look spends the
  rest (simulator/doctor/services.py), unchained; `racing` the same with the other way to drop
  swaps;
  with `--chain` also the chained doctor, its accepted suggestions counted over every step;
* naive: the same round-1 swaps, every one given an equal share of the same games after round
  0, all on one seed, then the same Holm verdict.

Prints games spent, accepted (significant) suggestions, games per accepted suggestion, and
whether the top suggestion cuts the planted card. SQLite in a throwaway folder, in-process.

    python benchmarks/doctor.py [--budget 12000] [--seeds 8] [--source collection|format]
                                [--elimination halving,racing] [--chain]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.simruns import prepare

WEAK = "TST-001"


def planted(user):
    from cards.models import Card, CardSet, KickerChip, StarterDeck
    from collecting.services import collection_create, entry_adjust
    from decks.services import deck_create

    card_set, _ = CardSet.objects.get_or_create(
        code="TST", defaults={"name": "Planted", "order": 99, "booster_layout": {}}
    )
    hsd = Card.objects.get(code="HSD-012")
    weak, _ = Card.objects.get_or_create(
        code=WEAK,
        defaults={
            "card_set": card_set, "set_order": card_set.order, "number": 1,
            "name": "Useless Uriah", "type": "dude", "faction": hsd.faction, "rarity": "common",
            "cost": 10, "smarts": 0, "skill": 0, "luck": 0, "kicker_limit": 0,
        },
    )  # fmt: skip
    cards = {e["code"]: e["qty"] for e in StarterDeck.objects.get(code="HSD-S1").cards}
    del cards["HSD-012"]
    cards[weak.code] = 3
    chips: dict[str, int] = {}
    total = 0
    for chip in KickerChip.objects.order_by("-value", "code"):
        while total + chip.value <= 50 and chips.get(chip.code, 0) < 3:
            chips[chip.code] = chips.get(chip.code, 0) + 1
            total += chip.value
    deck = deck_create(owner=user, name="Planted", cards=cards, kicker_chips=chips)
    if not user.card_collections.exists():
        collection = collection_create(owner=user, name="Binder")
        for code in ("HSD-012", "HSD-013"):
            entry_adjust(collection=collection, card=Card.objects.get(code=code), delta=3)
    return deck


def naive(doctor) -> dict:
    """Every swap of the doctor's family with the same games after round 0, one round on one
    seed, one Holm verdict at 5% (the same one-sided paired test): no looks, no stopping."""
    from simulator.doctor import services as d
    from simulator.models import SimulationRun
    from simulator.runs.services import run_create, run_execute_locally
    from simulator.runs.stats import holm, paired_test

    swaps = doctor.state["family"]
    opponents = len(doctor.gauntlet)
    round0 = SimulationRun.objects.get(doctor__doctor=doctor, doctor__round=0).games_done
    games = (doctor.budget - round0) // (len(swaps) * 2 * opponents)
    base = {"deck": doctor.deck_id, "bot": doctor.bot}
    scored, spent = [], round0
    for swap in swaps:
        changed = {**base, "remove": {swap["cut"]: 1}, "add": {swap["add"]: 1}}
        run, _ = run_create(
            owner=doctor.owner, game="drifter", kind="what_if", format=doctor.format,
            players=[base, changed, *doctor.gauntlet], games=games,
            seed=d._round_seed(doctor.seed, 1), count_active=False, dispatch=False,
        )  # fmt: skip
        run = run_execute_locally(run=run)
        spent += run.games_done
        test = paired_test(*d._pair_totals(run).values())
        scored.append({**swap, **test, "p": d.one_sided_p(test)})
    adjusted = holm([s["p"] for s in scored])
    accepted = [
        s for s, p in zip(scored, adjusted, strict=True) if p < d.ALPHA and (s["mean"] or 0) > 0
    ]
    accepted.sort(key=lambda s: -(s["mean"] or 0.0))
    return {"spent": spent, "accepted": accepted}


def outcome(spent: int, accepted: list[dict]) -> dict:
    return {
        "spent": spent,
        "accepted": len(accepted),
        "planted": bool(accepted) and accepted[0]["cut"] == WEAK,
    }


def line(label: str, o: dict, seconds: float) -> str:
    per = f"{o['spent'] / o['accepted']:8,.0f}" if o["accepted"] else "       -"
    return (
        f"  {label:<8} {o['spent']:7,} games, {o['accepted']} accepted, {per} games per "
        f"accepted; top cuts the planted card: {'yes' if o['planted'] else 'no'}; {seconds:5.1f} s"
    )


def summary(label: str, rows: list[dict]) -> str:
    spent = sum(o["spent"] for o in rows)
    accepted = sum(o["accepted"] for o in rows)
    per = f"{spent / accepted:,.0f}" if accepted else "-"
    return (
        f"| {label} | {spent / len(rows):,.0f} | {', '.join(str(o['accepted']) for o in rows)} "
        f"| {per} | {sum(o['planted'] for o in rows)} of {len(rows)} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--budget", type=int, default=12_000)
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--source", choices=["collection", "format"], default="collection")
    parser.add_argument(
        "--elimination", default="halving,racing", help="the doctor's ways to drop swaps"
    )
    parser.add_argument(
        "--chain", action="store_true", help="also the chained doctor (halving), every step"
    )
    args = parser.parse_args()
    prepare(postgres=False, name="doctor")
    from django.contrib.auth import get_user_model

    from simulator.doctor import services as d

    user = get_user_model().objects.create_user("bench-doctor", password="x" * 20)
    deck = planted(user)
    gauntlet = [{"starter": "HSD-S2", "bot": "heuristic"}]
    rows: dict[str, list[dict]] = {}
    for seed in range(args.seeds):
        print(f"seed {seed}: adds from the {args.source}, budget {args.budget:,}")
        doctor = None
        for elimination in args.elimination.split(","):
            d.ELIMINATION = elimination
            start = time.perf_counter()
            doctor, _ = d.doctor_create(
                owner=user, deck_id=deck.pk, gauntlet=gauntlet, source=args.source,
                budget=args.budget, seed=seed, chain=False,
            )  # fmt: skip
            doctor = d.doctor_execute_locally(doctor=doctor)
            if doctor.status != "done" or "family" not in doctor.state:
                sys.exit(f"seed {seed}: the doctor {doctor.status}: {doctor.error or doctor.state}")
            accepted = [s for s in doctor.result["swaps"] if s["significant"]]
            o = outcome(doctor.games_spent, accepted)
            rows.setdefault(elimination, []).append(o)
            print(line(elimination, o, time.perf_counter() - start))
        assert doctor is not None
        if args.chain:
            d.ELIMINATION = "halving"
            start = time.perf_counter()
            chained, _ = d.doctor_create(
                owner=user, deck_id=deck.pk, gauntlet=gauntlet, source=args.source,
                budget=args.budget, seed=seed, chain=True,
            )  # fmt: skip
            chained = d.doctor_execute_locally(doctor=chained)
            every = [
                s for step in chained.result["steps"] for s in step["swaps"] if s["significant"]
            ]
            o = outcome(chained.games_spent, every)
            # The planted card: the first step's top suggestion (a swap of the deck as it is).
            first = [s for s in chained.result["swaps"] if s["significant"]]
            o["planted"] = bool(first) and first[0]["cut"] == WEAK
            rows.setdefault("chained", []).append(o)
            print(line("chained", o, time.perf_counter() - start))
        start = time.perf_counter()
        plain = naive(doctor)
        o = outcome(plain["spent"], plain["accepted"])
        rows.setdefault("naive", []).append(o)
        print(line("naive", o, time.perf_counter() - start))
    print(
        "\n| search | games spent (mean) | accepted, per seed | games per accepted "
        "| top suggestion cuts the planted card |"
    )
    print("|---|---|---|---|---|")
    for label, outcomes in rows.items():
        print(summary(label, outcomes))


if __name__ == "__main__":
    main()
