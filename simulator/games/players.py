"""From the site's decks to the engine's seats, checked at submission.

A run's players arrive as `{"deck": id}` (one of the user's decks, or anyone's public deck),
`{"public_deck": slug}`, `{"starter": code}`, `{"draft_bot": {"pod": id, "seat": n}}` (a bot's
deck at a finished draft the user sat at; `draft_run_create` sends these) or `{}` (a game whose
components are fixed), each with a `bot` and optionally `add` / `remove` ({code: qty}) for a
what-if change. The bot is checked here and the rest by the game's service spec
(simulator/games): High Stakes Drifter's validates each deck for the run's format with
`formats.validate_deck`, the one rules module, so an illegal deck is refused with the
validator's problems before any worker sees it; a game of fixed components refuses decks.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from cards.models import StarterDeck
from decks.models import Deck
from decks.selectors import deck_contents, draft_bot_deck, pool_of
from simulator.games import GameService, PreparedRules, service_for
from simulator.games.plans import PlanPlayer, Problem
from simulator.games.problems import refuse

__all__ = [
    "PreparedRules",
    "apply_change",
    "budget_problems",
    "deck_source",
    "prepare_player",
    "prepare_rules",
]


def prepare_rules(game: str, fmt: str, variants: list[str]) -> PreparedRules:
    """Check the format and variants of a run of `game`; RunRefused with every problem."""
    return service_for(game).prepare_rules(fmt, variants)


def apply_change(
    cards: dict[str, int], change: dict[str, Any] | None, sign: int, attr: str
) -> list[Problem]:
    """Add (`sign` 1) or remove (-1) a what-if change's copies; the problems it has."""
    problems: list[Problem] = []
    for code, qty in (change or {}).items():
        if type(qty) is not int or qty < 1:
            problems.append(
                {"code": "bad_quantity", "detail": f"{code}: a quantity is a whole number "
                 "from 1.", "attr": attr}
            )  # fmt: skip
            continue
        cards[code] = cards.get(code, 0) + sign * qty
        if cards[code] <= 0:
            if cards[code] < 0:
                problems.append(
                    {"code": "not_in_deck", "detail": f"{code}: cannot remove more copies "
                     "than the deck holds.", "attr": attr}
                )  # fmt: skip
            del cards[code]
    return problems


def deck_source(
    owner: Any, data: dict[str, Any], attr: str
) -> tuple[str, dict[str, int], dict[str, int], Any, str]:
    """(label, cards, chips, pool, source) of a player's deck; RunRefused if not found."""
    if data.get("starter"):
        code = str(data["starter"])
        starter = StarterDeck.objects.filter(code=code).first()
        if starter is None:
            raise refuse(f"There is no starter deck {code!r}.", code="not_found", attr=attr)
        cards: dict[str, int] = {}
        for entry in starter.cards:
            cards[entry["code"]] = cards.get(entry["code"], 0) + int(entry["qty"])
        chips = dict(Counter(starter.kicker_chips))
        return starter.name, cards, chips, None, f"starter:{code}"
    if data.get("draft_bot"):
        ref = data["draft_bot"]
        try:
            pod_id, seat = int(ref["pod"]), int(ref["seat"])
        except (TypeError, KeyError, ValueError):
            raise refuse("A bot's deck is given as {pod, seat}.", attr=attr) from None
        bot = draft_bot_deck(user=owner, pod_id=pod_id, seat=seat)
        if bot is None:
            raise refuse("No such bot deck.", code="not_found", attr=attr)
        source = f"draft:{pod_id}:seat:{seat + 1}"
        return bot["name"], bot["cards"], bot["kicker_chips"], bot["pool"], source
    if data.get("public_deck"):
        deck = Deck.objects.filter(slug=str(data["public_deck"]), is_public=True).first()
    else:
        try:
            pk = int(data["deck"])
        except (TypeError, ValueError):
            raise refuse("A deck is given by its id.", attr=attr) from None
        deck = Deck.objects.filter(pk=pk).select_related("pool").first()
        # Someone else's private deck is as unknown as one that does not exist.
        if deck is not None and deck.owner_id != owner.pk and not deck.is_public:
            deck = None
    if deck is None:
        raise refuse("No such deck.", code="not_found", attr=attr)
    cards, chips = deck_contents(deck)
    return deck.name, cards, chips, pool_of(deck.pool), f"deck:{deck.pk}"


def prepare_player(
    *, owner: Any, service: GameService, data: dict[str, Any], index: int, prepared: PreparedRules
) -> tuple[PlanPlayer, list[Problem]]:
    """A plan player from the input, and the problems that make it unplayable: the bot is
    checked here, the rest (decks or none) by the game's service spec."""
    bot = data.get("bot") or service.default_bot()
    problems: list[Problem] = []
    if bot not in service.spec.bots:
        problems.append(
            {"code": "unknown_bot", "detail": f"{service.title} has no bot {bot!r}; the bots "
             f"are {', '.join(sorted(service.spec.bots))}.", "attr": f"players.{index}.bot"}
        )  # fmt: skip
    player, found = service.prepare_player(
        owner=owner, data=data, index=index, bot=bot, prepared=prepared
    )
    budget = data.get("budget")
    if budget is not None:
        found += budget_problems(service, bot, budget, f"players.{index}.budget")
        player["budget"] = budget
    return player, problems + found


def budget_problems(service: GameService, bot: str, budget: Any, attr: str) -> list[Problem]:
    """What is wrong with giving `bot` this `budget` (empty: nothing): only a bot of the game's
    `bot_budgets` has one, a whole number from 1 to its maximum."""
    bounds = service.bot_budgets.get(bot)
    if bounds is None:
        return [{"code": "no_budget", "detail": f"The {bot} bot has no budget.", "attr": attr}]
    if type(budget) is not int or not 1 <= budget <= bounds[1]:
        unit = "rollouts" if bot == "search" else "iterations"
        detail = f"The {bot} bot's budget is a whole number of {unit} from 1 to {bounds[1]}."
        return [{"code": "bad_budget", "detail": detail, "attr": attr}]
    return []
