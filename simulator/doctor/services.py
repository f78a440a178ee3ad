"""The deck doctor (#18): which card to cut and which to add, found and proven by simulation.

A doctor run owns a sequence of ordinary simulation runs (its stages, `DoctorStage`), made by
`services.run_create` and played by the same workers, so chunks, retries, the reconciler and
cancel are the runs' own. The procedure (docs/doctor.md):

* **Round 0** — a gauntlet run of the deck against the gauntlet ranks the cards by per-card
  impact (win rate when played minus otherwise; a card never played ranks worst). The cut
  candidates are the cards never played, the worst played card and those whose impact is
  not clearly better than its (`cut_candidates`), four at most.
  The add candidates are the source's cards that keep the deck legal with the cut made
  (format, copy limits, pool, ownership when the source is the collection).
* **Rounds 1..L** — successive halving with looks: every live swap is a what-if run (the deck
  against the deck with the swap, each against every opponent, on common random numbers);
  each round has its own seed (fresh games) shared by all its runs. After round r (look r) a
  swap's evidence is all of its games so far. The swaps of round 1 are the family, fixed
  with the number of looks L before round 1.
* **The verdict at each look** — per swap the one-sided paired test of all its games so far;
  Holm over the whole family (a dropped swap counts with p = 1) at the look's share of ALPHA
  (`look_levels`, summing to 1). By the union bound over looks the chance that any swap
  with no true gain is ever called better is at most ALPHA, although which swaps go on
  depends on the data: the test at look r is a fixed-sample test of a swap's first games.
  The search stops at the first look that proves a swap (the budget left is reported, not
  spent); otherwise the better half by mean change so far goes on, and the games per swap
  double as the field halves, until look L.

* **Chained** (`DoctorRun.chain`, on by default) — when a step proves a swap and a quarter of
  the budget or more is left, its best swap is made on a working deck (the run players'
  remove/add: no deck row is written) and the search starts again there, a new round 0 and
  rounds, up to MAX_STEPS swaps; each step is its own family at ALPHA, on games of its own.

The doctor advances when a stage run ends: promptly by a hook where a run finishes
(`services._run_ended`, after the commit) and surely by the workers' reconciler tick
(`doctors_due`, asked by `services.runs_reconcile_due`), which catches a hook lost with a
killed worker. Advancing locks the doctor row and checks its round, so it happens once.
"""

from __future__ import annotations

import math
import random
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from decks.models import Deck
from decks.ownership import owned
from decks.selectors import deck_contents, pool_of
from decks.services import deck_update, deck_version_save
from simulator.common import conf
from simulator.doctor.models import DoctorRun, DoctorStage
from simulator.doctor.selectors import FIELD_MAX_DECKS, stage_parts, visible_fields
from simulator.doctor.weighting import (
    PAIR_KEYS,
    field_games,
    normalised,
    weighted_cut_ranking,
    weighted_paired_test,
)
from simulator.games import deck_game
from simulator.games.players import budget_problems
from simulator.games.problems import RunRefused, refuse
from simulator.runs import services as runs
from simulator.runs.followers import Follower
from simulator.runs.models import SimulationRun
from simulator.runs.selectors import run_report
from simulator.runs.stats import holm, paired_test

CUT_CANDIDATES = 4  # the worst cards by impact that round 1 tries to cut, at most
CUT_BAND = 1.96  # a card within this many standard errors of the worst's impact is a candidate
MAX_SWAPS = 16  # swaps in round 1 at most
FINAL_SWAPS = 2  # the round with this many swaps or fewer is the last
FIRST_SHARE = 0.2  # of the budget for round 0 (ranking the cuts)
MIN_GAMES = 10  # games per matchup a stage run needs to say anything
MAX_OPPONENTS = 6  # a what-if seats the deck, the changed deck and the opponents: 8 at most
MIN_BUDGET = 200
MAX_BUDGET = 1_000_000
ALPHA = 0.05
METHOD = "Holm"
MAX_STEPS = 3  # a chained search makes at most this many swaps, one a step
CHAIN_MIN_SHARE = 0.25  # of the budget left at least, for a next step
ELIMINATION = "halving"  # or "racing": how a look drops swaps (benchmarks/doctor.py)


def _attr(attr: str | None) -> str | None:
    """A stage run's problem named as the doctor's input names it."""
    if not attr or not attr.startswith("players."):
        return attr
    head, _, rest = attr.partition(".")[2].partition(".")
    index = int(head)
    if index == 0 and rest == "budget":
        return "bot_budget"
    name = "deck" if index == 0 else f"gauntlet.{index - 1}"
    return f"{name}.{rest}" if rest else name


def _stage_run(
    doctor: DoctorRun, *, players: list[dict], kind: str, games: int, rnd: int, alongside: int = 1
):
    """A stage run of the doctor, one of `alongside` started together (they share the workers)."""
    run, _ = runs.run_create(
        owner=doctor.owner, game=deck_game().name, kind=kind, format=doctor.format, players=players,
        games=games, seed=runs.stage_seed(doctor.seed, rnd), count_active=False,
        alongside=alongside,
    )  # fmt: skip
    return run


