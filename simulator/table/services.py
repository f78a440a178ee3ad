"""The table (issue #16): games people play against bots, one decision at a time.

A `TableGame` row keeps the engine's game record, the truth: every request rebuilds the live
state from it by replaying (`GameService.rebuild`, no RNG), applies the caller's decision under
a row lock, lets the bots answer until one of the caller's seats is due or the game ends, and
stores the new record. What a seat is served (`seen`) comes only from the game's table hooks
(`table_view`, `action_label`, `table_log`) for the seat to act: never the seed, the deck
order, another seat's hidden cards or a chance outcome still to come. Docs: docs/table.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, cast

from django.db import transaction

from config.api import DomainError
from simulator.engine.core.chance import RecordedChance
from simulator.engine.core.errors import IllegalAction, RecordError, RulesError
from simulator.games import GameService, service_for
from simulator.games.base import CatalogueChanged, PreparedRules
from simulator.games.plans import PlanPlayer, Problem
from simulator.table.models import TableGame
from simulator.table.selectors import table_game_get

#: What the bots' seeds are derived from, with the game's seed and the move number.
BOT_SEED_MULTIPLIER = 1_000_003
BOT_SEED_MODULUS = 2**62
#: Keeps the seeds of the chance still to come apart from the bots' seeds.
CHANCE_SALT = 0x5EED_CA4D
#: And the secret order of the deck lists (`table_game_create`).
DECK_ORDER_SALT = 0xDEC_0DE5
#: The engine seat's bot name for a seat its owner plays (the record's `bot` is informative).
PLAYER = "human"


class TableRefused(DomainError):
    """A game that cannot be started, or a decision that cannot be applied (nothing written)."""


class TableConflict(DomainError):
    """A decision for a move that is not the game's current one, or for a finished game."""

    status = 409


@dataclass
class BotMove:
    """A bot's decision as the viewing seat may know it: who acted and the narration it made."""

    seat: int
    label: str
    log: list[str]


@dataclass
class Seen:
    """A game as one seat is served it (the API's and the page's answer)."""

    game: TableGame
    seat: int | None  # the seat to act (one of the caller's), None once the game is over
    viewer: int  # whose view and narration these are
    view: dict[str, Any]
    legal_actions: list[dict[str, Any]]
    log: list[str]
    result: dict[str, Any] | None
    bot_moves: list[BotMove] = field(default_factory=list)
    #: The engine's actions by index in `legal_actions` (for the page's forms; never served).
    actions: list[Any] = field(default_factory=list, repr=False)


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


def your_seats(game: TableGame) -> list[int]:
    """The seats the game's owner plays."""
    return [i for i, seat in enumerate(game.seats) if not seat["bot"]]


# --- starting a game -------------------------------------------------------------------------


def _check_bot(
    service: GameService, data: dict[str, Any], index: int
) -> tuple[str | None, int | None, list[Problem]]:
    """(bot or None for the caller's seat, budget, problems) of one seat of the input."""
    bot, budget = data.get("bot"), data.get("budget")
    attr = f"seats.{index}"
    if bot is None:
        if budget is not None:
            return None, None, [_problem("budget_without_bot", "Only a bot has a budget.", attr)]
        return None, None, []
    if bot not in service.spec.bots:
        known = ", ".join(sorted(service.spec.bots))
        detail = f"{service.title} has no bot {bot!r}; the bots are {known}."
        return None, None, [_problem("unknown_bot", detail, f"{attr}.bot")]
    if budget is None:
        return bot, None, []
    bounds = service.bot_budgets.get(bot)
    if bounds is None:
        return bot, None, [_problem("no_budget", f"The {bot} bot has no budget.", f"{attr}.budget")]
    if type(budget) is not int or not 1 <= budget <= bounds[1]:
        unit = "rollouts" if bot == "search" else "iterations"
        detail = f"The {bot} bot's budget is a whole number of {unit} from 1 to {bounds[1]}."
        return bot, None, [_problem("bad_budget", detail, f"{attr}.budget")]
    return bot, budget, []


def _problem(code: str, detail: str, attr: str | None) -> Problem:
    return {"code": code, "detail": detail, "attr": attr}


def _labels(bots: list[str | None], decks: list[str | None], player: str) -> list[str]:
    """What the table calls each seat: the player's name or "Heuristic bot", with its deck,
    unique. The narration says it in the third person ("demo plays ..."), so not "You"."""
    mine = sum(1 for b in bots if b is None)
    labels = []
    for i, (bot, deck) in enumerate(zip(bots, decks, strict=True)):
        if bot is None:
            who = player if mine == 1 else f"{player}, seat {i + 1}"
        else:
            who = f"{bot} bot".capitalize()
        labels.append(f"{who} ({deck})" if deck else who)
    return [
        label if labels.count(label) == 1 else f"{label}, seat {i + 1}"
        for i, label in enumerate(labels)
    ]


