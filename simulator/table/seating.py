"""Seating at the table (issue #26): opening a table with people's, open and bots' seats, the
invitation link and the lobby, sitting down with a deck, starting, leaving and resigning, a
stand-in bot for a person who is away or out of time and taking the seat back, the host ending
a table, a rematch. Every change is made under the table's row lock, saved as a new version
and announced once committed (services.save). docs/table.md, "People at one table"."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.utils import timezone

from config.db import writing
from simulator.games import GameService
from simulator.games.plans import PlanPlayer, Problem
from simulator.table import announce
from simulator.table import services as table
from simulator.table.models import TableGame, TableSeat
from simulator.table.selectors import Access, clock_due, table_access, table_by_token
from simulator.table.services import (
    Seen,
    TableConflict,
    TableForbidden,
    TableRefused,
    _people,
    _problem,
)

#: The bounds of a table's clock, its grace and its correspondence deadline (seconds).
LIVE_CLOCK = (5, 3600, 60)  # (least, most, default)
CORRESPONDENCE_CLOCK = (3600, 30 * 86400, 86400)
GRACE = (5, 3600, 60)
INVITE_TOKEN_BYTES = 24  # 32 URL-safe characters: not guessable


def _stand_in_default(service: GameService) -> str:
    """The bot that stands in for a person who chose none: the heuristic, as the issue asks."""
    return "heuristic" if "heuristic" in service.spec.bots else service.default_bot()


def _pace_problems(
    pace: str, clock: Any, grace: Any, shared: bool
) -> tuple[int | None, int, list[Problem]]:
    """(clock, grace, problems) of a table's pace as given; a shared table always has a clock
    (the default of its pace), a table of one person and bots none unless asked."""
    problems: list[Problem] = []
    if pace not in TableGame.Pace.values:
        problems.append(_problem("bad_pace", "The pace is live or correspondence.", "pace"))
        return None, GRACE[2], problems
    least, most, default = LIVE_CLOCK if pace == TableGame.Pace.LIVE else CORRESPONDENCE_CLOCK
    if clock is None and shared:
        clock = default
    if clock is not None and not (type(clock) is int and least <= clock <= most):
        problems.append(
            _problem(
                "bad_clock",
                f"A {pace} table's clock is {least:,} to {most:,} seconds a decision.",
                "clock_seconds",
            )
        )
    grace = GRACE[2] if grace is None else grace
    if not (type(grace) is int and GRACE[0] <= grace <= GRACE[1]):
        problems.append(
            _problem("bad_grace", f"The grace is {GRACE[0]} to {GRACE[1]:,} seconds.", "grace")
        )
    return clock, grace, problems


def _kind(data: dict[str, Any]) -> str:
    if data.get("bot") is not None:
        return "bot"
    if data.get("player"):
        return "named"
    if data.get("open"):
        return "open"
    return "mine"


# long: one pass over the seats says every problem at once, as every form of the site does
def _seat_plans(
    *, service: GameService, host: Any, seats: list[dict[str, Any]], prepared: Any
) -> tuple[list[dict[str, Any]], list[Problem]]:
    """Each seat as the row keeps it before the start, with what it needs: a bot's checked
    player; the host's checked player and stand-in; a named player's user; nothing for an open
    seat. Every problem of every seat."""
    problems: list[Problem] = []
    plans: list[dict[str, Any]] = []
    named: set[int] = set()
    users = get_user_model()
    for index, data in enumerate(seats):
        attr = f"seats.{index}"
        kind = _kind(data)
        plan: dict[str, Any] = {"kind": kind, "bot": None, "budget": None}
        if kind == "bot":
            bot, budget, found = table.check_bot(
                service, data.get("bot"), data.get("budget"), f"{attr}.bot"
            )
            problems += found
            body = {k: v for k, v in data.items() if k in ("deck", "public_deck", "starter")}
            try:
                player, found = service.prepare_player(
                    owner=host, data=body, index=index, bot=bot or "", prepared=prepared
                )
            except table.DomainError as exc:
                player = {"label": "", "bot": bot or "", "source": None}
                found = cast(list[Problem], exc.problems)
            problems += [table._seat_attr(p) for p in found]
            plan |= {"bot": bot, "budget": budget, "player": player}
        elif kind == "mine":
            player, found = table.prepare_person(
                service=service, user=host, data=data, index=index, prepared=prepared
            )
            stand_in, budget, more = table.check_bot(
                service,
                data.get("stand_in", _stand_in_default(service)),
                data.get("stand_in_budget"),
                f"{attr}.stand_in",
                budget_attr="stand_in_budget",
            )
            problems += found + more
            plan |= {"player": player, "stand_in": stand_in, "stand_in_budget": budget}
        elif kind == "named":
            name = str(data.get("player"))[:150]
            user = users.objects.filter(**{users.USERNAME_FIELD: name}).first()
            if user is None:
                problems.append(_problem("unknown_player", f"No player is named {name!r}.", attr))
            elif user.pk == host.pk:
                problems.append(
                    _problem("yourself", "That is you: leave out `player` for your seat.", attr)
                )
            elif user.pk in named:
                problems.append(_problem("seated_twice", f"{name} is invited twice.", attr))
            else:
                named.add(user.pk)
                plan["user"] = user
        extra = set(data) - _ALLOWED[kind]
        if "budget" in extra:
            problems.append(_problem("budget_without_bot", "Only a bot has a budget.", attr))
            extra.discard("budget")
        if extra:
            problems.append(
                _problem("bad_seat", f"A seat of this kind takes no {', '.join(sorted(extra))}.",
                         attr)
            )  # fmt: skip
        plans.append(plan)
    if not problems and all(p["kind"] == "bot" for p in plans):
        problems.append(_problem("no_seat", "Keep at least one seat for a person.", "seats"))
    return plans, problems


_DECK = {"deck", "public_deck", "starter"}
_ALLOWED = {
    "bot": {"bot", "budget", *_DECK},
    "mine": {"stand_in", "stand_in_budget", *_DECK},
    "named": {"player"},
    "open": {"open"},
}


# long: the table's every option is a keyword, as the API and the form give them
@writing()
def table_game_create(
    *,
    owner: Any,
    game: str,
    seats: list[dict[str, Any]],
    rules: dict[str, Any] | None = None,
    variants: list[str] | None = None,
    quick_start: bool = False,
    format: str = "",
    seed: int | None = None,
    pace: str = TableGame.Pace.LIVE,
    clock_seconds: int | None = None,
    grace_seconds: int | None = None,
    on_timeout: str = TableGame.OnTimeout.BOT,
    on_resign: str = TableGame.OnResign.OUT,
    listed: bool = False,
    spectators: bool = False,
    spectators_talk: bool = False,
) -> Seen:
    """Open a table hosted by `owner`: check every seat, and either start at once (no seat
    waits for anyone: the bots act until one of the host's seats is due) or wait for the
    named players and open seats to be taken. TableRefused with every problem, nothing written.

    A seat is a bot's (`"bot"`, its deck and `"budget"`), the host's (its deck, and
    optionally the `"stand_in"` bot that plays it while they are away), a named player's
    (`{"player": username}`: they bring their deck) or open (`{"open": true}`: anyone with the
    invitation link, or in the lobby if `listed`). `seed` is for tests and benchmarks: the API
    never takes one (it would tell the caller every shuffle).
    """
    service = table.service_of(game)
    table.check_seats(service=service, seats=seats)
    rules = table.checked_rules(rules)
    prepared = table.prepared_rules(service=service, format=format, variants=variants)
    plans, problems = _seat_plans(service=service, host=owner, seats=seats, prepared=prepared)
    shared = any(p["kind"] in ("named", "open") for p in plans)
    clock, grace, more = _pace_problems(pace, clock_seconds, grace_seconds, shared)
    problems += more + _choice_problems(on_timeout, on_resign)
    if problems:
        raise TableRefused(problems=problems)
    row = TableGame.objects.create(
        owner=owner,
        game=service.spec.name,
        seats=[
            {
                "bot": p["bot"],
                "budget": p["budget"],
                "player": p.get("player") if p["bot"] else None,
            }
            for p in plans
        ],
        rules=rules,
        format=prepared.format,
        variants=prepared.variants,
        quick_start=quick_start,
        seed=table.new_seed() if seed is None else seed,
        catalogue_version=service.catalogue_version(),
        record=None,
        status=TableGame.Status.WAITING,
        pace=pace,
        clock_seconds=clock,
        grace_seconds=grace,
        on_timeout=on_timeout,
        on_resign=on_resign,
        listed=listed,
        spectators=spectators,
        spectators_talk=spectators_talk,
        invite_token=_token() if any(p["kind"] == "open" for p in plans) else None,
    )
    now = timezone.now()
    TableSeat.objects.bulk_create(
        [
            _person(row, index, plan, owner, now)
            for index, plan in enumerate(plans)
            if not plan["bot"]
        ]
    )
    if not shared:
        return _start(row, owner)
    announce.say(row, f"{owner.get_username()} opened the table.")
    return table.seen(table_access(user=owner, pk=row.pk), None)


def _choice_problems(on_timeout: str, on_resign: str) -> list[Problem]:
    problems = []
    if on_timeout not in TableGame.OnTimeout.values:
        problems.append(_problem("bad_choice", "On timeout: bot or forfeit.", "on_timeout"))
    if on_resign not in TableGame.OnResign.values:
        problems.append(_problem("bad_choice", "On resigning: out or bot.", "on_resign"))
    return problems


def _person(row: TableGame, index: int, plan: dict[str, Any], host: Any, now: Any) -> TableSeat:
    if plan["kind"] == "mine":
        return TableSeat(
            table=row,
            index=index,
            user=host,
            state=TableSeat.State.SEATED,
            source=plan["player"].get("source") or "",
            player=plan["player"],
            stand_in=plan["stand_in"],
            stand_in_budget=plan["stand_in_budget"],
            joined_at=now,
            last_seen=now,
            away_at=now + timedelta(seconds=row.grace_seconds),
        )
    if plan["kind"] == "named":
        return TableSeat(table=row, index=index, user=plan["user"], state=TableSeat.State.INVITED)
    return TableSeat(table=row, index=index, state=TableSeat.State.OPEN)


def _token() -> str:
    return secrets.token_urlsafe(INVITE_TOKEN_BYTES)


def _start(row: TableGame, host: Any) -> Seen:
    """Start a table whose every seat is taken (locked or new) and answer as `host` sees it."""
    service = table.service_of(row.game)
    people = _people(row)
    players: list[PlanPlayer] = []
    for index, seat in enumerate(row.seats):
        player = seat.get("player") if seat["bot"] else people[index].player
        players.append(cast(PlanPlayer, dict(player or {})))
    prepared = table.prepared_rules(service=service, format=row.format, variants=row.variants)
    rules = table._table_rules(prepared=prepared, rules=row.rules, quick_start=row.quick_start)
    state = table.begin(row, players, rules)
    access = table_access(user=host, pk=row.pk)
    access.game = row
    row.invite_token = None
    moves = table.bots_answer(service, row, state, 0, access.seats)
    table.store(row, state)
    if len({p.user_id for p in people.values()}) > 1:
        announce.say(row, "The game began.")
    return table.seen(access, state, bot_moves=moves)


def _locked(user: Any, pk: Any, token: str = "") -> Access:
    return table_access(user=user, pk=pk, for_update=True, token=token)


def _waiting_for_host(user: Any, pk: Any, only_host: str) -> Access:
    """A waiting table, locked, for its host: TableForbidden for anyone else (`only_host`
    says why), TableConflict once it has begun."""
    access = _locked(user, pk)
    if not access.host:
        raise TableForbidden(only_host, code="not_host")
    if not access.game.is_waiting:
        raise TableConflict("This table has begun already.", code="started")
    return access


@writing()
def table_join(
    *,
    user: Any,
    pk: Any = None,
    token: str = "",
    seat: int | None = None,
    deck: dict[str, Any] | None = None,
    stand_in: str | None = None,
    stand_in_budget: int | None = None,
) -> Seen:
    """Sit `user` down at a waiting table with their deck: at the seat kept for them, else at
    `seat` or the first open one. The table is reached by id (invited, or listed in the
    lobby) or by its invitation's `token`. TableConflict if it has begun, they sit there
    already or no seat is free; TableRefused with the deck's problems; nothing written then."""
    if token:
        pk = table_by_token(token).pk
    access = _locked(user, pk, token)
    row = access.game
    if not row.is_waiting:
        raise TableConflict("This table has begun: it takes no one new.", code="started")
    if access.seats:
        raise TableConflict("You sit at this table already.", code="already_seated")
    if not (access.invited or access.token or row.listed):
        raise TableForbidden("This table's seats are by invitation.", code="not_invited")
    people = _people(row)
    person = _free_seat(people, access, seat)
    service = table.service_of(row.game)
    prepared = table.prepared_rules(service=service, format=row.format, variants=row.variants)
    player, problems = table.prepare_person(
        service=service, user=user, data=deck or {}, index=person.index, prepared=prepared
    )
    bot, budget, more = table.check_bot(
        service,
        stand_in or _stand_in_default(service),
        stand_in_budget,
        "stand_in",
        budget_attr="stand_in_budget",
    )
    if problems or more:
        raise TableRefused(problems=[_deck_attr(p) for p in problems] + more)
    now = timezone.now()
    person.user = user
    person.state = TableSeat.State.SEATED
    person.player = player
    person.source = player.get("source") or ""
    person.stand_in, person.stand_in_budget = bot or "heuristic", budget
    person.joined_at = person.last_seen = now
    person.away_at = now + timedelta(seconds=row.grace_seconds)
    person.save()
    announce.say(row, f"{user.get_username()} sat down in seat {person.index + 1}.")
    table.save(row)
    access.seats.append(person.index)
    return table.seen(access, None)


def _deck_attr(problem: Problem) -> Problem:
    """A seat's deck problem (`seats.N...`) as the join's (`deck...`)."""
    attr = problem.get("attr")
    if isinstance(attr, str) and attr.startswith("seats."):
        rest = attr.split(".", 2)[2:] if attr.count(".") > 1 else []
        problem = {**problem, "attr": ".".join(["deck", *rest])}
    return problem


def _free_seat(people: dict[int, TableSeat], access: Access, seat: int | None) -> TableSeat:
    """The seat `access`'s person takes: the one kept for them, else `seat`, else the first
    open one; TableConflict if there is none."""
    if access.invited:
        return people[access.invited[0]]
    open_seats = [p for p in people.values() if p.state == TableSeat.State.OPEN]
    if seat is not None:
        chosen = people.get(seat)
        if chosen is None or chosen.state != TableSeat.State.OPEN:
            raise TableConflict(f"Seat {seat + 1} is not open.", code="seat_taken", attr="seat")
        return chosen
    if not open_seats:
        raise TableConflict("Every seat at this table is taken.", code="table_full")
    return open_seats[0]


@writing()
def table_start(
    *, user: Any, pk: Any, fill: bool = False, bot: str | None = None, deck: dict | None = None
) -> Seen:
    """The host starts a waiting table: every seat must be taken, or `fill` puts a bot (`bot`,
    the game's default; with `deck`, the game's first starter) in each free one."""
    access = _waiting_for_host(user, pk, "Only the host starts the table.")
    row = access.game
    people = _people(row)
    free = [
        p for p in people.values() if p.state in (TableSeat.State.OPEN, TableSeat.State.INVITED)
    ]
    if free and not fill:
        seats = ", ".join(str(p.index + 1) for p in free)
        raise TableConflict(
            f"Seats {seats} are free: wait for players, or fill them with bots.",
            code="seats_free",
        )
    if free:
        _fill(row, free, bot, deck, user)
    if not any(p.state == TableSeat.State.SEATED for p in _people(row).values()):
        raise TableConflict("Nobody sits at this table: it cannot begin.", code="nobody_seated")
    return _start(row, user)


def _fill(row: TableGame, free: list[TableSeat], bot: str | None, deck: Any, host: Any) -> None:
    service = table.service_of(row.game)
    bot = bot or service.default_bot()
    prepared = table.prepared_rules(service=service, format=row.format, variants=row.variants)
    if deck is None and service.spec.needs_decks:
        deck = {"starter": service.play_decks[0]} if service.play_decks else {}
    problems: list[Problem] = []
    checked, _, found = table.check_bot(service, bot, None, "bot")
    problems += found
    seats = list(row.seats)
    for person in free:
        player, more = service.prepare_player(
            owner=host, data=dict(deck or {}), index=person.index, bot=bot, prepared=prepared
        )
        problems += more
        seats[person.index] = {"bot": checked, "budget": None, "player": player}
    if problems:
        raise TableRefused(problems=problems)
    row.seats = seats
    TableSeat.objects.filter(pk__in=[p.pk for p in free]).delete()
    row._people_cache = None  # type: ignore[attr-defined]
    announce.say(row, f"Bots took the free seats ({', '.join(str(p.index + 1) for p in free)}).")


@writing()
def table_leave(*, user: Any, pk: Any) -> Seen:
    """`user` leaves: before the start their seat opens again (the host leaving ends the
    table); during the game they resign; a finished game has nothing to leave (409)."""
    access = _locked(user, pk)
    row = access.game
    if row.is_over:
        raise TableConflict("This game is over.", code="game_over")
    if not row.is_waiting:
        return _resign(access)
    if access.host:
        _end(row, "The host left before it began.")
        return table.seen(access, None)
    mine = access.seats + access.invited
    if not mine:
        raise TableConflict("You hold no seat at this table.", code="not_seated")
    TableSeat.objects.filter(table=row, index__in=mine).update(
        user=None, state=TableSeat.State.OPEN, player=None, source="", last_seen=None, away_at=None
    )
    if row.invite_token is None:
        row.invite_token = _token()
    announce.say(row, f"{user.get_username()} left; seat {mine[0] + 1} is open.")
    table.save(row)
    access.seats, access.invited = [], []
    return table.seen(access, None)


@writing()
def table_resign(*, user: Any, pk: Any) -> Seen:
    """`user` resigns a game under way (table_leave's "during the game")."""
    access = _locked(user, pk)
    if not access.game.status == TableGame.Status.PLAYING:
        raise TableConflict("Only a game under way can be resigned.", code="not_playing")
    return _resign(access)


def _resign(access: Access) -> Seen:
    row = access.game
    people = _people(row)
    mine = [i for i in access.seats if people[i].state == TableSeat.State.SEATED]
    if not mine:
        raise TableConflict("You hold no seat still in this game.", code="not_seated")
    bot_on = row.on_resign == TableGame.OnResign.BOT
    for index in mine:
        person = people[index]
        person.state = TableSeat.State.OUT
        person.standing_in, person.why = bot_on, "resigned" if bot_on else "out"
        person.save()
    who = access.user.get_username()
    announce.say(row, f"{who} resigned{'; a bot plays on' if bot_on else ''}.")
    return _play_on(access, "resignation")


def _play_on(access: Access, reason: str) -> Seen:
    """After a seat went out: end the game if one seat is left in it, else let the bots (and
    stand-ins) answer; stored and answered as `access` sees it."""
    row = access.game
    service = table.service_of(row.game)
    state = table.state_of(row)
    people = _people(row)
    left = [
        i
        for i in range(len(row.seats))
        if row.seats[i]["bot"] or people[i].state != TableSeat.State.OUT or people[i].standing_in
    ]
    if len(left) <= 1 and not state.is_over:
        _finish(row, state, left, reason)
        return table.seen(access, state)
    moves = table.bots_answer(service, row, state, row.move, [])
    table.store(row, state)
    return table.seen(access, state, bot_moves=moves)


def _finish(row: TableGame, state: Any, winners: list[int], reason: str) -> None:
    """End a game the engine has not ended (every other seat went out): the seat left wins."""
    row.record = state.record()
    row.status = TableGame.Status.OVER
    row.to_act = row.deadline = None
    row.result = {"over": True, "winners": winners, "reason": reason, **table._marks(row)}
    table.save(row)


def _end(row: TableGame, reason: str) -> None:
    row.status = TableGame.Status.OVER
    row.to_act = row.deadline = None
    row.invite_token = None
    row.result = {"over": True, "winners": [], "reason": reason, "ended": True}
    announce.say(row, reason)
    table.save(row)


@writing()
def table_end(*, user: Any, pk: Any) -> Seen:
    """The host ends a table nobody is playing: one still waiting, or one whose other people
    are all away, played by their bots or out (409 `in_play` while someone plays)."""
    access = _locked(user, pk)
    row = access.game
    if not access.host:
        raise TableForbidden("Only the host ends the table.", code="not_host")
    if row.is_over:
        raise TableConflict("This game is over.", code="game_over")
    now = timezone.now()
    playing = [
        p
        for p in _people(row).values()
        if p.user_id != access.user.pk
        and p.state == TableSeat.State.SEATED
        and not p.standing_in
        and not (p.away_at is not None and p.away_at <= now)
    ]
    if row.status == TableGame.Status.PLAYING and playing:
        names = ", ".join(p.user.get_username() for p in playing if p.user)
        raise TableConflict(f"{names} still play at this table.", code="in_play")
    _end(row, "The host ended the table.")
    return table.seen(access, None if row.record is None else table.state_of(row))


@writing()
def table_take_back(*, user: Any, pk: Any) -> Seen:
    """`user` takes back their seats from the bot standing in for them (409 if none is)."""
    access = _locked(user, pk)
    row = access.game
    people = _people(row)
    mine = [
        people[i]
        for i in access.seats
        if people[i].state == TableSeat.State.SEATED and people[i].standing_in
    ]
    if not mine or row.status != TableGame.Status.PLAYING:
        raise TableConflict("No bot plays for you here.", code="not_standing_in")
    now = timezone.now()
    for person in mine:
        person.standing_in, person.why = False, ""
        person.last_seen, person.away_at = now, now + timedelta(seconds=row.grace_seconds)
        person.save()
    announce.say(row, f"{user.get_username()} is back and plays their seat again.")
    table.save(row)
    return table.seen(access, table.state_of(row))


@writing()
def table_invite(
    *, user: Any, pk: Any, seat: int | None = None, player: str | None = None, revoke: bool = False
) -> Seen:
    """The host's invitations: a new invitation link (`revoke`: none, the old one stops
    working), or a free `seat` kept for the named `player` (None: open to anyone)."""
    access = _waiting_for_host(user, pk, "Only the host invites.")
    row = access.game
    if seat is None:
        row.invite_token = None if revoke else _token()
        table.save(row)
        return table.seen(access, None)
    person = _people(row).get(seat)
    if person is None or person.state not in (TableSeat.State.OPEN, TableSeat.State.INVITED):
        raise TableConflict(f"Seat {seat + 1} is not free.", code="seat_taken", attr="seat")
    if player:
        users = get_user_model()
        invited = users.objects.filter(**{users.USERNAME_FIELD: player}).first()
        if invited is None:
            raise TableRefused(f"No player is named {player!r}.", code="unknown_player",
                               attr="player")  # fmt: skip
        if TableSeat.objects.filter(table=row, user=invited).exists():
            raise TableConflict(f"{player} has a seat here already.", code="already_seated")
        person.user, person.state = invited, TableSeat.State.INVITED
    else:
        person.user, person.state = None, TableSeat.State.OPEN
    person.save()
    table.save(row)
    return table.seen(access, None)


def clock_tick(now: Any = None) -> int:
    """Hand the seats of people out of time, or away past their grace, to their stand-in bots
    (or put them out, at a table opened so), and let the bots play on; the tables changed."""
    now = now or timezone.now()
    changed = 0
    for pk in clock_due(now):
        changed += _time_out(pk, now)
    return changed


@writing()
def _time_out(pk: int, now: Any) -> int:
    row = TableGame.objects.select_for_update().filter(pk=pk).first()
    if row is None or row.status != TableGame.Status.PLAYING or row.to_act is None:
        return 0
    person = _people(row).get(row.to_act)
    if person is None or person.state != TableSeat.State.SEATED or person.standing_in:
        return 0
    late = row.deadline is not None and row.deadline <= now
    away = table._is_away(row, person, now)
    if not (late or away):
        return 0
    name = person.user.get_username() if person.user else "A player"
    if late and row.on_timeout == TableGame.OnTimeout.FORFEIT:
        person.state, person.why = TableSeat.State.OUT, "forfeit"
        announce.say(row, f"{name} ran out of time and forfeits the seat.")
    else:
        why = (
            "away"
            if away and not late
            else ("clock" if row.pace == TableGame.Pace.LIVE else "deadline")
        )
        person.standing_in, person.why = True, why
        said = {"away": "is away", "clock": "ran out of time", "deadline": "missed the deadline"}
        announce.say(row, f"{name} {said[why]}: their bot plays for them.")
    person.save()
    access = Access(game=row, user=None)
    _play_on(access, "forfeit")
    return 1


@writing()
def table_rematch(*, user: Any, pk: Any) -> Seen:
    """A new table with the same seats, bots, decks and rules: `user` hosts it and sits where
    they sat with the same deck; the other people are invited to their seats again (they
    choose their decks as they sit down). With no other people it starts at once."""
    access = table_access(user=user, pk=pk)
    row = access.game
    if not row.is_over or not access.seats:
        raise TableConflict("A rematch is for the players of a finished game.", code="not_over")
    people = _people(row)
    seats: list[dict[str, Any]] = []
    for index, seat in enumerate(row.seats):
        person = people.get(index)
        if seat["bot"] or person is None:
            data = deck_input(seat.get("source"))
            data["bot"] = seat["bot"] or table.service_of(row.game).default_bot()
            if seat.get("budget"):
                data["budget"] = seat["budget"]
            seats.append(data)
        elif person.user_id == user.pk:
            data = deck_input(person.source or seat.get("source"))
            seats.append({**data, "stand_in": person.stand_in})
        elif person.user is not None:
            seats.append({"player": person.user.get_username()})
        else:
            seats.append({"open": True})
    rules = {k: v for k, v in (row.rules or {}).items() if k not in ("variants", "quick_start")}
    seen = table_game_create(
        owner=user,
        game=row.game,
        seats=seats,
        rules=rules,
        variants=row.variants,
        quick_start=row.quick_start,
        format=row.format,
        pace=row.pace,
        clock_seconds=row.clock_seconds,
        grace_seconds=row.grace_seconds,
        on_timeout=row.on_timeout,
        on_resign=row.on_resign,
        listed=False,
        spectators=row.spectators,
        spectators_talk=row.spectators_talk,
    )
    TableGame.objects.filter(pk=seen.game.pk).update(rematch_of=row)
    return seen


def deck_input(value: str | None) -> dict[str, Any]:
    """A deck's source as kept or chosen in a form ("starter:HSD-S1", "deck:12") as a seat's
    input (`{}`: none)."""
    kind, _, ref = (value or "").partition(":")
    if kind == "starter" and ref:
        return {"starter": ref}
    if kind == "deck" and ref.isdigit():
        return {"deck": int(ref)}
    return {}
