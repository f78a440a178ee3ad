"""Every effect kind, timing, condition and target of docs/rules/abilities.md, one scenario each."""

import pytest

from simulator.engine.drifter import Rules

from .factory import BASIC, BASIC_CHIPS, act, catalogue, dude, duel, end_turn, find, game, thing

HANK, JAKE = ("dude", "Hank", False, 6), ("dude", "Jake", False, 5)
F = [13] * 20


def ability(timing, *effects, **extra):
    out = {"timing": timing, "effects": list(effects)}
    out.update(extra)
    return out


def eff(kind, **fields):
    return {"kind": kind, **fields}


def cat_with(*cards):
    return catalogue([*BASIC, *cards], BASIC_CHIPS)


def shootout_with(cards, sam_hand, jane_hand, sam_plays, jane_plays, stat="skill", **kw):
    return duel(
        [sam_hand, jane_hand], [sam_plays, jane_plays], stat=stat, cat=cat_with(*cards), **kw
    )


def to_fortunes(g):
    """Check through the first betting round and pass every reveal."""
    while g.phase == "bet":
        act(g, "check")
    while g.phase == "reveal":
        act(g, "pass_reveal")
    while g.phase == "bet":
        act(g, "check")


# --- effect kinds ---------------------------------------------------------------------------


def test_stat_mod_per_gear_adds_for_each_gear_card():
    smith = dude(
        30,
        "Gunsmith",
        4,
        2,
        2,
        2,
        abilities=[
            ability(
                "static", eff("stat_mod_per", stat="skill", amount=2, per="gear", target="self")
            )
        ],
    )
    g = game([[30, 10, 13, *F], [2, *F]], cat=cat_with(smith))
    act(g, "play_dude", card=find(g, 0, "Gunsmith"), revealed=True, chips=3)
    d = g.saloon[0]
    act(g, "play_gear", card=find(g, 0, "Six-Gun"), dude=d.uid, revealed=True, chips=2)
    act(g, "play_gear", card=find(g, 0, "Old Boots"), dude=d.uid, chips=1)
    assert g.stats(d) == [2, 2 + 3 + 2 * 2, 2]  # concealed gear counts as a gear card


def test_stat_set_applies_after_every_stat_mod():
    hobble = thing(
        31,
        "Hobbled",
        "fortune",
        1,
        [ability("static", eff("stat_set", stat="skill", value=1, target="opponents"))],
    )
    g = shootout_with(
        [hobble], [1, 10, 31], [2], [("dude", "Hank", True, 5)], [("dude", "Jake", True, 4)]
    )
    to_fortunes(g)
    act(g, "pass_fortune")  # Sam passes first (lead), Jane has nothing: auto-pass ends it?
    assert g.phase in ("reinvest", "discard")


def test_stat_set_on_an_opponent_in_the_street():
    hobble = thing(
        31,
        "Hobbled",
        "fortune",
        1,
        [ability("static", eff("stat_set", stat="skill", value=1, target="opponents"))],
    )
    g = shootout_with(
        [hobble],
        [2, 31],
        [1, 10, 22],
        [("dude", "Jake", True, 4)],
        [("dude", "Hank", True, 5), ("gear", "Six-Gun", "Hank", True, 2)],
    )
    to_fortunes(g)
    act(g, "pass_fortune")  # Jane leads (skill 11)
    act(g, "play_fortune", card=find(g, 0, "Hobbled"))
    assert g.stats(g.sdude[1])[1] == 1  # 8 + 3, then set to 1


def test_stat_swap_trades_printed_stats_before_modifiers():
    swap = thing(
        32,
        "Mirror",
        "gear",
        1,
        [ability("static", eff("stat_swap", stats=["smarts", "skill"], target="self"))],
    )
    g = game([[1, 32, 10, *F], [2, *F]], cat=cat_with(swap))
    act(g, "play_dude", card=find(g, 0, "Hank"), revealed=True, chips=5)
    d = g.saloon[0]
    act(g, "play_gear", card=find(g, 0, "Mirror"), dude=d.uid, revealed=True, chips=0)
    act(g, "play_gear", card=find(g, 0, "Six-Gun"), dude=d.uid, revealed=True, chips=2)
    assert g.stats(d) == [8, 3 + 3, 4]


