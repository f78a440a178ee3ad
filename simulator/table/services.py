"""The table (issues #16 and #26): games people play against each other and against bots, one
decision at a time.

A `TableGame` row keeps the engine's game record, the truth: every request rebuilds the live
state from it by replaying (`GameService.rebuild`, no RNG), applies a decision under a row lock,
lets the bots (and the stand-in bots of people who are away) answer until a present person's
seat is due or the game ends, and stores the new record. What a viewer is served (`seen`) comes
only from the game's table hooks (`table_view`, `action_label`, `table_log`) for the viewer's
seat, or for no seat (a spectator): never the seed, the deck order, another seat's hidden cards
or a chance outcome still to come. Seating (the lobby, invitations, the clock) is
`simulator/table/seating.py`; docs: docs/table.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, cast

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from config.api import DomainError
from config.db import writing
from simulator.engine.core.chance import RecordedChance
from simulator.engine.core.errors import IllegalAction, RecordError, RulesError
from simulator.engine.core.registry import bot_label
from simulator.games import GameService, service_for
from simulator.games.base import CatalogueChanged, PreparedRules
from simulator.games.plans import PlanPlayer, Problem
from simulator.games.players import budget_problems
from simulator.table import announce, presence, snapshots
from simulator.table.models import TableGame, TableSeat
from simulator.table.selectors import Access, table_access
from simulator.table.snapshots import Snapshot

#: What the bots' seeds are derived from, with the game's seed and the move number.
BOT_SEED_MULTIPLIER = 1_000_003
BOT_SEED_MODULUS = 2**62
#: Keeps the seeds of the chance still to come apart from the bots' seeds.
CHANCE_SALT = 0x5EED_CA4D
#: And the secret order of the deck lists (`_label_and_order_decks`).
DECK_ORDER_SALT = 0xDEC_0DE5
#: The engine seat's bot name for a seat a person plays (the record's `bot` is informative).
PLAYER = "human"
#: The viewer who holds no seat: a spectator sees only what is public.
SPECTATOR = -1
#: The "bot" that plays a seat whose person resigned or forfeited (`PassiveBot`).
PASSIVE = "passive"


class TableRefused(DomainError):
    """A game that cannot be started, or a decision that cannot be applied (nothing written)."""


class TableConflict(DomainError):
    """A decision for a move that is not the game's current one, or for a finished game."""

    status = 409


class TableForbidden(DomainError):
    """A viewer who may see the table acting for a seat that is not theirs (nothing written)."""

    status = 403


@dataclass
class BotMove:
    """A bot's decision as the viewing seat may know it: who acted and the narration it made."""

    seat: int
    label: str
    log: list[str]
    stand_in: bool = False  # a bot playing for a person


@dataclass
class Seen:
    """A game as one viewer is served it (the API's, the push channel's and the page's answer)."""

    game: TableGame
    seat: int | None  # the seat the viewer is to act for, None if none of theirs is due
    viewer: int  # whose view and narration these are (SPECTATOR: nobody's)
    view: dict[str, Any]
    legal_actions: list[dict[str, Any]]
    log: list[str]
    result: dict[str, Any] | None
    bot_moves: list[BotMove] = field(default_factory=list)
    #: The engine's actions by index in `legal_actions` (for the page's forms; never served).
    actions: list[Any] = field(default_factory=list, repr=False)
    #: The seat to act (anyone's), None when over or waiting.
    to_act: int | None = None
    access: Access | None = None

    @property
    def yours(self) -> list[int]:
        return self.access.seats if self.access else []

    @property
    def status(self) -> str:
        """waiting, your_turn, their_turn or over."""
        if self.game.is_waiting:
            return "waiting"
        if self.game.is_over:
            return "over"
        return "your_turn" if self.seat is not None else "their_turn"


def service_of(game: str) -> GameService:
    """The service spec of `game`; TableRefused for a game the engine does not have."""
    try:
        return service_for(game)
    except RulesError as exc:
        raise TableRefused(str(exc), code="unknown_game", attr="game") from None


def bot_seed(seed: int, move: int) -> int:
    """The seed of the bot deciding at `move`: the same game answers the same every time."""
    return (seed * BOT_SEED_MULTIPLIER + move) % BOT_SEED_MODULUS


def new_seed() -> int:
    """A new game's secret seed."""
    return random.SystemRandom().randrange(2**31)


def _holds(person: TableSeat) -> bool:
    return person.state in (TableSeat.State.SEATED, TableSeat.State.OUT)


