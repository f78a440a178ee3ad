"""Game records: replay without an RNG, identical in any process, tampering detected."""

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.engine.core.errors import RecordError, RulesError
from simulator.engine.core.record import GameRecord
from simulator.engine.drifter import Rules, Seat, new_game, play, replay
from simulator.engine.drifter.bots import HeuristicBot, RandomBot
from simulator.engine.drifter.narrate import narrate

from .factory import BASIC, basic, code

ROOT = Path(__file__).resolve().parents[4]
DECK = tuple(code(c["number"]) for c in BASIC) * 4
CHIPS = ("TST-K01", "TST-K02", "TST-K03")


def finished(seed=3, rules=None, n=2):
    seats = [Seat(f"P{i}", DECK, CHIPS) for i in range(n)]
    g = new_game(seats, rules=rules, seed=seed, catalogue=basic())
    play(g, [HeuristicBot(seed + i) if i % 2 else RandomBot(seed + i) for i in range(n)])
    return g


def test_record_is_json_and_replays_to_the_same_final():
    g = finished()
    record = json.loads(json.dumps(g.record()))
    assert record["version"] == 3 and record["game"] == "drifter"
    assert record["rules"]["rulings"] == 3
    assert {e[0] for e in record["events"]} >= {"act", "shuffle", "pick"}
    again = replay(record, catalogue=basic())
    assert again.final() == g.final() and again.stake == g.stake


@pytest.mark.parametrize(
    "variants",
    [
        {"cold_hands", "whirlwind"},
        {"tombstone", "riding_shotgun"},
        {"high_low", "last_man_standing"},
    ],
)
def test_variant_games_replay(variants):
    g = finished(seed=5, rules=Rules(variants=frozenset(variants), max_turns=120), n=3)
    assert replay(g.record(), catalogue=basic()).final() == g.final()


def test_same_seed_same_game_and_different_seed_different_game():
    assert finished(seed=9).record() == finished(seed=9).record()
    assert finished(seed=9).record()["events"] != finished(seed=10).record()["events"]


def test_checksum_catches_a_changed_event():
    record = finished().record()
    bad = copy.deepcopy(record)
    i = next(i for i, e in enumerate(bad["events"]) if e[0] == "act")
    bad["events"][i][2] = {"kind": "end_actions"}
    with pytest.raises(RecordError, match="checksum"):
        replay(bad, catalogue=basic())


def test_a_re_signed_forgery_still_fails_to_replay():
    record = finished().record()
    body = {k: v for k, v in record.items() if k not in ("checksum",)}
    acts = [i for i, e in enumerate(body["events"]) if e[0] == "act" and e[2]["kind"] == "end_turn"]
    body["events"][acts[0]][2] = {"kind": "bet", "amount": 5}
    forged = GameRecord(
        **{k: body[k] for k in ("game", "rules", "seats", "seed", "events", "final")}
    )
    with pytest.raises(RecordError):
        replay(forged.to_json(), catalogue=basic())


def test_a_forged_final_result_fails():
    record = finished().record()
    final = dict(record["final"])
    final["stakes"] = [999, 0]
    forged = GameRecord(
        record["game"], record["rules"], record["seats"], record["seed"], record["events"], final
    ).to_json()
    with pytest.raises(RecordError, match="record says"):
        replay(forged, catalogue=basic())


def test_a_changed_flip_fails():
    record = finished(seed=4).record()
    events = copy.deepcopy(record["events"])
    i = next(i for i, e in enumerate(events) if e[0] == "shuffle")
    events[i][2] = events[i][2][:-1]
    forged = GameRecord(
        record["game"], record["rules"], record["seats"], record["seed"], events, record["final"]
    ).to_json()
    with pytest.raises(RecordError, match="permutation"):
        replay(forged, catalogue=basic())


@pytest.mark.parametrize("junk", [None, [], "text", {"version": 1}, {"version": 7}])
def test_malformed_records_raise_record_error(junk):
    with pytest.raises(RecordError):
        replay(junk, catalogue=basic())


def test_truncated_record_without_final_replays_to_the_point_reached():
    g = new_game([Seat("A", DECK, CHIPS), Seat("B", DECK, CHIPS)], seed=2, catalogue=basic())
    bots = [RandomBot(1), RandomBot(2)]
    for _ in range(10):
        g.apply(bots[g.to_act].choose(g.view(g.to_act), g.legal_actions()))
    part = replay(g.record(), catalogue=basic())
    assert part.stake == g.stake and not part.is_over


def test_record_false_keeps_no_log():
    g = new_game(
        [Seat("A", DECK, CHIPS), Seat("B", DECK, CHIPS)], seed=2, record=False, catalogue=basic()
    )
    assert g.events is None
    with pytest.raises(RulesError, match="started with record=False and keeps no record"):
        g.record()


def test_narration_reads_like_the_rules_examples():
    lines = narrate(finished().record(), catalogue=basic())
    assert lines[0].endswith("goes first and takes the badge.")
    assert any(" plays " in line and " on it." in line for line in lines)
    assert lines[-1].startswith("The game ends")


SCRIPT = """
import json, sys
sys.path.insert(0, {root!r})
from simulator.engine.drifter import new_game, play, starter_seat, Rules
from simulator.engine.drifter.bots import HeuristicBot, RandomBot
seats = [starter_seat(n, d) for n, d in (("A", "HSD-S1"), ("B", "HSD-S2"), ("C", "HSD-S1"))]
g = new_game(seats,
             rules=Rules(variants=frozenset({{"tombstone", "high_low"}}), max_turns=150), seed=11)
play(g, [HeuristicBot(1), RandomBot(2), HeuristicBot(3)])
print(json.dumps(g.record(), sort_keys=True))
"""


def test_identical_in_any_process_under_any_pythonhashseed():
    outputs = []
    for seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", SCRIPT.format(root=str(ROOT))],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        outputs.append(out.stdout)
    assert outputs[0] == outputs[1]
    record = json.loads(outputs[0])
    assert replay(record).final() == record["final"]
