"""Statistics of runs: Wilson intervals, mergeable aggregates, seat rotation, seeding."""

from __future__ import annotations

import copy
import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from simulator.games.runner import game_seed, play_chunk, rotation, sample_indices
from simulator.runs import stats

PLAN = {
    "game": "quickdraw",
    "rules": {},
    "seed": 99,
    "games": 120,
    "players": [{"label": "A", "bot": "heuristic"}, {"label": "B", "bot": "random"}],
    "matchups": [[0, 1]],
    "pairs": [],
}


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Reference values (Wilson 1927; as computed by R's prop.test(correct=FALSE) and
        # statsmodels' proportion_confint(method="wilson")).
        (81, 263, 0.2553, 0.3662),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
        (1, 2, 0.0945, 0.9055),
    ],
)
def test_wilson_interval_matches_known_values(k, n, low, high):
    lo, hi = stats.wilson(k, n)
    assert lo == pytest.approx(low, abs=5e-4)
    assert hi == pytest.approx(high, abs=5e-4)


def test_wilson_interval_of_nothing_is_everything():
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_merge_adds_leaf_by_leaf_and_leaves_its_arguments_alone():
    a = {"games": 2, "hist": {"3": 1, "5": 1}, "pos": [{"w": 1}, {"w": 0}]}
    b = {"games": 1, "hist": {"5": 2}, "pos": [{"w": 0}, {"w": 1}], "new": 4}
    merged = stats.merge(a, b)
    assert merged == {"games": 3, "hist": {"3": 1, "5": 3}, "pos": [{"w": 1}, {"w": 1}], "new": 4}
    assert a["hist"] == {"3": 1, "5": 1}


def _reference_merge(a, b):
    """merge as the rule says it, node by node, with no copying tricks."""
    if a is None or b is None:
        return copy.deepcopy(b if a is None else a)
    if isinstance(a, dict):
        return {
            k: _reference_merge(a.get(k), b.get(k)) for k in [*a, *(k for k in b if k not in a)]
        }
    if isinstance(a, list):
        n = max(len(a), len(b))
        return [_reference_merge(a[i] if i < len(a) else None, b[i] if i < len(b) else None)
                for i in range(n)]  # fmt: skip
    return a + b


def _trees(depth: int = 3):
    leaves = st.integers(0, 50) | st.floats(0, 10, allow_nan=False)
    keys = st.sampled_from(["games", "won", "7", "HSD-001", "pos"])
    if depth == 0:
        return leaves
    inner = _trees(depth - 1)
    return st.dictionaries(keys, inner, max_size=4) | st.lists(inner, max_size=3) | leaves


def _node_ids(tree, out):
    if isinstance(tree, (dict, list)):
        out.add(id(tree))
        for child in tree.values() if isinstance(tree, dict) else tree:
            _node_ids(child, out)
    return out


@given(a=st.dictionaries(st.sampled_from(["m", "n", "o"]), _trees(), max_size=3),
       b=st.dictionaries(st.sampled_from(["m", "n", "o"]), _trees(), max_size=3))  # fmt: skip
def test_merge_is_the_leaf_by_leaf_sum_and_shares_no_node_with_its_arguments(a, b):
    """Same shapes on both sides where keys meet (as aggregates of one plan have)."""
    assume(_same_shapes(a, b))
    before = copy.deepcopy((a, b))
    merged = stats.merge(a, b)
    assert merged == _reference_merge(a, b)
    assert (a, b) == before
    assert not _node_ids(merged, set()) & (_node_ids(a, set()) | _node_ids(b, set()))
    assert stats.merge_all([a, b]) == merged


def _same_shapes(a, b) -> bool:
    if a is None or b is None:
        return True
    if isinstance(a, dict) or isinstance(b, dict):
        return (isinstance(a, dict) and isinstance(b, dict)
                and all(_same_shapes(a.get(k), b.get(k)) for k in set(a) | set(b)))  # fmt: skip
    if isinstance(a, list) or isinstance(b, list):
        return (isinstance(a, list) and isinstance(b, list)
                and all(_same_shapes(x, y) for x, y in zip(a, b, strict=False)))  # fmt: skip
    return True


@pytest.mark.parametrize("size", [1, 7, 30, 120])
def test_merging_chunk_aggregates_equals_aggregating_all_at_once(size):
    whole = play_chunk(PLAN, 0, 120).aggregate
    parts = [play_chunk(PLAN, s, min(120, s + size)).aggregate for s in range(0, 120, size)]
    assert stats.merge_all(parts) == whole
    assert stats.merge_all(reversed(parts)) == whole  # order does not matter either


