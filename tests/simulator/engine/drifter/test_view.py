"""Who may see what: a player's view of the zones."""

from .factory import act, end_turn, find, game

F = [13] * 20


def test_a_concealed_card_shows_its_owner_and_chips_but_not_what_it_is():
    g = game([[1, 10, *F], [2, *F]], chips=[[1], []])
    hank = find(g, 0, "Hank")
    act(g, "play_dude", card=hank, chips=8)
    act(g, "play_gear", card=find(g, 0, "Six-Gun"), dude=hank, revealed=True, chips=2)
    end_turn(g)
    jane = g.view(1).to_dict()
    (dude,) = jane["dudes"]
    assert dude == {
        "id": hank,
        "owner": 0,
        "revealed": False,
        "chips": 8,
        "in_street": False,
        "showing": [0, 3, 0],  # a concealed dude shows only the revealed Six-Gun
        "gear": [
            {
                "id": dude["gear"][0]["id"],
                "owner": 0,
                "revealed": True,
                "chips": 2,
                "code": "TST-010",
                "name": "Six-Gun",
            }
        ],
        "kicker_chips": [],
    }
    sam = g.view(0).to_dict()
    assert sam["dudes"][0]["name"] == "Hank"  # the owner knows his own concealed dude


def test_hands_decks_and_kicker_stacks_are_counted_not_shown():
    g = game([[1, *F], [2, *F]], chips=[[1, 2], [3]])
    view = g.view(1).to_dict()
    assert view["hand"][0]["name"] == "Jake"
    assert view["hand_counts"] == [5, 5] and view["deck_counts"] == [len(F) - 4] * 2
    assert view["kicker_chips"] == [{"id": 2, "code": "TST-K03"}]
    assert view["kicker_chip_counts"] == [2, 1]
    assert all("Hank" not in str(c) for c in view["hand"])


def test_kicker_chips_in_play_show_both_sides():
    g = game([[1, *F], [2, *F]], chips=[[2], []], flips=[1])
    hank = find(g, 0, "Hank")
    act(g, "play_dude", card=hank, revealed=True, chips=5)
    act(g, "play_kicker", card=g.chips[0][0].uid, dude=hank)
    chips = g.view(1).to_dict()["dudes"][0]["kicker_chips"]
    assert chips == [{"code": "TST-K02", "sides": [["skill", 3], ["smarts", -2]], "up": 1}]