def test_kicker_limit_mod_raises_the_limit():
    big = thing(
        33,
        "Saddlebags",
        "gear",
        1,
        [ability("static", eff("kicker_limit_mod", amount=5, target="self"))],
    )
    g = game([[3, 33, *F], [2, *F]], chips=[[2], []], cat=cat_with(big))
    act(g, "play_dude", card=find(g, 0, "Lou"), revealed=True, chips=3)
    lou = g.saloon[0]
    assert not any(a.kind == "play_kicker" for a in g.legal_actions())
    act(g, "play_gear", card=find(g, 0, "Saddlebags"), dude=lou.uid, revealed=True, chips=0)
    assert any(a.kind == "play_kicker" for a in g.legal_actions())


def test_draw_on_play_draws_cards():
    letter = thing(34, "Letter", "gear", 1, [ability("on_play", eff("draw", count=2))])
    g = game([[1, 34, 13, 13, 13, 5, 4, *F], [2, *F]], cat=cat_with(letter))
    act(g, "play_dude", card=find(g, 0, "Hank"), revealed=True, chips=5)
    act(g, "play_gear", card=find(g, 0, "Letter"), dude=g.saloon[0].uid, revealed=True, chips=0)
    assert [c.printed.name for c in g.hand[0]][-2:] == ["Ned", "Molly"]


def test_a_concealed_card_has_no_abilities_except_its_concealed_ones():
    letter = thing(34, "Letter", "gear", 1, [ability("on_play", eff("draw", count=2))])
    hidden = thing(
        35,
        "Derringer",
        "gear",
        1,
        [ability("static", eff("stat_mod", stat="skill", amount=2, target="self"), concealed=True)],
    )
    g = game([[1, 34, 35, 13, 13, *F], [2, *F]], cat=cat_with(letter, hidden))
    act(g, "play_dude", card=find(g, 0, "Hank"), revealed=True, chips=5)
    hank = g.saloon[0]
    act(g, "play_gear", card=find(g, 0, "Letter"), dude=hank.uid, chips=1)
    assert len(g.hand[0]) == 3  # concealed: no draw
    act(g, "play_gear", card=find(g, 0, "Derringer"), dude=hank.uid, chips=1)
    assert g.stats(hank) == [3, 10, 4]  # works while concealed ...
    hank.gear[1].revealed = True  # turned up by hand: forget the stats cached before
    g.fresh_caches()
    assert g.stats(hank) == [3, 8, 4]  # ... and only then


def test_opponent_discard_takes_cards_at_random_as_a_chance_event():
    sneak = thing(
        36, "Pickpocket", "fortune", 1, [ability("on_play", eff("opponent_discard", count=1))]
    )
    g = shootout_with([sneak], [1, 36], [2, 22], [HANK], [JAKE], picks=[2])
    to_fortunes(g)
    before = [c.uid for c in g.hand[1]]
    act(g, "play_fortune", card=find(g, 0, "Pickpocket"))
    assert g.dead[1][-1].uid == before[2] and len(g.hand[1]) == 4
    assert ["pick", "discard1", 2] in g.events


def test_take_from_pot_and_tax_and_refund():
    grab = thing(
        37,
        "Grab",
        "fortune",
        1,
        [ability("on_play", eff("take_from_pot", amount=3), eff("tax", amount=4))],
    )
    g = shootout_with([grab], [1, 37], [2, 22], [HANK], [JAKE])
    to_fortunes(g)
    act(g, "play_fortune", card=find(g, 0, "Grab"))
    # Sam pays $1, takes $3 from the pot (10 + 1 -> 8), Jane is taxed $4 (-> 12)
    assert g.stake == [89 - 1 + 3, 90 - 4] and g.pot == 12
    refund = thing(38, "Refund", "gear", 2, [ability("on_play", eff("refund", amount=1))])
    h = game([[1, 38, *F], [2, *F]], cat=cat_with(refund))
    act(h, "play_dude", card=find(h, 0, "Hank"), revealed=True, chips=5)
    act(h, "play_gear", card=find(h, 0, "Refund"), dude=h.saloon[0].uid, revealed=True, chips=1)
    assert h.stake[0] == 100 - 5 - 1 + 1 and h.saloon[0].gear[0].chips == 0


def test_tax_takes_from_each_other_player_in_the_shootout():
    grab = thing(37, "Grab", "fortune", 1, [ability("on_play", eff("tax", amount=4))])
    g = shootout_with([grab], [1, 37], [2, 22], [HANK], [JAKE])
    to_fortunes(g)
    act(g, "play_fortune", card=find(g, 0, "Grab"))
    assert g.stake[1] == 90 - 4 and g.pot == 10 + 1 + 4


