"""Drifter's rules engine against PokerKit and OpenSpiel, measured in the same run on one core.

    python benchmarks/engine.py [--quick] [--strength GAMES] [--length GAMES]

Prints, all from this one run (only ratios travel between machines):

- PokerKit heads-up fixed-limit hold'em hands/s (random legal actions, the peer);
- OpenSpiel 2.0.2's heads-up limit hold'em hands/s (its C++ `universal_poker` driven from
  Python, random play: benchmarks/openspiel_flhe.py), skipped, saying so, when pyspiel is not
  installed;
- Drifter heads-up **shootouts/s**: a shootout is an accepted challenge played from the
  challenge to its showdown (and the reinvest decisions after it), from saved positions, with
  the same kind of bots on both sides (one pair per game, as a batch makes them); the time of
  challenges nobody accepted is not in that figure. Challenges/s counts every challenge,
  refused ones included, over all the time;
- the ratios shootouts/s : PokerKit hands/s and shootouts/s : OpenSpiel hands/s (random bots:
  the like-for-like figures; issue #27's goal is 1.5x OpenSpiel compiled), each side its best;
- the random-bot ratio to OpenSpiel again, paired: OpenSpiel's hands and one pass over the
  saved challenges by turns, 15 times (7 with `--quick`), each ratio from a pair measured back
  to back, and their median and quartiles: on a machine whose speed drifts within a run, the
  best of each side can come from different moments, and the paired median is the figure
  to read there;
- full games/s and decisions/s for random and heuristic bots (record=False, as batches run),
  and the turn-cap hits among them;
- `--length N`: N heuristic-vs-heuristic games on the starter decks and N on random legal
  decks (standard format): turns and decisions per game, challenges accepted, cap hits;
- `--strength N`: N heads-up games per pairing, seats alternating: heuristic vs random, and
  search vs heuristic (N/10 games, at least 20).

The engine runs compiled when `make engine` has built it from the current source
(simulator/engine/compiled.py); the first line says which. When it is compiled, the same
measurements are then repeated in a second process on the pure-Python source
(DRIFTER_PURE_ENGINE=1), with its own peer figures, so both builds' ratios are printed.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT.parent / "shared" / "peers"))

from simulator.engine.compiled import active  # noqa: E402
from simulator.engine.drifter import Seat, new_game, starter_seat  # noqa: E402
from simulator.engine.drifter.bots import HeuristicBot, RandomBot, SearchBot  # noqa: E402
from simulator.engine.drifter.cards import load_catalogue  # noqa: E402
from simulator.engine.drifter.formats import validate_deck  # noqa: E402
from simulator.engine.training import random_seat  # noqa: E402

SEATS = [starter_seat("A", "HSD-S1"), starter_seat("B", "HSD-S2")]


def play_game(seed: int, kinds: tuple[type, type], seats=SEATS):
    """One full game, no record; returns (state, decisions)."""
    state = new_game(seats, seed=seed, record=False)
    bots = [kinds[0](seed * 2), kinds[1](seed * 2 + 1)]
    decisions = 0
    while not state.is_over:
        p = state.actor
        state.apply(bots[p].choose(state.view(p), state.legal_actions()))
        decisions += 1
    return state, decisions


def games_per_second(kind: type, games: int, repeats: int = 3) -> tuple[float, float, int, float]:
    """Full heads-up games/s (best of `repeats`), decisions/s, cap hits, turns per game."""
    play_game(10_000, (kind, kind))  # warm up
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        decisions = caps = turns = 0
        for seed in range(games):
            state, d = play_game(seed, (kind, kind))
            decisions += d
            caps += state.cap_hit
            turns += state.turns
        elapsed = time.perf_counter() - start
        best = max(best, games / elapsed)
    return best, best * decisions / games, caps, turns / games


def saved_challenges(count: int, kind: type) -> list:
    """Positions just before a challenge, with the challenge action."""
    out = []
    seed = 0
    while len(out) < count:
        state = new_game(SEATS, seed=50_000 + seed, record=False)
        bots = [kind(seed), kind(seed + 1)]
        seed += 1
        while not state.is_over and len(out) < count:
            p = state.actor
            action = bots[p].choose(state.view(p), state.legal_actions())
            if action.kind == "challenge":
                out.append((state.clone(), action, seed))
            state.apply(action)
    return out


def shootouts_per_second(kind: type, count: int, repeats: int = 3) -> tuple[float, float, float]:
    """(shootouts/s, challenges/s, share of challenges accepted), best of `repeats`.

    Each saved challenge is played out to the end of its shootout; a challenge somebody
    accepted is a shootout, and shootouts/s is their number over the time they took."""
    saved = saved_challenges(count, kind)
    best_sps = best_cps = 0.0
    share = 0.0
    for _ in range(repeats):
        shootouts, shootout_time, total = play_saved(saved, kind)
        best_sps = max(best_sps, shootouts / shootout_time if shootouts else 0.0)
        best_cps = max(best_cps, count / total)
        share = shootouts / count
    return best_sps, best_cps, share


def play_saved(saved: list, kind: type) -> tuple[int, float, float]:
    """One pass over the saved challenges: (shootouts, seconds they took, seconds in all)."""
    clock = time.perf_counter
    # One pair of bots per game, as a batch makes them (simulator/games/runner.py): a game's
    # challenges are played by the same bots, whose seeded generators carry on from one to
    # the next. (Fresh bots per challenge would bill every shootout for seeding and first
    # filling two Mersenne Twister states, which a batch pays once per game.)
    bots_of: dict[int, list] = {}
    for _, _, seed in saved:
        if seed not in bots_of:
            bots_of[seed] = [kind(seed), kind(seed + 7)]
    positions: list = [(base.clone(), challenge, bots_of[seed]) for base, challenge, seed in saved]
    del bots_of
    # A batch holds one game at a time: the thousands of saved positions are kept out of the
    # cyclic collector's scans, and each is let go once played (off the clock), so that neither
    # the collector nor fresh memory pages bill the engine for the harness's heap.
    gc.collect()
    gc.freeze()
    shootouts = 0
    shootout_time = total = 0.0
    for i in range(len(positions)):
        state, challenge, bots = positions[i]
        before = state.shootouts_contested
        start = clock()
        state.apply(challenge)
        while state.shooting and not state.is_over:
            p = state.actor
            state.apply(bots[p].choose(state.view(p), state.legal_actions()))
        took = clock() - start
        total += took
        if state.shootouts_contested > before:
            shootouts += 1
            shootout_time += took
        positions[i] = state = None
    gc.unfreeze()
    return shootouts, shootout_time, total


def paired_ratios(peer, saved: list, rounds: int, passes: int) -> list[float]:
    """Random-bot shootouts/s over the peer's hands/s, each ratio from one peer measurement
    and `passes` passes over the saved challenges taken straight after it, `rounds` times: on
    a machine whose speed drifts within a run, the two sides of each ratio share the moment."""
    ratios = []
    for _ in range(rounds):
        hps = peer()
        shootouts, seconds = 0, 0.0
        for _ in range(passes):
            played, took, _ = play_saved(saved, RandomBot)
            shootouts += played
            seconds += took
        ratios.append(shootouts / seconds / hps)
    return ratios


def random_deck(rng: random.Random, catalogue) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A random deck legal in the standard format: 54 cards within the copy limits (by name),
    kicker chips worth exactly $50 (the training games' random seats, drawn until one is)."""
    while True:
        seat = random_seat("R", rng, catalogue, "random")
        deck, chips = seat.deck, seat.chips
        cards = {code: deck.count(code) for code in set(deck)}
        kicker = {code: chips.count(code) for code in set(chips)}
        worth = sum(catalogue.chip(code).value for code in chips)
        if worth == 50 and not validate_deck(
            fmt="standard", cards=cards, kicker_chips=kicker, catalogue=catalogue
        ):
            return deck, chips


