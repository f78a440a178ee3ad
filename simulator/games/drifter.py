"""High Stakes Drifter for the service: formats and variants, decks validated for the run's
format, the card catalogue from the database (pinned per run by its version), the engine's
Rules and Seat objects, and its table as one seat sees it (simulator/games/drifter_table.py)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, cast

from decks import engine_catalogue
from simulator.engine.core.errors import RulesError
from simulator.engine.drifter import Rules, Seat, replay, starter_seat
from simulator.engine.drifter import formats as drifter_formats
from simulator.engine.drifter import variants as drifter_variants
from simulator.engine.drifter.bots import ISMCTS_ITERATIONS, SearchBot, ismcts
from simulator.engine.drifter.narrate import narrate, narrate_events
from simulator.games.base import CatalogueChanged, GameService, PreparedRules
from simulator.games.drifter_table import drifter_action_label, drifter_table_view
from simulator.games.plans import GameFacts, PlanPlayer, Problem
from simulator.games.players import apply_change, deck_source
from simulator.games.problems import RunRefused, refuse


class Spec(GameService):
    # Seconds a game, compiled (`game_cost`) and as pure Python (`pure_game_cost`): heads-up
    # starter decks on one core plus a quarter for play_chunk's bookkeeping, measured with
    # benchmarks/simulations.py (figures and date: docs/performance.md, "Simulation chunks").
    # Chunks are sized from these until a plan's kind has measured costs of its own.
    game_cost = {
        "random": 0.00023,
        "heuristic": 0.0007,
        "sharp": 0.0009,
        "search": 0.017,
        # one ISMCTS seat at its default budget against the heuristic: 200 games in 454 s
        # (benchmarks/ismcts.py, 2026-11-28); the pure engine about five times that
        "ismcts": 2.3,
    }
    pure_game_cost = {
        "random": 0.0011,
        "heuristic": 0.0047,
        "sharp": 0.006,
        "search": 0.049,
        "ismcts": 11.5,
    }
    # fast, and its verdicts agree with the search bots' (docs/bots.md, "The sharp bot")
    preferred_bot = "sharp"
    formats = drifter_formats.FORMAT_LABELS
    play_variants = tuple(drifter_variants.PLAY_VARIANTS)
    format_notes = {
        drifter_formats.STANDARD: f"{drifter_formats.DECK_SIZE} cards, copies limited by rarity "
        "(three of a common, two of an uncommon, one of a rare), kicker chips worth "
        f"${drifter_formats.KICKER_VALUE} in all.",
        **{v: drifter_variants.VARIANT_NOTES[v] for v in drifter_variants.DECK_VARIANTS},
    }
    variant_labels = drifter_variants.VARIANT_LABELS
    variant_notes = drifter_variants.VARIANT_NOTES

    def prepare_rules(self, fmt: str, variants: list[str]) -> PreparedRules:
        deck_variants, problems = drifter_formats.parse_format(fmt or drifter_formats.STANDARD)
        if problems:
            raise RunRefused(problems=[p.as_dict() for p in problems])
        try:
            # Seat 0 always goes first; the seat rotation (runner.rotation) moves the decks,
            # so each goes first once in every n consecutive games.
            rules = Rules(variants=frozenset(deck_variants) | frozenset(variants), first_player=0)
        except RulesError as exc:
            raise refuse(str(exc), attr="variants") from None
        play = sorted(rules.variants - deck_variants)
        return PreparedRules(
            format=drifter_formats.format_name(deck_variants), variants=play, rules=rules.to_json()
        )

    def prepare_player(
        self, *, owner: Any, data: dict[str, Any], index: int, bot: str, prepared: PreparedRules
    ) -> tuple[PlanPlayer, list[Problem]]:
        attr = f"players.{index}"
        problems: list[Problem] = []
        if not any(data.get(k) for k in ("deck", "public_deck", "starter", "draft_bot")):
            problems.append(
                {"code": "required", "detail": "Give a deck, a public deck or a starter deck.",
                 "attr": attr}
            )  # fmt: skip
            return {"label": "", "bot": bot, "source": None}, problems
        name, cards, chips, pool, source = deck_source(owner, data, attr)
        before = [code for code, qty in cards.items() for _ in range(qty)]
        problems += apply_change(cards, data.get("remove"), -1, f"{attr}.remove")
        problems += apply_change(cards, data.get("add"), +1, f"{attr}.add")
        changed = bool(data.get("add") or data.get("remove"))
        for problem in drifter_formats.validate_deck(
            fmt=prepared.format, cards=cards, kicker_chips=chips, catalogue=self.catalogue(),
            pool=pool, starter=source.startswith("starter:"),
        ):  # fmt: skip
            error = cast(Problem, problem.as_dict())
            error["attr"] = f"{attr}.{error['attr']}" if error.get("attr") else attr
            problems.append(error)
        label = data.get("label") or (f"{name} (changed)" if changed else name)
        seat = {
            "name": str(label)[:100],
            "deck": _in_place(before, cards),
            "chips": [code for code, qty in chips.items() for _ in range(qty)],
            "bot": bot,
        }
        player: PlanPlayer = {
            "label": str(label)[:100],
            "bot": bot,
            "source": source,
            "seat": seat,
            "change": {"add": data.get("add") or {}, "remove": data.get("remove") or {}},
        }
        return player, problems

    def catalogue_version(self) -> int | None:
        return engine_catalogue.catalogue_version()

    def catalogue(self, version: int | None = None) -> Any:
        """The database's catalogue; CatalogueChanged if a plan pinned another version (a plan
        made before versions were pinned, `None`, plays with the current one)."""
        current, catalogue = engine_catalogue.versioned_catalogue()
        if version is not None and version != current:
            raise CatalogueChanged(version, current)
        return catalogue

    def engine_rules(self, rules: dict[str, Any]) -> Any:
        return Rules.from_json(rules or {})

    def engine_seat(self, player: PlanPlayer) -> Any:
        data = dict(player["seat"])
        data["bot"] = player["bot"]
        return Seat.from_json(data)

    def new_game(
        self, seats: list[Any], rules: Any, seed: int, record: bool, catalogue: Any
    ) -> Any:
        kwargs: dict[str, Any] = {}
        if catalogue is not None:
            kwargs["catalogue"] = catalogue
        return self.spec.new_game(seats=seats, rules=rules, seed=seed, record=record, **kwargs)

    # The search bot's rollouts per decision (simulator/engine/drifter/bots.py, SearchBot):
    # 24 by default; 400 keeps one decision of a heads-up game near a second on one core. The
    # ISMCTS bot's iterations per decision (core/ismcts.py): its default keeps the median
    # decision within 50 ms, 2,000 near a second (docs/performance.md, "ISMCTS").
    bot_budgets = {"search": (24, 400), "ismcts": (ISMCTS_ITERATIONS, 2000)}
    # The bots' ladder (docs/bots.md) ranks them so; the sharp bot (the default) edges the
    # heuristic, the search bot (about 25 times slower) is the affordable step up from it, the
    # ISMCTS bot the one after it.
    bot_strength = ("random", "heuristic", "sharp", "search", "ismcts")

    def rebuild(self, record: dict[str, Any], catalogue: Any = None) -> Any:
        return replay(record, catalogue=catalogue, narrate=True)

    def facts(self, state: Any, first: int) -> GameFacts:
        """What final() reports, read from the state's fields, with the shootouts summed by
        the engine (`DrifterState.shootout_tallies`) rather than final()'s dictionary of each,
        which the aggregate only sums (play_chunk's bookkeeping on top of the engine:
        docs/performance.md). The same totals as final()'s shootout log
        (tests/simulator/test_simulation_stats.py)."""
        return GameFacts(
            winners=list(state.winners),
            first=state.first,
            stakes=list(state.stake),
            turns=state.turns,
            shootouts=state.shootouts,
            played=[list(codes) for codes in state.played],
            shootout_tallies=state.shootout_tallies(),
        )

    def make_bot(self, name: str, seat: int, seed: int, budget: int | None = None) -> Any:
        if name == "search" and budget is not None:
            return SearchBot(seed, rollouts=budget)
        if name == "ismcts" and budget is not None:
            return ismcts(seat, seed, budget)
        return super().make_bot(name, seat, seed, budget)

    # --- the `play` and `replay` commands --------------------------------------------------

    play_options = {"deck": "--deck", "variant": "--variant", "quick_start": "--quick-start"}
    play_decks = ("HSD-S1", "HSD-S2")
    # Rules with an option of their own rather than a `--rule`.
    PLAY_FLAG_RULES = {"variants": "--variant", "quick_start": "--quick-start"}

    def play_state(
        self, *, seats: list[dict[str, Any]], rules: dict[str, Any], options: dict[str, Any],
        seed: int,
    ) -> Any:  # fmt: skip
        """A game on the decks' files (the engine's catalogue, as `replay` and the engine's
        tests read it), each seat a starter code or (cards, chips)."""
        known = Rules().to_json()
        for key in rules:
            if key in self.PLAY_FLAG_RULES:
                raise RulesError(f"--rule {key}: use {self.PLAY_FLAG_RULES[key]}")
            if key not in known:
                names = [k for k in known if k not in self.PLAY_FLAG_RULES]
                raise RulesError(f"unknown drifter rule {key!r}; known: {', '.join(names)}")
        variants = frozenset(options.get("variant") or ())
        engine_rules = Rules(
            variants=variants, quick_start=bool(options.get("quick_start")), **rules
        )
        engine_seats = [self._play_seat(**s) for s in seats]
        return self.spec.new_game(engine_seats, rules=engine_rules, seed=seed)

    def narrate(self, record: dict[str, Any]) -> list[str]:
        return narrate(record)

    @staticmethod
    def _play_seat(name: str, bot: str, deck: Any) -> Seat:
        if not isinstance(deck, str):
            cards, chips = deck
            return Seat(name, cards, chips, bot)
        try:
            return starter_seat(name, deck, bot)
        except RulesError as exc:
            raise RulesError(
                f"{deck!r} is neither a deck file nor a starter code ({exc})"
            ) from None

    def ladder_decks(self) -> list[tuple[dict[str, Any], str]]:
        """The first two starter decks: every bot plays each, in mirror matches, so a rating
        says how well a bot plays, not which deck it was dealt."""
        return [
            ({"starter": code}, deck_source(None, {"starter": code}, "deck")[0])
            for code in self.play_decks[:2]
        ]

    # --- the deck doctor -------------------------------------------------------------------

    def card_codes(self) -> list[str]:
        return list(self.catalogue().card_by_code)

    def deck_problems(
        self, *, fmt: str, cards: dict[str, int], kicker_chips: dict[str, int], pool: Any = None
    ) -> list[Any]:
        """The deck validator's problems (`formats.validate_deck`, the one rules module)."""
        return drifter_formats.validate_deck(
            fmt=fmt, cards=cards, kicker_chips=kicker_chips, catalogue=self.catalogue(), pool=pool
        )

    def card_names(self, codes: set[str]) -> dict[str, str]:
        if not codes:
            return {}
        by_code = self.catalogue().card_by_code
        return {c: by_code[c].name for c in codes if c in by_code}

    def replay_state(self, record: dict[str, Any], catalogue: Any = None) -> Any:
        """The record replayed with no RNG on the database's catalogue (the one the
        simulation played with, not the files), keeping the narration events."""
        return replay(
            record, catalogue=catalogue if catalogue is not None else self.catalogue(),
            narrate=True,
        )  # fmt: skip

    # --- the table ---------------------------------------------------------------------------

    def table_view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """The table as `seat` sees it (None: every card face up): each seat's stake, hand,
        kicker chips and deadwood, the saloon and the street with every dude's gear and kicker
        chips, the fortunes, the pot and whose turn it is. A card `seat` may not see is
        `{"hidden": true}`; decks are counts."""
        return drifter_table_view(state, seat)

    def action_label(self, state: Any, action: Any) -> str:
        return drifter_action_label(state, action)

    def table_log(self, state: Any, seat: int | None) -> list[str]:
        """The narration so far; to a seat, a card it could not see when it happened is "a
        concealed dude" (or card). A state kept without narration is replayed from its record
        with it."""
        if state.log is None:
            state = replay(state.record(), catalogue=state.cat, narrate=True)
        log = state.log
        told, start = _NARRATED.told(log, seat)
        if start < len(log):
            names = [s.name for s in state.seats]
            cards = [] if seat is None else [(c.owner, c.printed.is_dude) for c in state.cards]
            told += narrate_events(log[start:], names, viewer=seat, cards=cards)
            _NARRATED.keep(log, seat, told)
        return told


