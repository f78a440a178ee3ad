"""`python manage.py play`: play one game with bots and print it narrated.

    python manage.py play --players 3 --deck HSD-S1 --deck my_deck.txt --variant tombstone \
        --seed 7 --bots heuristic,random --record game.json

Each `--deck` is a starter code (e.g. HSD-S1) or a deck file (`3 Henry Meek [HSD-012]` lines, a
`Kicker chips:` section with `1 [HSD-K01]` lines, `#` comments); seats reuse the decks given in
turn. A thin shell over the engine (simulator.engine).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from simulator.engine.core.errors import EngineError
from simulator.engine.core.registry import get_game

LINE = re.compile(r"^\s*(\d+)\s*(?:x\s*)?(.*?)\s*\[([A-Z0-9]+-[A-Z0-9]+)\]\s*$")


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


def load_seat(spec: str, name: str, bot: str, seat_cls, starter_seat):
    """A seat from a starter code or a deck file."""
    path = Path(spec)
    if path.exists():
        cards, chips = parse_deck_file(path.read_text(encoding="utf-8"))
        return seat_cls(name, cards, chips, bot)
    try:
        return starter_seat(name, spec, bot)
    except EngineError as exc:
        raise CommandError(f"{spec!r} is neither a deck file nor a starter code ({exc})") from None


class Command(BaseCommand):
    help = "Play one game with bots and print the narrated log."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--game", default="drifter")
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--deck", action="append", default=[], help="starter code or file")
        parser.add_argument("--variant", action="append", default=[])
        parser.add_argument("--quick-start", action="store_true")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--bots", default="heuristic,random")
        parser.add_argument("--record", help="write the game record (JSON) to this file")

    def handle(self, *args, **opts) -> None:
        if opts["game"] != "drifter":
            raise CommandError("only --game drifter is narrated by this command")
        from simulator.engine import drifter
        from simulator.engine.drifter.narrate import narrate

        spec = get_game("drifter")
        n = opts["players"]
        if not spec.min_players <= n <= spec.max_players:
            raise CommandError(f"--players must be {spec.min_players}..{spec.max_players}")
        bots = [b.strip() for b in opts["bots"].split(",") if b.strip()] or ["heuristic"]
        for b in bots:
            if b not in spec.bots:
                raise CommandError(f"unknown bot {b!r}; known: {', '.join(spec.bots)}")
        decks = opts["deck"] or ["HSD-S1", "HSD-S2"]
        names = ["Sam", "Jane", "Cal", "Dee", "Eli", "Fay", "Gus", "Hal"]
        try:
            rules = drifter.Rules(
                variants=frozenset(opts["variant"]), quick_start=opts["quick_start"]
            )
            seats = [
                load_seat(
                    decks[i % len(decks)],
                    names[i],
                    bots[i % len(bots)],
                    drifter.Seat,
                    drifter.starter_seat,
                )
                for i in range(n)
            ]
            state = drifter.new_game(seats, rules=rules, seed=opts["seed"])
            players = [spec.bots[s.bot](i, opts["seed"] * 31 + i) for i, s in enumerate(seats)]
            drifter.play(state, players)
            record = state.record()
            lines = narrate(record)
        except EngineError as exc:
            raise CommandError(str(exc)) from None
        for line in lines:
            self.stdout.write(line)
        if opts["record"]:
            Path(opts["record"]).write_text(json.dumps(record), encoding="utf-8")
            self.stdout.write(f"Record written to {opts['record']}.")