def test_reinvest_discount_lowers_the_reinvest_price():
    cheap = dude(
        39, "Regular", 6, 1, 9, 1, abilities=[ability("static", eff("reinvest_discount", amount=2))]
    )
    g = shootout_with([cheap], [39], [2], [("dude", "Regular", False, 6)], [JAKE])
    to_fortunes(g)
    assert g.phase == "reinvest"
    stake = g.stake[0]
    act(g, "reinvest", dude=g.sdude[0].uid)
    assert g.stake[0] == stake - (6 - 1 - 2)


def test_cant_reinvest_means_the_winner_is_buried():
    final = thing(
        40, "Last Ride", "fortune", 1, [ability("on_play", eff("cant_reinvest", target="all"))]
    )
    g = shootout_with([final], [1, 40], [2], [HANK], [JAKE])
    to_fortunes(g)
    act(g, "play_fortune", card=find(g, 0, "Last Ride"))
    assert g.phase == "discard"  # no reinvest offered: can't beats can
    assert "Hank" in [c.printed.name for c in g.dead[0]]


def test_cant_play_fortune_stops_the_other_players():
    fort = thing(
        41,
        "Fort",
        "fortune",
        1,
        [ability("on_play", eff("cant_play_fortune", target="other_players"))],
    )
    g = shootout_with([fort], [1, 41], [2, 20], [HANK], [JAKE])
    to_fortunes(g)
    act(g, "play_fortune", card=find(g, 0, "Fort"))
    # Jane's Quick Draw is barred: she passes, Sam passes, the showdown follows
    assert g.phase == "reinvest" and "Quick Draw" in [c.printed.name for c in g.hand[1]]


def test_cant_reveal_gear_keeps_the_targets_gear_concealed():
    jam = dude(
        42,
        "Jammer",
        5,
        2,
        6,
        2,
        abilities=[ability("static", eff("cant_reveal_gear", target="opponents"))],
    )
    g = shootout_with(
        [jam],
        [42],
        [2, 11],
        [("dude", "Jammer", True, 4)],
        [JAKE, ("gear", "Lucky Coin", "Jake", False, 2)],
    )
    while g.phase == "bet":
        act(g, "check")
    assert g.phase == "reinvest"  # Jane never got to reveal: no second betting round
    assert not any(e[0] == "act" and e[2]["kind"] == "reveal_gear" for e in g.events)
    assert g.stake[1] == 100 - 5 - 2 - 5 + 2  # the coin's chips came home with the loss


def test_cant_take_kicker_and_cant_accept():
    shy = dude(
        43,
        "Shy",
        4,
        3,
        3,
        3,
        abilities=[
            ability(
                "static", eff("cant_take_kicker", target="self"), eff("cant_accept", stat="luck")
            )
        ],
    )
    g = game([[1, *F], [43, *F]], chips=[[1], []], cat=cat_with(shy))
    end_turn(g)
    act(g, "play_dude", card=find(g, 1, "Shy"), revealed=True, chips=3)
    end_turn(g)
    hank = find(g, 0, "Hank")
    act(g, "play_dude", card=hank, revealed=True, chips=5)
    assert all(a.dude != find(g, 1, "Shy") for a in g.legal_actions() if a.kind == "play_kicker")
    end_turn(g)
    end_turn(g)
    act(g, "challenge", dude=hank, stat="luck")
    assert g.phase != "accept"  # Shy can't accept a luck challenge: Jane refuses by force
    assert g.stake[0] == 95 - 5 + 10


def test_play_kicker_on_entering_the_street_and_reflip_as_fortune():
    lucky = dude(
        44,
        "Gambler",
        5,
        2,
        6,
        2,
        limit=10,
        abilities=[
            ability("on_enter_street", eff("play_kicker", target="self")),
            ability("as_fortune", eff("reflip_kicker", target="self")),
        ],
    )
    g = shootout_with(
        [lucky], [44], [2], [("dude", "Gambler", True, 4)], [JAKE], chips=[[3], []], flips=[1, 0]
    )
    gambler = g.sdude[0]
    assert g.stats(gambler) == [2, 3, 2]  # blue chip landed skill -3
    to_fortunes(g)
    act(g, "as_fortune", card=gambler.uid, ability=1)
    assert g.stats(gambler) == [2, 6, 6]  # flipped again: luck +4