def game_lengths(games: int, decks: str) -> dict:
    """Heuristic vs heuristic: turns, decisions, challenges accepted and cap hits per game."""
    catalogue = load_catalogue()
    rng = random.Random(99)
    out = {"turns": 0, "decisions": 0, "challenges": 0, "accepted": 0, "caps": 0, "max": 0}
    for g in range(games):
        if decks == "starter":
            seats = SEATS if g % 2 == 0 else SEATS[::-1]
        else:
            seats = [Seat(name, *random_deck(rng, catalogue)) for name in "AB"]
        state = new_game(seats, seed=g, record=False)
        bots = [HeuristicBot(g * 2), HeuristicBot(g * 2 + 1)]
        while not state.is_over:
            p = state.actor
            action = bots[p].choose(state.view(p), state.legal_actions())
            out["challenges"] += action.kind == "challenge"
            out["accepted"] += action.kind == "accept"
            out["decisions"] += 1
            state.apply(action)
        out["turns"] += state.turns
        out["max"] = max(out["max"], state.turns)
        out["caps"] += state.cap_hit
    return out


def win_rate(first: type, second: type, games: int, **kw) -> float:
    """Share of heads-up games `first` wins (seats alternate; shared wins count half)."""
    score = 0.0
    for seed in range(games):
        flip = seed % 2
        kinds = (second, first) if flip else (first, second)
        state = new_game(SEATS if not flip else SEATS[::-1], seed=seed, record=False)
        bots = [
            k(seed * 2 + i, **kw) if k is SearchBot else k(seed * 2 + i)
            for i, k in enumerate(kinds)
        ]
        while not state.is_over:
            p = state.actor
            state.apply(bots[p].choose(state.view(p), state.legal_actions()))
        me = flip
        if me in state.winners:
            score += 1.0 / len(state.winners)
    return score / games


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller samples")
    parser.add_argument("--strength", type=int, default=0, help="games per bot pairing")
    parser.add_argument("--search-rollouts", type=int, default=24)
    parser.add_argument("--length", type=int, default=0, help="heuristic games per deck kind")
    parser.add_argument(
        "--no-pure", action="store_true", help="skip the pure-Python repeat of a compiled run"
    )
    args = parser.parse_args()
    scale = 0.2 if args.quick else 1.0
    load_catalogue()
    build = active()["simulator.engine.drifter"]
    print(f"engine build: {build}")

    from pokerkit_flhe import hands_per_second

    try:
        from openspiel_flhe import hands_per_second as openspiel_hands_per_second
    except ImportError as error:
        openspiel_hands_per_second = None
        print(f"OpenSpiel not measured: {error} (pip install open_spiel==2.0.2)")

    def openspiel() -> list[float]:
        if openspiel_hands_per_second is None:
            return []
        return [openspiel_hands_per_second(int(20_000 * scale))[0]]

    # The peers are measured before and after Drifter and their best figures kept, so that a
    # load passing over the machine while a peer runs cannot inflate the ratios.
    poker = [hands_per_second(int(3000 * scale))[0] for _ in range(3)]
    spiel = openspiel() + openspiel() + openspiel()
    rows = []
    for name, kind in (("random-legal", RandomBot), ("heuristic", HeuristicBot)):
        rows.append(
            (
                name,
                kind,
                shootouts_per_second(kind, int(2000 * scale)),
                games_per_second(kind, int(300 * scale)),
            )
        )
    poker += [hands_per_second(int(3000 * scale))[0] for _ in range(2)]
    spiel += openspiel() + openspiel()
    poker_hps = max(poker)
    print(
        f"PokerKit heads-up fixed-limit hold'em (random legal actions): {poker_hps:,.0f} hands/s"
        f" (best of {len(poker)}, before and after; worst {min(poker):,.0f})"
    )
    spiel_hps = max(spiel, default=0.0)
    compiled = build.startswith("compiled")  # issue #27's goal is the compiled build's
    if spiel:
        print(
            f"OpenSpiel heads-up limit hold'em (universal_poker from Python, random play):"
            f" {spiel_hps:,.0f} hands/s (best of {len(spiel)}, before and after;"
            f" worst {min(spiel):,.0f})"
        )
        assert openspiel_hands_per_second is not None
        # each side about a tenth of a second a round on the machines of docs/performance.md
        hands, challenges, passes = (4000, 1000, 2) if args.quick else (8000, 2000, 2)
        rounds = 7 if args.quick else 15
        ratios = paired_ratios(
            lambda: openspiel_hands_per_second(hands)[0],
            saved_challenges(challenges, RandomBot),
            rounds,
            passes,
        )
        q1, _, q3 = statistics.quantiles(ratios, n=4)
        print(
            f"random-bot shootouts/s over OpenSpiel hands/s, paired ({rounds} alternations of"
            f" {hands:,} hands and {passes} x {challenges:,} challenges): median"
            f" {statistics.median(ratios):.2f}x (quartiles {q1:.2f}x to {q3:.2f}x, range"
            f" {min(ratios):.2f}x to {max(ratios):.2f}x)" + (" (goal >= 1.5x)" if compiled else "")
        )
    for name, kind, (sps, cps, share), (gps, dps, caps, turns) in rows:
        print(f"Drifter, {name} bots:")
        print(
            f"  shootouts (accepted challenge -> showdown): {sps:,.0f}/s"
            f"   ratio to PokerKit hands/s: {sps / poker_hps:.1f}x"
            + (f"   to OpenSpiel hands/s: {sps / spiel_hps:.2f}x" if spiel else "")
            + (" (goal >= 1.5x, random bots)" if spiel and kind is RandomBot and compiled else "")
        )
        print(
            f"  challenges, refused ones included ({share:.0%} accepted): {cps:,.0f}/s"
            f"   ratio: {cps / poker_hps:.1f}x"
        )
        print(
            f"  full games: {gps:,.1f}/s   decisions: {dps:,.0f}/s"
            f"   turns/game {turns:.1f}   turn-cap hits: {caps} of {int(300 * scale)}"
        )
    if args.length:
        n = args.length
        for decks in ("starter", "random legal"):
            r = game_lengths(n, decks)
            print(
                f"heuristic vs heuristic, {decks} decks, {n} games: {r['turns'] / n:.1f} turns"
                f" (longest {r['max']}), {r['decisions'] / n:.0f} decisions per game;"
                f" {r['accepted'] / max(r['challenges'], 1):.0%} of challenges accepted;"
                f" turn-cap hits: {r['caps']}"
            )
    if args.strength:
        n = args.strength
        print(f"heuristic beats random in {win_rate(HeuristicBot, RandomBot, n):.1%} of {n} games")
        m = max(n // 10, 20)
        rate = win_rate(SearchBot, HeuristicBot, m, rollouts=args.search_rollouts)
        print(f"search beats heuristic in {rate:.1%} of {m} games")
    if build.startswith("compiled") and not args.no_pure:
        print("\nthe same on the pure-Python source (DRIFTER_PURE_ENGINE=1):", flush=True)
        argv = [sys.executable, __file__, "--no-pure"] + (["--quick"] if args.quick else [])
        subprocess.run(argv, env={**os.environ, "DRIFTER_PURE_ENGINE": "1"}, check=True)


if __name__ == "__main__":
    main()
