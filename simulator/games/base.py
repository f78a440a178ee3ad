"""`GameService`: the service side of one game, as a game with fixed components needs it.

A subclass (simulator/games/<game>.py, `Spec`) overrides what its game does differently:
rules and formats, decks, the card catalogue, the engine's rules and seat objects, how its
table is shown to one seat. Everything here is plain Python; what needs Django is imported
where it is used, so the runner stays importable without it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from simulator.engine.core import GameSpec
from simulator.games import charts
from simulator.games.plans import GameFacts, PlanPlayer, Problem, Report
from simulator.games.problems import refuse

DEFAULT_GAME_COST = 0.01


@dataclass
class PreparedRules:
    """The canonical format name, play variants and engine rules JSON of a run."""

    format: str
    variants: list[str]
    rules: dict[str, Any]


class CatalogueChanged(Exception):
    """The card catalogue is not the version a run was planned with (docs/simulations.md)."""

    def __init__(self, planned: int | None, current: int | None) -> None:
        self.planned = planned
        self.current = current
        super().__init__(
            f"The card catalogue changed since this run was planned (version {planned}, now "
            f"{current}): its games would be played with other cards. Start the run again."
        )


class GameService:
    """How the service validates, plans, plays, reports and replays one registered game.

    This base serves a game played with fixed components: no formats, variants or decks, no
    card catalogue; the engine's own rules (none), seats named by their labels, `final()` read
    for the report, and the engine's narration for the replay.
    """

    #: Seconds one game takes per bot (before any run has been measured; runner.estimate_cost).
    game_cost: dict[str, float] = {}
    #: The same where the engine could run compiled but runs as pure Python.
    pure_game_cost: dict[str, float] = {}
    #: Formats (name -> label) and play variants the new-run form offers for this game, with
    #: what people call each variant and a line on what each format and variant changes.
    formats: dict[str, str] = {}
    play_variants: tuple[str, ...] = ()
    format_notes: dict[str, str] = {}
    variant_labels: dict[str, str] = {}
    variant_notes: dict[str, str] = {}

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.name = spec.name
        self.title = spec.title

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"

    # --- planning a run (adapters, services.run_create) -------------------------------------

    def prepare_rules(self, fmt: str, variants: list[str]) -> PreparedRules:
        """Check the format and variants of a run; RunRefused with every problem."""
        if variants or fmt not in ("", "standard"):
            raise refuse(
                f"{self.title} has fixed components and no formats or variants.",
                attr="variants" if variants else "format",
            )
        return PreparedRules(format="", variants=[], rules={})

    def prepare_player(
        self, *, owner: Any, data: dict[str, Any], index: int, bot: str, prepared: PreparedRules
    ) -> tuple[PlanPlayer, list[Problem]]:
        """A plan player from the input (its bot already chosen), and what makes it unplayable."""
        attr = f"players.{index}"
        problems: list[Problem] = []
        if any(data.get(k) for k in ("deck", "public_deck", "starter", "draft_bot")):
            problems.append(
                {"code": "no_decks", "detail": f"{self.title} is played with fixed "
                 "components: no deck.", "attr": attr}
            )  # fmt: skip
        label = data.get("label") or f"Player {index + 1} ({bot})"
        return {"label": str(label)[:100], "bot": bot, "source": None}, problems

    #: The bot a seat gets when nobody chooses one (issue #25 §3), if the game registers it.
    preferred_bot = "heuristic"

    def default_bot(self) -> str:
        for bot in (self.preferred_bot, "heuristic"):
            if bot in self.spec.bots:
                return bot
        return "random"

    #: The game's bots from weakest to strongest: a run's headline is checked with the next
    #: bot up from the strongest it was measured with (docs/bots.md, "Checking a headline").
    bot_strength: tuple[str, ...] = ("random", "heuristic", "ismcts")

    def stronger_bot(self, bots: Iterable[str]) -> str | None:
        """The bot to check a headline measured with `bots` with: the next one up the game's
        `bot_strength` from the strongest of them (None: it was already the strongest)."""
        order = [b for b in self.bot_strength if b in self.spec.bots]
        ranks = [order.index(b) for b in bots if b in order]
        top = max(ranks, default=-1)
        return order[top + 1] if top + 1 < len(order) else None

    def catalogue_version(self) -> int | None:
        """The catalogue version a new run pins in its plan (None: the game has no catalogue)."""
        return None

    def catalogue(self, version: int | None = None) -> Any:
        """The catalogue to play, report and replay with; CatalogueChanged if `version` (a
        plan's) is not the current one. None: the game has no catalogue."""
        return None

    # --- playing (runner.play_chunk) --------------------------------------------------------

    def engine_rules(self, rules: dict[str, Any]) -> Any:
        """The `rules` argument of `new_game` from the plan's JSON rules."""
        return rules or None

    def engine_seat(self, player: PlanPlayer) -> Any:
        """The engine seat of a plan player."""
        return player.get("seat") or {"name": player["label"]}

    def new_game(
        self, seats: list[Any], rules: Any, seed: int, record: bool, catalogue: Any
    ) -> Any:
        return self.spec.new_game(seats=seats, rules=rules, seed=seed, record=record)

    def facts(self, state: Any, first: int) -> GameFacts:
        """What `final()` reports, in seat numbers. `first` is the seat that was to act when
        the game started, used when `final()` does not say who went first."""
        final = state.final()
        if "winners" in final:
            winners = [int(w) for w in final["winners"] or []]
        else:
            winner = final.get("winner")
            winners = [] if winner is None else [int(winner)]
        stakes = final.get("stakes")
        played = final.get("cards_played")
        return GameFacts(
            winners=winners,
            first=int(final.get("first", first)),
            stakes=[int(s) for s in stakes] if stakes is not None else None,
            turns=final.get("turns"),
            shootouts=final.get("shootouts"),
            # final() made these lists for this call: no copy
            played=played,
        )

    # --- the table's service (simulator/table/services.py): rebuilding a game, its bots -----

    #: Bots with a budget a seat may set: name -> (default, maximum). Documented in docs/table.md.
    bot_budgets: dict[str, tuple[int, int]] = {}

    def rebuild(self, record: dict[str, Any], catalogue: Any = None) -> Any:
        """The live state a record reached, replayed with no RNG and with its narration told
        (RecordError if it does not replay): the table keeps records, not states."""
        replay: Any = self.spec.replay
        # A small game's replay tells its narration into `story` (core/package.py).
        return replay(record, story=[]) if self.spec.narrate is not None else replay(record)

    def make_bot(self, name: str, seat: int, seed: int, budget: int | None = None) -> Any:
        """A bot for one decision of a seat; `budget` only for a bot in `bot_budgets`, whose
        factory takes it as a third argument (the ISMCTS bot's iterations)."""
        factory: Any = self.spec.bots[name]  # registered as (seat, seed) -> bot
        if budget is not None and name in self.bot_budgets:
            return factory(seat, seed, budget)
        return factory(seat, seed)

    # --- the table (simulator/table/services.py): a game people play, seen from one seat ---

    def table_view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """What `seat` may see of a live game now, as JSON for the API and the table page.

        Never anything the seat may not know: every card shown is named by its `code` and
        `name`, a card the seat may not see is `{"hidden": true}` with no code. `seat` None is
        the narrator's view (every card face up), for a replay's "show every card".
        """
        if seat is None:
            return {"seats": [_jsonable(state.view(i)) for i in range(len(state.seats))]}
        return dict(_jsonable(state.view(seat)))

    def action_label(self, state: Any, action: Any) -> str:
        """How the acting seat's button names one of its legal actions ("Bet $5")."""
        data = action.to_json()
        words = [str(data.get("kind", "")).replace("_", " ").capitalize()]
        words += [f"{k} {v}" for k, v in data.items() if k != "kind"]
        return " ".join(words)

    def table_log(self, state: Any, seat: int | None) -> list[str]:
        """The narration of a live game so far, as `seat` may know it (None: the narrator, who
        sees every card)."""
        return []

    # --- the `play` and `replay` commands (simulator/management/commands) -------------------

    #: `manage.py play` options only this game takes: the option's name -> its flag.
    play_options: dict[str, str] = {}
    #: The decks `manage.py play` seats in turn when none is given (a game played with decks).
    play_decks: tuple[str, ...] = ()

    def play_state(
        self, *, seats: list[dict[str, Any]], rules: dict[str, Any], options: dict[str, Any],
        seed: int,
    ) -> Any:  # fmt: skip
        """A new recorded game for `manage.py play`: `seats` are {"name", "bot"} (and "deck",
        a starter code or (cards, chips), where the game is played with decks), `rules` the
        game's rule options by name, `options` the command's `play_options`. EngineError for a
        rule, option or deck the game does not take."""
        seats = [{"name": s["name"], "bot": s["bot"]} for s in seats]
        return self.spec.new_game(seats=seats, rules=rules or None, seed=seed, record=True)

    def narrate(self, record: dict[str, Any]) -> list[str]:
        """The game of `record` told in sentences (none, for a game with no narration), checked
        by replaying it: RecordError if it does not replay."""
        if self.spec.narrate is None:
            self.spec.replay(record)
            return []
        return self.spec.narrate(record)

    # --- the bots' ladder (simulator/ladder) ------------------------------------------------

    def ladder_decks(self) -> list[tuple[dict[str, Any], str]]:
        """The decks a bots' ladder seats every bot with, one round robin each: (what a run's
        player gives for it, its name for people). A game of fixed components: one, no deck."""
        return [({}, "")]

    # --- decks (the deck doctor) -------------------------------------------------------------

    def card_codes(self) -> list[str]:
        """Every card code of the game's catalogue, in catalogue order (no cards: empty)."""
        return []

    def deck_problems(
        self, *, fmt: str, cards: dict[str, int], kicker_chips: dict[str, int], pool: Any = None
    ) -> list[Any]:
        """What makes a deck illegal for format `fmt` (empty: legal). A game of fixed
        components has no decks, so any deck is one problem."""
        return [f"{self.title} is played with fixed components: no deck."]

    # --- reporting and replaying (selectors, views) -----------------------------------------

    def card_names(self, codes: set[str]) -> dict[str, str]:
        """Card code -> name for the report's card table (no cards: empty)."""
        return {}

    def charts(self, report: Report, names: list[str]) -> dict[str, Any]:
        """The charts of a run's results page (simulator/games/charts.py specs), by template name;
        `names` are the players' names as the page shows them, in the report's order."""
        players = [(names[p["index"]], p) for p in report["players"] if p.get("games")]
        labels = [name for name, _ in players]
        out: dict[str, Any] = {
            "win_chart": charts.win_rates(
                labels,
                [("Win rate", [p["win_rate"] for _, p in players])],
                "How often each player wins",
            ),
            "first_chart": charts.win_rates(
                labels,
                [
                    ("Going first", [p["first"] for _, p in players]),
                    ("Otherwise", [p["other"] for _, p in players]),
                ],
                "Win rate going first and otherwise",
            ),
            "stake_charts": [
                (name, charts.histogram(stakes["histogram"], f"Ending stake: {name}", "Dollars"))
                for name, p in players
                if (stakes := p.get("stakes"))
            ],
            "impact": [
                (name, charts.card_impact(cards, f"Cards that helped {name} win"), cards)
                for name, p in players
                if (cards := p.get("cards"))
            ],
        }
        if report["turns"]:
            out["turns_chart"] = charts.histogram(
                report["turns"]["histogram"], "How many turns a game lasts", "Turns"
            )
        if report["shootouts"]:
            out["shootouts_chart"] = charts.histogram(
                report["shootouts"]["histogram"], "Shootouts in a game", "Shootouts"
            )
        return out

    def replay_state(self, record: dict[str, Any], catalogue: Any = None) -> Any:
        """The game rebuilt from its record with no RNG (RecordError if it does not), telling
        its narration as it goes: the replay viewer's step (simulator/games/replays.py)."""
        replay: Any = self.spec.replay  # a small game's: it takes the list to tell into
        return replay(record, story=[])


def _jsonable(value: Any) -> Any:
    """A view as plain JSON data (tuples become lists)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if hasattr(value, "to_dict"):
        return _jsonable(value.to_dict())
    return value
