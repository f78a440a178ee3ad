"""The game protocol for the card duel: every game ends in bounds, records replay exactly, tampered
records and illegal or out-of-turn actions are refused."""

from __future__ import annotations

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from simulator.engine.core import GameRecord, IllegalAction, RecordError, get_game
from simulator.engine.duel import Action, narrate, new_game, replay
from simulator.engine.duel.bots import BOTS
from simulator.engine.duel.cards import CARDS

DECISION_CAP = 1000


def check_bounds(state) -> None:
    assert min(state.gold) >= 0 and state.pot >= 0 and state.pot % 2 == 0
    assert max(state.round_wins) <= 2
    for p in (0, 1):
        cards = state.hands[p] + state.discards[p] + state.played[p]
        assert len(set(cards)) == len(cards) and set(cards) <= set(range(len(CARDS)))
        assert len(state.hands[p]) <= 9


def check_final(state) -> None:
    final = state.final()
    assert final["capped"] or final["round_wins"][final["winner"]] == 2


def out_of_turn(state) -> Action:
    """A discard of a card only the player who is not to act holds."""
    me, other = state.to_act, 1 - state.to_act
    return Action("discard", next(c for c in state.hands[other] if c not in state.hands[me]))


def play(seed: int, bots: tuple[str, ...] = ("random", "random"), record: bool = True):
    """One game between the named bots; checks the bounds after every decision."""
    state = new_game([{"name": f"seat {i}"} for i in range(len(bots))], None, seed, record)
    players = [BOTS[name](seat, seed + seat) for seat, name in enumerate(bots)]
    decisions = 0
    while not state.is_over:
        assert decisions < DECISION_CAP, "the hard cap should have ended the game"
        seat = state.to_act
        legal = state.legal_actions()
        assert legal
        state.apply(players[seat].choose(state.view(seat), legal))
        check_bounds(state)
        decisions += 1
    return state


def resign(record: dict) -> dict:
    """The record with a fresh checksum, as a forger would write it."""
    body = {k: v for k, v in record.items() if k not in ("checksum", "version")}
    return GameRecord(**body).to_json()


def snapshot(state) -> tuple:
    seats = range(len(state.seats))
    return state.record(), [state.view(p) for p in seats], state.legal_actions(), state.to_act


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    bots=st.tuples(
        st.sampled_from(["random", "heuristic"]), st.sampled_from(["random", "heuristic"])
    ),
)
def test_every_game_ends_and_stays_in_bounds(seed, bots):
    state = play(seed, bots, record=False)
    final = state.final()
    # Count the games the hard cap ended (see --hypothesis-show-statistics).
    event("ended by the hard cap" if final.get("capped") else "ended by the rules")
    check_final(state)


def test_record_replays_to_the_identical_final_state():
    for seed in range(4):
        state = play(seed, ("heuristic", "random"))
        record = state.record()
        again = replay(record)
        assert again.final() == state.final()
        assert again.record() == record


def test_narration_tells_the_game():
    lines = narrate(play(7, ("heuristic", "random")).record())
    assert lines and all(isinstance(line, str) for line in lines)


def test_a_tampered_record_raises_record_error():
    record = play(11, ("heuristic", "random")).record()
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


def test_an_illegal_action_raises_and_leaves_the_state_unchanged():
    state = play_until(3, 1)
    before = snapshot(state)
    for action in (Action("no such kind"), Action(state.legal_actions()[0].kind, 999)):
        with pytest.raises(IllegalAction):
            state.apply(action)
    assert snapshot(state) == before


def test_an_out_of_turn_action_raises_and_leaves_the_state_unchanged():
    state = play_until(5, 1)
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        state.apply(out_of_turn(state))
    assert snapshot(state) == before


def test_a_finished_game_takes_no_action():
    state = play(2, ("heuristic", "random"))
    with pytest.raises(IllegalAction):
        state.apply(Action("no such kind"))


def play_until(seed: int, decisions: int):
    """A random game stopped after `decisions` decisions (it is still on)."""
    state = new_game([{"name": f"seat {i}"} for i in range(2)], None, seed)
    bots = [BOTS["random"](i, seed) for i in range(2)]
    for _ in range(decisions):
        state.apply(bots[state.to_act].choose(state.view(state.to_act), state.legal_actions()))
    assert not state.is_over
    return state


def test_the_game_is_registered_with_both_bots():
    spec = get_game("duel")
    assert spec.new_game is new_game and spec.replay is replay
    assert set(spec.bots) == {"random", "heuristic"}
    assert (spec.min_players, spec.max_players) == (2, 2)
    assert not spec.needs_decks


def test_a_game_played_without_a_record_keeps_no_events():
    state = play(1, ("heuristic", "random"), record=False)
    with pytest.raises(RecordError):
        state.record()