def test_drifter_aggregates_merge_too(db):
    from simulator.engine import drifter

    seats = [
        drifter.starter_seat("A", "HSD-S1").to_json(),
        drifter.starter_seat("B", "HSD-S2").to_json(),
    ]
    plan = {
        "game": "drifter", "rules": {}, "seed": 4, "games": 6,
        "players": [{"label": "A", "bot": "random", "seat": seats[0]},
                    {"label": "B", "bot": "random", "seat": seats[1]}],
        "matchups": [[0, 1]], "pairs": [],
    }  # fmt: skip
    whole = play_chunk(plan, 0, 6).aggregate
    assert stats.merge(play_chunk(plan, 0, 2).aggregate, play_chunk(plan, 2, 6).aggregate) == whole
    position = whole["matchups"][0]["positions"][0]
    assert sum(position["stakes"].values()) == 6
    assert position["cards"] and position["shootouts_by_stat"]


@pytest.mark.parametrize("seats", [2, 3, 5, 8])
def test_seat_rotation_puts_every_player_in_every_seat_equally_often(seats):
    games = seats * 25
    counts = [[0] * seats for _ in range(seats)]
    for i in range(games):
        order = rotation(i, seats)
        assert sorted(order) == list(range(seats))
        for seat, player in enumerate(order):
            counts[player][seat] += 1
    assert all(c == 25 for row in counts for c in row)


def test_quickdraw_first_seat_is_balanced_by_rotation():
    agg = play_chunk(PLAN, 0, 120).aggregate["matchups"][0]["positions"]
    assert agg[0]["first_games"] == agg[1]["first_games"] == 60


def test_chunk_seeding_does_not_depend_on_the_worker_or_the_chunk():
    assert game_seed(7, 0) == 7 * 1_000_003
    assert game_seed(7, 5) == 7 * 1_000_003 + 5  # the formula, worked out by hand
    assert len({game_seed(7, i) for i in range(1000)}) == 1000
    # The same game indices give the same result in whatever chunk they are played.
    alone = play_chunk(PLAN, 40, 41).aggregate
    inside = play_chunk(PLAN, 40, 41).aggregate
    assert alone == inside


def test_samples_are_spread_over_the_run():
    picked = sample_indices(1000, 20)
    assert len(picked) == 20 and min(picked) == 0 and max(picked) >= 900
    assert sample_indices(5, 20) == {0, 1, 2, 3, 4}


def test_paired_test_on_common_random_numbers():
    # B wins 30 more of 400 paired games: d = +1 in 40 games, -1 in 10, 0 otherwise.
    n, sum_d, sum_d2 = 400, 40 - 10, 40 + 10
    result = stats.paired_test(n, sum_d, sum_d2, a_only=10, b_only=40)
    assert result["mean"] == pytest.approx(0.075)
    sd = math.sqrt((sum_d2 - n * 0.075**2) / (n - 1))
    assert result["t"] == pytest.approx(0.075 / (sd / math.sqrt(n)))
    assert result["p"] < 0.001 and result["significant"]
    assert result["mcnemar_chi2"] == pytest.approx((30 - 1) ** 2 / 50)
    same = stats.paired_test(100, 0, 0, 0, 0)
    assert same["mean"] == 0 and not same["significant"]


def test_histogram_bins_and_quantiles():
    counts = {"1": 2, "2": 1, "10": 1}
    bins = stats.histogram_bins(counts, bins=5)
    assert sum(b["count"] for b in bins) == 4
    assert bins[0]["low"] == 1
    assert stats.quantiles(counts, (0.5,)) == [1]
    assert stats.mean_of(counts) == pytest.approx(3.5)


def _drifter_plan(labels, games, bot="random"):
    from simulator.engine import drifter
    from simulator.games.players import prepare_rules

    starters = ["HSD-S1", "HSD-S2"]
    players = [
        {"label": label, "bot": bot, "seat": drifter.starter_seat(label, starters[i % 2]).to_json()}
        for i, label in enumerate(labels)
    ]
    return {
        "game": "drifter",
        "rules": prepare_rules("drifter", "standard", []).rules,
        "seed": 12,
        "games": games,
        "players": players,
        "matchups": [list(range(len(labels)))],
        "pairs": [],
    }