def test_bury_kickers_buries_every_chip_on_the_target():
    dust = thing(
        45, "Dust Up", "fortune", 1, [ability("on_play", eff("bury_kickers", target="opponents"))]
    )
    g = game([[1, 45, *F], [2, *F]], chips=[[], [1]], cat=cat_with(dust))
    act(g, "play_dude", card=find(g, 0, "Hank"), chips=6)
    end_turn(g)
    jake = find(g, 1, "Jake")
    act(g, "play_dude", card=jake, revealed=True, chips=4)
    act(g, "play_kicker", card=g.chips[1][0].uid, dude=jake)
    end_turn(g)
    act(g, "challenge", dude=find(g, 0, "Hank"), stat="skill")
    act(g, "accept", dude=jake)
    to_fortunes(g)
    while g.to_act != 0:
        act(g, "pass_fortune")
    act(g, "play_fortune", card=find(g, 0, "Dust Up"))
    assert g.cards[jake].kickers == [] and len(g.dead_chips[1]) == 1


def test_change_contested_fixed_and_chosen():
    switch = thing(
        46, "Switch", "fortune", 1, [ability("on_play", eff("change_contested", stat="luck"))]
    )
    pick = thing(
        47, "Pick", "fortune", 1, [ability("on_play", eff("change_contested", stat="choose"))]
    )
    g = shootout_with([switch, pick], [1, 46, 47], [2], [HANK], [JAKE])
    to_fortunes(g)
    act(g, "play_fortune", card=find(g, 0, "Switch"))
    assert g.contested == "luck"
    act(g, "play_fortune", card=find(g, 0, "Pick"), stat="smarts")
    assert g.contested == "smarts"


def test_put_into_play_as_gear_and_extra_actions():
    boss = dude(
        48,
        "Boss",
        5,
        5,
        5,
        5,
        abilities=[
            ability("as_gear", eff("put_into_play", card_type="gear")),
            ability("on_play", eff("extra_actions", count=1)),
        ],
    )
    g = game([[48, 10, 1, 2, 3, *F], [2, *F]], cat=cat_with(boss))
    act(g, "play_dude", card=find(g, 0, "Boss"), revealed=True, chips=4)
    act(g, "as_gear", card=find(g, 0, "Boss"), ability=0)
    boss_card = g.saloon[0]
    assert [x.printed.name for x in boss_card.gear] == ["Six-Gun"] and g.stake[0] == 96
    assert g.actions_left == 2  # 3 + 1 extra - 2 used
    assert any(a.kind == "as_gear" for a in g.legal_actions())  # again, while actions last


def test_wins_ties_wins_alone():
    ace = dude(49, "Ace", 6, 3, 8, 4, abilities=[ability("static", eff("wins_ties"))])
    g = shootout_with([ace], [1], [49], [("dude", "Hank", True, 5)], [("dude", "Ace", True, 5)])
    to_fortunes(g)
    assert g.stake == [90, 90 + 20]


def test_copy_card_takes_the_chosen_cards_name_and_abilities_but_keeps_its_cost():
    mimic = thing(
        50,
        "Mimic",
        "gear",
        1,
        [ability("on_play", eff("copy", of="gear"))],
        text="Becomes a copy of a gear card.",
    )
    mimic["text"] = "This card becomes a copy of any gear card in the saloon."
    g = game([[1, 10, 50, *F], [2, *F]], cat=cat_with(mimic))
    act(g, "play_dude", card=find(g, 0, "Hank"), revealed=True, chips=5)
    hank = g.saloon[0]
    act(g, "play_gear", card=find(g, 0, "Six-Gun"), dude=hank.uid, revealed=True, chips=2)
    six = hank.gear[0].uid
    act(g, "play_gear", card=find(g, 0, "Mimic"), dude=hank.uid, revealed=True, chips=0, target=six)
    assert hank.gear[1].defn.name == "Six-Gun" and hank.gear[1].defn.cost == 1
    assert g.stats(hank) == [3, 14, 4]


