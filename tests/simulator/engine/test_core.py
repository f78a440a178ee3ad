"""The shared core: recorded and replayed chance, records with checksums, the registry, the
random bot."""

import copy
import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulator.engine.core import (
    GameRecord,
    RandomBot,
    RecordedChance,
    RecordError,
    ReplayChance,
    get_game,
)
from simulator.engine.core.errors import RulesError


def test_recorded_chance_logs_every_outcome_and_replay_hands_them_back():
    log: list = []
    live = RecordedChance(7, log)
    order = live.shuffle(["a", "b", "c", "d"], "deck")
    roll = live.randint(1, 6, "die")
    pick = live.choice_index(3, "coin")
    again = ReplayChance(log)
    assert again.shuffle(["a", "b", "c", "d"], "deck") == order
    assert again.randint(1, 6, "die") == roll
    assert again.choice_index(3, "coin") == pick


def test_replay_chance_refuses_a_mismatch():
    with pytest.raises(RecordError, match="expected a roll"):
        ReplayChance([["pick", "x", 0]]).randint(1, 6, "die")
    with pytest.raises(RecordError, match="outside"):
        ReplayChance([["roll", "die", 9]]).randint(1, 6, "die")
    with pytest.raises(RecordError, match="record ends"):
        ReplayChance([]).choice_index(2, "coin")


def test_record_checksum_round_trip_and_tamper():
    rec = GameRecord("g", {"a": 1}, [{"name": "x"}], 3, [["act", 0, {"kind": "x"}]], {"w": 0})
    data = rec.to_json()
    assert GameRecord.from_json(data) == rec
    data["seed"] = 4
    with pytest.raises(RecordError, match="checksum"):
        GameRecord.from_json(data)


def test_registry_knows_drifter_with_its_bots():
    spec = get_game("drifter")
    assert spec.min_players == 2 and spec.max_players == 8
    assert {"random", "heuristic", "search"} <= set(spec.bots)
    with pytest.raises(RulesError):
        get_game("canasta")


MENU = [f"action {i}" for i in range(300)]


@given(seed=st.integers(0, 2**40), sizes=st.lists(st.integers(1, 300), min_size=1, max_size=40))
def test_the_random_bot_draws_as_randrange_does(seed, sizes):
    """Every game's random bot picks `random.Random(seed).randrange(len(menu))`, draw after
    draw, for any run of menu sizes (1 and powers of two included), so that the records made
    with `randrange` still replay; and it leaves its generator where `randrange` would."""
    bot, reference = RandomBot(seed), random.Random(seed)
    for n in sizes:
        assert bot.choose(None, MENU[:n]) is MENU[reference.randrange(n)]
    assert bot.rng.getstate() == reference.getstate()


def test_a_seed_gives_its_own_choices():
    one, other = RandomBot(1), RandomBot(2)
    menu = list(range(10))
    assert [one.choose(None, menu) for _ in range(8)] == [2, 9, 1, 4, 1, 7, 7, 7]
    assert [other.choose(None, menu) for _ in range(8)] == [0, 1, 1, 5, 2, 4, 4, 9]


def test_the_random_bot_refuses_an_empty_menu():
    with pytest.raises(ValueError, match="no legal action"):
        RandomBot(1).choose(None, [])


@given(
    seed=st.integers(0, 2**40),
    draws=st.lists(
        st.one_of(
            st.tuples(st.just("shuffle"), st.integers(0, 80)),
            st.tuples(st.just("roll"), st.integers(-5, 5), st.integers(0, 300)),
            st.tuples(st.just("pick"), st.integers(1, 300)),
        ),
        min_size=1,
        max_size=30,
    ),
)
def test_recorded_chance_draws_as_the_standard_library_does(seed, draws):
    """A game's shuffles, rolls and picks are `random.Random(seed)`'s `shuffle`, `randint` and
    `randrange`, outcome for outcome and state for state, for any mix of them (every saved
    record and golden digest was made with those)."""
    chance, reference = RecordedChance(seed, None), random.Random(seed)
    for draw in draws:
        if draw[0] == "shuffle":
            items = list(range(draw[1]))
            expected = items[:]
            reference.shuffle(expected)
            assert chance.shuffle(items, "deck") == expected
        elif draw[0] == "roll":
            low, high = draw[1], draw[1] + draw[2]
            assert chance.randint(low, high, "die") == reference.randint(low, high)
        else:
            assert chance.choice_index(draw[1], "coin") == reference.randrange(draw[1])
    assert chance.rng.getstate() == reference.getstate()


def test_recorded_chance_refuses_an_empty_range():
    with pytest.raises(ValueError, match="empty range"):
        RecordedChance(1, None).choice_index(0, "coin")
    with pytest.raises(ValueError, match="empty range"):
        RecordedChance(1, None).randint(3, 2, "die")


def test_chance_copies_and_pickles_mid_game():
    """A game's chance copies (a what-if, a search's determinization copy the state holding it)
    and pickles, and the copy draws on from where the original stood, in either build."""
    live = RecordedChance(11, [])
    live.shuffle(list(range(9)), "deck")
    for twin in (copy.deepcopy(live), pickle.loads(pickle.dumps(live))):
        assert twin.log == live.log and twin.log is not live.log
        assert twin.choice_index(1000, "x") == copy.deepcopy(live).choice_index(1000, "x")
    replay = ReplayChance([["pick", "x", 3], ["roll", "die", 2]])
    replay.choice_index(5, "x")
    assert copy.deepcopy(replay).randint(1, 6, "die") == 2
