"""The shipped card sets (fixtures/sets/*.json) follow the schema and the set design.

Pure tests, no database: the sets are read through the engine's one parser of set files
(`load_catalogue`), the same path the Django catalogue and the simulator use.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from simulator.engine.drifter.cards import (
    CARD_TYPES,
    CHIP_VALUES,
    DEFAULT_FIXTURES,
    EFFECTS,
    RARITIES,
    STATS,
    Ability,
    CardDef,
    Catalogue,
    load_catalogue,
)

SET_FILES = sorted(DEFAULT_FIXTURES.glob("*.json"))
COPY_LIMITS = {"common": 3, "uncommon": 2, "rare": 1, "fixed": 1}
CANT_KINDS = {
    "cant_reinvest",
    "cant_play_fortune",
    "cant_reveal_gear",
    "cant_fold",
    "cant_take_kicker",
    "cant_accept",
}
COST_RANGES = {"dude": (2, 12), "gear": (1, 6), "fortune": (1, 7)}
CONCEALED_LINE = "If this card is concealed, "
STAR_LINES = {"as_gear": "☆ Gear: ", "as_fortune": "☆ Fortune: "}
DECK_SIZE = 54


@pytest.fixture(scope="module")
def cat() -> Catalogue:
    return load_catalogue()


@pytest.fixture(scope="module")
def hsd(cat) -> list[CardDef]:
    return set_cards(cat, "HSD")


def set_cards(cat: Catalogue, code: str) -> list[CardDef]:
    return [cat.card(c) for c in cat.set(code).card_codes]


def by_name(cat: Catalogue, name: str) -> CardDef:
    matches = [c for c in cat.cards if c.name == name]
    assert len(matches) == 1, f"expected one card named {name!r}, found {len(matches)}"
    return matches[0]


def kinds(cards) -> set[str]:
    return {e.kind for c in cards for a in c.abilities for e in a.effects}


def abilities(cards) -> list[Ability]:
    return [a for c in cards for a in c.abilities]


# ----------------------------------------------------------------------------- parsing


def test_there_are_set_files_and_every_one_parses(cat):
    assert {p.stem for p in SET_FILES} >= {"HSD", "DMH"}
    assert {s.code for s in cat.sets} == {p.stem for p in SET_FILES}


@pytest.mark.parametrize("path", SET_FILES, ids=lambda p: p.name)
def test_a_set_file_is_named_after_its_code_and_numbered_from_one(path):
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["code"] == path.stem
    assert doc["kind"] in {"base", "expansion"}
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", doc["released"])
    numbers = [c["number"] for c in doc["cards"]]
    assert numbers == list(range(1, len(numbers) + 1))


def test_the_base_set_and_the_expansion(cat):
    hsd, dmh = cat.set("HSD"), cat.set("DMH")
    assert (hsd.name, hsd.kind, hsd.order, hsd.released) == (
        "High Stakes Drifter",
        "base",
        1,
        "2005-06-01",
    )
    assert (dmh.kind, dmh.order, dmh.released) == ("expansion", 2, "2005-11-01")
    assert [s.code for s in cat.sets] == ["HSD", "DMH"]
    assert 40 <= len(dmh.card_codes) <= 60


def test_codes_and_names_are_unique(cat):
    codes = [c.code for c in cat.cards]
    assert len(codes) == len(set(codes))
    chip_codes = [c.code for c in cat.chips]
    assert len(chip_codes) == len(set(chip_codes))
    starter_codes = [st.code for s in cat.sets for st in s.starters]
    assert len(starter_codes) == len(set(starter_codes))
    names = Counter(c.name for c in cat.cards)
    assert [n for n, k in names.items() if k > 1] == []
    for s in cat.sets:
        assert all(code.startswith(f"{s.code}-") for code in s.card_codes)
        assert all(code.startswith(f"{s.code}-K") for code in s.chip_codes)
        assert all(st.code.startswith(f"{s.code}-S") for st in s.starters)


# ----------------------------------------------------------------------------- composition


def test_the_base_set_has_150_cards_of_every_type_and_rarity(hsd):
    assert len(hsd) >= 150
    assert {c.type for c in hsd} == set(CARD_TYPES)
    assert {c.rarity for c in hsd} == set(RARITIES)
    dudes = sum(c.is_dude for c in hsd)
    assert 0.55 <= dudes / len(hsd) <= 0.65
    copies = [c for c in hsd if c.is_copy]
    assert {c.type for c in copies} == {"gear", "fortune"}
    assert all("becomes a copy" in c.text for c in copies)


def test_each_set_has_four_or_five_factions_and_every_dude_has_one(cat):
    for s in cat.sets:
        cards = set_cards(cat, s.code)
        factions = {c.faction for c in cards if c.is_dude}
        assert "" not in factions
        assert 4 <= len(factions) <= 5, (s.code, factions)
        assert {c.faction for c in cards if not c.is_dude} <= factions | {""}


def test_most_cards_are_simple_and_complexity_rises_with_rarity(hsd):
    def mean_abilities(rarity):
        cards = [c for c in hsd if c.rarity == rarity]
        return sum(len(c.abilities) for c in cards) / len(cards)

    simple = [c for c in hsd if len(c.abilities) <= 1]
    assert len(simple) / len(hsd) >= 0.7
    assert sum(not c.abilities for c in hsd if c.is_dude) >= 20
    assert mean_abilities("common") < mean_abilities("uncommon") < mean_abilities("rare")


def test_dude_stats_costs_and_kicker_limits_are_sensible(cat):
    for c in cat.cards:
        low, high = COST_RANGES[c.type]
        assert low <= c.cost <= high, (c.code, c.cost)
        if not c.is_dude:
            continue
        assert all(0 <= v <= 12 for v in c.stats), c.code
        assert 5 <= c.kicker_limit <= 25, c.code
        # Cost tracks power: a vanilla dude has 2 x cost + 2 stat points; an ability costs
        # a point or three of stats, a drawback buys one back.
        total = sum(c.stats)
        if not c.abilities:
            assert total == 2 * c.cost + 2, (c.code, c.cost, c.stats)
        else:
            assert 2 * c.cost - 1 <= total <= 2 * c.cost + 3, (c.code, c.cost, c.stats)


# ----------------------------------------------------------------------------- abilities


def test_the_base_set_uses_the_whole_vocabulary(hsd):
    used = kinds(hsd)
    assert len(used) >= 25
    assert used >= CANT_KINDS | {"stat_mod", "copy"}
    assert used == set(EFFECTS)  # every effect kind of docs/rules/abilities.md


def test_the_base_set_has_concealed_star_and_contested_abilities(hsd):
    abs_ = abilities(hsd)
    assert any(a.concealed for a in abs_)
    assert any(a.timing == "as_gear" for a in abs_)
    assert any(a.timing == "as_fortune" for a in abs_)
    conditions = {key for a in abs_ for key, _ in a.condition}
    assert {"contested", "contested_not"} <= conditions
    static_self_mods = [
        a
        for a in abs_
        if a.timing == "static"
        and not a.condition
        and any(e.kind == "stat_mod" and e.target == "self" for e in a.effects)
    ]
    assert len(static_self_mods) >= 20


def test_the_expansion_uses_the_vocabulary_too(cat):
    dmh = set_cards(cat, "DMH")
    assert len(kinds(dmh)) >= 15
    assert any(a.concealed for a in abilities(dmh))
    assert any(c.is_copy for c in dmh)


def test_concealed_abilities_and_their_text_come_together(cat):
    for c in cat.cards:
        lines = c.text.splitlines() if c.text else []
        assert len(lines) == len(c.abilities), c.code  # one printed line per ability
        said = sum(line.startswith(CONCEALED_LINE) for line in lines)
        assert said == sum(a.concealed for a in c.abilities), c.code
        assert said == c.text.count("If this card is concealed"), c.code
        for line, ability in zip(lines, c.abilities):
            assert line.startswith(CONCEALED_LINE) == ability.concealed, (c.code, line)


def test_star_abilities_and_their_text_come_together(cat):
    for c in cat.cards:
        lines = c.text.splitlines() if c.text else []
        for line, ability in zip(lines, c.abilities):
            for timing, prefix in STAR_LINES.items():
                assert line.startswith(prefix) == (ability.timing == timing), (c.code, line)
        assert c.text.count("☆") == sum(a.timing in STAR_LINES for a in c.abilities), c.code
        if any(a.timing == "as_gear" for a in c.abilities):
            assert c.is_dude, c.code


def test_the_numbers_printed_are_the_numbers_in_the_data(cat):
    for c in cat.cards:
        printed = sorted(int(n) for n in re.findall(r"\d+", c.text))
        data = []
        for a in c.abilities:
            data += [v for _, v in a.condition if type(v) is int]
            for e in a.effects:
                data += [abs(v) for v in (e.amount, e.count, e.value) if v is not None]
        assert printed == sorted(data), (c.code, c.text)


def test_printed_stat_modifiers_match_the_data(cat):
    for c in cat.cards:
        printed = Counter(
            (int(n), stat)
            for n, stat in re.findall(
                r"([+-]\d+) (?:to the )?(smarts|skill|luck|contested)", c.text
            )
        )
        data = Counter(
            (e.amount, e.stat)
            for a in c.abilities
            for e in a.effects
            if e.kind in {"stat_mod", "stat_mod_per"}
        )
        assert printed == data, (c.code, c.text)


# ----------------------------------------------------------------------------- boosters, starters


def test_a_booster_is_nine_cards_by_rarity_and_one_kicker_chip(cat):
    for s in cat.sets:
        assert s.booster_size == 9, s.code
        assert s.booster_kicker_chips == 1, s.code
        rarities = {c.rarity for c in set_cards(cat, s.code)}
        for slot in s.booster_slots:
            for rarity, _ in slot.weights:
                assert rarity in rarities, (s.code, rarity)
        assert s.chip_codes, f"{s.code} boosters need kicker chips"
    hsd = cat.set("HSD")
    per_rarity = Counter()
    for slot in hsd.booster_slots:
        for rarity, _ in slot.weights:
            per_rarity[rarity] += slot.count
    assert per_rarity == {"common": 6, "uncommon": 2, "rare": 1}
    assert 6 * hsd.booster_size == DECK_SIZE  # the Draw variant: six boosters make a deck


def test_fixed_cards_are_starter_only_and_promos_are_in_neither(cat):
    in_starters = {code for s in cat.sets for st in s.starters for code, _ in st.cards}
    for s in cat.sets:
        weighted = {rarity for slot in s.booster_slots for rarity, _ in slot.weights}
        assert not weighted & {"fixed", "promo"}, s.code
    for c in cat.cards:
        if c.rarity == "fixed":
            assert c.code in in_starters, c.code
        if c.rarity == "promo":
            assert c.code not in in_starters, c.code


def test_starters_are_legal_54_card_decks_with_two_kicker_chips(cat):
    starters = cat.set("HSD").starters
    assert len(starters) >= 2
    for s in cat.sets:
        for st in s.starters:
            cards = [(cat.card(code), qty) for code, qty in st.cards]
            assert len({c.code for c, _ in cards}) == len(cards), st.code
            assert sum(q for _, q in cards) == DECK_SIZE, st.code
            assert len(st.kicker_chips) == 2, st.code
            for c, qty in cards:
                assert qty <= COPY_LIMITS[c.rarity], (st.code, c.code, qty)
            by_type = Counter()
            for c, qty in cards:
                by_type[c.type] += qty
            assert 28 <= by_type["dude"] <= 32, (st.code, by_type)
            assert by_type["gear"] >= 8 and by_type["fortune"] >= 8, (st.code, by_type)
            assert any(c.rarity == "fixed" for c, _ in cards), st.code


def test_starting_hands_usually_have_a_dude(cat):
    from math import comb

    for st in cat.set("HSD").starters:
        dudes = sum(q for code, q in st.cards if cat.card(code).is_dude)
        no_dude = comb(DECK_SIZE - dudes, 5) / comb(DECK_SIZE, 5)
        assert no_dude < 0.05, (st.code, no_dude)


# ----------------------------------------------------------------------------- kicker chips


def test_kicker_chips_come_in_every_colour_and_grow_with_value(cat):
    hsd = [cat.chip(code) for code in cat.set("HSD").chip_codes]
    distinct = {(ch.color, tuple(sorted(ch.sides))) for ch in hsd}
    assert len(distinct) == len(hsd) >= 24
    assert {ch.color for ch in hsd} == set(CHIP_VALUES)
    assert cat.set("DMH").chip_codes
    for s in cat.sets:
        chips = [cat.chip(code) for code in s.chip_codes]
        assert all(side[0] in STATS and side[1] != 0 for ch in chips for side in ch.sides)
        biggest = {}
        for ch in chips:
            size = max(abs(amount) for _, amount in ch.sides)
            biggest[ch.value] = max(biggest.get(ch.value, 0), size)
        sizes = [biggest[v] for v in sorted(biggest)]
        assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes), (s.code, biggest)


# ----------------------------------------------------------------------------- the rules' examples


def printed_plus_static(cards: list[CardDef]) -> tuple[int, int, int]:
    """Printed stats plus unconditional static self stat modifiers: what Example 4 adds up."""
    totals = [0, 0, 0]
    for c in cards:
        for i, v in enumerate(c.stats):
            totals[i] += v
        for a in c.abilities:
            if a.timing == "static" and not a.condition and not a.concealed:
                for e in a.effects:
                    if e.kind == "stat_mod" and e.target == "self" and e.stat in STATS:
                        totals[STATS.index(e.stat)] += e.amount
    return tuple(totals)


def only_unconditional_stat_changes(c: CardDef) -> bool:
    """No ability that could move the dude's stats apart from the unconditional static ones."""
    stat_kinds = {"stat_mod", "stat_mod_per", "stat_set", "stat_swap", "change_contested"}
    for a in c.abilities:
        touches_stats = any(e.kind in stat_kinds for e in a.effects)
        if touches_stats and (a.timing != "static" or a.condition or a.concealed):
            return False
        if any(e.kind == "stat_mod" and e.stat == "contested" for e in a.effects):
            return False
        if any(e.kind in stat_kinds - {"stat_mod"} for e in a.effects):
            return False
    return True


