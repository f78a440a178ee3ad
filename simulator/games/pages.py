"""Page pieces every room that shows games uses: the deck picker's choices, a whole number
from a query string, and the replay viewer of any game record (a simulation's kept games, a
finished game at the table)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.shortcuts import render
from django.utils.formats import date_format

from cards.models import StarterDeck
from decks.models import Deck
from simulator.engine.core.errors import EngineError
from simulator.engine.core.registry import bot_label
from simulator.games.replays import replay_step

#: What a budgeted bot's budget counts, in the forms' words.
BUDGET_UNITS = {"search": "rollouts", "ismcts": "iterations"}


def budget_fields(service: Any) -> dict[str, Any]:
    """What a form needs to offer a budget a seat: each budgeted bot's default, maximum, name and
    what its budget counts (`budgets`), and the largest maximum (`budget_max`, the field's)."""
    budgets = {
        bot: {
            "default": default,
            "max": most,
            "name": bot_label(bot)[0],
            "unit": BUDGET_UNITS.get(bot, "tries"),
        }
        for bot, (default, most) in service.bot_budgets.items()
    }
    most = max((b["max"] for b in budgets.values()), default=None)
    return {"budgets": budgets, "budget_max": most}


def posted_budget(post: Any, field: str, bot: str, service: Any) -> Any:
    """A form's budget for `bot`: None when the field is empty or the bot takes none (the field
    is on every row); else what was typed, a whole number where it is one, for the service's
    own check (games.players.budget_problems) to accept or refuse."""
    typed = post.get(field, "").strip()
    if not typed or bot not in service.bot_budgets:
        return None
    return int(typed) if typed.isdigit() else typed


def deck_choices(user) -> list[tuple[str, list[tuple[str, str]]]]:
    """The deck picker's groups; two decks of one name are told apart by version and date."""
    starters = [(f"starter:{st.code}", st.name) for st in StarterDeck.objects.order_by("code")]
    mine = list(Deck.objects.filter(owner=user).order_by("name", "-updated"))
    public = list(
        Deck.objects.filter(is_public=True)
        .exclude(owner=user)
        .select_related("owner")
        .order_by("name")[:50]
    )
    names = Counter(d.name.casefold() for d in mine)

    def mine_label(d) -> str:
        if names[d.name.casefold()] < 2:
            return d.name
        return f"{d.name} (version {d.version}, updated {date_format(d.updated, 'j M Y')})"

    return [
        ("Starter decks", starters),
        ("My decks", [(f"deck:{d.pk}", mine_label(d)) for d in mine]),
        ("Public decks", [(f"deck:{d.pk}", f"{d.name}, by {d.owner.username}") for d in public]),
    ]


def int_param(value: str | None, default: int | None = None) -> int | None:
    """A whole number from a query or form value; `default` when it is missing or not one."""
    try:
        return int(value) if value not in (None, "") else default
    except ValueError:
        return default


LOG_LINES = 40  # the narration beside the table: its last lines, newest first


def render_replay(
    request,
    record: dict[str, Any],
    *,
    heading: str,
    back_url: str,
    back_label: str,
    marks: dict[int, str] | None = None,
):
    """The replay viewer for any game record: the game's table stepped one decision at a time.

    `?step=k` is the game after its first k decisions (0: the deal), `?seat=i` one seat's view
    (its hand, the public table, every other card face down; the default is seat 0), `?seat=all`
    every card face up. The result shows only at the last step. An htmx request gets the
    stepped fragment alone. A record that does not replay is a 422 page saying why. `marks`:
    a note on a decision by its number (0: the first), e.g. a bot that played for a person.
    Reused by every page that shows a finished game (simulation samples, played games)."""
    seat_param = request.GET.get("seat", "0")
    seat = None if seat_param == "all" else int_param(seat_param, 0)
    try:
        step = replay_step(record, int_param(request.GET.get("step"), 0) or 0, seat)
    except EngineError as exc:
        failed = {"error": str(exc), "back_url": back_url, "back_label": back_label}
        return render(request, "simulator/replay.html", failed, status=422)
    context: dict[str, Any] = {
        "replay": step,
        "seat_param": "all" if step.seat is None else str(step.seat),
        "log_tail": list(reversed(step.log[-LOG_LINES:])),
        "log_more": max(len(step.log) - LOG_LINES, 0),
        "heading": heading,
        "back_url": back_url,
        "back_label": back_label,
        "mark": (marks or {}).get(step.step - 1) if step.step > 0 else None,
    }
    if request.htmx:
        return render(request, "simulator/table/_replay.html", context)
    return render(request, "simulator/replay.html", context)
