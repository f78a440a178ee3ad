"""The table's pages (issues #16 and #26): `/play/`, the lobby and the form to open a table at
any of the five games (your seats, bots', named players' and open ones); the table itself (htmx:
a decision posts and the table is swapped, the bots' moves shown one by one; the page's script,
config/static/drifter/table-live.js, fetches `#play` again when the push channel or the
polled version says the table changed); seating (join, start, leave, resign, end, take the
seat back), the invitation link, table talk; once over the replay, a rematch and "simulate
this matchup 1,000 times"; your history against people. Thin: the services write."""

from __future__ import annotations

import itertools
import json
import math
import re
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config.api import DomainError
from config.pages import show_problems
from simulator.engine.core.errors import RulesError
from simulator.engine.core.registry import bot_label
from simulator.games import GameService, service_for, service_specs
from simulator.games.pages import budget_fields, deck_choices, posted_budget, render_replay
from simulator.games.problems import RunRefused
from simulator.runs import services
from simulator.table import seating, selectors, talk
from simulator.table import services as table
from simulator.table.models import TableGame, TableSeat

DEFAULT_GAME = "drifter"
SIMULATED_GAMES = 1000
LOG_LINES = 60  # the narration beside the table: its last lines, newest first
VARIANT_NAMES = {"high_low": "High-Low"}  # the rest read well title-cased


def variant_name(name: str) -> str:
    """A play variant as the rules name it ("cold_hands" -> "Cold Hands")."""
    return VARIANT_NAMES.get(name, name.replace("_", " ").title())


# --- the lobby and opening a table ---------------------------------------------------------

#: The seat choices beside the bots (a bot's name never starts with "@").
ME, OPEN, NAMED = "@me", "@open", "@player"
#: A correspondence table's deadline is asked in hours, a live table's clock in seconds.
HOUR = 3600


def _seat_rows(service: GameService, data) -> list[dict[str, Any]]:
    spec = service.spec
    rows = []
    for i in range(1, min(spec.max_players, 8)):
        default_bot = service.default_bot() if i == 1 else ""
        default_deck = "starter:HSD-S2" if i == 1 else "starter:HSD-S1"
        rows.append(
            {
                "index": i,
                "bot": data.get(f"bot_{i}", default_bot),
                "deck": data.get(f"deck_{i}", default_deck),
                "player": data.get(f"player_{i}", ""),
                # One budget a seat: it counts the chosen bot's rollouts or iterations.
                "budget": data.get(f"budget_{i}", ""),
            }
        )
    return rows


def _setup_context(user, service: GameService, data=None) -> dict[str, Any]:
    spec = service.spec
    data = data or {}
    rows = _seat_rows(service, data)
    mine = selectors.table_game_list(owner=user)
    return {
        **budget_fields(service),
        "games": [{"name": g.name, "title": g.title} for g in service_specs().values()],
        "game": service,
        "needs_decks": spec.needs_decks,
        "bots": [(bot, bot_label(bot)[0]) for bot in sorted(spec.bots)],
        "stand_in": data.get("stand_in_0", "heuristic" if "heuristic" in spec.bots else ""),
        "rows": rows,
        "min_opponents": spec.min_players - 1,
        # The seats past the fewest a game needs are folded away unless one was filled in.
        "more_open": any(row["bot"] for row in rows[spec.min_players - 1 :]),
        "deck_choices": deck_choices(user) if spec.needs_decks else [],
        "my_deck": data.get("deck_0", "starter:HSD-S1"),
        "variants": [
            {"name": v, "label": variant_name(v), "checked": v in data.getlist("variants")}
            if hasattr(data, "getlist")
            else {"name": v, "label": variant_name(v), "checked": False}
            for v in service.play_variants
        ],
        "quick_start": bool(data.get("quick_start")),
        "chooses_first_player": spec.chooses_first_player,
        "first_player": data.get("first_player", ""),
        "table": _table_form(data),
        "waiting_on_me": titled(selectors.tables_waiting_on(user)[:20]),
        "invitations": titled(selectors.invitations(user)[:20], lambda p: p.table.game),
        "lobby": [_lobby_row(row, user) for row in selectors.lobby()[:30]],
        # Those waiting on you are listed apart, first.
        "unfinished": labelled(
            mine.exclude(status=TableGame.Status.OVER).exclude(
                pk__in=selectors.tables_waiting_on(user).values("pk")
            )[:20]
        ),
        "finished": labelled(mine.filter(status=TableGame.Status.OVER)[:10]),
    }


