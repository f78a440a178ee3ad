"""Who goes first, and the per-game facts `final()` reports: cards played and every shootout."""

import json
import os
import subprocess
import sys

import pytest

from simulator.engine.core.errors import RulesError
from simulator.engine.drifter import Rules, Seat, new_game, play, replay
from simulator.engine.drifter.bots import HeuristicBot, RandomBot

from .factory import act, basic, code, duel, find, game
from .test_records import CHIPS, DECK, ROOT

F = [13] * 20
HANK, JAKE = ("dude", "Hank", False, 6), ("dude", "Jake", False, 5)
SAM = [HANK, ("gear", "Six-Gun", "Hank", False, 3)]
JANE = [JAKE, ("gear", "Lucky Coin", "Jake", False, 2)]


def standard(**kw):
    """Sam: Hank + concealed Six-Gun, Quick Draw in hand. Jane: Jake + concealed Lucky Coin,
    Bad Omen in hand. Sam challenges on skill; Jane accepts (as in test_shootout.py)."""
    return duel([[1, 10, 20], [2, 11, 21]], [SAM, JANE], **kw)


def to_the_showdown():
    """`standard()` played to the showdown: Sam bets $10, Jane calls, both reveal their gear,
    both check, Sam plays Quick Draw and Jane Bad Omen (Sam wins, his reinvest is next)."""
    g = standard()
    act(g, "bet", amount=10)
    act(g, "call")
    act(g, "reveal_gear", card=find(g, 0, "Six-Gun"))
    act(g, "reveal_gear", card=find(g, 1, "Lucky Coin"))
    act(g, "check")
    act(g, "check")
    act(g, "play_fortune", card=find(g, 0, "Quick Draw"))
    act(g, "play_fortune", card=find(g, 1, "Bad Omen"))
    return g


def seats(n=2):
    return [Seat(f"P{i}", DECK, CHIPS) for i in range(n)]


# --- who goes first ---------------------------------------------------------------------


@pytest.mark.parametrize("first", [0, 1, 2])
def test_a_fixed_first_player_gets_the_badge_and_no_chance_is_drawn_for_it(first):
    g = new_game(seats(3), rules=Rules(first_player=first), seed=4, catalogue=basic())
    assert g.badge == first and g.to_act == first
    record = g.record()
    assert record["rules"]["first_player"] == first
    assert not any(e[0] == "pick" and e[1] == "first" for e in record["events"])
    assert g.final()["first"] == first


def test_the_random_first_player_is_a_recorded_pick_and_reported_in_final():
    g = new_game(seats(3), seed=4, catalogue=basic())
    picks = [e[2] for e in g.record()["events"] if e[:2] == ["pick", "first"]]
    assert picks == [g.badge] and g.final()["first"] == g.badge
    assert g.record()["rules"]["first_player"] is None


def test_quick_start_takes_a_fixed_first_player_too():
    g = new_game(seats(), rules=Rules(quick_start=True, first_player=1), catalogue=basic())
    assert g.badge == 1 and g.final()["first"] == 1
    assert not any(e[:2] == ["pick", "first"] for e in g.record()["events"])


@pytest.mark.parametrize("first", [-1, True, "0", 1.0])
def test_first_player_is_a_seat_number(first):
    with pytest.raises(RulesError, match="first_player"):
        Rules(first_player=first)


def test_first_player_must_be_one_of_the_seats():
    with pytest.raises(RulesError, match="not a seat"):
        new_game(seats(2), rules=Rules(first_player=2), catalogue=basic())


def test_a_fixed_first_player_replays():
    g = new_game(seats(), rules=Rules(first_player=1), seed=6, catalogue=basic())
    play(g, [HeuristicBot(1), RandomBot(2)])
    again = replay(json.loads(json.dumps(g.record())), catalogue=basic())
    assert again.final() == g.final() and again.final()["first"] == 1


# --- cards played -----------------------------------------------------------------------


def test_cards_played_lists_dudes_gear_and_fortunes_in_play_order_once_each():
    g = to_the_showdown()
    assert g.final()["cards_played"] == [
        [code(1), code(10), code(20)],
        [code(2), code(11), code(21)],
    ]


