"""`python manage.py play`: play one game with bots and print it narrated.

    python manage.py play --players 3 --deck HSD-S1 --deck my_deck.txt --variant tombstone \
        --seed 7 --bots heuristic,random --record game.json
    python manage.py play --game tabletown --players 4 --rule advanced=false --rule max_turns=300

`--game` is any registered game: drifter (High Stakes Drifter, the default), gunfighter, duel,
quickdraw or tabletown. `--players` must lie within the game's bounds; `--bots` is a comma list
of the game's bots, given to the seats in turn. `--rule key=value` (repeatable) sets one of the
game's rule options; the value is read as a whole number, `true`/`false`, `null` or else text,
and the game itself refuses an unknown option or a bad value.

High Stakes Drifter only: each `--deck` is a starter code (e.g. HSD-S1) or a deck file
(`3 Henry Meek [HSD-012]` lines, a `Kicker chips:` section with `1 [HSD-K01]` lines, `#`
comments); seats reuse the decks given in turn. `--variant` and `--quick-start` set its play
variants. A thin shell over the engine (simulator.engine).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from simulator.engine.core.errors import EngineError
from simulator.games import service_for, service_specs

LINE = re.compile(r"^\s*(\d+)\s*(?:x\s*)?(.*?)\s*\[([A-Z0-9]+-[A-Z0-9]+)\]\s*$")
NAMES = ["Sam", "Jane", "Cal", "Dee", "Eli", "Fay", "Gus", "Hal"]
# Options some games take (their service spec's `play_options`): name -> flag.
GAME_OPTIONS = {"deck": "--deck", "variant": "--variant", "quick_start": "--quick-start"}


def parse_deck_file(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Card codes and kicker chip codes of a deck file; CommandError on a bad line."""
    cards: list[str] = []
    chips: list[str] = []
    target = cards
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.lower().rstrip(":") in ("kicker chips", "kicker chip"):
            target = chips
            continue
        m = LINE.match(line)
        if not m:
            raise CommandError(f"deck line {number}: expected '3 Name [CODE]', got {raw!r}")
        target.extend([m.group(3)] * int(m.group(1)))
    return tuple(cards), tuple(chips)


def load_deck(given: str) -> str | tuple[tuple[str, ...], tuple[str, ...]]:
    """A `--deck`: (cards, chips) read from a deck file, or else the text as a starter code
    (the game refuses one it does not know)."""
    path = Path(given)
    if path.exists():
        return parse_deck_file(path.read_text(encoding="utf-8"))
    return given


def rule_value(text: str) -> Any:
    """A `--rule` value: a whole number, true/false, null, or else the text as given."""
    word = text.strip().lower()
    if word in ("true", "yes", "on"):
        return True
    if word in ("false", "no", "off"):
        return False
    if word in ("null", "none"):
        return None
    try:
        return int(word)
    except ValueError:
        return text


def parse_rules(items: list[str]) -> dict[str, Any]:
    """The `--rule key=value` options as a rules dict; CommandError if one is not key=value."""
    rules: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise CommandError(f"--rule takes key=value, not {item!r}")
        if key in rules:
            raise CommandError(f"--rule {key} is given twice")
        rules[key] = rule_value(value)
    return rules


class Command(BaseCommand):
    help = "Play one game with bots and print the narrated log."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--game", default="drifter", help="drifter, gunfighter, duel, quickdraw or tabletown"
        )
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument(
            "--deck", action="append", default=[], help="starter code or file (drifter only)"
        )
        parser.add_argument("--variant", action="append", default=[], help="drifter only")
        parser.add_argument("--quick-start", action="store_true", help="drifter only")
        parser.add_argument(
            "--rule",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="a rule option of the game (repeatable), e.g. max_turns=50",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--bots", default="heuristic,random", help="comma list, seat by seat")
        parser.add_argument("--record", help="write the game record (JSON) to this file")

    def handle(self, *args, **opts) -> None:
        try:
            service = service_for(opts["game"])
        except EngineError as exc:
            raise CommandError(str(exc)) from None
        spec = service.spec
        given = [
            flag
            for key, flag in GAME_OPTIONS.items()
            if opts[key] and key not in service.play_options
        ]
        if given:
            takers = [
                g for g, s in service_specs().items() if set(given) <= set(s.play_options.values())
            ]
            raise CommandError(
                f"{' and '.join(given)} {'is' if len(given) == 1 else 'are'} for --game "
                f"{' or '.join(takers)} only: {spec.title} is played with fixed components"
            )
        n = opts["players"]
        if not spec.min_players <= n <= spec.max_players:
            if spec.min_players == spec.max_players:
                raise CommandError(f"--players must be {spec.min_players} for {spec.title}")
            raise CommandError(
                f"--players must be {spec.min_players}..{spec.max_players} for {spec.title}"
            )
        bots = [b.strip() for b in opts["bots"].split(",") if b.strip()] or [service.default_bot()]
        for b in bots:
            if b not in spec.bots:
                raise CommandError(f"unknown bot {b!r}; known: {', '.join(spec.bots)}")
        seats = [{"name": NAMES[i], "bot": bots[i % len(bots)]} for i in range(n)]
        if "deck" in service.play_options:
            decks = [load_deck(d) for d in opts["deck"]] or list(service.play_decks)
            for i, seat in enumerate(seats):
                seat["deck"] = decks[i % len(decks)]
        options = {key: opts[key] for key in service.play_options}
        seed = opts["seed"]
        try:
            state = service.play_state(
                seats=seats, rules=parse_rules(opts["rule"]), options=options, seed=seed
            )
            players = [spec.bots[s["bot"]](i, seed * 31 + i) for i, s in enumerate(seats)]
            while not state.is_over:
                p = state.to_act
                state.apply(players[p].choose(state.view(p), state.legal_actions()))
            record = state.record()
            # Told from the record, as `replay` tells it: the record is checked on the way.
            lines = service.narrate(record)
        except EngineError as exc:
            raise CommandError(str(exc)) from None
        for line in lines:
            self.stdout.write(line)
        if opts["record"]:
            Path(opts["record"]).write_text(json.dumps(record), encoding="utf-8")
            self.stdout.write(f"Record written to {opts['record']}.")