def titled(rows, game=lambda row: row.game) -> list[Any]:
    """`rows` (tables, or seats of tables) each with the `title` of its game."""
    titles = {g.name: g.title for g in service_specs().values()}
    out = list(rows)
    for row in out:
        row.title = titles.get(game(row), game(row))
    return out


def _table_form(data) -> dict[str, Any]:
    """The "with other people" part of the form as posted (or its defaults)."""
    return {
        "pace": data.get("pace", TableGame.Pace.LIVE),
        "clock": data.get("clock", ""),
        "deadline_hours": data.get("deadline_hours", ""),
        "grace": data.get("grace", ""),
        "on_timeout": data.get("on_timeout", TableGame.OnTimeout.BOT),
        "on_resign": data.get("on_resign", TableGame.OnResign.OUT),
        "listed": bool(data.get("listed")),
        "spectators": bool(data.get("spectators")),
        "spectators_talk": bool(data.get("spectators_talk")),
        "open": bool(data.get("pace") or data.get("listed") or data.get("spectators")),
    }


def _lobby_row(row: TableGame, user) -> dict[str, Any]:
    people = list(row.people.all())
    free = sum(1 for p in people if p.state == TableSeat.State.OPEN)
    kept = sum(1 for p in people if p.state == TableSeat.State.INVITED)
    return {
        "row": row,
        "title": service_for(row.game).title,
        "seats": len(row.seats),
        "free": free,
        "kept": kept,
        "taken": len(row.seats) - free - kept,
        "mine": any(p.user_id == getattr(user, "pk", None) for p in people),
    }


def _seats_from_post(post, service: GameService) -> list[dict[str, Any]]:
    """The seats as the service takes them: yours first (your deck, your stand-in bot), then
    each row: a bot with its deck and budget, you again, a player by name or an open seat."""
    needs_decks = service.spec.needs_decks
    seats = [seating.deck_input(post.get("deck_0", "")) if needs_decks else {}]
    if post.get("stand_in_0", "").strip():
        seats[0]["stand_in"] = post["stand_in_0"].strip()
    for i in range(1, min(service.spec.max_players, 8)):
        choice = post.get(f"bot_{i}", "").strip()
        if not choice:
            continue  # an empty seat
        deck = seating.deck_input(post.get(f"deck_{i}", "")) if needs_decks else {}
        if choice == OPEN:
            seats.append({"open": True})
        elif choice == NAMED:
            seats.append({"player": post.get(f"player_{i}", "").strip() or "?"})
        elif choice == ME:
            seats.append(deck)
        else:
            seat: dict[str, Any] = {"bot": choice, **deck}
            budget = posted_budget(post, f"budget_{i}", choice, service)
            if budget is not None:
                seat["budget"] = budget
            seats.append(seat)
    return seats


def _whole(post, name: str, attr: str, unit: int = 1) -> int | None:
    """A form's whole number (times `unit`), None when empty; TableRefused when not one."""
    typed = post.get(name, "").strip()
    if not typed:
        return None
    if not typed.isdigit() or len(typed) > 9:
        raise table.TableRefused(f"{attr.capitalize()} is a whole number.", attr=attr)
    return int(typed) * unit


def _pace_from_post(post) -> dict[str, Any]:
    """The table's pace and manners as the service takes them."""
    pace = post.get("pace", TableGame.Pace.LIVE)
    if pace == TableGame.Pace.CORRESPONDENCE:
        clock = _whole(post, "deadline_hours", "the deadline in hours", HOUR)
    else:
        clock = _whole(post, "clock", "the clock in seconds")
    return {
        "pace": pace,
        "clock_seconds": clock,
        "grace_seconds": _whole(post, "grace", "the grace in seconds"),
        "on_timeout": post.get("on_timeout", TableGame.OnTimeout.BOT),
        "on_resign": post.get("on_resign", TableGame.OnResign.OUT),
        "listed": bool(post.get("listed")),
        "spectators": bool(post.get("spectators")),
        "spectators_talk": bool(post.get("spectators_talk")),
    }


