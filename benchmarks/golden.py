"""Digests of what the engine writes and says, to show a refactor changed none of it.

    python benchmarks/golden.py            # one line per part, and the whole

Plays a fixed set of varied games of all five games (random and heuristic bots; High Stakes
Drifter with 2 to 8 seats, every play variant, quick-start, and the search bot's decisions) and
hashes, for each: the records (JSON, sorted keys), the narration as the narrator tells it, the
narration as seat 0 saw it, and the words of every legal action offered along the way. The same
digests before and after a change mean the same records, narration and button labels. The
suite checks the records and narration against the digests committed in
`tests/simulator/engine/test_golden.py`.

Before the simulator became rooms (b66f227) the labels were `simulator.specs.drifter_table`'s.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def drifter_games() -> list[tuple[dict, list[list[str]]]]:
    """(record, labels offered at each decision) of each varied High Stakes Drifter game."""
    from simulator.engine.drifter import Rules, new_game, starter_seat
    from simulator.engine.drifter.bots import HeuristicBot, RandomBot, SearchBot
    from simulator.engine.drifter.variants import PLAY_VARIANTS

    decks = ["HSD-S1", "HSD-S2"]
    games: list = [(2, Rules(), (RandomBot, HeuristicBot)[seed % 2]) for seed in range(10)]
    games += [(2, Rules(quick_start=True), HeuristicBot), (2, Rules(quick_start=True), RandomBot)]
    for i, variant in enumerate(PLAY_VARIANTS):
        games.append(
            (3 + i % 6, Rules(variants=frozenset({variant})), (RandomBot, HeuristicBot)[i % 2])
        )
    games.append(
        (8, Rules(variants=frozenset({"tombstone", "high_low", "riding_shotgun"})), HeuristicBot)
    )
    out = []
    for seed, (n, rules, kind) in enumerate(games):
        state = new_game(
            [starter_seat(chr(65 + i), decks[i % 2]) for i in range(n)], rules=rules, seed=seed
        )
        bots = [kind(seed * 8 + i) for i in range(n)]
        out.append(_play(state, bots, limit=None))
    state = new_game([starter_seat("A", "HSD-S1"), starter_seat("B", "HSD-S2")], seed=5)
    out.append(_play(state, [SearchBot(1, rollouts=4), HeuristicBot(2)], limit=60))
    return out


def _play(state, bots, limit: int | None) -> tuple[dict, list[list[str]]]:
    labels: list[list[str]] = []
    label = _labeller(state)
    steps = 0
    while not state.is_over and (limit is None or steps < limit):
        p = state.to_act
        legal = state.legal_actions()
        if label is not None:
            labels.append([label(state, a) for a in legal])
        state.apply(bots[p].choose(state.view(p), legal))
        steps += 1
    return state.record(), labels


def _labeller(state):
    # The table's words for each legal action (simulator/games/drifter_table.py): plain Python.
    from simulator.games.drifter_table import drifter_action_label

    return drifter_action_label if type(state).__name__ == "DrifterState" else None


def small_games() -> dict[str, list[tuple[dict, list]]]:
    from simulator.engine.core.registry import games

    out: dict[str, list] = {}
    for name, spec in sorted(games().items()):
        if name == "drifter":
            continue
        played = []
        for seed in range(16):
            kind = ("random", "heuristic")[seed % 2] if "heuristic" in spec.bots else "random"
            n = spec.min_players + seed % (spec.max_players - spec.min_players + 1)
            state = spec.new_game([{"name": f"P{i}"} for i in range(n)], seed=seed)
            bots = [spec.bots[kind](i, seed * 8 + i) for i in range(n)]
            while not state.is_over:
                p = state.to_act
                state.apply(bots[p].choose(state.view(p), state.legal_actions()))
            played.append((state.record(), []))
        out[name] = played
    return out


def digests() -> dict[str, str]:
    from simulator.engine.core.registry import get_game
    from simulator.engine.drifter import replay
    from simulator.engine.drifter.narrate import narrate, narrate_events

    parts = {k: hashlib.sha256() for k in ("records", "narration", "seat0", "labels")}
    for record, labels in drifter_games():
        parts["records"].update(json.dumps(record, sort_keys=True).encode())
        parts["narration"].update("\n".join(narrate(record)).encode())
        state = replay(record, narrate=True)
        cards = [(c.owner, c.printed.is_dude) for c in state.cards]
        seat0 = narrate_events(state.log or [], [s.name for s in state.seats], 0, cards)
        parts["seat0"].update("\n".join(seat0).encode())
        parts["labels"].update(json.dumps(labels).encode())
    for name, played in small_games().items():
        spec = get_game(name)
        for record, _ in played:
            parts["records"].update(json.dumps(record, sort_keys=True).encode())
            if spec.narrate is not None:
                parts["narration"].update("\n".join(spec.narrate(record)).encode())
    out = {k: h.hexdigest() for k, h in parts.items()}
    whole = hashlib.sha256("".join(out[k] for k in sorted(out)).encode()).hexdigest()
    return {**out, "whole": whole}


if __name__ == "__main__":
    for key, value in digests().items():
        print(f"{key:10} {value}")