def _people(game: TableGame) -> dict[int, TableSeat]:
    """The people's seats of `game` by index, read once a row (a list's rows may bring them
    with `prefetch_related("people__user")`)."""
    cached = getattr(game, "_people_cache", None)
    if cached is None:
        prefetched = getattr(game, "_prefetched_objects_cache", {}).get("people")
        rows = (
            prefetched
            if prefetched is not None
            else (TableSeat.objects.filter(table=game).select_related("user"))
        )
        cached = {p.index: p for p in rows}
        game._people_cache = cached  # type: ignore[attr-defined]
    return cached


#: Why a bot played a person's decision (`TableGame.stand_in_moves`' `why`), in the table's words.
STAND_IN_WHY = {
    "away": "away",
    "clock": "out of time",
    "deadline": "past the deadline",
    "resigned": "resigned",
    "out": "out of the game",
}


def winners_of(result: dict[str, Any] | None) -> list[int]:
    """The winning seats of a finished table's result, for every game: High Stakes Drifter's
    and Tabletown's `winners`, the duels' one `winner` (None: a draw), a table ended early's
    none."""
    result = result or {}
    if "winners" in result:
        return [int(w) for w in result["winners"] or []]
    winner = result.get("winner")
    return [] if winner is None else [int(winner)]


def seat_summaries(row: TableGame, user: Any) -> list[dict[str, Any]]:
    """Each seat as anyone at the table may know it (never a deck list or an engine seat): its
    label, bot and budget, who holds it and in what state, whether it is `user`'s, whether a
    bot stands in for its person or they are away (both only while the game is on)."""
    people = _people(row)
    uid = user.pk if getattr(user, "is_authenticated", False) else None
    playing = row.status == TableGame.Status.PLAYING
    now = timezone.now()
    out = []
    for index, seat in enumerate(row.seats):
        person = people.get(index)
        name = person.user.get_username() if person and person.user else None
        out.append(
            {
                "index": index,
                "label": seat.get("label") or _waiting_label(seat, person, name),
                "bot": seat["bot"],
                "budget": seat.get("budget"),
                "yours": bool(
                    person and uid is not None and person.user_id == uid and _holds(person)
                ),
                "person": name,
                "state": "bot" if seat["bot"] else (person.state if person else "open"),
                "standing_in": bool(playing and person and person.standing_in),
                "away": bool(
                    playing
                    and person
                    and row.clock_seconds is not None
                    and person.away_at is not None
                    and person.away_at <= now
                    and person.state == TableSeat.State.SEATED
                ),
            }
        )
    return out


def _waiting_label(seat: dict[str, Any], person: TableSeat | None, name: str | None) -> str:
    """A seat before the game begins: its bot or person, with the deck brought."""
    player = (seat.get("player") if seat["bot"] else person and person.player) or {}
    deck = player.get("label") if player.get("source") else None
    who = f"{bot_label(seat['bot'])[0]} bot" if seat["bot"] else (name or "Open seat")
    return f"{who} ({deck})" if deck else who


def _problem(code: str, detail: str, attr: str | None) -> Problem:
    return {"code": code, "detail": detail, "attr": attr}


# --- checking seats --------------------------------------------------------------------------


def check_bot(
    service: GameService, bot: Any, budget: Any, attr: str, *, budget_attr: str = "budget"
) -> tuple[str | None, int | None, list[Problem]]:
    """(bot, budget, problems) of a bot and its budget as given (`bot` None: no bot)."""
    if bot is None:
        if budget is not None:
            return None, None, [_problem("budget_without_bot", "Only a bot has a budget.", attr)]
        return None, None, []
    if bot not in service.spec.bots:
        known = ", ".join(sorted(service.spec.bots))
        detail = f"{service.title} has no bot {bot!r}; the bots are {known}."
        return None, None, [_problem("unknown_bot", detail, attr)]
    if budget is None:
        return bot, None, []
    problems = budget_problems(service, bot, budget, f"{attr.rsplit('.', 1)[0]}.{budget_attr}")
    return bot, None if problems else budget, problems


