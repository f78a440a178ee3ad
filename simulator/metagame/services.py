"""The metagame lab (#28): which deck to bring to a field, found by simulation.

A field (`Field`) is a saved set of decks, each with its share of the players. A field run
(`FieldRun`) plays the field's heads-up matchups in rounds of ordinary simulation runs (its
stages, `FieldStage`), made by `runs.run_create` and played by the same workers, so chunks,
retries, the reconciler and cancel are the runs' own:

* **Round 0** spreads a fifth of the budget (at least MIN_GAMES_PER_CELL games a pair) evenly
  over every pair of decks (`sampler.even_round`). A run that reuses an earlier run's games
  (`_reusable`: the same field, format, bot and card catalogue, the same decks) plays only the
  pairs left without them: a deck new to the field plays its row.
* **Each later round** adds the round's results to the counts and asks the sampler
  (`sampler.plan_round`) whether the question (`best` or `support`) is answered at the
  confidence; if not, where the next round's games go: a quarter of the budget left (at least
  a tenth of the budget), spent where they can change the answer. A pair given no games gets
  no run.
* **The end**: the rule answered, or the budget ran out; `analysis.analyse` reads the counts
  (docs/metagame.md).

Each pair is a match run of its two decks: the runner rotates the seats game by game
(`runner.rotation`: seat s holds position (s + index) mod 2), so each deck goes first in half
of the games and the first player's edge cancels out of the pair's result. A tie is half a win
to each deck.

A field run advances when a stage run ends: promptly by the runs' hook and surely by the
reconciler's tick (runs/followers.py). The counts and the next round are worked out without a
lock, then written under the field run's row lock with a check that its round and games are
still those read, so the hook, the tick and a second worker racing each other advance it once.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from typing import Any, cast

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from simulator.common import conf
from simulator.games import GameService, deck_game
from simulator.games.plans import PlanPlayer, Problem
from simulator.games.players import PreparedRules, prepare_player
from simulator.games.problems import RunRefused, refuse
from simulator.metagame import analysis, sampler, tables
from simulator.metagame.models import Field, FieldRun, FieldStage, Target
from simulator.metagame.sampler import Target as Question
from simulator.metagame.selectors import stage_parts
from simulator.runs import services as runs
from simulator.runs.followers import Follower
from simulator.runs.models import SimulationRun

MIN_DECKS = 2
MAX_DECKS = 16
MIN_BUDGET = 200
MAX_BUDGET = 1_000_000
MIN_CONFIDENCE = 0.5  # excluded: a coin toss answers nothing
MAX_CONFIDENCE = 0.999
MIN_GAMES_PER_CELL = 10  # games a pair needs in round 0 to say anything
FIRST_SHARE = 0.2  # of the budget for round 0
ROUND_SHARE = 0.25  # of the budget left for each later round
MIN_ROUND_SHARE = 0.1  # of the budget, at least, for a later round (fewer, larger rounds)
# Replayable games a stage run keeps (a run of its own keeps SIMULATION_SAMPLE_RECORDS, 20): a
# field of ten decks plays 45 stage runs a round, and a recorded game costs about twice an
# unrecorded one; two a pair and round are there to watch (the runs list shows the stage runs
# when asked: `?stages=1`).
STAGE_SAMPLE_RECORDS = 2
SOURCES = ("deck", "public_deck", "starter")
PLAYER_KEYS = (*SOURCES, "bot", "budget")
ENTRY_KEYS = (*PLAYER_KEYS, "share")
EVEN_REASON = "an even first round: every pair gets games"
REUSED_REASON = "its games were reused from an earlier run of this field: the same two decks"
NEW_PAIR_REASON = "a pair the earlier run did not play as it is now: it gets its first games"
REUSE_LOOKBACK = 20  # earlier runs of the field looked at for games to reuse
HEADS_UP = 2
MAX_TABLE = 8  # the most seats a table of the lab may have (the runs' own cap)
TABLES_A_ROUND = 48  # tables drawn a round at most: each composition drawn is one run
UNSET: Any = object()


# --- checking a field --------------------------------------------------------------------------


@dataclass
class Checked:
    """A field's input, checked: its columns cleaned, and each entry as a run player."""

    values: dict[str, Any]
    format: str = ""  # the format's name as runs store it
    players: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    labels: list[str] = dataclasses.field(default_factory=list)
    fingerprints: list[str] = dataclasses.field(default_factory=list)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value == value


def _problem(detail: str, attr: str | None, code: str = "invalid") -> Problem:
    return {"code": code, "detail": detail, "attr": attr}


def _scalar_problems(values: dict[str, Any]) -> list[Problem]:
    """What is wrong with the field's name, format, bot, confidence, target and public."""
    problems: list[Problem] = []
    name = values["name"]
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 100:
        problems.append(_problem("A field needs a name of up to 100 characters.", "name"))
    for key, most in (("format", 100), ("bot", 40)):
        if not isinstance(values[key], str) or len(values[key]) > most:
            problems.append(_problem(f"{key} is text of up to {most} characters.", key))
    confidence = values["confidence"]
    if not _is_number(confidence) or not MIN_CONFIDENCE < confidence <= MAX_CONFIDENCE:
        detail = f"confidence is a number above {MIN_CONFIDENCE} and at most {MAX_CONFIDENCE}."
        problems.append(_problem(detail, "confidence"))
    if values["target"] not in Target.values:
        detail = f"target is one of {', '.join(Target.values)}."
        problems.append(_problem(detail, "target"))
    if type(values["public"]) is not bool:
        problems.append(_problem("public is true or false.", "public"))
    return problems + _table_problems(values)


