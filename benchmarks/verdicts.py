"""Where the lab's verdicts stop changing as the bots get stronger (issue #25 §1).

    python benchmarks/verdicts.py [--levels heuristic,search24,...] [--only NAME,...]
                                  [--scale 1.0] [--jobs 2] [--fresh]

A fixed set of High Stakes Drifter questions, each answered by bots of rising strength, every
seat played by the same bot:

- heads-up matchups (seats alternating): the two starters, Boomtown Law (HSD-S1) and Frontier
  Patrol (HSD-S2), and two decks built from the catalogue as a new user would, "Penny Posse"
  (the 18 cheapest dudes, gear and fortunes, any faction) and "Outlaw Gang" (the Outlaws'
  dudes, dearest first, with the cheapest gear and fortunes); the answer is the first deck's
  share of the games (a shared win counts as a share);
- a four-seat table of all four decks (seats rotated): Boomtown Law's share, against the fair
  share of a quarter;
- deck-doctor swaps played as the doctor plays them (paired: the same seeds with and without
  the swap, against the same opponent): the change in the deck's share, in points.

Each answer carries a 95% interval (normal, from the games' own spread; paired differences for
the swaps), its verdict (ahead, behind or level: the interval clear of the fair value or not)
and the bots' cost in CPU seconds a game. A level is *settled* on a question when its answer
differs from no stronger level's answer beyond their intervals (|a − b| ≤ 1.96·√(se_a² + se_b²))
and the verdicts do not contradict (ahead against behind); the table prints, per question, the
weakest settled level. Game *i* of a question is seeded 7000 + *i* at every level (common
random numbers), so levels differ only by their bots.

Answers are kept in var/verdicts.json by (question, level, games): a second run adds levels or
questions without playing the others again (`--fresh` plays everything). `--scale` multiplies
every level's games. Figures and dates belong in docs/performance.md, not here.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simulator.engine.drifter import Seat, new_game, starter_seat  # noqa: E402
from simulator.engine.drifter import play as play_out  # noqa: E402
from simulator.engine.drifter.bots import FACTORIES, HeuristicBot, SearchBot, ismcts  # noqa: E402
from simulator.engine.drifter.cards import load_catalogue  # noqa: E402
from simulator.engine.drifter.formats import RARITY_LIMITS, validate_deck  # noqa: E402

#: The built decks' kicker chips: $50 of two-sided chips that add to a stat either way.
CHIPS = ("HSD-K09", "HSD-K10", "HSD-K11", "HSD-K15", "HSD-K17", "HSD-K20", "HSD-K22")
CACHE = ROOT / "var" / "verdicts.json"
SEED_BASE = 7000
Z = 1.96


# --- the bots, weakest first --------------------------------------------------------------

#: level name -> (games at scale 1, a seat's bot from its seat and seed)
LEVELS: dict[str, tuple[int, Callable[[int, int], object]]] = {
    "heuristic": (2000, lambda seat, seed: HeuristicBot(seed)),
    "sharp": (2000, lambda seat, seed: FACTORIES["sharp"](seat, seed)),
    "search24": (400, lambda seat, seed: SearchBot(seed, rollouts=24)),
    "search100": (160, lambda seat, seed: SearchBot(seed, rollouts=100)),
    "search400": (60, lambda seat, seed: SearchBot(seed, rollouts=400)),
    "ismcts90": (60, lambda seat, seed: ismcts(seat, seed, 90)),
    "ismcts270": (30, lambda seat, seed: ismcts(seat, seed, 270)),
}


def register(name: str, games: int, factory: Callable[[int, int], object]) -> None:
    """Add a level (e.g. a new default bot) before the questions are answered."""
    LEVELS[name] = (games, factory)


# --- the decks ----------------------------------------------------------------------------


def _built(name: str, dudes: list, others: list, chips: tuple[str, ...]) -> Seat:
    """54 cards, 18 of each type, copies up to the rarity limit, in the order given."""
    deck: list[str] = []
    for pool in (
        dudes,
        [c for c in others if c.type == "gear"],
        [c for c in others if c.type == "fortune"],
    ):
        taken = 0
        for card in pool:
            copies = min(RARITY_LIMITS.get(card.rarity, 1), 18 - taken)
            deck += [card.code] * copies
            taken += copies
            if taken == 18:
                break
    return Seat(name, tuple(deck), chips)


def decks() -> dict[str, Seat]:
    """The benchmark's four decks, each checked legal in the standard format."""
    cat = load_catalogue()
    s1 = starter_seat("Boomtown Law", "HSD-S1", catalogue=cat)
    s2 = starter_seat("Frontier Patrol", "HSD-S2", catalogue=cat)
    playable = [c for c in cat.cards if c.rarity in ("common", "uncommon", "rare")]
    cheap = sorted(playable, key=lambda c: (c.cost, c.code))
    outlaws = sorted(
        (c for c in playable if c.is_dude and c.faction == "Outlaws"),
        key=lambda c: (-c.cost, c.code),
    )
    built = {
        "Penny Posse": _built("Penny Posse", [c for c in cheap if c.is_dude], cheap, CHIPS),
        "Outlaw Gang": _built("Outlaw Gang", outlaws, cheap, CHIPS),
    }
    for seat in built.values():
        counts: dict[str, int] = {}
        for code in seat.deck:
            counts[code] = counts.get(code, 0) + 1
        chips: dict[str, int] = {}
        for code in seat.chips:
            chips[code] = chips.get(code, 0) + 1
        problems = validate_deck(fmt="standard", cards=counts, kicker_chips=chips, catalogue=cat)
        if problems:
            raise SystemExit(f"{seat.name} is not legal: {problems}")
    return {"Boomtown Law": s1, "Frontier Patrol": s2, **built}