def prepare_person(
    *,
    service: GameService,
    user: Any,
    data: dict[str, Any],
    index: int,
    prepared: PreparedRules,
) -> tuple[PlanPlayer, list[Problem]]:
    """A person's seat checked: their deck (theirs, public or a starter, legal for the table's
    format) as the engine's player, and the problems that keep them from sitting down."""
    body = {k: v for k, v in data.items() if k in ("deck", "public_deck", "starter")}
    try:
        player, found = service.prepare_player(
            owner=user, data=body, index=index, bot=PLAYER, prepared=prepared
        )
    except DomainError as exc:
        player = {"label": "", "bot": PLAYER, "source": None}
        found = cast(list[Problem], exc.problems)
    return player, [_seat_attr(p) for p in found]


def _seat_attr(problem: Problem) -> Problem:
    """A spec's problem about `players.N...` (its run's name) as one about `seats.N...`."""
    attr = problem.get("attr")
    if isinstance(attr, str) and attr.startswith("players."):
        problem = {**problem, "attr": "seats." + attr.removeprefix("players.")}
    return problem


def check_seats(*, service: GameService, seats: Any) -> None:
    """TableRefused unless `seats` is a list of objects, as many as the game seats."""
    spec = service.spec
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise TableRefused("seats is a list of objects.", attr="seats")
    if not spec.min_players <= len(seats) <= spec.max_players:
        bounds = f"{spec.min_players} to {spec.max_players}"
        raise TableRefused(f"{spec.title} is played by {bounds} seats.", attr="seats")


def checked_rules(rules: dict[str, Any] | None) -> dict[str, Any]:
    """A copy of the caller's rules; TableRefused if they hold what is given beside them."""
    rules = dict(rules or {})
    for key in ("variants", "quick_start"):
        if key in rules:
            raise TableRefused(f"Give {key} beside the rules, not in them.", attr=f"rules.{key}")
    return rules


def prepared_rules(
    *, service: GameService, format: str, variants: list[str] | None
) -> PreparedRules:
    """The game's rules for `format` and `variants`; TableRefused with the spec's problems."""
    try:
        return service.prepare_rules(format, list(variants or []))
    except DomainError as exc:
        raise TableRefused(problems=exc.problems) from None


# --- starting a game -------------------------------------------------------------------------


def labels_of(game: TableGame, players: list[PlanPlayer]) -> list[str]:
    """What the table calls each seat: its person's name or "Heuristic bot", with its deck,
    unique. The narration says it in the third person ("demo plays ..."), so not "You"."""
    people = _people(game)
    held: dict[int | None, int] = {}
    for p in people.values():
        held[p.user_id] = held.get(p.user_id, 0) + 1
    labels = []
    for i, (seat, player) in enumerate(zip(game.seats, players, strict=True)):
        person = people.get(i)
        if seat["bot"] or person is None or person.user is None:
            who = f"{seat['bot'] or 'house'} bot".capitalize()
        else:
            name = str(person.user.get_username())[:40] or "Player"
            who = name if held[person.user_id] == 1 else f"{name}, seat {i + 1}"
        deck = player.get("label") if player.get("source") else None
        labels.append(f"{who} ({deck})" if deck else who)
    return [
        label if labels.count(label) == 1 else f"{label}, seat {i + 1}"
        for i, label in enumerate(labels)
    ]


def _label_and_order_decks(*, players: list[PlanPlayer], labels: list[str], seed: int) -> None:
    """Name each player's seat, and put its deck lists in a secret order.

    The engine numbers cards in the order a deck list gives them, and a starter's list is
    public: dealt in that order, a face-down card's number would name it. So each list is
    put in a secret order first (the record, which holds it, is withheld until the end).
    """
    order = random.Random(seed ^ DECK_ORDER_SALT)
    for player, label in zip(players, labels, strict=True):
        player["label"] = label
        if "seat" in player:
            seat = {**player["seat"], "name": label}
            for key in ("deck", "chips"):
                if isinstance(seat.get(key), list):
                    seat[key] = order.sample(seat[key], len(seat[key]))
            player["seat"] = seat


def _table_rules(
    *, prepared: PreparedRules, rules: dict[str, Any], quick_start: bool
) -> dict[str, Any]:
    """The rules the table's engine plays by.

    A run fixes the first seat for its rotation (specs, prepare_rules); a table lets the
    engine draw it (a recorded chance outcome) unless the caller's rules name it.
    """
    table_rules = {k: v for k, v in prepared.rules.items() if k != "first_player"}
    table_rules.update(rules)
    if quick_start:
        table_rules["quick_start"] = True
    return table_rules