def test_negate_gear_switches_off_the_targets_revealed_gear():
    rust = thing(
        51, "Rust", "fortune", 1, [ability("static", eff("negate_gear", target="opponents"))]
    )
    g = shootout_with(
        [rust],
        [2, 51],
        [1, 10, 22],
        [("dude", "Jake", True, 4)],
        [("dude", "Hank", True, 5), ("gear", "Six-Gun", "Hank", True, 2)],
    )
    to_fortunes(g)
    act(g, "pass_fortune")  # Jane leads
    act(g, "play_fortune", card=find(g, 0, "Rust"))
    assert g.stats(g.sdude[1]) == [3, 8, 4]


def test_ante_mod_changes_the_ante_for_everyone():
    rich = dude(52, "Baron", 5, 5, 5, 5, abilities=[ability("static", eff("ante_mod", amount=5))])
    g = duel([[52], [2]], [[("dude", "Baron", True, 4)], [JAKE]], cat=cat_with(rich))
    assert g.pot == 20 + 4 and g.stake == [86, 85]


def test_force_reveal_gear_turns_up_a_concealed_gear_card():
    peek = thing(
        53, "Peek", "fortune", 1, [ability("on_play", eff("force_reveal_gear", target="opponents"))]
    )
    g = shootout_with(
        [peek], [1, 53], [2, 11, 22], [HANK], [JAKE, ("gear", "Lucky Coin", "Jake", False, 2)]
    )
    to_fortunes(g)
    pot = g.pot
    act(g, "play_fortune", card=find(g, 0, "Peek"))
    coin = g.sdude[1].gear[0]
    assert coin.revealed and coin.chips == 0 and g.pot == pot + 1 + 2


def test_return_to_hand_brings_the_fortune_back_after_the_showdown():
    boomerang = thing(54, "Boomerang", "fortune", 1, [ability("on_play", eff("return_to_hand"))])
    g = shootout_with([boomerang], [1, 54], [2], [HANK], [JAKE])
    assert g.phase == "bet"
    to_fortunes(g)
    act(g, "play_fortune", card=find(g, 0, "Boomerang"))
    assert "Boomerang" in [c.printed.name for c in g.hand[0]]


# --- timings --------------------------------------------------------------------------------


def test_on_reveal_on_win_on_lose_and_showdown_timings():
    spy = dude(
        55,
        "Spy",
        5,
        5,
        5,
        5,
        abilities=[
            ability("on_reveal", eff("draw", count=1)),
            ability("on_win", eff("take_from_pot", amount=1)),
            ability("showdown", eff("stat_mod", stat="skill", amount=5, target="self")),
        ],
    )
    g = shootout_with([spy], [55], [2], [("dude", "Spy", False, 5)], [JAKE])
    hand = len(g.hand[0])
    to_fortunes(g)
    # the showdown revealed Spy (draw 1), +5 skill at the showdown: 10 beats 2
    assert len(g.hand[0]) >= hand
    assert g.phase == "reinvest" and g.to_act == 0


def test_on_lose_resolves_before_burying():
    sore = dude(56, "Sore Loser", 3, 1, 1, 1, abilities=[ability("on_lose", eff("tax", amount=3))])
    g = shootout_with([sore], [1], [56], [HANK], [("dude", "Sore Loser", True, 2)])
    to_fortunes(g)
    assert "Sore Loser" in [c.printed.name for c in g.dead[1]]


# --- conditions ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("condition", "applies"),
    [
        ({"contested": "skill"}, True),
        ({"contested": "luck"}, False),
        ({"contested_not": "luck"}, True),
        ({"in_street": True}, True),
        ({"challenger": True}, True),
        ({"challenger": False}, False),
        ({"opponents_at_least": 1}, True),
        ({"opponents_at_least": 2}, False),
        ({"gear_at_least": 1}, True),
        ({"gear_at_least": 2}, False),
        ({"kicker_chips_at_least": 1}, False),
        ({"all_in": True}, False),
        ({"opponent_faction": "Drifters"}, True),
        ({"opponent_faction": "Law"}, False),
        ({"stake_at_most": 100}, True),
        ({"stake_at_most": 10}, False),
    ],
)
def test_conditions(condition, applies):
    spur = thing(
        57,
        "Spur",
        "gear",
        1,
        [
            ability(
                "static",
                eff("stat_mod", stat="skill", amount=1, target="self"),
                condition=condition,
            )
        ],
    )
    g = shootout_with(
        [spur],
        [1, 57],
        [2],
        [("dude", "Hank", True, 5), ("gear", "Spur", "Hank", True, 0)],
        [("dude", "Jake", True, 4)],
    )
    assert g.stats(g.sdude[0])[1] == (9 if applies else 8)