@transaction.atomic
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
) -> Seen:
    """Sit `owner` down at a new game: check every seat, start the engine, let the bots act
    until one of the owner's seats is due; TableRefused with every problem, nothing written.

    A seat is `{"deck": id}`, `{"starter": code}`, `{"public_deck": slug}` or `{}` (a game of
    fixed components), with `"bot"` (and `"budget"`) for a bot's seat; the others are the
    owner's. `seed` is for tests and benchmarks: the API never takes one (it would tell the
    caller every shuffle).
    """
    service = service_of(game)
    _check_seats(service=service, seats=seats)
    rules = _checked_rules(rules)
    prepared = _prepared_rules(service=service, format=format, variants=variants)
    catalogue_version = service.catalogue_version()
    bots, budgets, players = _prepared_seats(
        service=service, owner=owner, seats=seats, prepared=prepared
    )
    if seed is None:
        seed = new_seed()
    decks = [p.get("label") if p.get("source") else None for p in players]
    labels = _labels(bots, decks, str(owner.get_username())[:40] or "Player")
    _label_and_order_decks(players=players, labels=labels, seed=seed)
    table_rules = _table_rules(prepared=prepared, rules=rules, quick_start=quick_start)
    catalogue = _catalogue(service, catalogue_version)
    state = _new_engine_game(
        service=service, players=players, table_rules=table_rules, seed=seed, catalogue=catalogue
    )
    record = state.record()
    row = TableGame(
        owner=owner,
        game=service.spec.name,
        seats=_stored_seats(players=players, bots=bots, budgets=budgets),
        rules=record["rules"],
        format=prepared.format,
        variants=prepared.variants,
        seed=seed,
        catalogue_version=catalogue_version,
        record=record,
    )
    state = _rebuilt(service, record, seed, catalogue_version)
    moves = _bots_answer(service, row, state, 0)
    _store(row, state)
    row.save()
    return seen(row, state, bot_moves=moves)


def _check_seats(*, service: GameService, seats: Any) -> None:
    """TableRefused unless `seats` is a list of objects, as many as the game seats."""
    spec = service.spec
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise TableRefused("seats is a list of objects.", attr="seats")
    if not spec.min_players <= len(seats) <= spec.max_players:
        bounds = f"{spec.min_players} to {spec.max_players}"
        raise TableRefused(f"{spec.title} is played by {bounds} seats.", attr="seats")


def _checked_rules(rules: dict[str, Any] | None) -> dict[str, Any]:
    """A copy of the caller's rules; TableRefused if they hold what is given beside them."""
    rules = dict(rules or {})
    for key in ("variants", "quick_start"):
        if key in rules:
            raise TableRefused(f"Give {key} beside the rules, not in them.", attr=f"rules.{key}")
    return rules


def _prepared_rules(
    *, service: GameService, format: str, variants: list[str] | None
) -> PreparedRules:
    """The game's rules for `format` and `variants`; TableRefused with the spec's problems."""
    try:
        return service.prepare_rules(format, list(variants or []))
    except DomainError as exc:
        raise TableRefused(problems=exc.problems) from None


def _prepared_seats(
    *, service: GameService, owner: Any, seats: list[dict[str, Any]], prepared: PreparedRules
) -> tuple[list[str | None], list[int | None], list[PlanPlayer]]:
    """(bots, budgets, players) of the seats, each checked; TableRefused with every problem,
    or if every seat is a bot's."""
    problems: list[Problem] = []
    bots: list[str | None] = []
    budgets: list[int | None] = []
    players: list[PlanPlayer] = []
    for index, data in enumerate(seats):
        bot, budget, found = _check_bot(service, data, index)
        problems += found
        bots.append(bot)
        budgets.append(budget)
        body = {k: v for k, v in data.items() if k not in ("bot", "budget", "label")}
        try:
            player, found = service.prepare_player(
                owner=owner, data=body, index=index, bot=bot or PLAYER, prepared=prepared
            )
        except DomainError as exc:
            player = {"label": "", "bot": bot or PLAYER, "source": None}
            found = cast(list[Problem], exc.problems)
        problems += [_seat_attr(p) for p in found]
        players.append(player)
    if not problems and all(bots):
        problems.append(_problem("no_seat", "Keep at least one seat without a bot.", "seats"))
    if problems:
        raise TableRefused(problems=problems)
    return bots, budgets, players


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


def _new_engine_game(
    *,
    service: GameService,
    players: list[PlanPlayer],
    table_rules: dict[str, Any],
    seed: int,
    catalogue: Any,
) -> Any:
    """The engine's new game; TableRefused if it cannot play these rules."""
    try:
        return service.new_game(
            [service.engine_seat(p) for p in players],
            service.engine_rules(table_rules),
            seed,
            True,
            catalogue,
        )
    except (RulesError, TypeError) as exc:
        raise TableRefused(f"These rules cannot be played: {exc}", attr="rules") from None