def _rules_from_post(post, service: GameService) -> dict[str, Any]:
    """Who goes first, where the game's rules let a player choose (else drawn or by its rule)."""
    chosen = post.get("first_player", "").strip()
    if not chosen or not service.spec.chooses_first_player:
        return {}
    # The form's rows are numbered as shown; an empty row takes no seat (_seats_from_post).
    rows = range(1, min(service.spec.max_players, 8))
    seated = [0, *(i for i in rows if post.get(f"bot_{i}", "").strip())]
    if not chosen.isdigit() or int(chosen) not in seated:
        raise table.TableRefused(
            "Who goes first is one of the seats at the table.", attr="rules.first_player"
        )
    return {"first_player": seated.index(int(chosen))}


@login_required
@require_http_methods(["GET", "POST"])
def play_setup(request):
    """The lobby (tables waiting for players, your tables with those waiting on you first,
    your invitations) and the form to open a table: the game, your deck, each other seat a
    bot, you, a player by name or open, the variants and the pace. A table of you and bots
    starts at once."""
    name = (request.POST if request.method == "POST" else request.GET).get("game", DEFAULT_GAME)
    try:
        service = service_for(name)
    except RulesError:  # an unknown game: the form of the default one
        service = service_for(DEFAULT_GAME)
    errors: list[dict[str, Any]] = []
    if request.method == "POST":
        post = request.POST
        try:
            seen = seating.table_game_create(
                owner=request.user,
                game=service.name,
                seats=_seats_from_post(post, service),
                rules=_rules_from_post(post, service),
                variants=post.getlist("variants"),
                quick_start=bool(post.get("quick_start")),
                **_pace_from_post(post),
            )
            return _sat_down(request, seen)
        except DomainError as exc:
            errors = exc.problems
    context = _setup_context(
        request.user, service, request.POST if request.method == "POST" else None
    )
    context["errors"] = errors
    return render(request, "simulator/play/setup.html", context, status=400 if errors else 200)


@login_required
def play_history(request):
    """Your finished games against other people: who, with which decks, and how it ended."""
    games = []
    for row in selectors.history(request.user)[:100]:
        winners = table.winners_of(row.result)
        seats = [
            {"label": s.get("label") or f"Seat {i + 1}", "won": i in winners}
            for i, s in enumerate(row.seats)
        ]
        mine = [p.index for p in row.people.all() if p.user_id == request.user.pk]
        games.append(
            {
                "row": row,
                "title": service_for(row.game).title,
                "seats": seats,
                "won": any(i in winners for i in mine),
                "ended": bool((row.result or {}).get("ended")),
            }
        )
    return render(request, "simulator/play/history.html", {"games": games})


# --- the table -------------------------------------------------------------------------------


AMOUNT = re.compile(r"\s*\$\d+")


def choices(seen: table.Seen) -> list[dict[str, Any]]:
    """The legal actions as the page's forms: a button each, except actions that differ only
    in their amount (bets, raises), which share one form with an amount input bounded by the
    legal amounts."""
    out: list[dict[str, Any]] = []
    groups: dict[str, dict[str, Any]] = {}
    for legal in seen.legal_actions:
        action = legal["action"]
        if "amount" not in action:
            out.append({"label": legal["label"], "action": json.dumps(action)})
            continue
        template = {k: v for k, v in action.items() if k != "amount"}
        key = json.dumps(template, sort_keys=True)
        group = groups.get(key)
        if group is None:
            group = groups[key] = {
                "label": AMOUNT.sub("", legal["label"]).strip() or legal["label"],
                "action": json.dumps(template),
                "amounts": [],
            }
            out.append(group)
        group["amounts"].append(action["amount"])
    for group in groups.values():
        amounts = sorted(group.pop("amounts"))
        if len(amounts) == 1:  # one amount: a plain button naming it
            group["action"] = json.dumps({**json.loads(group["action"]), "amount": amounts[0]})
            group["label"] = f"{group['label']} ${amounts[0]}"
            continue
        steps = [b - a for a, b in itertools.pairwise(amounts)]
        group |= {"min": amounts[0], "max": amounts[-1], "step": math.gcd(*steps) or 1}
    return out