def _table_problems(values: dict[str, Any]) -> list[Problem]:
    """The table size: 2 (heads-up) to 8 seats, within the seats the game takes; a table of
    more than two asks only which deck is best (the equilibrium is a heads-up question)."""
    size, spec = values.get("table_size", HEADS_UP), deck_game().spec
    low, high = max(HEADS_UP, spec.min_players), min(MAX_TABLE, spec.max_players)
    if type(size) is not int or not HEADS_UP <= size <= MAX_TABLE:
        detail = f"table_size is a whole number of seats from {HEADS_UP} to {MAX_TABLE}."
        return [_problem(detail, "table_size")]
    if not low <= size <= high:
        seats = f"{low} to {high} players" if low < high else f"{low} players only"
        detail = f"{spec.title} seats {seats} at a table: not {size}."
        return [_problem(detail, "table_size", "bad_table_size")]
    if size > HEADS_UP and values["target"] == Target.SUPPORT:
        detail = (
            f"The equilibrium is a heads-up question: a table of {size} asks which deck is best "
            "(target best)."
        )
        return [_problem(detail, "target", "heads_up_only")]
    return []


def _entry_problems(entries: Any, bot: str) -> tuple[list[Problem], set[int]]:
    """What is wrong with the entries' shapes and shares; and which entries are well formed
    (their decks are checked next). `bot`: the field's, which an entry naming none plays with
    (the same deck twice with the same bot is one deck, however each says it)."""
    if not isinstance(entries, list) or not MIN_DECKS <= len(entries) <= MAX_DECKS:
        detail = f"A field has {MIN_DECKS} to {MAX_DECKS} decks."
        return [_problem(detail, "entries", "bad_size")], set()
    problems: list[Problem] = []
    good: set[int] = set()
    seen: dict[str, int] = {}
    for i, entry in enumerate(entries):
        found = _one_entry_problems(entry, f"entries.{i}")
        problems += found
        if found:
            continue
        good.add(i)
        player = {k: entry[k] for k in PLAYER_KEYS if k in entry}
        key = json.dumps({**player, "bot": entry.get("bot") or bot}, sort_keys=True)
        if key in seen:
            detail = (
                f"The same deck with the same bot as deck {seen[key] + 1}: give that one a "
                "bigger share instead."
            )
            problems.append(_problem(detail, f"entries.{i}", "duplicate"))
        seen.setdefault(key, i)
    shares = [e["share"] for i, e in enumerate(entries) if i in good]
    if len(good) == len(entries) and sum(shares) <= 0:
        detail = "At least one deck needs a share of the field above zero."
        problems.append(_problem(detail, "entries", "no_share"))
    return problems, good


def _one_entry_problems(entry: Any, attr: str) -> list[Problem]:
    """What is wrong with one entry's shape: one deck source, its types, its share."""
    if not isinstance(entry, dict):
        return [
            _problem("Each deck is an object: a deck, public_deck or starter, and a share.", attr)
        ]
    problems = [
        _problem(f"Unknown key {key!r}.", f"{attr}.{key}", "unknown")
        for key in entry
        if key not in ENTRY_KEYS
    ]
    if sum(1 for key in SOURCES if key in entry) != 1:
        problems.append(_problem("Give one of deck, public_deck or starter.", attr, "required"))
    if "deck" in entry and (type(entry["deck"]) is not int or entry["deck"] < 1):
        problems.append(_problem("A deck is given by its id, a whole number.", f"{attr}.deck"))
    for key in ("public_deck", "starter", "bot"):
        if key in entry and (not isinstance(entry[key], str) or not entry[key]):
            problems.append(_problem(f"{key} is a non-empty string.", f"{attr}.{key}"))
    share = entry.get("share")
    if share is None:
        problems.append(
            _problem("Each deck needs its share of the field.", f"{attr}.share", "required")
        )
    elif not _is_number(share) or share < 0 or share == float("inf"):
        problems.append(_problem("A share is a number, zero or more.", f"{attr}.share"))
    return problems


def _budget_problems(budget: Any, decks: int, table_size: Any = HEADS_UP) -> list[Problem]:
    """The budget: a whole number of games, enough for round 0 to give every pair its games
    (at tables of more seats: MIN_BUDGET, the tables are drawn)."""
    pairs = decks * (decks - 1) // 2 if table_size == HEADS_UP else 0
    low = max(MIN_BUDGET, MIN_GAMES_PER_CELL * pairs)
    if type(budget) is not int or not low <= budget <= MAX_BUDGET:
        detail = f"budget is a whole number of games from {low:,} to {MAX_BUDGET:,}"
        detail += f" for {decks} decks." if low > MIN_BUDGET else "."
        return [_problem(detail, "budget")]
    return []


def _named(problem: Problem, index: int, source: str) -> Problem:
    """A run player's problem named as the field's input names it (`entries.N...`)."""
    attr = problem.get("attr") or f"players.{index}"
    if attr == f"players.{index}" and problem["code"] == "not_found":
        attr = f"players.{index}.{source}"
    return {**problem, "attr": "entries" + attr.removeprefix("players")}


def _fingerprint(player: PlanPlayer) -> str:
    """The deck a player plays (its cards and chips), in a few characters: a deck edited while
    a field run plays is caught before its next round mixes two decks' games."""
    seat = player.get("seat") or {}
    contents = json.dumps([sorted(seat.get("deck", [])), sorted(seat.get("chips", []))])
    return hashlib.sha256(contents.encode()).hexdigest()[:16]