@functools.cache  # one swapped deck a question, not one a game
def swapped(seat: Seat, cut: str, add: str) -> Seat:
    """The deck with every copy of `cut` replaced by as many of `add`."""
    cat = load_catalogue()
    code = {c.name: c.code for c in cat.cards}
    deck = tuple(code[add] if c == code[cut] else c for c in seat.deck)
    return Seat(seat.name, deck, seat.chips)


# --- the questions ------------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    name: str
    kind: str  # "headsup", "table" or "swap"
    decks: tuple[str, ...]  # the deck asked about first
    fair: float  # the share (or change) at which nobody is ahead
    swap: tuple[str, str] = ("", "")  # (cut, add) for a swap

    @property
    def games_factor(self) -> float:
        return 0.5 if self.kind == "swap" else 1.0  # a swap plays two games a seed


QUESTIONS = [
    Question(
        "Boomtown Law vs Frontier Patrol", "headsup", ("Boomtown Law", "Frontier Patrol"), 0.5
    ),
    Question("Boomtown Law vs Penny Posse", "headsup", ("Boomtown Law", "Penny Posse"), 0.5),
    Question("Frontier Patrol vs Outlaw Gang", "headsup", ("Frontier Patrol", "Outlaw Gang"), 0.5),
    Question("Penny Posse vs Outlaw Gang", "headsup", ("Penny Posse", "Outlaw Gang"), 0.5),
    Question(
        "Boomtown Law at a table of four",
        "table",
        ("Boomtown Law", "Frontier Patrol", "Penny Posse", "Outlaw Gang"),
        0.25,
    ),
    Question(
        "Boomtown Law: cut Otis Crump, Blacksmith, add The Sundance Kid (vs Frontier Patrol)",
        "swap",
        ("Boomtown Law", "Frontier Patrol"),
        0.0,
        ("Otis Crump, Blacksmith", "The Sundance Kid"),
    ),
]

_DECKS: dict[str, Seat] = {}


def _share(seats: list[Seat], level: str, seed: int, mine: int) -> float:
    factory = LEVELS[level][1]
    bots = [factory(q, seed * 31 + q) for q in range(len(seats))]
    state = play_out(new_game(seats, seed=seed, record=False), bots)
    return 1.0 / len(state.winners) if mine in state.winners else 0.0


