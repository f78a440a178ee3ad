"""From the site's decks to the engine's seats, checked at submission.

A run's players arrive as `{"deck": id}` (one of the user's decks, or anyone's public deck),
`{"public_deck": slug}`, `{"starter": code}`, `{"draft_bot": {"pod": id, "seat": n}}` (a bot's
deck at a finished draft the user sat at; `draft_run_create` sends these) or `{}` (a game whose
components are fixed), each with a `bot` and optionally `add` / `remove` ({code: qty}) for a
what-if change. High Stakes Drifter decks are validated for the run's format with
`formats.validate_deck`, the one rules module, so an illegal deck is refused with the
validator's problems before any worker sees it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from config.api import DomainError
from simulator.engine.core import GameSpec
from simulator.engine.core.errors import RulesError


class RunRefused(DomainError):
    """A run that cannot be started: carries every problem (the API answers them all)."""

    def __init__(self, errors: list[dict[str, Any]]):
        self.errors = errors
        first = errors[0]
        super().__init__(first["detail"], code=first["code"], attr=first.get("attr"))


def refuse(detail: str, *, code: str = "invalid", attr: str | None = None) -> RunRefused:
    """A refusal with one problem."""
    return RunRefused([{"code": code, "detail": detail, "attr": attr}])


@dataclass
class PreparedRules:
    """The canonical format name, play variants and engine rules JSON of a run."""

    format: str
    variants: list[str]
    rules: dict


def prepare_rules(spec: GameSpec, fmt: str, variants: list[str]) -> PreparedRules:
    """Check the format and variants of a run; RunRefused with every problem."""
    if spec.name != "drifter":
        if variants or fmt not in ("", "standard"):
            raise refuse(
                f"{spec.title} has fixed components and no formats or variants.",
                attr="variants" if variants else "format",
            )
        return PreparedRules(format="", variants=[], rules={})
    from simulator.engine.drifter import Rules, formats

    deck_variants, problems = formats.parse_format(fmt or formats.STANDARD)
    if problems:
        raise RunRefused([p.as_dict() for p in problems])
    try:
        # Seat 0 always goes first; the seat rotation (runner.rotation) moves the decks, so
        # each goes first once in every n consecutive games.
        rules = Rules(variants=frozenset(deck_variants) | frozenset(variants), first_player=0)
    except RulesError as exc:
        raise refuse(str(exc), attr="variants") from None
    play = sorted(rules.variants - deck_variants)
    return PreparedRules(
        format=formats.format_name(deck_variants), variants=play, rules=rules.to_json()
    )


def _apply_change(
    cards: dict[str, int], change: dict[str, Any] | None, sign: int, attr: str
) -> list[dict]:
    problems = []
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


def _deck_source(owner, data: dict, attr: str) -> tuple[str, dict, dict, Any, str]:
    """(label, cards, chips, pool, source) of a player's deck; RunRefused if not found."""
    from decks.models import Deck
    from decks.selectors import deck_contents, pool_of

    if data.get("starter"):
        from cards.models import StarterDeck

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
        from decks.selectors import draft_bot_deck

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
    *, owner, spec: GameSpec, data: dict, index: int, prepared: PreparedRules
) -> tuple[dict, list[dict]]:
    """A plan player from the input, and the problems that make it unplayable."""
    attr = f"players.{index}"
    bot = data.get("bot") or ("heuristic" if "heuristic" in spec.bots else "random")
    problems: list[dict] = []
    if bot not in spec.bots:
        problems.append(
            {"code": "unknown_bot", "detail": f"{spec.title} has no bot {bot!r}; the bots are "
             f"{', '.join(sorted(spec.bots))}.", "attr": f"{attr}.bot"}
        )  # fmt: skip
    has_deck = any(data.get(k) for k in ("deck", "public_deck", "starter", "draft_bot"))
    if not spec.needs_decks:
        if has_deck:
            problems.append(
                {"code": "no_decks", "detail": f"{spec.title} is played with fixed components: "
                 "no deck.", "attr": attr}
            )  # fmt: skip
        label = data.get("label") or f"Player {index + 1} ({bot})"
        return {"label": str(label)[:100], "bot": bot, "source": None}, problems
    if not has_deck:
        problems.append(
            {"code": "required", "detail": "Give a deck, a public deck or a starter deck.",
             "attr": attr}
        )  # fmt: skip
        return {"label": "", "bot": bot, "source": None}, problems
    from decks.engine_catalogue import engine_catalogue
    from simulator.engine.drifter import formats

    name, cards, chips, pool, source = _deck_source(owner, data, attr)
    problems += _apply_change(cards, data.get("remove"), -1, f"{attr}.remove")
    problems += _apply_change(cards, data.get("add"), +1, f"{attr}.add")
    changed = bool(data.get("add") or data.get("remove"))
    for problem in formats.validate_deck(
        fmt=prepared.format, cards=cards, kicker_chips=chips, catalogue=engine_catalogue(),
        pool=pool, starter=source.startswith("starter:"),
    ):  # fmt: skip
        error = problem.as_dict()
        error["attr"] = f"{attr}.{error['attr']}" if error.get("attr") else attr
        problems.append(error)
    label = data.get("label") or (f"{name} (changed)" if changed else name)
    seat = {
        "name": str(label)[:100],
        "deck": [code for code, qty in cards.items() for _ in range(qty)],
        "chips": [code for code, qty in chips.items() for _ in range(qty)],
        "bot": bot,
    }
    player = {
        "label": str(label)[:100],
        "bot": bot,
        "source": source,
        "seat": seat,
        "change": {"add": data.get("add") or {}, "remove": data.get("remove") or {}},
    }
    return player, problems