def _check_players(owner, service: GameService, checked: Checked, good: set[int]) -> list[Problem]:
    """Each well-formed entry as a run player, checked by the runs' own player checks
    (`prepare_player`: the deck visible to `owner` and legal for the format, the bot and its
    budget); the problems named `entries.N...`."""
    values = checked.values
    try:
        prepared: PreparedRules = service.prepare_rules(values["format"], [])
    except RunRefused as exc:
        return [{**p, "attr": p.get("attr") or "format"} for p in exc.problems]  # type: ignore[typeddict-item]
    checked.format = prepared.format
    problems: list[Problem] = []
    bot = values["bot"] or service.default_bot()
    if bot not in service.spec.bots:
        bots = ", ".join(sorted(service.spec.bots))
        problems.append(_problem(f"{service.title} has no bot {bot!r}; the bots are {bots}.",
                                 "bot", "unknown_bot"))  # fmt: skip
        bot = service.default_bot()
    for i, entry in enumerate(values["entries"]):
        if i not in good:
            continue
        data = {k: entry[k] for k in PLAYER_KEYS if k in entry}
        data.setdefault("bot", bot)
        source = next(k for k in SOURCES if k in entry)
        try:
            player, found = prepare_player(
                owner=owner, service=service, data=data, index=i, prepared=prepared
            )
        except RunRefused as exc:
            problems += [_named(p, i, source) for p in exc.problems]  # type: ignore[arg-type]
            continue
        problems += [_named(p, i, source) for p in found]
        checked.players.append(data)
        checked.labels.append(player["label"])
        checked.fingerprints.append(_fingerprint(player))
    return problems


def _unique(labels: list[str], players: list[dict[str, Any]]) -> list[str]:
    """The decks' labels, a repeated one told apart by its bot (then by its place)."""
    out = []
    for i, label in enumerate(labels):
        if labels.count(label) > 1:
            label = f"{label} ({players[i]['bot']})"
        out.append(label if label not in out else f"{label} #{i + 1}")
    return out


def field_check(*, owner, values: dict[str, Any]) -> Checked:
    """A field's input checked as a whole: RunRefused with every problem, each naming its input
    (`name`, `budget`, `confidence`, `entries`, `entries.3.share`, `entries.2.deck`, ...);
    the decks must be visible to `owner` (theirs, public, or starters) and legal for the
    format."""
    checked = Checked(values=dict(values))
    problems = _scalar_problems(values)
    bot = values["bot"] if isinstance(values["bot"], str) and values["bot"] else ""
    entry_problems, good = _entry_problems(values["entries"], bot or deck_game().default_bot())
    problems += entry_problems
    if isinstance(values["entries"], list) and len(values["entries"]) >= MIN_DECKS:
        size = values.get("table_size", HEADS_UP)
        problems += _budget_problems(values["budget"], len(values["entries"]), size)
    else:
        problems += _budget_problems(values["budget"], MIN_DECKS)
    if not entry_problems and isinstance(values["format"], str) and isinstance(values["bot"], str):
        problems += _check_players(owner, deck_game(), checked, good)
    if problems:
        raise RunRefused(problems=problems)
    checked.values["name"] = values["name"].strip()
    checked.values["entries"] = [{k: e[k] for k in ENTRY_KEYS if k in e} for e in values["entries"]]
    checked.labels = _unique(checked.labels, checked.players)
    return checked


# --- fields ------------------------------------------------------------------------------------


@transaction.atomic
def field_create(
    *,
    owner,
    name: str,
    entries: list[dict[str, Any]],
    budget: int,
    format: str = "",
    bot: str = "",
    confidence: float = 0.95,
    target: str = Target.BEST,
    public: bool = False,
    table_size: int = HEADS_UP,
) -> Field:
    """Check a field and save it; RunRefused with every problem, nothing written."""
    values = {
        "name": name, "entries": entries, "budget": budget, "format": format, "bot": bot,
        "confidence": confidence, "target": target, "public": public, "table_size": table_size,
    }  # fmt: skip
    checked = field_check(owner=owner, values=values)
    return Field.objects.create(owner=owner, **checked.values)


FIELD_COLUMNS = ("name", "entries", "budget", "format", "bot", "confidence", "target", "public",
                 "table_size")  # fmt: skip


@transaction.atomic
def field_update(
    *,
    field: Field,
    name: str = UNSET,
    entries: list[dict[str, Any]] = UNSET,
    budget: int = UNSET,
    format: str = UNSET,
    bot: str = UNSET,
    confidence: float = UNSET,
    target: str = UNSET,
    public: bool = UNSET,
    table_size: int = UNSET,
) -> Field:
    """Change a field (omitted columns stay as they are), checked as a whole as when it was
    made. Its runs keep the field as it was when each started."""
    given = {
        "name": name, "entries": entries, "budget": budget, "format": format, "bot": bot,
        "confidence": confidence, "target": target, "public": public, "table_size": table_size,
    }  # fmt: skip
    Field.objects.select_for_update().filter(pk=field.pk).first()
    field.refresh_from_db()
    values = {k: getattr(field, k) if given[k] is UNSET else given[k] for k in FIELD_COLUMNS}
    checked = field_check(owner=field.owner, values=values)
    for key, value in checked.values.items():
        setattr(field, key, value)
    field.save()
    return field


@transaction.atomic
def field_copy(*, field: Field, owner, name: str | None = None) -> Field:
    """A private copy of `field` owned by `owner` (a public field of someone else's, or one
    of their own), checked for `owner`: a deck of the field that is not theirs and not public
    is refused by name, nothing written."""
    values = {k: getattr(field, k) for k in FIELD_COLUMNS}
    values["public"] = False
    values["name"] = name if name is not None else f"{field.name} (copy)"[:100]
    try:
        checked = field_check(owner=owner, values=values)
    except RunRefused as exc:
        for problem in exc.problems:
            if problem["code"] == "not_found" and str(problem["attr"]).endswith(".deck"):
                index = int(str(problem["attr"]).split(".")[1])
                problem["detail"] = (
                    f"Deck {index + 1} of this field is a private deck of its owner's: a copy "
                    "of yours cannot play it. Copy it and replace that deck, or ask its owner "
                    "to make the deck public."
                )
        raise
    return Field.objects.create(owner=owner, **checked.values)


