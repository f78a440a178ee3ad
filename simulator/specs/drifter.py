"""High Stakes Drifter for the service: formats and variants, decks validated for the run's
format, the card catalogue from the database (pinned per run by its version), the engine's
Rules and Seat objects, and a replay viewer with the table at every turn."""

from __future__ import annotations

from typing import Any, cast

from simulator.engine.core.errors import RulesError
from simulator.engine.drifter import formats as drifter_formats
from simulator.engine.drifter import variants as drifter_variants
from simulator.plans import PlanPlayer, Problem
from simulator.replays import Frame, Replay, table_of
from simulator.specs.base import CatalogueChanged, GameService, PreparedRules


class Spec(GameService):
    # Seconds a game for its compiled engine and (pure) where it runs as pure Python, both
    # measured on 2026-11-22 (heads-up starter decks, one core, plus a quarter for
    # play_chunk's bookkeeping: 1,388 compiled heuristic games/s through it in
    # benchmarks/simulations.py). Sized for the pure engine, the first runs' chunks took a
    # tenth of their intended second once the engine ran compiled, and Celery's per-task
    # overhead grew to 12% of the workers' time.
    game_cost = {
        "random": 0.00023,  # 0.00018 s a game in a bare loop
        "heuristic": 0.0007,  # 0.00056
        "search": 0.017,  # 0.0137 (against a heuristic bot)
    }
    pure_game_cost = {
        "random": 0.0011,  # 0.00088
        "heuristic": 0.0047,  # 0.00377
        "search": 0.049,  # 0.0391
    }
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
        from simulator.adapters import RunRefused, refuse
        from simulator.engine.drifter import Rules

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
        from simulator.adapters import apply_change, deck_source

        attr = f"players.{index}"
        problems: list[Problem] = []
        if not any(data.get(k) for k in ("deck", "public_deck", "starter", "draft_bot")):
            problems.append(
                {"code": "required", "detail": "Give a deck, a public deck or a starter deck.",
                 "attr": attr}
            )  # fmt: skip
            return {"label": "", "bot": bot, "source": None}, problems
        name, cards, chips, pool, source = deck_source(owner, data, attr)
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
            "deck": [code for code, qty in cards.items() for _ in range(qty)],
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
        from decks.engine_catalogue import catalogue_version

        return catalogue_version()

    def catalogue(self, version: int | None = None) -> Any:
        """The database's catalogue; CatalogueChanged if a plan pinned another version (a plan
        made before versions were pinned, `None`, plays with the current one)."""
        from decks.engine_catalogue import versioned_catalogue

        current, catalogue = versioned_catalogue()
        if version is not None and version != current:
            raise CatalogueChanged(version, current)
        return catalogue

    def engine_rules(self, rules: dict[str, Any]) -> Any:
        from simulator.engine.drifter import Rules

        return Rules.from_json(rules or {})

    def engine_seat(self, player: PlanPlayer) -> Any:
        from simulator.engine.drifter import Seat

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

    def card_names(self, codes: set[str]) -> dict[str, str]:
        if not codes:
            return {}
        by_code = self.catalogue().card_by_code
        return {c: by_code[c].name for c in codes if c in by_code}

    def replay(self, record: dict[str, Any], catalogue: Any = None) -> Replay:
        """The record replayed with no RNG (the engine's `ReplayChance`), a frame at every
        turn: the saloon, the street, each stake, the pot and the narration since the last."""
        from simulator.engine.core import GameRecord, ReplayChance
        from simulator.engine.drifter import Action, Rules, Seat, replay
        from simulator.engine.drifter.narrate import narrate_events
        from simulator.engine.drifter.state import DrifterState

        if catalogue is None:
            # The same catalogue the simulation played with (the database's), not the files.
            catalogue = self.catalogue()
        # Verify the whole record first (checksum, final): the viewer only shows honest games.
        final = replay(record, catalogue=catalogue).final()
        rec = GameRecord.from_json(record)
        seats = [Seat.from_json(s) for s in rec.seats]
        names = [s.name for s in seats]
        log: list = []
        chance = ReplayChance(rec.events, log=log)
        state = DrifterState(
            catalogue, seats, Rules.from_json(rec.rules), rec.seed, chance=chance, events=log,
            narrate=True,
        )  # fmt: skip
        frames: list[Frame] = []
        said = 0
        turn = state.turns

        def take(title: str, final: bool = False) -> None:
            # A frame ends where the next turn is announced: that line opens the next frame.
            nonlocal said
            events = (state.log or [])[said:]
            cut = len(events)
            if not final:
                starts = [i for i, ev in enumerate(events) if ev and ev[0] == "turn"]
                if starts and starts[-1] > 0:
                    cut = starts[-1]
            frames.append(Frame(title, narrate_events(events[:cut], names), table_of(state)))
            said += cut

        take("Setup")
        while (step := chance.next_action()) is not None:
            _player, data = step
            state.apply(Action.from_json(data))
            if state.turns != turn:
                take(f"Turn {turn}")
                turn = state.turns
        take(f"Turn {turn}: the end", final=True)
        return Replay(self.name, names, final, frames)