@pytest.mark.parametrize(
    ("target", "hits_jake", "hits_hank"),
    [
        ("opponents", True, False),
        ("all", True, True),
        ("self", False, True),
        ("chosen_opponent", True, False),
    ],
)
def test_targets_of_a_static_fortune(target, hits_jake, hits_hank):
    hex_ = thing(
        58,
        "Hex",
        "fortune",
        1,
        [ability("static", eff("stat_mod", stat="luck", amount=-2, target=target))],
    )
    g = shootout_with(
        [hex_], [1, 58], [2, 22], [("dude", "Hank", True, 5)], [("dude", "Jake", True, 4)]
    )
    to_fortunes(g)
    while g.to_act != 0:
        act(g, "pass_fortune")
    act(g, "play_fortune", card=find(g, 0, "Hex"))
    assert g.stats(g.sdude[1])[2] == (3 if hits_jake else 5)
    assert g.stats(g.sdude[0])[2] == (2 if hits_hank else 4)


def test_a_stat_may_go_below_zero_as_the_text_sets_no_floor():
    g = game([[2, *F], [2, *F]], chips=[[3], []], flips=[1])
    act(g, "play_dude", card=find(g, 0, "Jake"), revealed=True, chips=4)
    act(g, "play_kicker", card=g.chips[0][0].uid, dude=g.saloon[0].uid)
    assert g.stats(g.saloon[0]) == [7, -1, 5]  # skill 2 - 3


def test_the_legacy_rulings_floor_stats_at_zero():
    g = game([[2, *F], [2, *F]], chips=[[3], []], flips=[1], rules=Rules(rulings=2))
    act(g, "play_dude", card=find(g, 0, "Jake"), revealed=True, chips=4)
    act(g, "play_kicker", card=g.chips[0][0].uid, dude=g.saloon[0].uid)
    assert g.stats(g.saloon[0]) == [7, 0, 5]  # skill 2 - 3 stopped at 0 (old records)


def test_quick_rules_still_allow_abilities():
    assert Rules(quick_start=True).quick_start


def test_once_per_game_limits_an_as_gear_ability():
    drifter = dude(
        59,
        "Tinker",
        4,
        3,
        3,
        3,
        abilities=[
            ability(
                "as_gear",
                eff("stat_mod", stat="smarts", amount=1, target="self"),
                once="game",
            )
        ],
    )
    g = game([[59, *F], [2, *F]], cat=cat_with(drifter))
    tinker = find(g, 0, "Tinker")
    act(g, "play_dude", card=tinker, revealed=True, chips=3)
    act(g, "as_gear", card=tinker, ability=0)
    assert g.stats(g.cards[tinker]) == [4, 3, 3]
    end_turn(g)
    end_turn(g)
    assert not any(a.kind == "as_gear" for a in g.legal_actions())  # not even next turn


def test_as_gear_effects_last_and_shootout_duration_effects_end_with_the_shootout():
    trainer = dude(
        60,
        "Trainer",
        4,
        3,
        3,
        3,
        abilities=[
            ability("as_gear", eff("stat_mod", stat="skill", amount=2, target="self")),
            ability(
                "on_enter_street",
                eff("stat_mod", stat="luck", amount=5, target="self", duration="shootout"),
            ),
        ],
    )
    g = game([[60, *F], [2, *F]], cat=cat_with(trainer))
    t = find(g, 0, "Trainer")
    act(g, "play_dude", card=t, revealed=True, chips=3)
    act(g, "as_gear", card=t, ability=0)
    end_turn(g)
    act(g, "play_dude", card=find(g, 1, "Jake"), chips=5)
    end_turn(g)
    act(g, "as_gear", card=t, ability=0)  # a new turn: usable again
    act(g, "challenge", dude=t, stat="skill")
    act(g, "accept", dude=find(g, 1, "Jake"))
    assert g.stats(g.cards[t]) == [3, 7, 8]
    act(g, "check")
    act(g, "fold")  # Jane folds: Trainer wins
    act(g, "reinvest", dude=t)
    act(g, "bury", dude=find(g, 1, "Jake"))  # Jane's folded dude: her decision comes last
    assert g.phase == "discard"
    assert g.stats(g.cards[t]) == [3, 7, 3]  # the street bonus is gone, as_gear stays