@transaction.atomic
def field_delete(*, field: Field) -> None:
    """Delete a field and its runs (an active one is cancelled first; its stage runs are kept
    as ordinary runs)."""
    for field_run in field.runs.filter(status__in=FieldRun.ACTIVE):
        field_run_cancel(field_run=field_run)
    field.delete()


# --- field runs --------------------------------------------------------------------------------


def _check_active_cap(*, owner) -> None:
    """Refuse a field run to an owner who has as many going as a field run may."""
    cap = conf.get("SIMULATION_MAX_ACTIVE_RUNS")
    if FieldRun.objects.filter(owner=owner, status__in=FieldRun.ACTIVE).count() >= cap:
        raise refuse(
            f"You already have {cap} field runs going; wait or cancel one.", code="too_many_runs"
        )


def _zeros(n: int, zero: float = 0) -> list[list[float]]:
    return [[zero] * n for _ in range(n)]


@transaction.atomic
def field_run_create(
    *,
    field: Field,
    seed: int | None = None,
    idempotency_key: str | None = None,
    reuse: bool = True,
) -> tuple[FieldRun, bool]:
    """Check the field again (its decks may have changed since it was saved) and start a run
    of it with its round 0; (field run, created). Refused with every problem, nothing
    written; the same `idempotency_key` returns the field run made with it. With `reuse`, the
    pairs an earlier run of the field played with the same decks are not played again
    (`_reusable`): round 0 plays only the pairs left without games."""
    owner = field.owner
    if idempotency_key:
        existing = FieldRun.objects.filter(owner=owner, idempotency_key=idempotency_key).first()
        if existing is not None:
            return existing, False
    checked = field_check(owner=owner, values={k: getattr(field, k) for k in FIELD_COLUMNS})
    seed = runs.checked_seed(seed)
    _check_active_cap(owner=owner)
    entries = [
        {**entry, **player, "label": label, "fingerprint": print_}
        for entry, player, label, print_ in zip(
            checked.values["entries"], checked.players, checked.labels, checked.fingerprints,
            strict=True,
        )
    ]  # fmt: skip
    n, size = len(entries), field.table_size
    counts = {"wins": _zeros(n, 0.0), "games": _zeros(n)} if size == HEADS_UP else _table_zeros(n)
    try:
        with transaction.atomic():
            field_run = FieldRun.objects.create(
                field=field, owner=owner, entries=entries, format=checked.format,
                bot=field.bot or deck_game().default_bot(), budget=field.budget,
                confidence=field.confidence, target=field.target, seed=seed, counts=counts,
                table_size=size, idempotency_key=idempotency_key or None,
            )  # fmt: skip
    except IntegrityError:
        return FieldRun.objects.get(owner=owner, idempotency_key=idempotency_key), False
    if size > HEADS_UP:  # a table of more seats reuses nothing: its tables are drawn anew
        failed = _first_table_round(field_run)
        if failed:
            raise refuse(failed, code="deck_changed")
        return field_run, True
    earlier = _reusable(field_run) if reuse else None
    if earlier is not None:
        _reuse(field_run, *earlier)
    failed = _first_round(field_run)
    if failed:
        raise refuse(failed, code="deck_changed")
    return field_run, True