def test_a_second_copy_is_not_listed_again_and_discards_and_kicker_chips_are_not_plays():
    g = game([[1, 6, 10, 22, 2, *F], [3, *F]], chips=[[1], []])
    act(g, "play_dude", card=find(g, 0, "Hank"), revealed=True, chips=5)
    hank = g.saloon[0].uid
    act(g, "play_kicker", card=g.chips[0][0].uid, dude=hank)
    act(g, "play_gear", card=find(g, 0, "Six-Gun"), dude=hank, revealed=True, chips=2)
    act(g, "discard", card=find(g, 0, "Dust Devil"))
    act(g, "end_turn")
    act(g, "end_actions")
    act(g, "end_turn")
    # Two Hanks share a name but not a code: TST-006 is a card of its own.
    act(g, "play_dude", card=find(g, 0, "Hank"), revealed=True, chips=5)
    assert g.final()["cards_played"] == [[code(1), code(10), code(6)], []]


def test_riding_shotgun_counts_as_played_but_not_as_in_the_shootout():
    g = game([[1, 2, *F], [3, 5, *F]], rules=Rules(variants=frozenset({"riding_shotgun"})))
    act(g, "play_dude", card=find(g, 0, "Hank"), chips=6)
    act(g, "end_actions")
    act(g, "end_turn")
    act(g, "play_dude", card=find(g, 1, "Lou"), chips=4)
    act(g, "end_actions")
    act(g, "end_turn")
    act(g, "challenge", dude=find(g, 0, "Hank"), stat="skill")
    act(g, "shotgun", card=find(g, 0, "Jake"))
    act(g, "accept", dude=find(g, 1, "Lou"))
    while g.phase in ("shotgun", "bet", "reveal", "fortune"):
        act(g, {"shotgun": "pass_shotgun", "bet": "check", "reveal": "pass_reveal",
                "fortune": "pass_fortune"}[g.phase])  # fmt: skip
    act(g, "bury", dude=find(g, 0, "Hank"))
    final = g.final()
    assert final["cards_played"] == [[code(1), code(2)], [code(3)]]
    assert final["shootout_log"][0]["cards"] == [[code(1)], [code(3)]]


# --- the shootout log -------------------------------------------------------------------


def test_a_whole_shootout_is_logged_with_exact_chips():
    g = to_the_showdown()
    assert g.final()["shootout_log"] == []  # logged when the shootout is over
    act(g, "reinvest", dude=g.sdude[0].uid)
    # Each had $100 (stake + chips on cards) at the ante. Pot: antes 10, bets 20, gear 3 + 2,
    # fortunes 4 + 2, dudes 6 + 5 = 52, all Sam's. Sam: $119 stake + $5 reinvested on Hank.
    assert g.final()["shootout_log"] == [
        {
            "stat": "skill",
            "challenger": 0,
            "seats": [0, 1],
            "winners": [0],
            "net": [24, -24],
            "pot": [52, 0],
            "cards": [[code(1), code(10), code(20)], [code(2), code(11), code(21)]],
        }
    ]
    assert g.final()["shootouts"] == 1


def test_an_unopposed_challenge_is_logged_with_the_challenger_alone():
    g = standard(accept=False)
    (entry,) = g.final()["shootout_log"]
    # Sam takes both antes: $5 of them were his own.
    assert entry == {
        "stat": "skill",
        "challenger": 0,
        "seats": [0],
        "winners": [0],
        "net": [5],
        "pot": [10],
        "cards": [[code(1), code(10)]],
    }


def test_a_fold_and_concealed_gear_chips_coming_home_are_counted_net():
    g = standard()
    act(g, "bet", amount=10)
    act(g, "fold")  # Jake's $5 goes in; the concealed Lucky Coin keeps its $2
    # pot 10 + 10 + 5 + Hank's 6 at the showdown = 31 to Sam
    act(g, "bury", dude=g.sdude[0].uid)  # Sam: the concealed Six-Gun's $3 comes home
    act(g, "bury", dude=g.sdude[1].uid)  # Jane: the Lucky Coin's $2 comes home
    assert g.stake == [86 - 10 + 31 + 3, 88 + 2]
    (entry,) = g.final()["shootout_log"]
    assert entry["winners"] == [0] and entry["pot"] == [31, 0]
    assert entry["net"] == [10, -10]
    assert entry["cards"] == [[code(1), code(10)], [code(2), code(11)]]


