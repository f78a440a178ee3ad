"""The one parser of set files rejects anything outside the card schema and the vocabulary."""

from __future__ import annotations

import copy

import pytest

from simulator.engine.drifter.cards import CardDataError, parse_sets

DUDE = {
    "number": 1, "name": "Test Dude", "type": "dude", "faction": "Drifters",
    "rarity": "common", "cost": 3, "smarts": 2, "skill": 3, "luck": 3, "kicker_limit": 10,
    "text": "", "abilities": [],
}  # fmt: skip
SET = {
    "code": "TST",
    "name": "Test",
    "booster": {"slots": [{"count": 9, "weights": {"common": 1}}], "kicker_chips": 1},
    "cards": [DUDE],
    "kicker_chips": [
        {"code": "TST-K01", "color": "red", "sides": [{"stat": "luck", "amount": 2},
                                                       {"stat": "skill", "amount": -1}]}
    ],
    "starters": [],
}  # fmt: skip


def a_set(**changes):
    doc = copy.deepcopy(SET)
    doc.update(changes)
    return doc


def with_card(**fields):
    card = copy.deepcopy(DUDE)
    card.update(fields)
    return a_set(cards=[card])


def test_a_good_set_parses_with_codes_values_and_flavor():
    catalogue = parse_sets([with_card(flavor="Quiet type.")])
    card = catalogue.card("TST-001")
    assert (card.name, card.cost, card.stats, card.flavor) == (
        "Test Dude",
        3,
        (2, 3, 3),
        "Quiet type.",
    )
    assert catalogue.chip("TST-K01").value == 5


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (with_card(type="horse"), "bad type"),
        (with_card(rarity="mythic"), "bad rarity"),
        (with_card(cost=-1), "bad cost"),
        (with_card(skill="high"), "whole skill"),
        (with_card(type="gear", smarts=None), "only dudes have"),
        (with_card(text="Gets +1 luck.", abilities=[]), "must come together"),
        (with_card(text="x", abilities=[{"timing": "sometimes", "effects": []}]), "unknown timing"),
        (
            with_card(
                text="x", abilities=[{"timing": "static", "effects": [{"kind": "teleport"}]}]
            ),
            "unknown effect kind",
        ),
        (
            with_card(
                text="x",
                abilities=[
                    {
                        "timing": "static",
                        "effects": [
                            {"kind": "stat_mod", "stat": "charm", "amount": 1, "target": "self"}
                        ],
                    }
                ],
            ),
            "bad stat",
        ),
        (
            with_card(
                text="x",
                abilities=[
                    {
                        "timing": "static",
                        "condition": {"weather": "rain"},
                        "effects": [{"kind": "wins_ties"}],
                    }
                ],
            ),
            "unknown condition",
        ),
        (
            with_card(
                type="gear",
                smarts=None,
                skill=None,
                luck=None,
                kicker_limit=None,
                text="Gets tougher.",
                abilities=[{"timing": "on_play", "effects": [{"kind": "copy", "of": "any"}]}],
            ),
            "copy cards",
        ),
        (a_set(cards=[DUDE, DUDE]), "duplicate card code"),
        (a_set(kicker_chips=[{"code": "TST-K01", "color": "pink", "sides": []}]), "bad colour"),
        (a_set(booster={"slots": ["nine cards"]}), "booster slot is an object"),
        (a_set(starters=[{"code": "TST-S1", "name": "S"}]), "starter is an object"),
        (a_set(starters=[{"code": "XX-S1", "name": "S", "cards": []}]), "must start with TST-S"),
        (
            a_set(
                starters=[{"code": "TST-S1", "name": "S", "cards": [{"code": "TST-099", "qty": 1}]}]
            ),
            "bad starter entry",
        ),
    ],
)
def test_bad_data_is_a_card_data_error_naming_the_problem(doc, message):
    for key in ("smarts", "skill", "luck", "kicker_limit"):
        for card in doc["cards"]:
            if card.get(key, 0) is None:
                del card[key]
    with pytest.raises(CardDataError, match=message):
        parse_sets([doc])
