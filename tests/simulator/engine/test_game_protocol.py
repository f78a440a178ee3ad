"""The game protocol, for every small game: every game ends in bounds, records replay exactly,
tampered records and illegal or out-of-turn actions are refused. What differs between the games
(bounds, out-of-turn actions, bots, caps) is in protocol_cases.py."""

from __future__ import annotations

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from simulator.engine.core import IllegalAction, RecordError, get_game, seat_names
from tests.simulator.engine.protocol_cases import CASES, resign, snapshot

games = pytest.mark.parametrize("case", CASES, ids=str)


@games
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), data=st.data())
def test_every_game_ends_and_stays_in_bounds(case, seed, data):
    bots = data.draw(case.lineups(), label="bots")
    state = case.play(seed, bots, record=False)
    final = state.final()
    # Count the games the hard cap ended (see --hypothesis-show-statistics).
    event("ended by the hard cap" if final.get("capped") else "ended by the rules")
    case.check_final(state)


@games
def test_record_replays_to_the_identical_final_state(case):
    for seed in range(4):
        state = case.play(seed)
        record = state.record()
        again = case.package.replay(record)
        assert again.final() == state.final()
        assert again.record() == record


@games
def test_narration_tells_the_game(case):
    lines = case.package.narrate(case.play(7).record())
    assert lines and all(isinstance(line, str) for line in lines)


@games
def test_a_tampered_record_raises_record_error(case):
    replay = case.package.replay
    record = case.play(11).record()
    altered = dict(record, seed=record["seed"] + 1)
    with pytest.raises(RecordError):
        replay(altered)  # checksum no longer matches
    acts = [i for i, e in enumerate(record["events"]) if e[0] == "act"]
    forged = resign(dict(record, events=[*record["events"][: acts[-1]], ["act", 0, {"kind": "x"}]]))
    with pytest.raises(RecordError):
        replay(forged)  # not an action
    with pytest.raises(RecordError):
        replay(resign(dict(record, events=record["events"][: acts[-1]])))  # cut short
    with pytest.raises(RecordError):
        replay(resign(dict(record, final={"winner": "nobody"})))  # final rewritten
    shuffles = [i for i, e in enumerate(record["events"]) if e[0] == "shuffle"]
    events = [list(e) for e in record["events"]]
    events[shuffles[0]][2] = events[shuffles[0]][2][1:]
    with pytest.raises(RecordError):
        replay(resign(dict(record, events=events)))  # a shuffle that is no permutation
    events = [list(e) for e in record["events"]]
    events[acts[0]][1] = 1 - events[acts[0]][1]
    with pytest.raises(RecordError):
        replay(resign(dict(record, events=events)))  # decision by the wrong seat


@games
def test_a_record_of_a_game_still_on_replays_to_the_point_it_reached(case):
    state = case.play_until(3, case.probe_after)
    record = state.record()
    assert record["final"] is None
    again = case.package.replay(record)
    assert snapshot(again) == snapshot(state)
    with pytest.raises(RecordError, match="no final result for a finished game"):
        case.package.replay(resign(dict(case.play(3).record(), final=None)))


@games
def test_a_record_the_replay_does_not_make_itself_raises_record_error(case):
    record = case.play(5).record()
    last = next(e for e in reversed(record["events"]) if e[0] == "act")
    with pytest.raises(RecordError, match="a decision after the game ended"):
        case.package.replay(resign(dict(record, events=[*record["events"], last])))
    shuffle = next(e for e in record["events"] if e[0] == "shuffle")
    with pytest.raises(RecordError):  # a chance outcome nobody drew
        case.package.replay(resign(dict(record, events=[*record["events"], shuffle])))


@games
def test_an_illegal_action_raises_and_leaves_the_state_unchanged(case):
    action = case.package.Action
    state = case.play_until(3, case.probe_after)
    before = snapshot(state)
    for illegal in (action("no such kind"), action(state.legal_actions()[0].kind, 999)):
        with pytest.raises(IllegalAction):
            state.apply(illegal)
    assert snapshot(state) == before


@games
def test_an_out_of_turn_action_raises_and_leaves_the_state_unchanged(case):
    state = case.play_until(5, case.probe_after)
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        state.apply(case.out_of_turn(state))
    assert snapshot(state) == before


@games
def test_a_finished_game_takes_no_action(case):
    state = case.play(2)
    with pytest.raises(IllegalAction):
        state.apply(case.package.Action("no such kind"))


@games
def test_the_game_is_registered_with_its_bots(case):
    spec = get_game(case.name)
    assert spec.new_game is case.package.new_game and spec.replay is case.package.replay
    assert set(spec.bots) == {"random", "heuristic", "ismcts"}
    assert (spec.min_players, spec.max_players) == case.players
    assert not spec.needs_decks


@games
def test_a_game_played_without_a_record_keeps_no_events(case):
    state = case.play(1, record=False)
    with pytest.raises(RecordError):
        state.record()


@games
def test_a_record_of_another_game_is_refused(case):
    other = next(c for c in CASES if c.name != case.name)
    with pytest.raises(RecordError, match=f"not a {case.name} record"):
        case.package.replay(other.play(0).record())


def test_unnamed_seats_are_called_by_number():
    names = seat_names([{"name": "Doc"}, {}, {"name": 7}, "seat"])
    assert names == ["Doc", "Seat 1", "Seat 2", "Seat 3"]