def _first_round(field_run: FieldRun) -> str:
    """Start round 0: a fifth of the budget (at least MIN_GAMES_PER_CELL games a pair) evenly
    over every pair; with games reused, only over the pairs that have fewer than
    MIN_GAMES_PER_CELL games, as many games a pair as a first round of the whole field gives;
    with every pair reused, the sampler's round (or the answer at once). What went wrong, in
    words, if a deck can no longer be played."""
    n, budget = len(field_run.entries), field_run.budget
    games, reused = field_run.counts["games"], field_run.counts.get("reused")
    pairs = n * (n - 1) // 2
    size = min(budget, max(MIN_GAMES_PER_CELL * pairs, int(FIRST_SHARE * budget)))
    if not reused:
        allocation = sampler.even_round(games, size)
        reasons = [[EVEN_REASON if i != j else sampler.MIRROR for j in range(n)] for i in range(n)]
        return _start_round(field_run, allocation, {"reasons": reasons})
    unfilled = [
        (i, j) for i in range(n) for j in range(i + 1, n) if games[i][j] < MIN_GAMES_PER_CELL
    ]
    if not unfilled:
        return _plan_first(field_run)
    size = min(budget, max(MIN_GAMES_PER_CELL * len(unfilled), size * len(unfilled) // pairs))
    allocation = [[0] * n for _ in range(n)]
    reasons = [[sampler.MIRROR if i == j else REUSED_REASON for j in range(n)] for i in range(n)]
    for k, (i, j) in enumerate(unfilled):
        allocation[i][j] = allocation[j][i] = size // len(unfilled) + (k < size % len(unfilled))
        reasons[i][j] = reasons[j][i] = NEW_PAIR_REASON
    return _start_round(field_run, allocation, {"reasons": reasons})


def _plan_first(field_run: FieldRun) -> str:
    """Every pair reused: the sampler says at once whether the question is answered (the run
    is then done without a game) or where round 0's games go."""
    step = _Step(
        round=0, spent_before=0, counts=json.loads(json.dumps(field_run.counts)), games_spent=0
    )
    _plan_next(field_run, step)
    if step.allocation is not None and not step.failed:
        return _start_round(field_run, step.allocation, step.plan)
    if step.failed:
        _finish(field_run, failed=step.failed)
    else:
        _finish(field_run, result=step.result)
    field_run.save()
    return ""


# --- reusing an earlier run's games -------------------------------------------------------------


def _entry_key(entry: dict[str, Any]) -> str:
    """What makes two field runs' decks the same: the deck's source, its bot (and the bot's
    budget) and the fingerprint of its cards and chips."""
    kept = {k: entry[k] for k in PLAYER_KEYS if k in entry}
    return json.dumps({**kept, "fingerprint": entry["fingerprint"]}, sort_keys=True)


def _catalogue_versions(field_run: FieldRun) -> set[Any]:
    """The card catalogue versions a field run's stage runs were planned with (a run that
    played no stage: the version its reuse was checked against)."""
    versions = set(
        SimulationRun.objects.filter(field_stage__field_run=field_run).values_list(
            "plan__catalogue_version", flat=True
        )
    )
    return versions or {(field_run.counts.get("reused") or {}).get("catalogue_version", UNSET)}


def _reusable(field_run: FieldRun) -> tuple[FieldRun, list[int | None]] | None:
    """The owner's latest finished run of the same field with the same format, field bot and
    card catalogue as now, and for each of this run's decks its place in that run (None: a
    deck it did not play as it is now); None when there is none, or no pair to reuse."""
    version = deck_game().catalogue_version()
    earlier = FieldRun.objects.filter(
        field=field_run.field, owner=field_run.owner, status=FieldRun.Status.DONE,
        format=field_run.format, bot=field_run.bot, table_size=HEADS_UP,
    ).exclude(pk=field_run.pk).order_by("-created_at", "-id")  # fmt: skip
    for old in earlier[:REUSE_LOOKBACK]:
        if _catalogue_versions(old) != {version}:
            continue
        places = {_entry_key(entry): k for k, entry in enumerate(old.entries)}
        mapping = [places.get(_entry_key(entry)) for entry in field_run.entries]
        if sum(place is not None for place in mapping) < 2:
            return None
        return old, mapping
    return None


def _reuse(field_run: FieldRun, old: FieldRun, mapping: list[int | None]) -> None:
    """Copy the old run's games of every pair whose two decks it played as they are now into
    this run's counts, and note what was reused in `counts["reused"]` (this run's
    `games_spent` counts only the games it plays itself)."""
    n = len(mapping)
    wins, games = field_run.counts["wins"], field_run.counts["games"]
    old_wins, old_games = old.counts["wins"], old.counts["games"]
    pairs, reused = [], 0
    for i in range(n):
        for j in range(i + 1, n):
            a, b = mapping[i], mapping[j]
            if a is None or b is None or not old_games[a][b]:
                continue
            games[i][j] = games[j][i] = old_games[a][b]
            wins[i][j], wins[j][i] = old_wins[a][b], old_wins[b][a]
            pairs.append([i, j])
            reused += int(old_games[a][b])
    field_run.counts["reused"] = {
        "reused_from": old.pk, "reused_games": reused, "reused_pairs": pairs,
        "reused_from_date": old.created_at.isoformat(),
        "new_decks": [k for k, place in enumerate(mapping) if place is None],
        "catalogue_version": deck_game().catalogue_version(),
    }  # fmt: skip
    field_run.save(update_fields=["counts"])


def _stage_player(field_run: FieldRun, index: int) -> dict[str, Any]:
    entry = field_run.entries[index]
    return {k: entry[k] for k in PLAYER_KEYS if k in entry}


def _start_round(field_run: FieldRun, allocation: list[list[int]], plan: dict[str, Any]) -> str:
    """Make the round's stage runs, one a pair given games (a match run of its two decks), and
    note the round; what went wrong, in words, if a deck can no longer be played as it was
    (nothing of the round is then kept)."""
    n = len(field_run.entries)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n) if allocation[i][j] > 0]
    # The longest runs first: the workers take the chunks in the order they are sent, and a
    # round waits for its last chunk (each pair's seed is its own, so the games are the same).
    pairs.sort(key=lambda pair: -allocation[pair[0]][pair[1]])
    try:
        with transaction.atomic(), runs.players_checked_once():
            for i, j in pairs:
                _stage_run(field_run, i, j, allocation[i][j], len(pairs))
    except RunRefused as exc:
        return f"A deck of the field can no longer be played: {exc.detail}"
    except _DeckChanged as exc:
        return str(exc)
    field_run.rounds = [
        *field_run.rounds,
        {
            "round": field_run.round,
            "games": allocation,
            "reasons": plan["reasons"],
            "certainty": plan.get("certainty"),
            "chances": plan.get("chances"),
        },
    ]
    field_run.save(update_fields=["rounds"])
    return ""


class _DeckChanged(Exception):
    """A deck of the field changed since its run started."""


def _stage_run(field_run: FieldRun, i: int, j: int, games: int, alongside: int) -> None:
    """One pair's stage run: decks i and j heads-up for `games` games."""
    seed = runs.stage_seed(field_run.seed, field_run.round, i, j)
    run = _match_run(field_run, (i, j), games, seed, alongside)
    FieldStage.objects.create(field_run=field_run, run=run, round=field_run.round, i=i, j=j)


def _match_run(
    field_run: FieldRun, seats: tuple[int, ...], games: int, seed: int, alongside: int
) -> SimulationRun:
    """A match run of the decks at `seats` for `games` games, one of `alongside` started for
    the round (they share the workers: one chunk each where that keeps them busy), keeping
    STAGE_SAMPLE_RECORDS replayable games; _DeckChanged if a deck is no longer the one the
    field run started with."""
    run, _ = runs.run_create(
        owner=field_run.owner, game=deck_game().name, kind=SimulationRun.Kind.MATCH,
        format=field_run.format, players=[_stage_player(field_run, k) for k in seats],
        games=games, seed=seed, count_active=False, alongside=alongside,
        sample_records=STAGE_SAMPLE_RECORDS,
    )  # fmt: skip
    for position, k in enumerate(seats):
        entry = field_run.entries[k]
        if _fingerprint(run.plan["players"][position]) != entry["fingerprint"]:
            raise _DeckChanged(
                f"{entry['label']} changed while the field run played: start a new run to "
                "play the field as it is now."
            )
    return run