def play(args: tuple[Question, str, int]) -> tuple[float, float]:
    """Game `index` of a question at a level: (its score, CPU seconds)."""
    question, level, index = args
    if not _DECKS:
        _DECKS.update(decks())
    start = time.process_time()
    seed = SEED_BASE + index
    first = [_DECKS[name] for name in question.decks]
    n = len(first)
    shift = index % n  # the asked-about deck sits in seat `shift`
    order = first[-shift:] + first[:-shift] if shift else first
    score = _share(order, level, seed, shift)
    if question.kind == "swap":
        cut, add = question.swap
        order = list(order)
        order[shift] = swapped(order[shift], cut, add)
        score = _share(order, level, seed, shift) - score
    return score, time.process_time() - start


@dataclass
class Answer:
    question: str
    level: str
    games: int
    mean: float
    se: float
    cpu: float  # seconds a game (a swap: a pair of games)

    @property
    def low(self) -> float:
        return self.mean - Z * self.se

    @property
    def high(self) -> float:
        return self.mean + Z * self.se

    def verdict(self, fair: float) -> str:
        if self.low > fair:
            return "ahead"
        if self.high < fair:
            return "behind"
        return "level"


def answer(question: Question, level: str, games: int, jobs: int) -> Answer:
    work = [(question, level, i) for i in range(games)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(play, work, chunksize=max(1, games // (jobs * 8))))
    else:
        results = [play(w) for w in work]
    scores = [r[0] for r in results]
    mean = sum(scores) / games
    var = sum((s - mean) ** 2 for s in scores) / max(games - 1, 1)
    return Answer(
        question.name,
        level,
        games,
        mean,
        math.sqrt(var / games),
        sum(r[1] for r in results) / games,
    )


def settled(answers: list[Answer], fair: float) -> str:
    """The weakest level whose answer no stronger level contradicts beyond the intervals."""
    for i, a in enumerate(answers):
        ok = True
        for b in answers[i + 1 :]:
            apart = abs(a.mean - b.mean) > Z * math.sqrt(a.se**2 + b.se**2)
            crossed = {a.verdict(fair), b.verdict(fair)} == {"ahead", "behind"}
            if apart or crossed:
                ok = False
                break
        if ok:
            return a.level
    return "-"


def _cached(path: Path) -> dict[str, dict]:
    return json.loads(path.read_text()) if path.exists() else {}


def _fmt(q: Question, a: Answer) -> str:
    if q.kind == "swap":
        return f"{100 * a.mean:+.1f} [{100 * a.low:+.1f}, {100 * a.high:+.1f}]"
    return f"{a.mean:.1%} [{a.low:.1%}, {a.high:.1%}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--only", default="", help="question numbers, 1-based, comma-separated")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where answers are kept")
    args = parser.parse_args()
    levels = args.levels.split(",")
    unknown = [lv for lv in levels if lv not in LEVELS]
    if unknown:
        raise SystemExit(f"unknown levels {unknown}; known: {list(LEVELS)}")
    picked = [int(i) - 1 for i in args.only.split(",") if i] or range(len(QUESTIONS))
    cache = {} if args.fresh else _cached(args.cache)
    args.cache.parent.mkdir(exist_ok=True)
    print(f"| question | {' | '.join(levels)} | settled from |")
    print(f"|---|{'---|' * len(levels)}---|")
    costs: dict[str, list[float]] = {}
    for qi in picked:
        q = QUESTIONS[qi]
        row: list[Answer] = []
        for level in levels:
            games = max(10, round(LEVELS[level][0] * args.scale * q.games_factor))
            key = f"{q.name}|{level}|{games}"
            if key not in cache:
                cache[key] = answer(q, level, games, args.jobs).__dict__
                args.cache.write_text(json.dumps(cache, indent=1))
            a = Answer(**cache[key])
            row.append(a)
            costs.setdefault(level, []).append(a.cpu / (2 if q.kind == "swap" else 1))
        cells = " | ".join(f"{_fmt(q, a)} {a.verdict(q.fair)} ({a.games})" for a in row)
        print(f"| {q.name} | {cells} | {settled(row, q.fair)} |", flush=True)
    print()
    print("| level | CPU s a game (mean over the questions) | games a second a core |")
    print("|---|---|---|")
    for level in levels:
        c = sum(costs[level]) / len(costs[level])
        print(f"| {level} | {c:.4f} | {1 / c:.1f} |")


if __name__ == "__main__":
    main()
