"""Deck legality (simulator/engine/drifter/formats.py): every rule, every code, combinations."""

from __future__ import annotations

import pytest

from simulator.engine.drifter import formats
from simulator.engine.drifter.formats import FORMATS, Pool, Problem, parse_format, validate_deck


def code(n: int) -> str:
    return f"TST-{n:03d}"


def commons(copies: int = 3, count: int = 18, start: int = 1) -> dict[str, int]:
    return {code(start + i): copies for i in range(count)}


FIFTY = {"TST-K04": 2}  # two green chips: $50


def check(mini, fmt="standard", cards=None, chips=None, **kw) -> list[Problem]:
    return validate_deck(
        fmt=fmt,
        cards=commons() if cards is None else cards,
        kicker_chips=FIFTY if chips is None else chips,
        catalogue=mini,
        **kw,
    )


def codes(problems: list[Problem]) -> list[str]:
    return sorted(p.code for p in problems)


def test_a_54_card_deck_of_playsets_with_50_dollars_of_chips_is_standard_legal(mini):
    assert check(mini) == []


def test_every_format_name_is_known():
    assert FORMATS == ("standard", "deuces_wild", "tres_amigos", "on_your_lonesome", "stud", "draw")
    for name in FORMATS:
        assert parse_format(name)[1] == []


@pytest.mark.parametrize("total", [53, 55, 0])
def test_a_deck_has_exactly_54_cards(mini, total):
    cards = {**commons(count=17), code(18): total - 51} if total else {}
    problems = check(mini, cards=cards)
    assert "deck_size" in codes(problems)
    size = next(p for p in problems if p.code == "deck_size")
    assert (size.qty, size.limit) == (total, 54)


@pytest.mark.parametrize(
    ("number", "rarity", "limit"),
    [(1, "common", 3), (31, "uncommon", 2), (41, "rare", 1), (46, "fixed", 1), (48, "promo", 1)],
)
def test_standard_copy_limit_follows_rarity(mini, number, rarity, limit):
    def limited(cards):
        return [p for p in check(mini, cards=cards) if p.code == "copy_limit"]

    assert not limited({code(number): limit})
    (problem,) = limited({code(number): limit + 1})
    assert (problem.card, problem.qty, problem.limit) == (code(number), limit + 1, limit)
    assert rarity in problem.detail


def test_copies_count_by_name_across_printings_and_the_strictest_printing_decides(mini):
    # Common 0 (TST-001, common) and its promo reprint (TST-049): one name, limit 1.
    cards = {**commons(count=17, start=2), code(1): 2, code(49): 1}
    problem = next(p for p in check(mini, cards=cards) if p.code == "copy_limit")
    assert problem.qty == 3 and problem.limit == 1


@pytest.mark.parametrize(
    ("fmt", "limit"), [("deuces_wild", 2), ("tres_amigos", 3), ("on_your_lonesome", 1)]
)
def test_copy_limit_variants_ignore_rarity(mini, fmt, limit):
    rare_at_limit = {code(41): limit}
    rare_over = {code(41): limit + 1}
    assert not [p for p in check(mini, fmt, cards=rare_at_limit) if p.code == "copy_limit"]
    over = [p for p in check(mini, fmt, cards=rare_over) if p.code == "copy_limit"]
    assert over and over[0].limit == limit
    common_over = [
        p for p in check(mini, fmt, cards={code(1): limit + 1}) if p.code == "copy_limit"
    ]
    assert common_over and common_over[0].limit == limit


def test_kicker_chips_are_worth_exactly_50_dollars(mini):
    for chips, value in (({"TST-K04": 1}, 25), ({"TST-K04": 2, "TST-K01": 1}, 51), ({}, 0)):
        problem = next(p for p in check(mini, chips=chips) if p.code == "kicker_value")
        assert (problem.qty, problem.limit) == (value, 50)
    assert check(mini, chips={"TST-K03": 5}) == []  # five blue