def begin(row: TableGame, players: list[PlanPlayer], rules: dict[str, Any]) -> Any:
    """Start the engine at a row whose every seat is filled (`players` in seat order), let the
    bots act until a person's seat is due, and store it (saved). The live state."""
    service = service_of(row.game)
    labels = labels_of(row, players)
    _label_and_order_decks(players=players, labels=labels, seed=row.seed)
    catalogue = _catalogue(service, row.catalogue_version)
    try:
        state = service.new_game(
            [service.engine_seat(p) for p in players],
            service.engine_rules(rules),
            row.seed,
            True,
            catalogue,
        )
    except (RulesError, TypeError) as exc:
        raise TableRefused(f"These rules cannot be played: {exc}", attr="rules") from None
    record = state.record()
    row.rules = record["rules"]
    row.record = record
    row.seats = [
        {
            "label": p["label"],
            "bot": seat["bot"],
            "budget": seat.get("budget"),
            "source": p.get("source"),
            "engine": p.get("seat"),
        }
        for p, seat in zip(players, row.seats, strict=True)
    ]
    row.status = TableGame.Status.PLAYING
    row.started_at = timezone.now()
    state = _rebuilt(service, record, row.seed, row.catalogue_version)
    return state


def _catalogue(service: GameService, version: int | None) -> Any:
    try:
        return service.catalogue(version)
    except CatalogueChanged as exc:
        raise TableConflict(
            "The card catalogue changed since this game began: it cannot go on. Start a new game.",
            code="catalogue_changed",
        ) from exc


# --- playing ---------------------------------------------------------------------------------


def state_of(game: TableGame) -> Any:
    """The live state of a stored game, rebuilt from its record."""
    if game.record is None:  # cannot happen: a table still waiting has no state to rebuild
        raise RuntimeError(f"table game {game.pk} has not begun")
    return _rebuilt(service_of(game.game), game.record, game.seed, game.catalogue_version)


def _rebuilt(service: GameService, record: dict[str, Any], seed: int, version: int | None) -> Any:
    """A record replayed (no RNG), then dealt on: the chance outcomes still to come are drawn
    from a generator seeded by the game's secret seed and the events so far, and logged."""
    try:
        state = service.rebuild(record, _catalogue(service, version))
    except RecordError as exc:  # a stored record always replays: say so loudly if not
        raise RuntimeError(f"a table game's record does not replay: {exc}") from exc
    log = state.chance.log
    state.chance = RecordedChance(bot_seed(seed, len(log)) ^ CHANCE_SALT, log)
    return state


def _carried(row: TableGame, state: Any) -> Any:
    """The state the previous decision played on (`snapshots.take_state`), made what
    `state_of(row)` would rebuild: the chance still to come drawn as from the record so far,
    so a game goes the same whether a process kept its state or not."""
    if state is None:
        return None
    log = state.chance.log
    state.chance = RecordedChance(bot_seed(row.seed, len(log)) ^ CHANCE_SALT, log)
    return state


class PassiveBot:
    """Plays a seat whose person is out of the game (resigned or forfeited): always the most
    passive legal action (fold, check, pass, hold...; else the engine's first), never a bet or
    a challenge. docs/rules/table.md says why."""

    PASSIVE_KINDS = ("fold", "check", "pass", "hold", "stay", "decline", "done", "end", "skip")

    def choose(self, view: Any, legal: list[Any]) -> Any:
        for kind in self.PASSIVE_KINDS:
            for action in legal:
                if str(action.to_json().get("kind", "")).startswith(kind):
                    return action
        return legal[0]


def _player_of(row: TableGame, seat: int, now: Any) -> tuple[str, int | None, str] | None:
    """(bot, budget, why) of whoever decides for `seat` now if it is not a person at the
    table: the seat's own bot (why ""), the stand-in of a person who is away or out of time
    (why "away", "clock", "deadline", "resigned"), the passive play of a seat that is out;
    None when its person decides."""
    spec = row.seats[seat]
    if spec["bot"]:
        return spec["bot"], spec.get("budget"), ""
    person = _people(row).get(seat)
    if person is None:  # cannot happen: every person's seat has a row
        raise RuntimeError(f"table game {row.pk} has no person in seat {seat}")
    if person.state == TableSeat.State.OUT:
        return (
            (person.stand_in, person.stand_in_budget, "resigned")
            if person.standing_in
            else (
                PASSIVE,
                None,
                "out",
            )
        )
    if person.standing_in:
        return person.stand_in, person.stand_in_budget, person.why or "away"
    if _is_away(row, person, now):
        person.standing_in, person.why = True, "away"
        person.save(update_fields=["standing_in", "why"])
        name = person.user.get_username() if person.user else "A player"
        announce.say(row, f"{name} is away: their bot plays for them.")
        return person.stand_in, person.stand_in_budget, "away"
    return None