# --- advancing ---------------------------------------------------------------------------------


def field_run_advance_for_run(*, run_id: int) -> None:
    """The hook where a run ends: advance its field run, if it is a field run's stage."""
    stage = FieldStage.objects.filter(run_id=run_id).first()
    if stage is not None:
        field_run_advance(field_run_id=stage.field_run_id)


def field_runs_due() -> QuerySet[FieldRun]:
    """Active field runs whose current round has no active stage run left: due to advance (the
    reconciler's tick asks, in the same query as for runs)."""
    return FieldRun.objects.filter(status__in=FieldRun.ACTIVE).exclude(
        Q(stages__run__status__in=SimulationRun.ACTIVE)
    )


@dataclass
class _Step:
    """What advancing a field run does, worked out before its row is locked."""

    round: int
    spent_before: int
    counts: dict[str, Any]
    games_spent: int
    failed: str = ""
    result: dict[str, Any] | None = None
    allocation: list[list[int]] | None = None
    plan: dict[str, Any] = dataclasses.field(default_factory=dict)
    tables: list[tuple[tuple[int, ...], int]] | None = None  # a table round's compositions


def field_run_advance(*, field_run_id: int) -> int:
    """Take the field run's next step if its round's runs have all ended; 1 if it did, else 0.

    The step is worked out from what was read (the analysis can take a moment, and no lock is
    held meanwhile), then written under the field run's row lock if its round and games are
    still those read: the hook, the tick and a second worker advance it once.
    """
    step = _next_step(field_run_id)
    if step is None:
        return 0
    with transaction.atomic():
        field_run = (
            FieldRun.objects.select_for_update()
            .filter(pk=field_run_id, status__in=FieldRun.ACTIVE, round=step.round)
            .first()
        )
        if field_run is None or field_run.games_spent != step.spent_before:
            return 0
        field_run.status = FieldRun.Status.RUNNING
        field_run.counts = step.counts
        field_run.games_spent = step.games_spent
        failed = step.failed
        if not failed and (step.allocation is not None or step.tables is not None):
            field_run.round += 1
            failed = (
                _start_table_round(field_run, step.tables, step.plan)
                if step.tables is not None
                else _start_round(field_run, step.allocation or [], step.plan)
            )
            field_run.round -= 1 if failed else 0  # the round that failed to start never was
        if failed:
            _finish(field_run, failed=failed)
        elif step.result is not None:
            _finish(field_run, result=step.result)
        field_run.save()
    return 1


def _next_step(field_run_id: int) -> _Step | None:
    """The step a field run is due, or None (not active, or a stage of its round still plays)."""
    field_run = FieldRun.objects.filter(pk=field_run_id, status__in=FieldRun.ACTIVE).first()
    if field_run is None:
        return None
    of_round = FieldStage.objects.filter(field_run=field_run, round=field_run.round)
    # Every stage run that ends asks: the ones before the last stop at this cheap query.
    if not of_round.exists() or of_round.filter(run__status__in=SimulationRun.ACTIVE).exists():
        return None
    stages = list(of_round.select_related("run").defer("run__plan"))
    step = _Step(
        round=field_run.round, spent_before=field_run.games_spent,
        counts=json.loads(json.dumps(field_run.counts)), games_spent=field_run.games_spent,
    )  # fmt: skip
    for stage in stages:
        run = stage.run
        if run.status != SimulationRun.Status.DONE:
            why = run.error or f"it was {run.status}"
            step.failed = f"The games of {_stage_words(field_run, stage)} did not finish: {why}."
            return step
        if stage.seats is not None:
            _count_table(step, stage)
        else:
            _count(step, stage)
    if field_run.table_size > HEADS_UP:
        _plan_next_tables(field_run, step)
    else:
        _plan_next(field_run, step)
    return step


def _stage_words(field_run: FieldRun, stage: FieldStage) -> str:
    """A stage in words: "Boomtown Law against Frontier Patrol", or a table's decks."""
    labels = [e["label"] for e in field_run.entries]
    if stage.seats is not None:
        return "the table of " + ", ".join(labels[k] for k in stage.seats)
    return f"{labels[stage.i]} against {labels[stage.j]}"


def _count(step: _Step, stage: FieldStage) -> None:
    """Add a stage run's games to the counts: deck i's wins, and half of every tie, to
    wins[i][j]; deck j's the same to wins[j][i]; the games to both cells."""
    run = stage.run
    first = (run.aggregate or {"matchups": [{"positions": [{}]}]})["matchups"][0]["positions"][0]
    won, tied, lost = (first.get(k, 0) for k in ("wins", "ties", "losses"))
    played = first.get("games", 0)
    i, j = stage.i, stage.j
    step.counts["wins"][i][j] += won + tied / 2
    step.counts["wins"][j][i] += lost + tied / 2
    step.counts["games"][i][j] += played
    step.counts["games"][j][i] += played
    step.games_spent += run.games_done


def _round_games(budget: int, left: int) -> int:
    """The next round's games: a quarter of what is left, at least a tenth of the budget (and
    MIN_GAMES_PER_CELL), at most what is left."""
    return min(
        left, max(MIN_GAMES_PER_CELL, int(budget * MIN_ROUND_SHARE), int(left * ROUND_SHARE))
    )