def test_unknown_cards_and_chips_are_named(mini):
    problems = check(mini, cards={**commons(), "TST-999": 1}, chips={**FIFTY, "TST-K99": 1})
    assert {(p.code, p.card or p.kicker_chip) for p in problems} >= {
        ("unknown_card", "TST-999"),
        ("unknown_kicker_chip", "TST-K99"),
    }


@pytest.mark.parametrize("qty", [0, -1, 1.5, 10_000, "3", True])
def test_bad_quantities_are_reported(mini, qty):
    problems = check(mini, cards={**commons(), code(30): qty})
    assert "bad_quantity" in codes(problems)


def test_unknown_format_is_reported_with_the_other_problems(mini):
    problems = check(mini, "poker", cards={"TST-999": 1})
    assert codes(problems) == ["deck_size", "unknown_card", "unknown_format"]
    assert "poker" in problems[0].detail or any("poker" in p.detail for p in problems)


@pytest.mark.parametrize(
    "fmt", ["deuces_wild+tres_amigos", "on_your_lonesome+deuces_wild", "stud+draw"]
)
def test_conflicting_variants_are_rejected_with_a_clear_message(mini, fmt):
    problems = check(mini, fmt)
    conflict = [p for p in problems if p.code == "format_conflict"]
    assert len(conflict) == 1 and "pick one" in conflict[0].detail


def test_every_problem_is_reported_not_just_the_first(mini):
    cards = {code(1): 4, code(41): 2, "TST-999": 1}
    problems = check(mini, cards=cards, chips={"TST-K01": 1, "NOPE": 1})
    assert codes(problems) == [
        "copy_limit", "copy_limit", "deck_size", "kicker_value", "unknown_card",
        "unknown_kicker_chip",
    ]  # fmt: skip


def stud_pool() -> Pool:
    return Pool(
        cards={code(1): 10, **commons(copies=2, count=22, start=2)}, kicker_chips={"TST-K01": 6}
    )


def test_stud_has_no_copy_limit_and_no_chip_value_limit(mini):
    cards = {code(1): 10, **commons(copies=2, count=22, start=2)}
    assert check(mini, "stud", cards=cards, chips={"TST-K01": 6}, pool=stud_pool()) == []


def test_stud_cards_and_chips_must_come_from_the_pool(mini):
    cards = {code(1): 11, **commons(copies=2, count=21, start=2), code(40): 1}
    problems = check(mini, "stud", cards=cards, chips={"TST-K02": 1}, pool=stud_pool())
    found = {(p.code, p.card or p.kicker_chip, p.qty, p.limit) for p in problems}
    assert found == {
        ("not_in_pool", code(1), 11, 10),
        ("not_in_pool", code(40), 1, 0),
        ("not_in_pool", "TST-K02", 1, 0),
    }


def test_stud_needs_a_pool(mini):
    assert codes(check(mini, "stud")) == ["pool_required"]


def test_stud_combines_with_on_your_lonesome(mini):
    cards = {**commons(copies=1, count=30), **{code(31 + i): 1 for i in range(18)}, code(1): 7}
    problems = check(mini, "stud+on_your_lonesome", cards=cards, chips={}, pool=Pool(cards))
    assert codes(problems) == ["copy_limit"]
    assert problems[0].card == code(1) and problems[0].limit == 1


def test_draw_deck_is_exactly_the_drafted_pool(mini):
    drafted = Pool(
        cards={code(1): 7, **commons(copies=1, count=47, start=2)},
        kicker_chips={"TST-K01": 4, "TST-K04": 2},
    )
    assert (
        check(
            mini, "draw", cards=dict(drafted.cards), chips=dict(drafted.kicker_chips), pool=drafted
        )
        == []
    )
    short = {**drafted.cards, code(1): 6}
    problems = check(mini, "draw", cards=short, chips={"TST-K01": 4}, pool=drafted)
    assert codes(problems) == ["deck_size", "kicker_count", "pool_unused", "pool_unused"]


def test_problems_serialize_in_the_api_error_shape(mini):
    problems = check(mini, cards={code(1): 4, **commons(count=17, start=2)})
    problem = next(p for p in problems if p.code == "copy_limit")
    out = problem.as_dict()
    assert out["code"] == "copy_limit" and out["attr"] == "cards" and out["card"] == code(1)
    assert set(out) == {"code", "detail", "attr", "card", "qty", "limit"}