def _is_away(row: TableGame, person: TableSeat, now: Any) -> bool:
    """A live table's person gone longer than its grace (a table with a clock only: a person
    playing bots alone is never replaced)."""
    return (
        row.pace == TableGame.Pace.LIVE
        and row.clock_seconds is not None
        and person.away_at is not None
        and person.away_at <= now
    )


def make_bot(service: GameService, name: str, seat: int, seed: int, budget: int | None) -> Any:
    if name == PASSIVE:
        return PassiveBot()
    return service.make_bot(name, seat, seed, budget)


def bots_answer(
    service: GameService, row: TableGame, state: Any, move: int, tell: list[int]
) -> list[Told]:
    """Let the bots decide until a present person's seat is due or the game ends (`move`: the
    decisions made so far). Each bot move keeps the narration it added for each seat in `tell`
    (the caller's), and a move a bot made for a person is marked in `stand_in_moves`."""
    moves: list[Told] = []
    before = {s: len(service.table_log(state, s)) for s in tell}
    now = timezone.now()
    while not state.is_over:
        p = state.to_act
        who = _player_of(row, p, now)
        if who is None:
            break
        name, budget, why = who
        bot = make_bot(service, name, p, bot_seed(row.seed, move), budget)
        state.apply(bot.choose(state.view(p), state.legal_actions()))
        if why:
            row.stand_in_moves = [
                *(row.stand_in_moves or []),
                {"move": move, "seat": p, "bot": name, "why": why},
            ]
        move += 1
        told = {}
        for s in tell:
            log = service.table_log(state, s)
            told[s] = log[before[s] :]
            before[s] = len(log)
        moves.append(Told(p, row.seats[p]["label"], told, bool(why)))
    return moves


@dataclass
class Told:
    """A bot's decision with the narration it added for each of the caller's seats."""

    seat: int
    label: str
    told: dict[int, list[str]]
    stand_in: bool = False


def store(row: TableGame, state: Any) -> None:
    """The state's record, move number, status and result onto the row, with whose turn it is
    and until when; the row is saved and its change announced once committed."""
    row.record = state.record()
    row.move = sum(1 for ev in row.record["events"] if ev[0] == "act")
    row.deadline = None
    row.to_act = None
    if state.is_over:
        row.status = TableGame.Status.OVER
        row.result = {**state.final(), **_marks(row)}
    else:
        row.to_act = state.to_act
        if row.clock_seconds is not None:
            row.deadline = timezone.now() + timedelta(seconds=row.clock_seconds)
        person = _people(row).get(row.to_act)
        if person is not None and row.pace == TableGame.Pace.CORRESPONDENCE:
            announce.your_turn(row, person)
    save(row)


def _marks(row: TableGame) -> dict[str, Any]:
    """What the table adds to the engine's result: who resigned or forfeited."""
    out = [p.index for p in _people(row).values() if p.state == TableSeat.State.OUT]
    return {"out": out} if out else {}


def save(row: TableGame) -> None:
    """Save the row as a new version, announced to every viewer once committed."""
    row.version += 1
    row.save()
    announce.changed(row)


def table_game_act(*, owner: Any, pk: Any, move: Any, action: Any) -> Seen:
    """Apply `owner`'s `action` at `move` for their seat to act and let the bots answer, under
    the row's lock; the answer is built once the lock is let go (on SQLite the lock is the
    whole database's: a request holds it no longer than the move takes).

    TableConflict (409) for a finished game, a table still waiting, a move that is not the
    current one (a second tab, a double click: the decision is applied once) or a seat of
    theirs that is not to act; TableForbidden (403) for a viewer who holds no seat; TableRefused
    `illegal_action` with the engine's reason when the engine refuses it. Nothing is written
    then.
    """
    access, snap, moves, seat = _act(owner=owner, pk=pk, move=move, action=action)
    with snap.lock:  # the push channel's builds may already read the state it hands over
        answer = seen(access, snap.state, bot_moves=moves, viewer=seat)
        snap.takeable = True  # the next decision may play on it now
    return answer