def _plan_next(field_run: FieldRun, step: _Step) -> None:
    """Ask the sampler whether the question is answered and where the next games go; finish
    when it is answered, or when the budget left is too small for a round."""
    wins, games = step.counts["wins"], step.counts["games"]
    shares = [entry["share"] for entry in field_run.entries]
    size = _round_games(field_run.budget, field_run.budget - step.games_spent)
    try:
        plan = sampler.plan_round(
            wins, games, shares, target=cast(Question, field_run.target),
            confidence=field_run.confidence, round_games=max(1, size),
            seed=runs.stage_seed(field_run.seed, field_run.round + 1),
        )  # fmt: skip
    except (ValueError, RuntimeError) as exc:
        step.failed = f"The next round could not be planned: {exc}."
        return
    answer = plan.answer if isinstance(plan.answer, list) else [plan.answer]
    step.plan = {
        "reasons": plan.reasons, "certainty": plan.certainty, "chances": plan.chances,
        "answer": answer,
    }  # fmt: skip
    if plan.stop or size < MIN_GAMES_PER_CELL or not any(map(any, plan.allocation)):
        step.result = _result(field_run, step, "rule" if plan.stop else "budget")
    else:
        step.allocation = plan.allocation


def _result(field_run: FieldRun, step: _Step, stopped_by: str) -> dict[str, Any] | None:
    """The answer: the analysis of every game played (analysis.analyse), with the decks'
    labels, why the run stopped, its games and rounds, and the sampler's last verdict."""
    shares = [entry["share"] for entry in field_run.entries]
    try:
        report = analysis.analyse(
            step.counts["wins"], step.counts["games"], shares,
            confidence=field_run.confidence, seed=field_run.seed % 2**32,
        )  # fmt: skip
    except (ValueError, RuntimeError) as exc:
        step.failed = f"The field's results could not be analysed: {exc}."
        return None
    verdict = {"target": field_run.target, **step.plan}
    verdict.pop("reasons", None)
    result = {
        **report,
        "decks": [entry["label"] for entry in field_run.entries],
        "stopped_by": stopped_by,
        "games": step.games_spent,
        "rounds": field_run.round + 1 if field_run.rounds else 0,
        "verdict": verdict,
    }
    if step.counts.get("reused"):
        result["reused"] = step.counts["reused"]
    return result


def _finish(field_run: FieldRun, *, failed: str = "", result: dict[str, Any] | None = None) -> None:
    field_run.status = FieldRun.Status.FAILED if failed else FieldRun.Status.DONE
    field_run.error = failed
    field_run.result = None if failed else result
    field_run.finished_at = timezone.now()


# --- tables of more than two seats ---------------------------------------------------------------


def _table_zeros(n: int) -> dict[str, Any]:
    """A table field run's counts before any game: per deck its seat-games, wins (a shared win
    split), and the sum, sum of squares and number of its finishing places; per composition
    ("0,0,1,3": the decks seated) its games."""
    return {
        "table": {
            "seats": [0] * n, "wins": [0.0] * n, "place_sum": [0.0] * n,
            "place_sq": [0.0] * n, "placed": [0] * n, "compositions": {},
        }
    }  # fmt: skip