@transaction.atomic
def doctor_create(
    *,
    owner,
    deck_id: Any,
    format: str = "",
    gauntlet: list[dict] | None = None,
    field_id: Any = None,
    source: str = DoctorRun.Source.FORMAT,
    budget: int,
    bot: str = "",
    bot_budget: int | None = None,
    seed: int | None = None,
    chain: bool = True,
    idempotency_key: str | None = None,
) -> tuple[DoctorRun, bool]:
    """Check a doctor run and start it with its round 0; (doctor, created).

    Against a `gauntlet` (1 to MAX_OPPONENTS opponents, weighed alike) or a field (`field_id`:
    one of the owner's fields or a public one, in the doctor's format; its decks become the
    gauntlet, each weighted by its share, `_field_gauntlet`), exactly one of them.
    Everything is checked here, nothing in a worker: the deck is the owner's, the gauntlet's
    decks exist and every deck is legal for the format (the stage run's own checks, named
    `deck` and `gauntlet.N`), the source suits the deck, the budget fits. A refusal writes
    nothing (RunRefused). The same `idempotency_key` returns the doctor made with it.
    """
    if idempotency_key:
        existing = DoctorRun.objects.filter(owner=owner, idempotency_key=idempotency_key).first()
        if existing is not None:
            return existing, False
    deck = _own_deck(owner=owner, deck_id=deck_id)
    fmt = format or deck.format
    gauntlet, field = _opponents(owner=owner, gauntlet=gauntlet, field_id=field_id, fmt=fmt)
    most = MAX_OPPONENTS if field is None else FIELD_MAX_DECKS
    _check_input(deck=deck, source=source, gauntlet=gauntlet, budget=budget, chain=chain, most=most)
    bot = bot or deck_game().default_bot()
    if bot_budget is not None:  # checked before the row is written (the stage run checks it too)
        problems = budget_problems(deck_game(), bot, bot_budget, "bot_budget")
        if problems:
            raise RunRefused(problems=problems)
    seed = runs.checked_seed(seed)
    _check_active_cap(owner=owner)
    gauntlet = [
        {k: g[k] for k in ("deck", "public_deck", "starter", "bot", "budget") if k in g}
        for g in gauntlet or []
    ]
    try:
        with transaction.atomic():
            doctor = DoctorRun.objects.create(
                owner=owner, deck=deck, format=fmt, gauntlet=gauntlet, source=source, bot=bot,
                bot_budget=bot_budget, budget=budget, seed=seed, chain=chain,
                idempotency_key=idempotency_key or None,
                state={"field": field} if field is not None else {},
            )  # fmt: skip
    except IntegrityError:
        return DoctorRun.objects.get(owner=owner, idempotency_key=idempotency_key), False
    _start_round_zero(doctor=doctor, budget=budget)
    return doctor, True


def _opponents(
    *, owner, gauntlet: Any, field_id: Any, fmt: str
) -> tuple[Any, dict[str, Any] | None]:
    """The gauntlet to play and the field it comes from (None for a gauntlet given as such):
    exactly one of `gauntlet` and `field_id`, else refused."""
    if (gauntlet is None) == (field_id is None):
        raise refuse(
            "Play against a gauntlet of opponents or against a field, one of the two.",
            attr="field" if field_id is not None else "gauntlet",
        )
    if field_id is None:
        return gauntlet, None
    return _field_gauntlet(owner=owner, field_id=field_id, fmt=fmt)


def _field_gauntlet(*, owner, field_id: Any, fmt: str) -> tuple[list[dict], dict[str, Any]]:
    """The gauntlet a field makes, and what the doctor keeps of the field (`state["field"]`:
    its id, name, each opponent's share of the field and its place among the field's decks).

    The field is the owner's or public (anyone else's private field is as unknown as one that
    does not exist: "No such field.", as a foreign deck is refused), in the doctor's format,
    heads-up (the swaps are measured heads-up; a field of bigger tables asks another question),
    of at most FIELD_MAX_DECKS decks. Each deck plays with its own bot, else the field's, else the
    game's default. A deck of share 0 is left out: nobody plays it, so it cannot change the
    swap's effect against the field. The doctored deck itself, if the field holds it, stays in
    as a mirror opponent (the deck as the field plays it, not as the search changes it).
    """
    try:
        field = visible_fields(user=owner).filter(pk=int(field_id)).first()
    except (TypeError, ValueError):
        field = None
    if field is None:
        raise refuse("No such field.", code="not_found", attr="field")
    _check_field_format(field, fmt)
    if getattr(field, "table_size", 2) > 2:
        raise refuse(
            f"{field.name} is played at tables of {field.table_size}; the deck doctor measures "
            "swaps heads-up, so it takes a heads-up field.", attr="field",
        )  # fmt: skip
    entries = field.entries if isinstance(field.entries, list) else []
    if len(entries) > FIELD_MAX_DECKS:
        raise refuse(
            f"{field.name} has {len(entries)} decks; the deck doctor plays a field of at most "
            f"{FIELD_MAX_DECKS}.", attr="field",
        )  # fmt: skip
    played = [(i, e) for i, e in enumerate(entries) if _share(e) > 0]
    if not played:
        raise refuse(f"Nobody plays any deck of {field.name}: its shares are all 0.", attr="field")
    bot = field.bot or deck_game().default_bot()
    gauntlet = [
        {**{k: e[k] for k in ("deck", "public_deck", "starter", "budget") if k in e},
         "bot": e.get("bot") or bot}
        for _, e in played
    ]  # fmt: skip
    shares = normalised([_share(e) for _, e in played])
    info = {"id": field.pk, "name": field.name, "shares": shares, "entries": [i for i, _ in played]}
    return gauntlet, info


def _share(entry: Any) -> float:
    share = entry.get("share") if isinstance(entry, dict) else None
    return float(share) if isinstance(share, int | float) and share > 0 else 0.0


def _check_field_format(field: Any, fmt: str) -> None:
    """Refuse a field of another format than the doctor's (a format the runs refuse is left to
    the stage run, which names it)."""
    game = deck_game()
    try:
        mine = game.prepare_rules(fmt, []).format
    except RunRefused:
        return
    try:
        theirs = game.prepare_rules(field.format, []).format
    except RunRefused:
        theirs = field.format
    if theirs != mine:
        names = dict(game.formats)
        raise refuse(
            f"{field.name} is a field of {names.get(theirs, theirs or 'another format')}, not "
            f"of {names.get(mine, mine)}: doctor the deck in the field's format.", attr="field",
        )  # fmt: skip


