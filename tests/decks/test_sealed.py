"""Boosters, Stud pools and Draw drafts (simulator/engine/drifter/sealed.py): seeded, complete,
passing left then right."""

from __future__ import annotations

from collections import Counter

import pytest

from simulator.engine.drifter import formats
from simulator.engine.drifter.cards import load_catalogue
from simulator.engine.drifter.sealed import (
    Draft,
    DraftError,
    auto_build,
    bot_pick,
    card_rating,
    open_booster,
    open_boosters,
    pool_of,
)


def test_a_booster_follows_the_set_layout(mini):
    import random

    booster = open_booster(mini, "TST", random.Random(1))
    rarities = [mini.card_by_code[c].rarity for c in booster.cards]
    assert len(booster.cards) == 9 and len(booster.kicker_chips) == 1
    assert rarities[:6] == ["common"] * 6 and rarities[6:8] == ["uncommon"] * 2
    assert rarities[8] in ("rare", "fixed")
    assert len(set(booster.cards)) == 9  # collated: no repeats while the sheet has cards


def test_promos_never_appear_unless_the_layout_names_them(mini):
    boosters = open_boosters(mini, ["TST"] * 200, seed=3)
    seen = Counter(mini.card_by_code[c].rarity for b in boosters for c in b.cards)
    assert seen["promo"] == 0 and seen["fixed"] > 0 and seen["rare"] > seen["fixed"]


def test_the_same_seed_opens_the_same_boosters_and_another_seed_does_not(mini):
    assert open_boosters(mini, ["TST"] * 6, seed=42) == open_boosters(mini, ["TST"] * 6, seed=42)
    assert open_boosters(mini, ["TST"] * 6, seed=42) != open_boosters(mini, ["TST"] * 6, seed=43)


def test_a_stud_pool_is_54_cards_and_6_chips_and_its_auto_deck_is_legal(mini):
    cards, chips = pool_of(open_boosters(mini, ["TST"] * 6, seed=9))
    assert sum(cards.values()) == 54 and sum(chips.values()) == 6
    deck = auto_build(mini, cards)
    problems = formats.validate_deck(
        fmt="stud", cards=deck, kicker_chips=dict(chips), catalogue=mini,
        pool=formats.Pool(cards, chips),
    )  # fmt: skip
    assert problems == []


def test_auto_build_takes_dudes_first_and_respects_a_copy_limit(mini):
    pool = Counter({f"TST-{n:03d}": 3 for n in range(1, 31)})
    deck = auto_build(mini, pool, copy_limit=1, min_dudes=18)
    assert max(deck.values()) == 1 and sum(deck.values()) == 30
    deck = auto_build(mini, pool, size=20, min_dudes=18)
    dudes = sum(q for c, q in deck.items() if mini.card_by_code[c].is_dude)
    assert sum(deck.values()) == 20 and dudes >= 18


@pytest.mark.parametrize("seats", [2, 3, 8])
def test_a_draft_gives_every_seat_54_cards_and_6_chips(mini, seats):
    draft = Draft.deal(mini, seats=seats, set_codes=["TST"] * 6, seed=5)
    draft.run_bots(mini, range(seats))
    assert draft.is_over
    assert len(draft.picks) == 54 * seats
    for seat in range(seats):
        assert len(draft.picked(seat)) == 54
        assert len(draft.kicker_chips(seat)) == 6
    everything = Counter(c for rnd in draft.boosters for b in rnd for c in b.cards)
    assert Counter(code for *_, code in draft.picks) == everything


def test_packs_pass_left_for_the_first_booster_then_alternate(mini):
    draft = Draft.deal(mini, seats=3, set_codes=["TST"] * 6, seed=11)
    assert [Draft.direction(r) for r in range(6)] == [1, -1, 1, -1, 1, -1]
    first = [list(b.cards) for b in draft.boosters[0]]
    for seat in range(3):
        draft.pick(seat, draft.pack(seat)[0])
    # Seat 1 now holds what is left of seat 0's booster (passed left).
    assert draft.pack(1) == first[0][1:]
    assert draft.pack(0) == first[2][1:]
    while draft.round == 0:
        for seat in range(3):
            draft.pick(seat, draft.pack(seat)[0])
    second = [list(b.cards) for b in draft.boosters[1]]
    for seat in range(3):
        draft.pick(seat, draft.pack(seat)[0])
    # Second booster passes right: seat 0 gets seat 1's booster.
    assert draft.pack(0) == second[1][1:]


def test_the_same_seed_drafts_the_same_picks_and_state_survives_json(mini):
    def run(seed, via_json=False):
        draft = Draft.deal(mini, seats=4, set_codes=["TST"] * 6, seed=seed)
        while not draft.is_over:
            if via_json:
                draft = Draft.from_json(draft.to_json())
            draft.run_bots(mini, [1, 2, 3])
            if not draft.is_over:
                draft.pick(0, draft.pack(0)[-1])
        return draft.picks

    assert run(7) == run(7) == run(7, via_json=True)
    assert run(7) != run(8)


def test_bad_picks_are_refused(mini):
    draft = Draft.deal(mini, seats=2, set_codes=["TST"] * 6, seed=1)
    with pytest.raises(DraftError):
        draft.pick(0, "TST-999")
    draft.pick(0, draft.pack(0)[0])
    with pytest.raises(DraftError):
        draft.pick(0, draft.pack(1)[0])
    with pytest.raises(DraftError):
        Draft.deal(mini, seats=9, set_codes=["TST"] * 6, seed=1)


def test_bots_prefer_better_cards_and_want_dudes(mini):
    best = max(mini.cards, key=card_rating)
    pack = [c.code for c in mini.cards[:5]] + [best.code]
    assert (
        bot_pick(mini, pack, []) == best.code or mini.card_by_code[bot_pick(mini, pack, [])].is_dude
    )


def test_the_real_sets_open_real_boosters():
    catalogue = load_catalogue()
    for set_def in catalogue.sets:
        (booster,) = open_boosters(catalogue, [set_def.code], seed=1)
        assert len(booster.cards) == set_def.booster_size
        assert all(catalogue.card_by_code[c].rarity != "promo" for c in booster.cards)