def test_example_4_sams_side(cat):
    meek = cat.card("HSD-012")
    saddle, covered = by_name(cat, "Plains Saddle"), by_name(cat, "Gotcha Covered")
    assert (meek.name, meek.type, meek.rarity, meek.cost) == ("Henry Meek", "dude", "common", 6)
    assert (saddle.type, saddle.cost) == ("gear", 2)
    assert (covered.type, covered.cost) == ("fortune", 4)
    trio = [meek, saddle, covered]
    assert all(only_unconditional_stat_changes(c) for c in trio)
    assert printed_plus_static(trio) == (9, 3, 10)


def test_example_4_janes_side(cat):
    benteen = by_name(cat, "Col. Frederick Benteen")
    smile, fort_up = by_name(cat, "Dazzling Smile"), by_name(cat, "Fort Up")
    assert benteen.set_code == "HSD" and benteen.is_dude
    assert smile.type == "gear"
    assert (fort_up.type, fort_up.cost) == ("fortune", 5)
    trio = [benteen, smile, fort_up]
    assert all(only_unconditional_stat_changes(c) for c in trio)
    assert printed_plus_static(trio) == (5, 12, 5)


def test_the_examples_can_be_played_from_the_starters(cat):
    decks = [{code for code, _ in st.cards} for st in cat.set("HSD").starters]

    def holder(*names):
        codes = {by_name(cat, n).code for n in names}
        found = [i for i, deck in enumerate(decks) if codes <= deck]
        assert found, names
        return found[0]

    sam = holder("Henry Meek", "Plains Saddle", "Gotcha Covered")
    jane = holder("Col. Frederick Benteen", "Dazzling Smile", "Fort Up")
    assert sam != jane
