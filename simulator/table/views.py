"""The table's pages (issue #16, section 4): `/play/` to sit down at any of the five games
against bots, the table itself (htmx: a decision posts and the table is swapped, the bots'
moves shown one by one), your unfinished games to resume, and once a game is over its replay,
"play again" and "simulate this matchup 1,000 times". Thin: simulator/table/services.py writes."""

from __future__ import annotations

import itertools
import json
import math
import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from config.api import DomainError
from config.pages import show_problems
from simulator.engine.core.errors import RulesError
from simulator.games import GameService, service_for, service_specs
from simulator.games.pages import budget_fields, deck_choices, posted_budget, render_replay
from simulator.games.problems import RunRefused
from simulator.runs import services
from simulator.table import seating, selectors
from simulator.table import services as table
from simulator.table.models import TableGame

DEFAULT_GAME = "drifter"
SIMULATED_GAMES = 1000
LOG_LINES = 60  # the narration beside the table: its last lines, newest first
VARIANT_NAMES = {"high_low": "High-Low"}  # the rest read well title-cased


def variant_name(name: str) -> str:
    """A play variant as the rules name it ("cold_hands" -> "Cold Hands")."""
    return VARIANT_NAMES.get(name, name.replace("_", " ").title())


# --- setting up a game -----------------------------------------------------------------------


def _setup_context(user, service: GameService, data=None) -> dict[str, Any]:
    spec = service.spec
    data = data or {}
    rows = []
    for i in range(1, min(spec.max_players, 8)):
        default_bot = service.default_bot() if i == 1 else ""
        default_deck = "starter:HSD-S2" if i == 1 else "starter:HSD-S1"
        rows.append(
            {
                "index": i,
                "bot": data.get(f"bot_{i}", default_bot),
                "deck": data.get(f"deck_{i}", default_deck),
                # One budget a seat: it counts the chosen bot's rollouts or iterations.
                "budget": data.get(f"budget_{i}", ""),
            }
        )
    return {
        **budget_fields(service),
        "games": [{"name": g.name, "title": g.title} for g in service_specs().values()],
        "game": service,
        "needs_decks": spec.needs_decks,
        "bots": sorted(spec.bots),
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
        "unfinished": selectors.table_game_list(owner=user).filter(status=TableGame.Status.PLAYING)[
            :20
        ],
        "finished": selectors.table_game_list(owner=user).filter(status=TableGame.Status.OVER)[:10],
    }


def _source(value: str) -> dict[str, Any]:
    """A deck choice of the form ("starter:HSD-S1", "deck:12") as a seat's input."""
    kind, _, ref = value.partition(":")
    if kind == "starter" and ref:
        return {"starter": ref}
    if kind == "deck" and ref.isdigit():
        return {"deck": int(ref)}
    return {}


def _seats_from_post(post, service: GameService) -> list[dict[str, Any]]:
    needs_decks = service.spec.needs_decks
    seats = [_source(post.get("deck_0", "")) if needs_decks else {}]
    for i in range(1, min(service.spec.max_players, 8)):
        bot = post.get(f"bot_{i}", "").strip()
        if not bot:
            continue  # an empty seat
        seat: dict[str, Any] = {"bot": bot}
        if needs_decks:
            seat |= _source(post.get(f"deck_{i}", ""))
        budget = posted_budget(post, f"budget_{i}", bot, service)
        if budget is not None:
            seat["budget"] = budget
        seats.append(seat)
    return seats


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
    """Choose a game, your deck, the opponents and their bots, the variants; sit down. Your
    unfinished games are listed to resume."""
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
            )
            return _sat_down(request, seen)
        except DomainError as exc:
            errors = exc.problems
    context = _setup_context(
        request.user, service, request.POST if request.method == "POST" else None
    )
    context["errors"] = errors
    return render(request, "simulator/play/setup.html", context, status=400 if errors else 200)


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


def _context(seen: table.Seen, error: str | None = None) -> dict[str, Any]:
    game = seen.game
    service = service_for(game.game)
    return {
        "seen": seen,
        "row": game,
        "title": service.title,
        "view": seen.view,
        "choices": choices(seen),
        "log_tail": list(reversed(seen.log[-LOG_LINES:])),
        "log_more": max(len(seen.log) - LOG_LINES, 0),
        "error": error,
        "yours": seen.yours,
    }


@login_required
def play_game(request, pk: int):
    """The table: your seat's view, your legal actions, the narration; on the first look after
    sitting down, the bots' opening moves one by one, as after any decision."""
    seen = table.table_game_seen(owner=request.user, pk=pk)
    opening = request.session.pop(_OPENING.format(pk=pk), None)
    if opening and seen.game.move == opening["move"]:
        seen.bot_moves = [table.BotMove(m["seat"], m["label"], m["log"]) for m in opening["moves"]]
    return render(request, "simulator/play/game.html", _context(seen))


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
        seen = table.table_game_seen(owner=request.user, pk=pk)
    if request.htmx:
        # The keyboard's focus goes to the first of the next decisions (htmx honours autofocus).
        context = _context(seen, error) | {"swapped": True}
        return render(request, "simulator/play/_play.html", context)
    if error is None:
        return redirect("play:game", pk=pk)
    return render(request, "simulator/play/game.html", _context(seen, error), status=status)


def _refusal(exc: DomainError) -> str:
    if exc.code == "stale_move":
        return "Refused: the game went on since that page was drawn (another tab?). This is now."
    if exc.code == "game_over":
        return "Refused: this game is over."
    return f"Refused: {' '.join(show_problems(None, exc))}"


def _over(request, pk: int) -> TableGame:
    row = selectors.table_game_get(owner=request.user, pk=pk)
    if not row.is_over:
        raise Http404("This game is not over: its replay waits for the end.")
    return row


@login_required
def play_replay(request, pk: int):
    """A finished game on the replay viewer (the record is withheld until the end)."""
    row = _over(request, pk)
    return render_replay(
        request,
        row.record or {},
        heading=f"{service_for(row.game).title}: game {row.pk}",
        back_url=reverse("play:game", args=[row.pk]),
        back_label="Back to the table",
    )


def _again_seats(row: TableGame) -> list[dict[str, Any]]:
    seats = []
    for seat in row.seats:
        data = _source(seat.get("source") or "")
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


@login_required
@require_http_methods(["GET", "POST"])
def play_invite(request, token: str):
    """An invitation link: the table it names, and a form to sit down with a deck."""
    row = selectors.table_by_token(token)
    if request.method == "POST":
        try:
            seating.table_join(
                user=request.user, token=token, deck=_source(request.POST.get("deck", ""))
            )
            return redirect("play:game", pk=row.pk)
        except DomainError as exc:
            messages.error(request, f"You cannot sit down: {' '.join(show_problems(None, exc))}")
    return redirect(f"{reverse('play:game', args=[row.pk])}?invite={token}")