def _who(row: TableGame, people: dict[int, TableSeat], index: int) -> str:
    """A seat as "Waiting for ..." says it: its person's name (their bot's while it stands in),
    else its label."""
    person = people.get(index)
    if person is not None and person.user is not None:
        name = person.user.get_username()
        return f"{name}'s bot" if person.standing_in else name
    seat = row.seats[index]
    return seat.get("label") or f"{(seat['bot'] or 'house').capitalize()} bot"


def _seats(row: TableGame, user: Any, to_act: int | None) -> list[dict]:
    """Each seat as everyone at the table may know it (`services.seat_summaries`), numbered
    for people and marked when it is to act."""
    return [
        {
            **seat,
            "number": seat["index"] + 1,
            "name": seat["person"],
            "to_act": seat["index"] == to_act,
        }
        for seat in table.seat_summaries(row, user)
    ]


def labelled(rows) -> list[TableGame]:
    """Tables each with its game's `title` and its seats' `labels` (before the start too)."""
    out = titled(rows)
    for row in out:
        row.labels = [s["label"] for s in table.seat_summaries(row, None)]
    return out


def _stand_ins(row: TableGame, people: dict[int, TableSeat]) -> list[dict[str, Any]]:
    """The decisions a bot made for a person, as the page marks them."""
    out = []
    for mark in row.stand_in_moves or []:
        seat = mark.get("seat")
        person = people.get(seat) if isinstance(seat, int) else None
        out.append(
            {
                "move": int(mark.get("move", 0)) + 1,
                "who": person.user.get_username() if person and person.user else "A player",
                "bot": bot_label(str(mark.get("bot") or ""))[0],
                "why": table.STAND_IN_WHY.get(str(mark.get("why")), str(mark.get("why") or "")),
            }
        )
    return out


# long: everything the table's page shows, in one place so the page and its partial agree
def _context(request, seen: table.Seen, error: str | None = None) -> dict[str, Any]:
    row = seen.game
    access = seen.access
    service = service_for(row.game)
    people = table._people(row)
    user = request.user
    uid = user.pk if user.is_authenticated else None
    seats = _seats(row, user, seen.to_act)
    mine = [people[i] for i in (access.seats if access else []) if i in people]
    playing = row.status == TableGame.Status.PLAYING
    others = {p.user_id for p in people.values()} - {uid}
    joinable = bool(
        row.is_waiting
        and uid is not None
        and access is not None
        and not access.seats
        and (access.invited or access.token or row.listed)
        and any(p.state in (TableSeat.State.OPEN, TableSeat.State.INVITED) for p in people.values())
    )
    invite = None
    if access is not None and access.host and row.is_waiting and row.invite_token:
        invite = request.build_absolute_uri(reverse("play:invite", args=[row.invite_token]))
    turn = ""
    if playing and seen.seat is not None:
        turn = "Your turn" if len(seen.yours) == 1 else f"Your turn: seat {seen.seat + 1}"
    elif playing and seen.to_act is not None:
        turn = f"Waiting for {_who(row, people, seen.to_act)}"
    readable = access is not None and talk.may_read(access)
    return {
        "seen": seen,
        "row": row,
        "title": service.title,
        "view": seen.view,
        "choices": choices(seen),
        "log_tail": list(reversed(seen.log[-LOG_LINES:])),
        "log_more": max(len(seen.log) - LOG_LINES, 0),
        "error": error,
        "yours": seen.yours,
        "seats": seats,
        "turn": turn,
        "spectator": not seen.yours,
        "host": bool(access and access.host),
        "playing": playing,
        "standing_in": playing and any(p.standing_in and p.state == "seated" for p in mine),
        "can_resign": playing and any(p.state == TableSeat.State.SEATED for p in mine),
        "can_leave": row.is_waiting and bool(access and (access.seats or access.invited)),
        "joinable": joinable,
        "join_url": reverse("play:join", args=[row.pk]),
        "deck_choices": deck_choices(user) if joinable and service.spec.needs_decks else [],
        "stand_in_bots": [(b, bot_label(b)[0]) for b in sorted(service.spec.bots)],
        "invite_url": invite,
        "stand_ins": _stand_ins(row, people),
        "shared": bool(others - {None}) or any(p.user_id is None for p in people.values()),
        "live": not row.is_over and (bool(others) or not seen.yours or row.is_waiting),
        "talk": list(talk.talk_list(access)) if access is not None and readable else [],
        "talk_read": readable,
        "talk_write": access is not None and talk.may_talk(access),
        "talk_max": talk.MAX_CHARS,
        "poll_seconds": settings.TABLE_POLL_SECONDS,
        "heartbeat_seconds": settings.TABLE_HEARTBEAT_SECONDS,
        "deadline_iso": row.deadline.isoformat() if playing and row.deadline else "",
    }