class _Narrated:
    """What a live game's narration told each viewer so far, kept per process for the game's
    next version: each sentence tells one event as the viewer saw it when it happened, so a
    viewer's narration grows by the events since (the table tells it after every decision).
    Kept by the log itself (its identity, held here so no other log can take it) and bounded."""

    KEPT = 512

    def __init__(self) -> None:
        self.kept: OrderedDict[tuple[int, int | None], tuple[list, int, list[str]]] = OrderedDict()
        self.lock = threading.Lock()

    def told(self, log: list, seat: int | None) -> tuple[list[str], int]:
        """The sentences already told `seat` of `log` (a copy) and how many events they tell."""
        with self.lock:
            kept = self.kept.get((id(log), seat))
        if kept is None or kept[0] is not log or kept[1] > len(log):
            return [], 0
        return list(kept[2]), kept[1]

    def keep(self, log: list, seat: int | None, told: list[str]) -> None:
        with self.lock:
            self.kept[(id(log), seat)] = (log, len(log), list(told))
            self.kept.move_to_end((id(log), seat))
            while len(self.kept) > self.KEPT:
                self.kept.popitem(last=False)


_NARRATED = _Narrated()


def _in_place(before: list[str], after: dict[str, int]) -> list[str]:
    """The changed deck as a list in which each added copy takes a removed copy's place.

    A what-if's changed deck is shuffled by the same seed as the deck it changes; a list of
    the same length in the same order but for the swapped cards gets the same permutation, so
    the two decks deal the same cards except where the change lies (common random numbers
    that hold card by card, not only seed by seed). Without this a swap shifted every later
    card and each pair of games differed throughout.
    """
    left = dict(after)
    slots: list[str | None] = []
    for code in before:
        if left.get(code, 0) > 0:
            left[code] -= 1
            slots.append(code)
        else:
            slots.append(None)  # a removed copy: an added card takes its place
    added = [code for code, qty in left.items() for _ in range(qty)]
    out: list[str] = []
    for slot in slots:
        if slot is None:
            if added:
                out.append(added.pop(0))
        else:
            out.append(slot)
    return out + added
