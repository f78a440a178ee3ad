"""A catalogue reads a deck's cards once (Catalogue.deck): a new game takes their definitions
and what they can do from it, and is the game it was when each game read its own."""

import pytest

from simulator.engine.core.errors import RulesError
from simulator.engine.drifter import Seat, new_game, starter_seat
from simulator.engine.drifter.cards import CardDataError, load_catalogue


def test_the_same_codes_give_the_same_read_deck_and_its_cards_in_order():
    cat = load_catalogue()
    seat = starter_seat("A", "HSD-S1")
    read = cat.deck(seat.deck)
    assert cat.deck(tuple(seat.deck)) is read
    assert [d.code for d in read.defs] == list(seat.deck)
    assert cat.deck(seat.deck[:-1]) is not read  # another deck is another entry


def test_what_a_read_deck_says_its_cards_can_do_is_what_the_game_scans():
    for starters in (("HSD-S1", "HSD-S2"), ("HSD-S2", "HSD-S2")):
        g = new_game([starter_seat(f"P{i}", s) for i, s in enumerate(starters)], seed=3)
        read = (g.has_statics, g.kinds_present, g.chip_sensitive)
        g._scan_abilities()  # the same facts worked out from the game's cards
        assert (g.has_statics, g.kinds_present, g.chip_sensitive) == read
    assert read[0] and "stat_mod" in read[1]


def test_an_unknown_card_is_refused_naming_the_seat_and_the_code_and_nothing_is_kept():
    cat = load_catalogue()
    good = starter_seat("Ann", "HSD-S1")
    bad = Seat("Bo", (*good.deck[:-1], "NOPE-999"), good.chips)
    kept = len(cat.decks)
    with pytest.raises(RulesError, match=r"^Bo: unknown card 'NOPE-999'$"):
        new_game([good, bad], seed=1)
    with pytest.raises(CardDataError):
        cat.deck(bad.deck)
    assert bad.deck not in cat.decks and len(cat.decks) <= kept + 1  # only Ann's, if new