def _seen(request, pk: int) -> table.Seen:
    return table.table_game_seen(owner=request.user, pk=pk)


def play_game(request, pk: int):
    """The table: your seat's view, your legal actions, the narration; whose turn it is and
    their clock; the seats and the table talk. On the first look after sitting down, the bots'
    opening moves one by one, as after any decision. A spectator (where the table allows
    them) sees only what is public; a visitor who may not see it is asked to log in."""
    try:
        seen = _seen(request, pk)
    except Http404:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise
    opening = request.session.pop(_OPENING.format(pk=pk), None)
    if opening and seen.game.move == opening["move"]:
        seen.bot_moves = [table.BotMove(m["seat"], m["label"], m["log"]) for m in opening["moves"]]
    return render(request, "simulator/play/game.html", _context(request, seen))


@require_GET
def play_live(request, pk: int):
    """The table's living part alone (the page's `#play`): what the page's script fetches when
    the push channel or the version it polls says the table changed."""
    return render(request, "simulator/play/_play.html", _context(request, _seen(request, pk)))


# The bots' moves before the player's first decision, carried over the redirect to the table.
_OPENING = "play:{pk}:opening"


def _sat_down(request, seen: table.Seen):
    """To the new game's table, keeping the bots' opening moves for its first look."""
    if seen.bot_moves:
        request.session[_OPENING.format(pk=seen.game.pk)] = {
            "move": seen.game.move,
            "moves": [{"seat": m.seat, "label": m.label, "log": m.log} for m in seen.bot_moves],
        }
    return redirect("play:game", pk=seen.game.pk)


@login_required
@require_POST
def play_act(request, pk: int):
    """A decision from the table's forms (`move`, the action's JSON, an `amount` where the
    action has one). htmx gets the table back to swap in (a refusal said at its top); a plain
    form post is redirected to the table, or answered 400/409 with the refusal."""
    post = request.POST
    error = None
    status = 200
    try:
        try:
            action = json.loads(post.get("action", ""))
            if not isinstance(action, dict):
                raise ValueError
            if "amount" in post:
                action["amount"] = int(post["amount"])
        except ValueError:
            raise table.TableRefused(
                "That is not one of your actions.", code="illegal_action", attr="action"
            ) from None
        move = int(post["move"]) if post.get("move", "").isdigit() else post.get("move")
        seen = table.table_game_act(owner=request.user, pk=pk, move=move, action=action)
    except DomainError as exc:
        error, status = _refusal(exc), exc.status
        seen = _seen(request, pk)
    if request.htmx:
        # The keyboard's focus goes to the first of the next decisions (htmx honours autofocus).
        context = _context(request, seen, error) | {"swapped": True}
        return render(request, "simulator/play/_play.html", context)
    if error is None:
        return redirect("play:game", pk=pk)
    context = _context(request, seen, error)
    return render(request, "simulator/play/game.html", context, status=status)


def _refusal(exc: DomainError) -> str:
    if exc.code == "stale_move":
        return "Refused: the game went on since that page was drawn (another tab?). This is now."
    if exc.code == "game_over":
        return "Refused: this game is over."
    return f"Refused: {' '.join(show_problems(None, exc))}"


def _over(request, pk: int) -> TableGame:
    # A spectator of a finished table sees every seat's view, as a player does.
    row = selectors.table_access(user=request.user, pk=pk).game
    if not row.is_over:
        raise Http404("This game is not over: its replay waits for the end.")
    return row