@writing()
def _act(
    *, owner: Any, pk: Any, move: Any, action: Any
) -> tuple[Access, Snapshot, list[Told], int]:
    access = table_access(user=owner, pk=pk, for_update=True, everyone=True)
    row = access.game
    if row.is_waiting:
        raise TableConflict("This table has not started yet.", code="not_started", attr="move")
    if row.is_over:
        raise TableConflict("This game is over.", code="game_over", attr="move")
    if not access.seats:
        raise TableForbidden("You hold no seat at this table.", code="not_your_seat")
    if type(move) is not int or move != row.move:
        raise TableConflict(
            f"This is move {row.move}, not {move!r}: the game went on (another tab?). Reload it.",
            code="stale_move",
            attr="move",
        )
    service = service_of(row.game)
    state = _carried(row, snapshots.take_state(row)) or state_of(row)
    seat = state.to_act
    if seat not in access.seats or _people(row)[seat].state != TableSeat.State.SEATED:
        raise TableConflict(
            "It is not your turn: wait for the seat to act.", code="not_your_turn", attr="move"
        )
    legal = state.legal_actions()
    try:
        state.apply(type(legal[0]).from_json(action))
    except IllegalAction as exc:
        raise TableRefused(str(exc), code="illegal_action", attr="action") from None
    mine = [s for s in access.seats if _people(row)[s].state == TableSeat.State.SEATED]
    moves = bots_answer(service, row, state, row.move + 1, mine)
    # What the push channel builds this version's messages from, kept once committed (before
    # the change is announced: `store` registers that after this).
    snap = snapshots.Snapshot(
        row=row, people=list(_people(row).values()), state=state, takeable=False
    )
    said = announce.said(row)
    transaction.on_commit(lambda: snapshots.keep(snap, said=said))
    store(row, state)
    return access, snap, moves, seat


# --- what a viewer is served -----------------------------------------------------------------


def seen(
    access: Access,
    state: Any,
    *,
    bot_moves: list[Told] | None = None,
    viewer: int | None = None,
) -> Seen:
    """The game as `access`'s viewer may see it: their seat to act (else `viewer` if one of
    theirs, else their first seat; a spectator sees no seat's). Built from the spec's table
    hooks only."""
    row = access.game
    if row.is_waiting or state is None:
        return Seen(row, None, SPECTATOR, {}, [], [], None, access=access)
    service = service_of(row.game)
    mine = list(access.seats)
    # A game the table ended (every other seat out, the host) is over before the engine's end.
    over = row.is_over or state.is_over
    to_act = None if over else state.to_act
    people = _people(row)
    seat = None
    if to_act in mine and people[to_act].state == TableSeat.State.SEATED:
        seat = to_act
        viewer = seat
    elif viewer is None or viewer not in mine:
        viewer = mine[0] if mine else SPECTATOR
    if viewer == SPECTATOR and over:
        shown: int | None = None  # once over a spectator sees every card, as in a replay
    else:
        shown = viewer
    actions = [] if seat is None else state.legal_actions()
    view = service.table_view(state, shown)
    return Seen(
        game=row,
        seat=seat,
        viewer=viewer,
        view=view,
        legal_actions=[
            {"action": a.to_json(), "label": service.action_label(state, a)} for a in actions
        ],
        log=service.table_log(state, shown),
        result=row.result if over else None,
        bot_moves=[
            BotMove(m.seat, m.label, m.told.get(viewer, []), m.stand_in) for m in bot_moves or []
        ],
        actions=actions,
        to_act=to_act,
        access=access,
    )


def table_game_seen(*, owner: Any, pk: Any, viewer: int | None = None, here: bool = True) -> Seen:
    """A game as `owner` may see it (Http404 for a table they may not see); `here`: a person
    reading it is at the table (the push channel's own reads are not: its pings are)."""
    access = table_access(user=owner, pk=pk)
    row = access.game
    if access.seats and here:
        seating_touch(access)
    return seen(access, None if row.is_waiting else state_of(row), viewer=viewer)


def seating_touch(access: Access) -> None:
    """`access`'s person is here: their seats' presence is renewed (no version: presence is
    not news). Called by every read and write of theirs."""
    row = access.game
    if row.clock_seconds is None or row.is_over:
        return
    now = timezone.now()
    # At most one write a few seconds a person: presence is counted in seconds of grace.
    every = presence.presence_every(row.grace_seconds)
    stale = Q(last_seen__isnull=True) | Q(last_seen__lt=now - every)
    seats = TableSeat.objects.filter(stale, table=row, index__in=access.seats)
    presence.mark_here(seats, now, row.grace_seconds)
