"""The card helpers the hot paths use in place of list methods and generator sums."""

import pytest

from simulator.engine.drifter.cards import load_catalogue
from simulator.engine.drifter.pieces import Card, Kicker, drop, holds, kicker_value


def _cards(n: int) -> list[Card]:
    defn = load_catalogue().cards[0]
    return [Card(uid, defn, 0) for uid in range(n)]


def test_drop_removes_that_card_only_and_keeps_the_order():
    a, b, c = _cards(3)
    pile = [a, b, c]
    drop(pile, b)
    assert pile == [a, c]
    drop(pile, a)
    assert pile == [c]


def test_drop_of_a_card_not_there_is_a_value_error_and_changes_nothing():
    a, b, twin = _cards(3)  # `twin` has the same printed card as `a`: another card all the same
    pile = [a, b]
    with pytest.raises(ValueError):
        drop(pile, twin)
    assert pile == [a, b]
    assert holds(pile, a) and not holds(pile, twin) and not holds([], a)


def test_kicker_value_adds_the_chips_on_the_dude():
    cat = load_catalogue()
    (dude,) = _cards(1)
    assert kicker_value(dude) == 0
    dude.kickers = [Kicker(100 + i, chip, 0) for i, chip in enumerate(cat.chips[:3])]
    assert kicker_value(dude) == sum(chip.value for chip in cat.chips[:3])


def test_a_cards_fortune_abilities_are_found_once_by_index():
    cat = load_catalogue()
    # Madame Moustache: a static ability, then one used as a fortune card
    moustache = cat.card("DMH-032")
    assert [a.timing for a in moustache.abilities] == ["static", "as_fortune"]
    assert moustache.as_fortune == (1,) and not moustache.is_fortune
    assert cat.card("DMH-022").as_fortune == (0,)  # Dora DuFran
    fortunes = [c for c in cat.cards if c.type == "fortune"]
    assert fortunes and all(c.is_fortune and not c.as_fortune for c in fortunes)