@login_required
def play_replay(request, pk: int):
    """A finished game on the replay viewer (the record is withheld until the end)."""
    row = _over(request, pk)
    if row.record is None:  # a table ended before it began has nothing to replay
        raise Http404("This table never began: there is no replay.")
    return render_replay(
        request,
        row.record,
        heading=f"{service_for(row.game).title}: game {row.pk}",
        back_url=reverse("play:game", args=[row.pk]),
        back_label="Back to the table",
        marks=stand_in_marks(row),
    )


def stand_in_marks(row: TableGame) -> dict[int, str]:
    """The decisions a bot made for a person, by number, as the replay marks them."""
    marks = {}
    for mark in row.stand_in_moves or []:
        who = row.seats[mark["seat"]]["label"] if mark["seat"] < len(row.seats) else "a player"
        bot = "passive play" if mark["bot"] == "passive" else f"the {mark['bot']} bot"
        why = table.STAND_IN_WHY.get(mark["why"], mark["why"])
        marks[mark["move"]] = f"Played by {bot} for {who} ({why})"
    return marks


def _again_seats(row: TableGame) -> list[dict[str, Any]]:
    seats = []
    for seat in row.seats:
        data = seating.deck_input(seat.get("source") or "")
        if seat["bot"]:
            data["bot"] = seat["bot"]
            if seat.get("budget") is not None:
                data["budget"] = seat["budget"]
        seats.append(data)
    return seats


@login_required
@require_POST
def play_again(request, pk: int):
    """A rematch: the same seats, decks, bots and rules, a new deal (the other people are
    invited to their seats again)."""
    try:
        seen = seating.table_rematch(user=request.user, pk=pk)
    except DomainError as exc:
        why = " ".join(show_problems(None, exc))
        messages.error(request, f"This game cannot be played again: {why}")
        return redirect("play:game", pk=pk)
    return _sat_down(request, seen)


@login_required
@require_POST
def play_simulate(request, pk: int):
    """This matchup, 1,000 bot games on the simulator (your seats played by the game's
    default bot): the run's page."""
    row = selectors.table_game_get(owner=request.user, pk=pk)
    service = service_for(row.game)
    players = []
    for seat in _again_seats(row):
        seat.pop("budget", None)
        seat.setdefault("bot", service.default_bot())
        players.append(seat)
    try:
        run, _ = services.run_create(
            owner=request.user,
            game=row.game,
            players=players,
            games=SIMULATED_GAMES,
            format=row.format,
            variants=row.variants,
        )
    except RunRefused as exc:
        why = " ".join(show_problems(None, exc))
        messages.error(request, f"This matchup cannot be simulated: {why}")
        return redirect("play:game", pk=pk)
    return redirect("simulator:detail", pk=run.pk)


# --- seating: joining, starting, leaving, resigning, ending, taking the seat back ------------


def _refused(request, pk: int, exc: DomainError):
    """A seating change refused: the table as it is, the refusal at its top, the error's
    status (nothing was written)."""
    context = _context(request, _seen(request, pk), _refusal(exc))
    return render(request, "simulator/play/game.html", context, status=exc.status)


def _join_input(post) -> dict[str, Any]:
    budget = post.get("stand_in_budget", "").strip()
    return {
        "deck": seating.deck_input(post.get("deck", "")),
        "stand_in": post.get("stand_in", "").strip() or None,
        "stand_in_budget": int(budget) if budget.isdigit() and len(budget) < 9 else None,
    }


@login_required
@require_POST
def play_join(request, pk: int):
    """Sit down at a waiting table you are invited to (or that is listed) with your deck and
    the bot that plays for you while you are away."""
    try:
        seating.table_join(user=request.user, pk=pk, **_join_input(request.POST))
    except DomainError as exc:
        return _refused(request, pk, exc)
    messages.success(request, "You sat down. The game begins when the host starts it.")
    return redirect("play:game", pk=pk)