def test_a_tie_logs_each_share_and_the_odd_chip():
    g = duel([[1], [6]], [[("dude", "Hank", False, 8)], [("dude", "Hank", True, 5)]])
    act(g, "check")
    act(g, "check")
    act(g, "bury", dude=g.sdude[0].uid)
    act(g, "bury", dude=g.sdude[1].uid)
    (entry,) = g.final()["shootout_log"]
    # 23 in the pot: 12 to Sam (the odd chip), 11 to Jane; each put in 5 + the dude's chips
    assert entry["winners"] == [0, 1] and entry["pot"] == [12, 11]
    assert entry["net"] == [12 - 5 - 8, 11 - 5 - 5]


def test_a_pot_carried_by_tombstone_has_no_winner():
    g = duel(
        [[1, 2], [6, 3]],
        [[HANK], [("dude", "Hank", False, 6)]],
        rules=Rules(variants=frozenset({"tombstone"})),
    )
    while g.phase in ("bet", "reveal", "fortune"):
        act(g, {"bet": "check", "reveal": "pass_reveal", "fortune": "pass_fortune"}[g.phase])
    (entry,) = g.final()["shootout_log"]
    assert entry["winners"] == [] and entry["pot"] == [0, 0]
    assert entry["net"] == [-11, -11]  # ante and dude, carried to the next challenge


def test_the_logged_stat_is_the_contested_stat_after_any_change():
    from .test_abilities import HANK as A_HANK
    from .test_abilities import JAKE as A_JAKE
    from .test_abilities import ability, eff, shootout_with, thing, to_fortunes

    switch = thing(
        46, "Switch", "fortune", 1, [ability("on_play", eff("change_contested", stat="luck"))]
    )
    g = shootout_with([switch], [1, 46], [2], [A_HANK], [A_JAKE])
    to_fortunes(g)
    act(g, "play_fortune", card=find(g, 0, "Switch"))
    while g.phase == "fortune":
        act(g, "pass_fortune")
    while g.phase == "reinvest":
        act(g, "bury", dude=g.sdude[g.to_act].uid)
    (entry,) = g.final()["shootout_log"]
    assert entry["stat"] == "luck" and code(46) in entry["cards"][0]


def test_every_challenge_is_logged_and_the_final_replays_in_full():
    for seed in range(6):
        g = new_game(seats(3), rules=Rules(max_turns=150), seed=seed, catalogue=basic())
        play(g, [HeuristicBot(seed), RandomBot(seed + 1), HeuristicBot(seed + 2)])
        final = g.final()
        assert len(final["shootout_log"]) == final["shootouts"]
        for entry in final["shootout_log"]:
            assert entry["challenger"] == entry["seats"][0]
            assert sum(entry["pot"]) >= 0 and set(entry["winners"]) <= set(entry["seats"])
        assert replay(json.loads(json.dumps(g.record())), catalogue=basic()).final() == final


def test_a_version_1_record_still_replays():
    from simulator.engine.core.record import GameRecord

    g = new_game(seats(), seed=2, catalogue=basic())
    play(g, [HeuristicBot(1), HeuristicBot(2)])
    rules = g.rules.to_json()
    del rules["first_player"]
    old = {k: g.final()[k] for k in ("over", "stakes", "winners", "turns", "shootouts")}
    old |= {"cap_hit": g.final()["cap_hit"], "reason": g.final()["reason"]}
    record = GameRecord(
        game="drifter", rules=rules, seats=[s.to_json() for s in g.seats], seed=2,
        events=g.events, final=old, version=1,
    ).to_json()  # fmt: skip
    assert record["version"] == 1
    assert replay(record, catalogue=basic()).final() == g.final()


_SCRIPT = """
import json, sys
from simulator.engine.drifter import Rules, Seat, new_game, play
from simulator.engine.drifter.bots import HeuristicBot
from tests.simulator.engine.drifter.factory import basic
from tests.simulator.engine.drifter.test_records import CHIPS, DECK
g = new_game([Seat("A", DECK, CHIPS), Seat("B", DECK, CHIPS), Seat("C", DECK, CHIPS)],
             rules=Rules(max_turns=120), seed=11, catalogue=basic())
play(g, [HeuristicBot(1), HeuristicBot(2), HeuristicBot(3)])
print(json.dumps(g.final(), sort_keys=True))
"""


def test_final_is_identical_under_any_hash_seed():
    outs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        out = subprocess.run(
            [sys.executable, "-c", _SCRIPT], env=env, cwd=ROOT, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
        outs.append(out.stdout)
    assert outs[0] == outs[1] and json.loads(outs[0])["shootout_log"]