def _own_deck(*, owner, deck_id: Any) -> Deck:
    """The deck `deck_id` names, if it is `owner`'s; refused otherwise."""
    try:
        deck = Deck.objects.filter(pk=int(deck_id), owner=owner).first()
    except (TypeError, ValueError):
        deck = None
    if deck is None:
        raise refuse("No such deck of yours.", code="not_found", attr="deck")
    return deck


def _check_input(
    *, deck: Deck, source: str, gauntlet: Any, budget: Any, chain: Any, most: int = MAX_OPPONENTS
) -> None:
    """Refuse a source that does not suit the deck, a gauntlet (of at most `most` opponents),
    budget or chain out of bounds."""
    if source not in DoctorRun.Source.values:
        raise refuse(
            f"source is one of {', '.join(DoctorRun.Source.values)}, not {source!r}.",
            attr="source",
        )
    if source == DoctorRun.Source.POOL and deck.pool_id is None:
        raise refuse("This deck has no Stud or Draw pool to add from.", attr="source")
    if not isinstance(gauntlet, list) or not 1 <= len(gauntlet) <= most:
        raise refuse(f"The gauntlet has 1 to {most} opponents.", attr="gauntlet")
    if not all(isinstance(g, dict) for g in gauntlet):
        raise refuse("The gauntlet is a list of decks with their bots.", attr="gauntlet")
    low = max(MIN_BUDGET, 2 * MIN_GAMES * len(gauntlet) * 10)
    if type(budget) is not int or not low <= budget <= MAX_BUDGET:
        raise refuse(
            f"budget is a whole number of games from {low:,} to {MAX_BUDGET:,}.", attr="budget"
        )
    if type(chain) is not bool:
        raise refuse("chain is true or false.", attr="chain")


def _check_active_cap(*, owner) -> None:
    """Refuse a doctor run to an owner who has as many going as a doctor may."""
    cap = conf.get("SIMULATION_MAX_ACTIVE_RUNS")
    if DoctorRun.objects.filter(owner=owner, status__in=DoctorRun.ACTIVE).count() >= cap:
        raise refuse(
            f"You already have {cap} deck doctor runs going; wait or cancel one.",
            code="too_many_runs",
        )


def _start_round_zero(*, doctor: DoctorRun, budget: int) -> None:
    """Round 0: the gauntlet run (or, against a field, a run per deck of the field) that ranks
    the deck's cards; its refusal named as the doctor's input names it (`deck`, `gauntlet.N`,
    against a field `field`). The doctor takes the run's format."""
    try:
        with transaction.atomic():
            made = _start_ranking(doctor, change={}, total=int(budget * FIRST_SHARE))
    except RunRefused as exc:
        field = doctor.state.get("field")
        for problem in exc.problems:
            problem["attr"] = _attr(problem.get("attr"))
            attr = problem["attr"] or ""
            if field is not None and attr.startswith("gauntlet."):
                place = field["entries"][int(attr.split(".")[1])] + 1
                problem["detail"] = f"Deck {place} of {field['name']}: {problem['detail']}"
                problem["attr"] = "field"
        raise
    doctor.format = made[0].format
    field = doctor.state.get("field")
    if field is not None:  # the field's decks as the runs name them, for the page and the API
        field["labels"] = [run.plan["players"][1]["label"] for run in made]
    doctor.save(update_fields=["format", "state"])


def _weights(doctor: DoctorRun) -> list[float] | None:
    """The weight of each opponent: its share of the field; None for a gauntlet (weighed
    alike, pooled as one: the doctor as it was before fields)."""
    field = doctor.state.get("field")
    return None if field is None else list(field["shares"])