@login_required
@require_http_methods(["GET", "POST"])
def play_invite(request, token: str):
    """An invitation link: the table it names, who sits there, and a form to sit down with a
    deck (and the bot that plays for you while you are away)."""
    row = selectors.table_by_token(token)
    access = selectors.table_access(user=request.user, pk=row.pk, token=token)
    if access.seats or not row.is_waiting:
        return redirect("play:game", pk=row.pk)
    status, error = 200, None
    if request.method == "POST":
        try:
            seating.table_join(user=request.user, token=token, **_join_input(request.POST))
            messages.success(request, "You sat down. The game begins when the host starts it.")
            return redirect("play:game", pk=row.pk)
        except DomainError as exc:
            status, error = exc.status, _refusal(exc)
    seen = table.seen(access, None)
    context = _context(request, seen, error) | {"join_url": request.path, "token": token}
    return render(request, "simulator/play/invite.html", context, status=status)


def _seating(request, pk: int, change, done: str):
    try:
        change(user=request.user, pk=pk)
    except DomainError as exc:
        return _refused(request, pk, exc)
    messages.success(request, done)
    return redirect("play:game", pk=pk)


@login_required
@require_POST
def play_start(request, pk: int):
    """The host starts the table; with `fill`, bots take the free seats first."""
    fill = bool(request.POST.get("fill"))
    try:
        seating.table_start(user=request.user, pk=pk, fill=fill)
    except DomainError as exc:
        return _refused(request, pk, exc)
    return redirect("play:game", pk=pk)


@login_required
@require_POST
def play_leave(request, pk: int):
    """Leave a table before it begins (the host leaving closes it)."""
    return _seating(request, pk, seating.table_leave, "You left the table.")


@login_required
@require_POST
def play_resign(request, pk: int):
    """Resign the game under way (your seat is out, or a bot plays on, as the table says)."""
    return _seating(request, pk, seating.table_resign, "You resigned.")


@login_required
@require_POST
def play_end(request, pk: int):
    """The host ends a table nobody is playing."""
    return _seating(request, pk, seating.table_end, "You ended the table.")


@login_required
@require_POST
def play_take_back(request, pk: int):
    """Take your seat back from the bot playing it for you."""
    return _seating(request, pk, seating.table_take_back, "You play your seat again.")


# --- table talk ------------------------------------------------------------------------------


def _talk_panel(request, pk: int, error: str = "", text: str = ""):
    seen = _seen(request, pk)
    context = _context(request, seen) | {"talk_error": error, "talk_text": text}
    return render(request, "simulator/play/_talk.html", context)


@require_http_methods(["GET", "POST"])
def play_talk(request, pk: int):
    """The table talk (GET: the panel, as the page's script fetches it); POST `text` says a
    line. A refusal (too long, too fast, not yours to say) writes nothing: htmx gets the panel
    with the reason under the form (and what was typed, to send again), a plain form post the
    table page with the refusal at its top and the refusal's 4xx."""
    if request.method == "GET":
        return _talk_panel(request, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("play:game", args=[pk]))
    text = request.POST.get("text", "")
    try:
        talk.talk_post(user=request.user, pk=pk, text=text)
    except DomainError as exc:
        if request.htmx:
            why = " ".join(show_problems(None, exc))
            # 200, as a refused decision is to htmx (play_act): htmx swaps only a success in.
            return _talk_panel(request, pk, why, text=text[: talk.MAX_CHARS * 2])
        return _refused(request, pk, exc)
    if request.htmx:
        return _talk_panel(request, pk)
    return redirect("play:game", pk=pk)


@login_required
@require_POST
def play_talk_hide(request, pk: int):
    """Hide a line from your own reading (`show` puts it back)."""
    try:
        talk.talk_hide(
            user=request.user,
            pk=pk,
            message_id=request.POST.get("line"),
            hide=not request.POST.get("show"),
        )
    except DomainError as exc:
        return _refused(request, pk, exc)
    return _talk_panel(request, pk) if request.htmx else redirect("play:game", pk=pk)


@login_required
@require_POST
def play_talk_remove(request, pk: int):
    """The host removes a line for everyone."""
    try:
        talk.talk_remove(user=request.user, pk=pk, message_id=request.POST.get("line"))
    except DomainError as exc:
        return _refused(request, pk, exc)
    return _talk_panel(request, pk) if request.htmx else redirect("play:game", pk=pk)