@pytest.mark.parametrize(("table", "games"), [(2, 4), (3, 6), (3, 5)])
def test_drifter_decks_go_first_exactly_equally_often(db, table, games):
    plan = _drifter_plan("ABC"[:table], games=games)
    assert plan["rules"]["first_player"] == 0
    positions = play_chunk(plan, 0, games).aggregate["matchups"][0]["positions"]
    firsts = [p["first_games"] for p in positions]
    if games % table == 0:
        assert firsts == [games // table] * table
    else:  # every n consecutive games give each deck the badge once: at most one apart
        assert sum(firsts) == games and max(firsts) - min(firsts) == 1
    assert [p["first_games"] + p["other_games"] for p in positions] == [games] * table


def test_the_first_player_comes_from_final(db):
    from simulator.games import service_for

    plan = _drifter_plan("AB", games=1)
    game = service_for("drifter")
    rules = game.engine_rules(plan["rules"])
    for i in range(4):
        order = rotation(i, 2)
        seats = [game.engine_seat(plan["players"][e]) for e in order]
        state = game.new_game(seats, rules, game_seed(12, i), False, None)
        assert state.log is None  # no narration: the statistics come from final()
        assert game.facts(state, first=1).first == state.final()["first"] == 0


def test_shootout_and_card_statistics_come_from_the_engines_final():
    from simulator.games import service_for
    from simulator.games.runner import _record_game, empty_matchup
    from tests.simulator.engine.drifter.factory import act, code
    from tests.simulator.engine.drifter.test_final_facts import to_the_showdown

    g = to_the_showdown()  # Sam (seat 0) challenged Jane on skill
    act(g, "reinvest", dude=g.sdude[0].uid)
    facts = service_for("drifter").facts(g, first=0)
    agg = empty_matchup(2)
    # Matchup position 1 sits in seat 0 (Sam), position 0 in seat 1 (Jane).
    _record_game(agg, [0, 1], [1, 0], facts)
    sam, jane = agg["positions"][1], agg["positions"][0]
    assert sam["shootouts_by_stat"] == {"skill": [1, 1]}
    assert jane["shootouts_by_stat"] == {"skill": [0, 1]}
    # Chips won per shootout is the net figure: Sam +24, Jane -24 (the pot was 52).
    for code_ in (code(1), code(10), code(20)):
        assert sam["cards"][code_] == {
            "games": 1, "wins": 0, "shootouts": 1, "chips": 24, "chips_sq": 576
        }  # fmt: skip
    assert jane["cards"][code(11)]["chips"] == -24
    assert set(jane["cards"]) == {code(2), code(11), code(21)}


def _add_shootout_log(agg, order, log):
    """The reference: final()'s shootout log added to an aggregate entry by entry (as the
    runner did before the engine summed the shootouts)."""
    for shootout in log:
        key = shootout["stat"] or "highest"  # quick-start: each dude's highest stat
        for seat, chips, cards in zip(
            shootout["seats"], shootout["net"], shootout["cards"], strict=True
        ):
            entry = agg["positions"][order[seat]]
            pair = entry["shootouts_by_stat"].setdefault(key, [0, 0])
            pair[1] += 1
            if seat in shootout["winners"]:
                pair[0] += 1
            for code in cards:
                card = entry["cards"].setdefault(
                    code, {"games": 0, "wins": 0, "shootouts": 0, "chips": 0, "chips_sq": 0}
                )
                card["shootouts"] += 1
                card["chips"] += chips
                card["chips_sq"] += chips * chips


def test_drifter_shootouts_summed_by_the_engine_give_the_aggregate_the_log_gives():
    """Drifter's facts carry the shootouts as the engine sums them (shootout_tallies), not
    final()'s log of every shootout: the aggregate, its every total and the order of its
    keys, is what reading the log entry by entry gave, at 2 to 4 seats and quick start."""
    import json
    import random

    from simulator.engine.drifter import new_game
    from simulator.engine.drifter.bots import FACTORIES
    from simulator.engine.drifter.cards import load_catalogue
    from simulator.engine.drifter.variants import Rules
    from simulator.engine.training import random_seat
    from simulator.games import service_for
    from simulator.games.base import GameService
    from simulator.games.runner import _record_game, empty_matchup

    game = service_for("drifter")
    cat = load_catalogue()
    rng = random.Random(5)
    by_log: dict[int, dict] = {}
    by_engine: dict[int, dict] = {}
    fought = 0
    for seed in range(30):
        size = 2 + seed % 3
        seats = [random_seat(f"P{i}", rng, cat, "heuristic") for i in range(size)]
        rules = Rules(quick_start=size == 2 and seed % 4 == 0)
        state = new_game(seats, rules=rules, seed=seed, record=False, catalogue=cat)
        bots = [FACTORIES["heuristic"](i, seed * 16 + i) for i in range(size)]
        first = state.to_act
        while not state.is_over:
            p = state.to_act
            state.apply(bots[p].choose(state.view(p), state.legal_actions()))
        order = list(range(size))[::-1]  # seats and positions apart
        old = GameService.facts(game, state, first)  # final()'s facts
        log = state.final()["shootout_log"]
        new = game.facts(state, first)
        assert new.shootout_tallies and not old.shootout_tallies
        assert (new.winners, new.first, new.stakes, new.turns, new.played) == (
            old.winners, old.first, old.stakes, old.turns, old.played
        )  # fmt: skip
        expected = by_log.setdefault(size, empty_matchup(size))
        _record_game(expected, order, order, old)
        _add_shootout_log(expected, order, log)
        _record_game(by_engine.setdefault(size, empty_matchup(size)), order, order, new)
        fought += len(log)
    assert fought > 100 and sorted(by_log) == [2, 3, 4]
    assert json.dumps(by_engine) == json.dumps(by_log)