def _table_round(field_run: FieldRun, size: int, rnd: int) -> list[tuple[tuple[int, ...], int]]:
    """A round of `size` games at tables drawn from the field by the shares (tables.draw_tables,
    seeded from the run's seed and the round): at most TABLES_A_ROUND tables, each playing
    the same whole number of seat rotations (k games at least: every seat goes first once),
    grouped by composition, each composition's games its draws times a table's games."""
    k = field_run.table_size
    drawn = min(TABLES_A_ROUND, max(1, size // k))
    per_table = max(k, size // drawn // k * k)
    shares = [entry["share"] for entry in field_run.entries]
    seed = runs.stage_seed(field_run.seed, rnd) % 2**32
    picked = tables.compositions(tables.draw_tables(shares, k, drawn, seed))
    return [(seats, times * per_table) for seats, times in picked]


def _first_table_round(field_run: FieldRun) -> str:
    """Start round 0 of a table field run: a fifth of the budget (at least MIN_GAMES_PER_CELL
    tables' worth of one rotation) at tables drawn from the field. What went wrong, in words,
    if a deck can no longer be played."""
    budget, k = field_run.budget, field_run.table_size
    size = min(budget, max(MIN_GAMES_PER_CELL * k, int(FIRST_SHARE * budget)))
    return _start_table_round(field_run, _table_round(field_run, size, 0), {})


def _start_table_round(
    field_run: FieldRun, round_tables: list[tuple[tuple[int, ...], int]], plan: dict[str, Any]
) -> str:
    """Make the round's stage runs, one a composition drawn (a match run of its decks, the
    seats rotating game by game), and note the round: its tables, games and why."""
    try:
        with transaction.atomic(), runs.players_checked_once():
            # the longest first (each keeps the seed of its place in the round, as before)
            longest = sorted(enumerate(round_tables), key=lambda table: -table[1][1])
            for index, (seats, games) in longest:
                _table_run(field_run, seats, games, index, len(round_tables))
    except RunRefused as exc:
        return f"A deck of the field can no longer be played: {exc.detail}"
    except _DeckChanged as exc:
        return str(exc)
    field_run.rounds = [
        *field_run.rounds,
        {
            "round": field_run.round,
            "tables": [{"seats": list(seats), "games": games} for seats, games in round_tables],
            "reason": tables.TABLES_NOTE,
            "certainty": plan.get("certainty"),
            "chances": plan.get("chances"),
        },
    ]
    field_run.save(update_fields=["rounds"])
    return ""


def _table_run(
    field_run: FieldRun, seats: tuple[int, ...], games: int, index: int, alongside: int
) -> None:
    """One composition's stage run: its decks at one table for `games` games."""
    seed = runs.stage_seed(field_run.seed, field_run.round, index, len(seats))
    run = _match_run(field_run, seats, games, seed, alongside)
    FieldStage.objects.create(
        field_run=field_run, run=run, round=field_run.round, i=seats[0], j=seats[1],
        seats=list(seats),
    )  # fmt: skip


def _count_table(step: _Step, stage: FieldStage) -> None:
    """Add a table's games to the counts: for each seat's deck, its seat-games, its wins (a
    win shared by t seats is 1/t: the aggregate's `shared_wins`), and its finishing places
    (`places`); the games to the composition's."""
    run, counts = stage.run, step.counts["table"]
    matchup = (run.aggregate or {"matchups": [{"positions": []}]})["matchups"][0]
    seats = stage.seats or []
    for position, k in zip(matchup["positions"], seats, strict=False):
        counts["seats"][k] += position.get("games", 0)
        shared = position.get("shared_wins")
        if shared is None:  # an aggregate without it: a tie split evenly over the table
            won = position.get("wins", 0) + position.get("ties", 0) / len(seats)
        else:
            won = sum(count / int(t) for t, count in sorted(shared.items()))
        counts["wins"][k] += won
        for place, count in sorted(position.get("places", {}).items()):
            counts["place_sum"][k] += float(place) * count
            counts["place_sq"][k] += float(place) ** 2 * count
            counts["placed"][k] += count
    key = ",".join(map(str, seats))
    counts["compositions"][key] = counts["compositions"].get(key, 0) + run.games_done
    step.games_spent += run.games_done


def _table_figures(field_run: FieldRun, step: _Step) -> dict[str, Any]:
    """tables.analyse_tables on the counts so far (places only where any were counted)."""
    counts = step.counts["table"]
    ranked = any(counts["placed"])
    return tables.analyse_tables(
        counts["wins"], counts["seats"], [e["share"] for e in field_run.entries],
        field_run.table_size, confidence=field_run.confidence, seed=field_run.seed % 2**32,
        place_sum=counts["place_sum"] if ranked else None,
        place_sq=counts["place_sq"] if ranked else None,
        placed=counts["placed"] if ranked else None,
    )  # fmt: skip


def _plan_next_tables(field_run: FieldRun, step: _Step) -> None:
    """Stop when one deck is the best at the confidence (tables.stop_rule on its chance of
    being best), or when what is left of the budget is under a rotation of the table; else
    draw the next round's tables: a quarter of the budget left, as heads-up rounds are."""
    try:
        figures = _table_figures(field_run, step)
    except (ValueError, RuntimeError) as exc:
        step.failed = f"The field's results could not be analysed: {exc}."
        return
    stop, leader, certainty = tables.stop_rule(figures["p_best"], field_run.confidence)
    step.plan = {"certainty": certainty, "chances": figures["p_best"], "answer": [leader]}
    size = _round_games(field_run.budget, field_run.budget - step.games_spent)
    if stop or size < max(MIN_GAMES_PER_CELL, field_run.table_size):
        step.result = _table_result(field_run, step, figures, "rule" if stop else "budget")
    else:
        step.tables = _table_round(field_run, size, field_run.round + 1)


def _table_result(
    field_run: FieldRun, step: _Step, figures: dict[str, Any], stopped_by: str
) -> dict[str, Any]:
    """The answer of a table field run: its figures (tables.analyse_tables) with the decks'
    labels, the games of every composition, why it stopped, its games and rounds, and the
    last verdict."""
    compositions = [
        {"seats": [int(k) for k in key.split(",")], "games": games}
        for key, games in sorted(step.counts["table"]["compositions"].items())
    ]
    verdict = {"target": Target.BEST, **step.plan}
    return {
        "decks": [entry["label"] for entry in field_run.entries],
        "table_size": field_run.table_size,
        "shares": figures["shares"], "confidence": figures["confidence"],
        "seed": figures["seed"], "draws": figures["draws"], "p_best": figures["p_best"],
        "tiers": figures["tiers"],
        "table": {
            "baseline": figures["baseline"], "rates": figures["rates"], "best": figures["best"],
            "places": figures["places"], "notes": figures["notes"],
            "compositions": compositions,
        },
        "stopped_by": stopped_by, "games": step.games_spent,
        "rounds": field_run.round + 1 if field_run.rounds else 0, "verdict": verdict,
    }  # fmt: skip


# --- cancel, in-process ------------------------------------------------------------------------


def field_run_cancel(*, field_run: FieldRun) -> FieldRun:
    """Cancel a field run and its active stage runs (a finished one is left as it is)."""
    with transaction.atomic():
        updated = FieldRun.objects.filter(pk=field_run.pk, status__in=FieldRun.ACTIVE).update(
            status=FieldRun.Status.CANCELLED, finished_at=timezone.now()
        )
    if updated:
        for run in SimulationRun.objects.filter(
            field_stage__field_run=field_run, status__in=SimulationRun.ACTIVE
        ):
            runs.run_cancel(run=run)
    field_run.refresh_from_db()
    return field_run


def field_run_execute_locally(*, field_run: FieldRun) -> FieldRun:
    """Play every stage of `field_run` in this process (tests, benchmarks): the same runs and
    `chunk_execute` a worker uses, advanced by the same `field_run_advance`."""
    runs.stages_execute_locally(
        feature=field_run,
        stages=FieldStage.objects.filter(field_run=field_run),
        advance=lambda: field_run_advance(field_run_id=field_run.pk),
    )
    return field_run


# The metagame lab follows runs (simulator/runs/followers.py): a stage run that ends advances
# its field run at once, and the reconciler's tick advances one whose hook was lost.
FOLLOWER = Follower(
    name="metagame",
    run_ended=lambda run_id: field_run_advance_for_run(run_id=run_id),
    due=field_runs_due,
    advance=lambda field_run_id: field_run_advance(field_run_id=field_run_id),
    stage_runs=Q(field_stage__isnull=False),
    part_of=stage_parts,
)