def _stored_seats(
    *, players: list[PlanPlayer], bots: list[str | None], budgets: list[int | None]
) -> list[dict[str, Any]]:
    """The seats as a TableGame row keeps them."""
    return [
        {
            "label": p["label"],
            "bot": bot,
            "budget": budget,
            "source": p.get("source"),
            "engine": p.get("seat"),
        }
        for p, bot, budget in zip(players, bots, budgets, strict=True)
    ]


def _seat_attr(problem: Problem) -> Problem:
    """A spec's problem about `players.N...` (its run's name) as one about `seats.N...`."""
    attr = problem.get("attr")
    if isinstance(attr, str) and attr.startswith("players."):
        problem = {**problem, "attr": "seats." + attr.removeprefix("players.")}
    return problem


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


def _bots_answer(service: GameService, row: TableGame, state: Any, move: int) -> list[Told]:
    """Let the bots decide until one of the owner's seats is due or the game ends (`move`:
    the decisions made so far). Each bot move keeps the narration it added for every seat of
    the owner's: which of them is served is known only once the bots are done."""
    mine = your_seats(row)
    moves: list[Told] = []
    before = {s: len(service.table_log(state, s)) for s in mine}
    while not state.is_over and row.seats[state.to_act]["bot"]:
        p = state.to_act
        seat = row.seats[p]
        bot = service.make_bot(seat["bot"], p, bot_seed(row.seed, move), seat.get("budget"))
        state.apply(bot.choose(state.view(p), state.legal_actions()))
        move += 1
        told = {}
        for s in mine:
            log = service.table_log(state, s)
            told[s] = log[before[s] :]
            before[s] = len(log)
        moves.append(Told(p, seat["label"], told))
    return moves


@dataclass
class Told:
    """A bot's decision with the narration it added for each of the owner's seats."""

    seat: int
    label: str
    told: dict[int, list[str]]


def _store(row: TableGame, state: Any) -> None:
    """The state's record, move number, status and result onto the row (not saved)."""
    row.record = state.record()
    row.move = sum(1 for ev in row.record["events"] if ev[0] == "act")
    if state.is_over:
        row.status = TableGame.Status.OVER
        row.result = state.final()


@transaction.atomic
def table_game_act(*, owner: Any, pk: Any, move: Any, action: Any) -> Seen:
    """Apply the owner's `action` at `move` and let the bots answer, under the row's lock.

    TableConflict (409) for a finished game or a move that is not the current one (a second
    tab, a double click: the decision is applied once); TableRefused `illegal_action` with the
    engine's reason when the engine refuses it. Either way nothing is written.
    """
    row = table_game_get(owner=owner, pk=pk, for_update=True)
    if row.is_over:
        raise TableConflict("This game is over.", code="game_over", attr="move")
    if type(move) is not int or move != row.move:
        raise TableConflict(
            f"This is move {row.move}, not {move!r}: the game went on (another tab?). Reload it.",
            code="stale_move",
            attr="move",
        )
    service = service_of(row.game)
    state = state_of(row)
    seat = state.to_act
    if row.seats[seat]["bot"]:  # cannot happen: bots answer before a game is stored
        raise RuntimeError(f"table game {row.pk} waits on a bot")
    legal = state.legal_actions()
    try:
        state.apply(type(legal[0]).from_json(action))
    except IllegalAction as exc:
        raise TableRefused(str(exc), code="illegal_action", attr="action") from None
    moves = _bots_answer(service, row, state, row.move + 1)
    _store(row, state)
    row.save()
    return seen(row, state, bot_moves=moves, viewer=seat)


# --- what a seat is served -------------------------------------------------------------------


def seen(
    row: TableGame, state: Any, *, bot_moves: list[Told] | None = None, viewer: int | None = None
) -> Seen:
    """The game as its owner's seat to act may see it (once over: the seat `viewer`, else the
    owner's first). Built from the spec's table hooks only."""
    service = service_of(row.game)
    mine = your_seats(row)
    seat = None if state.is_over else state.to_act
    if seat is not None:
        viewer = seat
    elif viewer is None or viewer not in mine:
        viewer = mine[0]
    actions = [] if seat is None else state.legal_actions()
    return Seen(
        game=row,
        seat=seat,
        viewer=viewer,
        view=service.table_view(state, viewer),
        legal_actions=[
            {"action": a.to_json(), "label": service.action_label(state, a)} for a in actions
        ],
        log=service.table_log(state, viewer),
        result=state.final() if state.is_over else None,
        bot_moves=[BotMove(m.seat, m.label, m.told.get(viewer, [])) for m in bot_moves or []],
        actions=actions,
    )


def table_game_seen(*, owner: Any, pk: Any) -> Seen:
    """One of `owner`'s games as the seat to act sees it (Http404 for anyone else's)."""
    row = table_game_get(owner=owner, pk=pk)
    return seen(row, state_of(row))