def _start_ranking(doctor: DoctorRun, *, change: dict[str, int], total: int) -> list[SimulationRun]:
    """A round 0 (ranking the cuts) of `total` games or so: one gauntlet run of the working
    deck against every opponent, even games; against a field a run per deck of the field (the
    stage's `swap` is `{"opponent": i}`), games in proportion to the shares
    (`weighting.field_games`)."""
    base = _player(doctor, change)
    weights = _weights(doctor)
    if weights is None:
        games = max(MIN_GAMES, total // len(doctor.gauntlet))
        groups: list[tuple[dict | None, list[dict], int]] = [(None, doctor.gauntlet, games)]
    else:
        spread = field_games(total, weights, MIN_GAMES)
        groups = [
            ({"opponent": i}, [g], n) for i, (g, n) in enumerate(zip(doctor.gauntlet, spread))
        ]
    made = []
    for swap, opponents, games in groups:
        try:
            run = _stage_run(doctor, players=[base, *opponents], kind=SimulationRun.Kind.GAUNTLET,
                             games=games, rnd=doctor.round)  # fmt: skip
        except RunRefused as exc:  # a field's deck i sits at place 1: name it as gauntlet.i
            if swap is not None:
                for problem in exc.problems:
                    attr = problem.get("attr") or ""
                    if attr == "players.1" or attr.startswith("players.1."):
                        rest = attr[len("players.1") :]
                        problem["attr"] = f"players.{swap['opponent'] + 1}{rest}"
            raise
        DoctorStage.objects.create(doctor=doctor, run=run, round=doctor.round, swap=swap)
        made.append(run)
    return made


# --- advancing ---------------------------------------------------------------------------------


def doctor_advance_for_run(*, run_id: int) -> None:
    """The hook where a run ends: advance its doctor, if it is a doctor's stage."""
    stage = DoctorStage.objects.filter(run_id=run_id).first()
    if stage is not None:
        doctor_advance(doctor_id=stage.doctor_id)


def doctors_due() -> QuerySet[DoctorRun]:
    """Active doctors whose current round has no active stage run left: due to advance (the
    reconciler's tick, services.runs_reconcile_due, asks in the same query as for runs)."""
    return DoctorRun.objects.filter(status__in=DoctorRun.ACTIVE).exclude(
        Q(stages__run__status__in=SimulationRun.ACTIVE)
    )


def doctor_advance(*, doctor_id: int) -> int:
    """Take the doctor's next step if its round's runs have all ended; 1 if it did, else 0.

    Under the doctor's row lock with a check of its round, so the hook, the tick and a second
    worker racing each other advance it once.
    """
    with transaction.atomic():
        doctor = DoctorRun.objects.select_for_update().filter(pk=doctor_id).first()
        if doctor is None or not doctor.is_active:
            return 0
        stages = list(
            DoctorStage.objects.filter(doctor=doctor, round=doctor.round).select_related("run")
        )
        runs = [s.run for s in stages]
        if not runs or any(r.is_active for r in runs):
            return 0
        doctor.games_spent += sum(r.games_done for r in runs)
        doctor.status = DoctorRun.Status.RUNNING
        ended = [r for r in runs if r.status != SimulationRun.Status.DONE]
        if ended:
            why = ended[0].error or f"a run was {ended[0].status}"
            _finish(doctor, failed=f"A stage of the search did not finish: {why}.")
        elif doctor.round == doctor.state.get("round0", 0):
            _start_halving(doctor, stages)
        else:
            _next_round(doctor, stages)
        doctor.save()
    return 1


def _finish(doctor: DoctorRun, *, failed: str = "", result: dict | None = None) -> None:
    doctor.status = DoctorRun.Status.FAILED if failed else DoctorRun.Status.DONE
    doctor.error = failed
    doctor.result = result
    doctor.finished_at = timezone.now()


def _cut_ranking(run: SimulationRun, deck_cards: dict[str, int]) -> list[dict[str, Any]]:
    """The deck's cards, worst first: never played, then by impact (win rate when played minus
    otherwise) in the round-0 gauntlet, each with the impact's standard error."""
    rows = {row["code"]: row for row in run_report(run)["players"][0].get("cards", [])}
    ranked = []
    for code in deck_cards:
        row = rows.get(code)
        delta = row["delta"] if row is not None else None
        se = None
        if row is not None and delta is not None:
            se = math.sqrt(sum(_rate_variance(row[side]) for side in ("played", "not_played")))
        played = row["played"]["n"] if row else 0
        ranked.append({"code": code, "impact": delta, "se": se, "played": played})
    ranked.sort(key=lambda c: (c["impact"] is not None, c["impact"] or 0.0, c["code"]))
    return ranked


def _rate_variance(r: Any) -> float:
    """The variance of a win rate's estimate (p (1 - p) / n)."""
    p = r["rate"] or 0.0
    return p * (1 - p) / r["n"] if r["n"] else 0.0


def cut_candidates(ranking: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cards worth trying to cut, at most CUT_CANDIDATES, worst first: every card never
    played (nothing is known against it), the worst played card, and each card whose impact
    is not clearly better than the worst's (the difference under CUT_BAND standard errors of
    the difference). A card that stands out as the worst gets the search to itself; a deck
    without a clear worst card has its four worst tried."""
    never = [c for c in ranking if c["impact"] is None]
    played = [c for c in ranking if c["impact"] is not None]
    chosen = never[:CUT_CANDIDATES]
    if played and len(chosen) < CUT_CANDIDATES:
        worst = played[0]
        for card in played:
            spread = math.hypot(card["se"] or 0.0, worst["se"] or 0.0)
            if card is worst or card["impact"] - worst["impact"] < CUT_BAND * spread:
                chosen.append(card)
            if len(chosen) == CUT_CANDIDATES:
                break
    return chosen


def add_candidates(doctor: DoctorRun, cut: str, cards: dict[str, int]) -> list[str]:
    """The cards the source offers that keep the deck legal once `cut` is swapped for them.

    From the collection: a card the owner has more copies of than the deck holds (the rest of
    the deck need not be owned: the doctor judges the change, not the deck).
    """
    game = deck_game()
    codes = game.card_codes()
    _, chips = deck_contents(doctor.deck)
    pool = pool_of(doctor.deck.pool)
    if doctor.source == DoctorRun.Source.COLLECTION:
        have = owned(owner=doctor.owner)
        offered = [c for c in codes if have.cards.get(c, 0) > cards.get(c, 0)]
    elif doctor.source == DoctorRun.Source.POOL:
        offered = [c for c in codes if pool and pool.cards.get(c)]
    else:
        offered = list(codes)
    legal = []
    for code in sorted(offered):
        if code == cut:
            continue
        changed = dict(cards)
        changed[cut] -= 1
        if not changed[cut]:
            del changed[cut]
        changed[code] = changed.get(code, 0) + 1
        if not game.deck_problems(fmt=doctor.format, cards=changed, kicker_chips=chips, pool=pool):
            legal.append(code)
    return legal


def _looks(swaps: int) -> int:
    """Looks (rounds) of halving from `swaps` swaps until at most FINAL_SWAPS are left."""
    looks = 1
    while swaps > FINAL_SWAPS:
        swaps = math.ceil(swaps / 2)
        looks += 1
    return looks


def look_levels(looks: int) -> list[float]:
    """The share of ALPHA spent at each look, fixed before round 1: doubling from look to look
    (1/3, 2/3 for two looks; 1/15, 2/15, 4/15, 8/15 for four), as the games a swap has double
    under halving. They sum to 1, so by the union bound over looks the family-wise error of
    the whole search is at most ALPHA (docs/doctor.md)."""
    total = 2**looks - 1
    return [2**r / total for r in range(looks)]


def one_sided_p(test: dict[str, Any]) -> float:
    """The p-value of "the swap does not raise the win rate" (normal approximation of the
    paired mean's t statistic)."""
    t = test.get("t")
    if t is None:
        return 1.0
    return 0.5 * math.erfc(t / math.sqrt(2))


def _key(swap: dict[str, str]) -> str:
    return f"{swap['cut']} {swap['add']}"


def _field_ranking(
    doctor: DoctorRun, stages: list[DoctorStage], cards: dict[str, int]
) -> list[dict[str, Any]]:
    """The cut ranking against a field: round 0's run per deck of the field, each game
    weighted by the deck's share over its games (`weighting.weighted_cut_ranking`)."""
    weights = _weights(doctor) or []
    opponents = []
    for stage in stages:
        row = run_report(stage.run)["players"][0]
        opponents.append(
            {
                "weight": weights[(stage.swap or {})["opponent"]],
                "games": row.get("games", 0),
                "wins": row.get("wins", 0),
                "cards": {c["code"]: c for c in row.get("cards", [])},
            }
        )
    return weighted_cut_ranking(cards, opponents)


def _start_halving(doctor: DoctorRun, stages: list[DoctorStage]) -> None:
    cards = working_cards(doctor)
    if _weights(doctor) is None:
        ranking = _cut_ranking(stages[0].run, cards)
    else:
        ranking = _field_ranking(doctor, stages, cards)
    rng = random.Random(runs.stage_seed(doctor.seed, doctor.round))
    per_cut: list[list[dict[str, str]]] = []
    cuts = cut_candidates(ranking)
    for cut in cuts:
        adds = add_candidates(doctor, cut["code"], cards)
        rng.shuffle(adds)  # a sorted list, shuffled by the doctor's seed: reproducible
        per_cut.append([{"cut": cut["code"], "add": a} for a in adds])
    swaps: list[dict[str, str]] = []
    while any(per_cut) and len(swaps) < MAX_SWAPS:  # take the cuts in turn
        for options in per_cut:
            if options and len(swaps) < MAX_SWAPS:
                swaps.append(options.pop(0))
    opponents = len(doctor.gauntlet)
    remaining = doctor.budget - doctor.games_spent
    # As many swaps as the budget can give MIN_GAMES per matchup in every round.
    while swaps and remaining // _looks(len(swaps)) < len(swaps) * 2 * opponents * MIN_GAMES:
        swaps.pop()
    looks = _looks(len(swaps)) if swaps else 0
    doctor.state = {
        **doctor.state,
        "cuts": cuts,
        "family": swaps,  # the swaps tested, fixed before round 1 (Holm's family)
        "alive": swaps,
        "looks": looks,
        "levels": look_levels(looks) if looks else [],
        "totals": {},
        "history": [],
        "p_adjusted": {},
    }
    if not swaps:
        _end_step(doctor, _verdict(doctor, [], stopped_early=False))
        return
    _play_round(doctor, swaps)


def _play_round(doctor: DoctorRun, swaps: list[dict[str, str]]) -> None:
    """Start the next round: one what-if run per live swap (against a field, one per swap and
    deck of the field, the games in proportion to the shares), all on the round's own seed."""
    doctor.round += 1
    looks_left = doctor.state["looks"] - (_look(doctor) - 1)
    remaining = doctor.budget - doctor.games_spent
    weights = _weights(doctor)
    total = remaining // looks_left // (len(swaps) * 2)  # a swap's games a side this round
    groups: list[tuple[int | None, list[dict], int]]
    if weights is None:
        games: int | list[int] = max(MIN_GAMES, total // len(doctor.gauntlet))
        groups = [(None, doctor.gauntlet, max(MIN_GAMES, total // len(doctor.gauntlet)))]
    else:
        games = field_games(total, weights, MIN_GAMES)
        groups = [(i, [g], n) for i, (g, n) in enumerate(zip(doctor.gauntlet, games))]
    doctor.state["games"] = {**doctor.state.get("games", {}), str(doctor.round): games}
    base = _player(doctor, doctor.state.get("working", {}))
    with runs.players_checked_once():  # the deck and its opponents, read once a round
        for swap in swaps:
            changed = _player(doctor, _with_swap(doctor.state.get("working", {}), swap))
            changed.pop("label", None)  # the deck's name and "(changed)", as in any what-if
            for opponent, opponents, n in groups:
                run = _stage_run(
                    doctor, players=[base, changed, *opponents], kind=SimulationRun.Kind.WHAT_IF,
                    games=n, rnd=doctor.round, alongside=len(swaps) * len(groups),
                )  # fmt: skip
                tag = swap if opponent is None else {**swap, "opponent": opponent}
                DoctorStage.objects.create(doctor=doctor, run=run, round=doctor.round, swap=tag)


def _pair_totals(run: SimulationRun) -> dict[str, float]:
    """The run's paired counts (the swap against the deck), summed over the gauntlet."""
    pairs = (run.aggregate or {}).get("pairs") or []
    return {k: sum(p[k] for p in pairs) for k in PAIR_KEYS}


def _pooled(run: SimulationRun, weights: list[float] | None = None) -> dict[str, Any]:
    """The paired comparison of the swap against the deck, pooled over the run's opponents:
    alike, or weighted by `weights` (one per opponent) as against a field."""
    if weights is None:
        return paired_test(*_pair_totals(run).values())
    pairs = (run.aggregate or {}).get("pairs") or []
    return weighted_paired_test(pairs, weights)


def _add_round(doctor: DoctorRun, stages: list[DoctorStage]) -> None:
    """Add a round's games to each swap's totals (`state["totals"]`): its paired counts summed
    over the gauntlet, its runs and games; against a field also per deck of the field (`per`),
    the rounds it played (`looks`) and, as its evidence (`lead`), its run against the deck of
    the largest share."""
    weights = _weights(doctor)
    lead = None if weights is None else weights.index(max(weights))
    totals: dict[str, dict[str, Any]] = doctor.state["totals"]
    played: set[str] = set()
    for stage in stages:
        swap: dict[str, Any] = stage.swap or {}
        mine = totals.setdefault(_key(swap), {**{k: 0 for k in PAIR_KEYS}, "runs": []})
        counts = _pair_totals(stage.run)
        for k, v in counts.items():
            mine[k] += v
        mine["runs"].append(stage.run_id)
        mine["games"] = mine.get("games", 0) + stage.run.games_done
        if weights is None:
            continue
        per = mine.setdefault("per", {})
        per = per.setdefault(str(swap["opponent"]), dict.fromkeys(PAIR_KEYS, 0))
        for k, v in counts.items():
            per[k] += v
        if _key(swap) not in played:
            played.add(_key(swap))
            mine["looks"] = mine.get("looks", 0) + 1
        if swap["opponent"] == lead:
            mine["lead"] = stage.run_id


def _swap_test(had: dict[str, Any], weights: list[float] | None) -> dict[str, Any]:
    """A swap's paired test on all its games: pooled over the gauntlet (weighed alike), or
    against a field the share-weighted mean of its change against each deck
    (`weighting.weighted_paired_test`)."""
    if weights is None:
        return paired_test(*(had[k] for k in PAIR_KEYS))
    zero = dict.fromkeys(PAIR_KEYS, 0)
    per = had.get("per", {})
    return weighted_paired_test([per.get(str(i), zero) for i in range(len(weights))], weights)


def _next_round(doctor: DoctorRun, stages: list[DoctorStage]) -> None:
    """A look: add the round's games to each swap's games so far, test every swap of the
    family on all of its games (Holm at this look's share of ALPHA), stop when one is proven
    or the looks are over, else keep the better half for the next round."""
    state = doctor.state
    totals: dict[str, dict[str, Any]] = state["totals"]
    _add_round(doctor, stages)
    weights = _weights(doctor)
    look = _look(doctor)
    level = state["levels"][look - 1]
    live = {_key(s) for s in state["alive"]}
    scored = []
    for swap in state["family"]:
        had = totals.get(_key(swap))
        if had is None:
            continue
        test = _swap_test(had, weights)
        scored.append({**swap, **test, "p": one_sided_p(test), "games": had["games"],
                       "run": had.get("lead", had["runs"][-1]), "runs": list(had["runs"]),
                       "look": had.get("looks", len(had["runs"]))})  # fmt: skip
    # Holm over the whole family, a dropped swap counted with p = 1 (it is not tested
    # again): the family is fixed before round 1, so dropping swaps on their data cannot
    # bias it (docs/doctor.md).
    adjusted = holm([s["p"] if _key(s) in live else 1.0 for s in scored])
    best = state.setdefault("p_adjusted", {})
    for s, p_adj in zip(scored, adjusted, strict=True):
        scaled = min(1.0, p_adj / level)  # below ALPHA when rejected at this look's level
        best[_key(s)] = min(best.get(_key(s), 1.0), scaled)
        s["p_adjusted"] = best[_key(s)]
    scored.sort(key=lambda s: (-(s["mean"] or 0.0), s["cut"], s["add"]))
    alive_scored = [s for s in scored if _key(s) in live]
    state["history"].append(
        [{k: s[k] for k in ("cut", "add", "mean", "run", "p_adjusted")} for s in alive_scored]
    )
    proven = any(s["p_adjusted"] < ALPHA and (s["mean"] or 0.0) > 0 for s in scored)
    if proven or look >= state["looks"]:
        _end_step(doctor, _verdict(doctor, scored, stopped_early=proven and look < state["looks"]))
        return
    state["alive"] = [{"cut": s["cut"], "add": s["add"]} for s in _survivors(alive_scored)]
    _play_round(doctor, state["alive"])


def _survivors(ranked: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The live swaps (best first by mean change so far) that go on to the next round."""
    if ELIMINATION == "racing":
        # Drop a swap whose interval lies wholly below zero or below the leader's interval.
        floor = max(0.0 if ranked[0]["low"] is None else ranked[0]["low"], 0.0)
        kept = [s for s in ranked if s["high"] is None or s["high"] >= floor]
        return kept or ranked[:1]
    return ranked[: math.ceil(len(ranked) / 2)]


def _verdict(
    doctor: DoctorRun, scored: list[dict[str, Any]], *, stopped_early: bool
) -> dict[str, Any]:
    """One step's ranking: suggested when proven (adjusted p below ALPHA), best first."""
    names = deck_game().card_names({c for s in scored for c in (s["cut"], s["add"])})
    swaps = []
    for s in scored:
        swaps.append(
            {
                "cut": s["cut"], "cut_name": names.get(s["cut"], s["cut"]),
                "add": s["add"], "add_name": names.get(s["add"], s["add"]),
                "change": s["mean"], "low": s["low"], "high": s["high"], "p": s["p"],
                "p_adjusted": s["p_adjusted"], "games": s["games"], "run": s["run"],
                "runs": s["runs"], "looks": s["look"],
                "significant": s["p_adjusted"] < ALPHA and (s["mean"] or 0.0) > 0,
            }
        )  # fmt: skip
    suggested = [s for s in swaps if s["significant"]]
    looks = doctor.state.get("looks", 0)
    method = method_words(len(swaps), looks)
    field = doctor.state.get("field")
    if field is not None and swaps:
        method += f"; each change is against the field {field['name']}, weighted by its shares"
    return {
        "method": method,
        "improved": bool(suggested),
        "stopped_early": stopped_early,
        "looks": looks,
        "looked": _look(doctor) if looks else 0,
        "swaps": suggested + [s for s in swaps if not s["significant"]],
    }


def method_words(swaps: int, looks: int) -> str:
    """`result.method`: the test and its error control, in words."""
    if not swaps:
        return f"{METHOD}: no swap to test"
    # In points of the 5% itself (0.33% + 0.67% + ...), not as shares of it: a reader adds them up.
    spent = " + ".join(f"{ALPHA * level:.2%}" for level in look_levels(looks)) if looks > 1 else ""
    return (
        f"{METHOD} over the {swaps} swaps at each of {looks} look{'s' if looks != 1 else ''} "
        f"(one-sided paired test of all of a swap's games so far; the 5% shared among the "
        f"looks{' as ' + spent if spent else ''}): at most a 5% chance that any swap "
        f"called better is not"
    )


def _look(doctor: DoctorRun) -> int:
    """The look (round of the current step) the doctor is at: 0 while ranking the cuts."""
    return doctor.round - doctor.state.get("round0", 0)


def working_change(doctor: DoctorRun) -> dict[str, int]:
    """The chain's swaps so far as one net change of the deck: {code: +copies or -copies}."""
    return dict(doctor.state.get("working", {}))


def _with_swap(change: dict[str, int], swap: dict[str, str]) -> dict[str, int]:
    out = dict(change)
    for code, delta in ((swap["cut"], -1), (swap["add"], +1)):
        out[code] = out.get(code, 0) + delta
        if not out[code]:
            del out[code]
    return out


def _player(doctor: DoctorRun, change: dict[str, int]) -> dict[str, Any]:
    """The doctor's deck as a run's player, with a net change made by remove/add (no deck row
    is written during a search, docs/simulations.md)."""
    player: dict[str, Any] = {"deck": doctor.deck_id, "bot": doctor.bot}
    if doctor.bot_budget is not None:
        player["budget"] = doctor.bot_budget
    if change:
        player["remove"] = {c: -n for c, n in sorted(change.items()) if n < 0}
        player["add"] = {c: n for c, n in sorted(change.items()) if n > 0}
        steps = len(doctor.state.get("steps", []))
        player["label"] = f"{doctor.deck.name} after {steps} swap{'s' if steps != 1 else ''}"
    return player


def working_cards(doctor: DoctorRun) -> dict[str, int]:
    """The deck's cards with the chain's swaps so far made."""
    cards, _ = deck_contents(doctor.deck)
    for code, delta in working_change(doctor).items():
        cards[code] = cards.get(code, 0) + delta
        if cards[code] <= 0:
            del cards[code]
    return cards


def _chain_room(doctor: DoctorRun) -> bool:
    """Whether what is left of the budget makes a meaningful next step: a quarter of it at
    least, and no less than a search may start with."""
    remaining = doctor.budget - doctor.games_spent
    low = max(MIN_BUDGET, 2 * MIN_GAMES * len(doctor.gauntlet) * 10)
    return remaining >= max(low, doctor.budget * CHAIN_MIN_SHARE)


def _end_step(doctor: DoctorRun, verdict: dict[str, Any]) -> None:
    """A step's verdict is in: search again on the deck with its best swap made (chained, when
    it found one and the budget allows), or finish."""
    state = doctor.state
    steps = state.setdefault("steps", [])
    number = len(steps) + 1
    steps.append(
        {
            "step": number,
            **verdict,
            "games": doctor.games_spent - state.get("step_spent", 0),
        }
    )
    if doctor.chain and verdict["improved"] and number < MAX_STEPS and _chain_room(doctor):
        state["working"] = _with_swap(working_change(doctor), verdict["swaps"][0])
        state["step_spent"] = doctor.games_spent
        doctor.round += 1
        state["round0"] = doctor.round
        for key in ("cuts", "family", "alive", "totals", "history", "p_adjusted"):
            state.pop(key, None)
        remaining = doctor.budget - doctor.games_spent
        _start_ranking(doctor, change=state["working"], total=int(remaining * FIRST_SHARE))
        return
    _finish(doctor, result=_result(doctor))


def _result(doctor: DoctorRun) -> dict[str, Any]:
    """The search's result: the first step's verdict at the top (its suggestions are swaps of
    the deck as it is), every step in `steps`, and the games spent and left."""
    steps = doctor.state["steps"]
    first = {k: v for k, v in steps[0].items() if k not in ("step", "games")}
    result = {
        **first,
        "steps": steps,
        "games_spent": doctor.games_spent,
        "budget_left": doctor.budget - doctor.games_spent,
    }
    if doctor.state.get("field") is not None:
        result["field"] = doctor_field(doctor)
    return result


def doctor_field(doctor: DoctorRun) -> dict[str, Any] | None:
    """The field a doctor plays against, None for a gauntlet: its id and name, `against` in
    words, and its decks as opponents, each with its label, its share of the field (the
    weight of its games) and its place among the field's decks (from 1)."""
    field = doctor.state.get("field")
    if field is None:
        return None
    labels = field.get("labels") or [f"Deck {i + 1}" for i in field["entries"]]
    return {
        "id": field["id"],
        "name": field["name"],
        "against": f"against the field {field['name']}, weighted by its shares",
        "opponents": [
            {"label": label, "share": share, "place": place + 1}
            for label, share, place in zip(labels, field["shares"], field["entries"], strict=True)
        ],
    }


# --- cancel, apply, in-process -----------------------------------------------------------------


def doctor_cancel(*, doctor: DoctorRun) -> DoctorRun:
    """Cancel a doctor run and its active stage runs (a finished one is left as it is)."""
    with transaction.atomic():
        updated = DoctorRun.objects.filter(pk=doctor.pk, status__in=DoctorRun.ACTIVE).update(
            status=DoctorRun.Status.CANCELLED, finished_at=timezone.now()
        )
    if updated:
        for run in SimulationRun.objects.filter(
            doctor__doctor=doctor, status__in=SimulationRun.ACTIVE
        ):
            runs.run_cancel(run=run)
    doctor.refresh_from_db()
    return doctor


def chain_swaps(doctor: DoctorRun) -> list[dict[str, Any]]:
    """The chain: the best swap of each step that found one, in order (each a swap of the deck
    with the swaps before it made)."""
    steps = (doctor.result or {}).get("steps") or []
    return [step["swaps"][0] for step in steps if step["improved"]]


@transaction.atomic
def doctor_apply(*, doctor: DoctorRun, index: int | None = None, steps: int | None = None):
    """Make suggestion `index` of the first step, or the chain's first `steps` swaps, on the
    deck and save it as a new version with a note naming every swap."""
    if (index is None) == (steps is None):
        raise refuse("Give either swap (a suggestion) or steps (the chain's first swaps).")
    if steps is not None:
        chain = chain_swaps(doctor)
        if type(steps) is not int or not 1 <= steps <= len(chain):
            raise refuse(
                "No such step of this deck doctor run's chain.", code="not_found", attr="steps"
            )
        chosen, attr = chain[:steps], "steps"
    else:
        swaps = [s for s in (doctor.result or {}).get("swaps", []) if s["significant"]]
        if type(index) is not int or not 0 <= index < len(swaps):
            raise refuse(
                "No such suggestion of this deck doctor run.", code="not_found", attr="swap"
            )
        chosen, attr = [swaps[index]], "swap"
    cards, _ = deck_contents(doctor.deck)
    for swap in chosen:
        if cards.get(swap["cut"], 0) < 1:
            raise refuse(
                f"The deck no longer holds {swap['cut_name']}: it changed since.",
                code="deck_changed", attr=attr,
            )  # fmt: skip
        cards[swap["cut"]] -= 1
        if not cards[swap["cut"]]:
            del cards[swap["cut"]]
        cards[swap["add"]] = cards.get(swap["add"], 0) + 1
    deck = deck_update(deck=doctor.deck, cards=cards, keep_version=False)
    note = "; ".join(f"\u22121 {s['cut_name']}, +1 {s['add_name']}" for s in chosen)
    return deck_version_save(deck=deck, note=f"Deck doctor: {note}")


def proven_swaps(doctor: DoctorRun, step: int = 1) -> list[dict[str, Any]]:
    """The significant swaps of a finished doctor's step `step` (1: the deck as it is), best
    first: the ones `doctor_check` can check."""
    result = doctor.result or {}
    steps = result.get("steps") or [{"step": 1, **result}]
    if type(step) is not int or not 1 <= step <= len(steps):
        return []
    return [s for s in steps[step - 1].get("swaps", []) if s["significant"]]


def doctor_check(
    *,
    doctor: DoctorRun,
    swap: int = 0,
    step: int = 1,
    bot: str | None = None,
    budget: Any = None,
    games: Any = None,
    idempotency_key: str | None = None,
    dispatch: bool = True,
) -> tuple[SimulationRun, bool]:
    """Check proven swap `swap` of step `step` with stronger bots: its evidence, the swap's
    last what-if run (`run`, its largest), checked by `runs.run_check` as any run is: the same
    what-if again with `bot` in every seat, linked to it by `checks`. A doctor not done is
    refused with 409 (`not_finished`); no such proven swap, or a bad bot, budget or number of
    games, with 400 and nothing written."""
    if doctor.status != DoctorRun.Status.DONE:
        raise RunRefused(
            f"This deck doctor run is {doctor.status}: only a finished search's swaps can be "
            "checked.", code="not_finished", status=409,
        )  # fmt: skip
    proven = proven_swaps(doctor, step)
    if type(swap) is not int or not 0 <= swap < len(proven):
        detail = (
            f"Step {step} has {len(proven)} proven swap{'s' if len(proven) != 1 else ''}: "
            "swap is an index among them, from 0."
            if proven
            else "No proven swap of this deck doctor run at that step to check."
        )
        raise refuse(detail, code="not_found", attr="swap")
    run = SimulationRun.objects.filter(pk=proven[swap]["run"], owner=doctor.owner).first()
    if run is None:
        raise RunRefused(
            "The run that proved this swap was deleted.", code="evidence_gone", status=409
        )
    return runs.run_check(
        run=run, bot=bot, budget=budget, games=games, idempotency_key=idempotency_key,
        dispatch=dispatch,
    )  # fmt: skip


def doctor_execute_locally(*, doctor: DoctorRun) -> DoctorRun:
    """Play every stage of `doctor` in this process (tests, benchmarks): the same runs and
    `chunk_execute` a worker uses, advanced by the same `doctor_advance`."""
    runs.stages_execute_locally(
        feature=doctor,
        stages=DoctorStage.objects.filter(doctor=doctor),
        advance=lambda: doctor_advance(doctor_id=doctor.pk),
    )
    return doctor


# The doctor follows runs (simulator/runs/followers.py): a stage run that ends advances its
# doctor at once, and the reconciler's tick advances a doctor whose hook was lost.
FOLLOWER = Follower(
    name="doctor",
    run_ended=lambda run_id: doctor_advance_for_run(run_id=run_id),
    due=doctors_due,
    advance=lambda doctor_id: doctor_advance(doctor_id=doctor_id),
    stage_runs=Q(doctor__isnull=False),
    part_of=stage_parts,
)