def test_too_many_entries_is_refused_without_looking_further(mini):
    cards = {f"X-{i}": 1 for i in range(formats.MAX_ENTRIES + 1)}
    assert codes(check(mini, cards=cards)) == ["too_many_entries"]


def test_not_owned_reports_what_a_collection_lacks(mini):
    owned = Pool(cards={code(1): 1}, kicker_chips={"TST-K04": 2})
    problems = [p for p in check(mini, owned=owned) if p.code == "not_owned"]
    assert len(problems) == 18 and problems[0].card == code(1) and problems[0].limit == 1


def test_format_names_are_canonical():
    assert formats.format_name({"on_your_lonesome", "stud"}) == "on_your_lonesome+stud"
    assert formats.format_name(set()) == "standard"
    assert parse_format("Stud + On-Your-Lonesome".lower().replace(" ", ""))[0] == {
        "stud",
        "on_your_lonesome",
    }


def test_a_starter_deck_as_sold_is_legal_though_its_kicker_chips_are_not_worth_50(mini):
    two_chips = {"TST-K01": 1, "TST-K02": 1}
    assert codes(check(mini, chips=two_chips)) == ["kicker_value"]
    assert check(mini, chips=two_chips, starter=True) == []


def test_the_starter_allowance_waives_the_kicker_chip_rule_and_no_other(mini):
    cards = {**commons(count=17), code(41): 2}  # 53 cards, two copies of a rare
    problems = check(mini, cards=cards, chips={"TST-K01": 1}, starter=True)
    assert codes(problems) == ["copy_limit", "deck_size"]
    assert codes(check(mini, fmt="stud", chips={"TST-K01": 1}, starter=True)) == ["pool_required"]


def test_every_starter_deck_of_the_catalogue_is_legal_as_sold():
    from simulator.engine.drifter.cards import load_catalogue

    catalogue = load_catalogue()
    starters = [st for s in catalogue.sets for st in s.starters]
    assert starters
    for st in starters:
        chips: dict[str, int] = {}
        for chip_code in st.kicker_chips:
            chips[chip_code] = chips.get(chip_code, 0) + 1
        deck = {"fmt": "standard", "cards": dict(st.cards), "kicker_chips": chips}
        assert validate_deck(**deck, catalogue=catalogue, starter=True) == [], st.code
        assert codes(validate_deck(**deck, catalogue=catalogue)) == ["kicker_value"], st.code


def test_the_entry_check_names_each_bad_entry_in_order_and_looks_no_further(mini):
    cards = {code(1): 3, "TST-999": 1, code(2): 0, "TST-998": "2"}
    chips = {"TST-K99": 1, "TST-K04": -1}
    problems = formats.check_entries(
        cards, chips, card_codes=mini.card_by_code, chip_codes=mini.chip_by_code
    )
    assert [(p.code, p.attr, p.card or p.kicker_chip) for p in problems] == [
        ("unknown_card", "cards", "TST-999"),
        ("bad_quantity", "cards", code(2)),
        ("bad_quantity", "cards", "TST-998"),  # a bad quantity is not looked up as well
        ("unknown_kicker_chip", "kicker_chips", "TST-K99"),
        ("bad_quantity", "kicker_chips", "TST-K04"),
    ]
    assert (
        problems[1].detail
        == f"{code(2)}: the quantity must be a whole number from 1 to 999, not 0."
    )
    validated = check(mini, cards=cards, chips=chips)
    assert [p for p in validated if p.code in {"bad_quantity", "unknown_card",
                                               "unknown_kicker_chip"}] == problems  # fmt: skip


def test_the_entry_check_stops_at_too_many_entries(mini):
    cards = {f"X-{i}": 0 for i in range(formats.MAX_ENTRIES)}
    (problem,) = formats.check_entries(cards, {"K": 1}, card_codes=(), chip_codes=())
    assert (problem.code, problem.attr, problem.limit) == ("too_many_entries", None, 1000)
