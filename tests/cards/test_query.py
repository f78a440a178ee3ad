"""The card search syntax: what each keyword finds, how terms combine, and how it fails."""

from __future__ import annotations

import pytest
from django.db.models import Q
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.models import Card, CardSet
from cards.query import (
    MAX_DEPTH,
    MAX_LENGTH,
    MAX_TERMS,
    CardQuery,
    FactionTerm,
    QuerySyntaxError,
    parse_query,
)
from tests.factories import CardFactory, CardSetFactory

# --- The parser alone (no database) ---------------------------------------------------------


def test_empty_query_matches_everything_unsorted():
    assert parse_query("") == CardQuery(q=Q(), ordering=())
    assert parse_query("   ") == CardQuery(q=Q(), ordering=())


def test_bare_words_and_phrases_are_anded_name_searches():
    assert parse_query('jack "black hat"').q == Q(name__icontains="jack") & Q(
        name__icontains="black hat"
    )


def test_keywords_compile_to_lookups():
    assert parse_query("t:dude").q == Q(type="dude")
    assert parse_query("type:COPY").q == Q(is_copy=True)
    assert parse_query("r:u").q == Q(rarity="uncommon")
    assert parse_query("rarity:Promo").q == Q(rarity="promo")
    assert parse_query("s:hsd").q == Q(card_set__code__iexact="hsd")
    assert parse_query('f:"law dogs"').q == Q(faction__named=FactionTerm("law dogs", 2))
    assert parse_query("o:reinvest").q == Q(text__icontains="reinvest")
    assert parse_query("oracle=reinvest").q == Q(text__icontains="reinvest")
    assert parse_query("n:doc").q == Q(name__icontains="doc")
    assert parse_query("T:Gear").q == Q(type="gear")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("cost<3", Q(cost__lt=3)),
        ("cost<=3", Q(cost__lte=3)),
        ("smarts>3", Q(smarts__gt=3)),
        ("skill>=3", Q(skill__gte=3)),
        ("luck=3", Q(luck=3)),
        ("luck:3", Q(luck=3)),
        ("kl:2", Q(kicker_limit=2)),
        ("skill!=3", Q(skill__lt=3) | Q(skill__gt=3)),
    ],
)
def test_stat_comparisons(text, expected):
    assert parse_query(text).q == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("-skill>5", Q(skill__lte=5)),
        ("-skill>=5", Q(skill__lt=5)),
        ("-skill<5", Q(skill__gte=5)),
        ("-skill<=5", Q(skill__gt=5)),
        ("-skill=5", Q(skill__lt=5) | Q(skill__gt=5)),
        ("-skill!=5", Q(skill=5)),
        ("--skill>5", Q(skill__gt=5)),
    ],
)
def test_negated_stat_comparison_is_the_complementary_comparison(text, expected):
    assert parse_query(text).q == expected


def test_negation_is_pushed_through_groups_by_de_morgan():
    assert parse_query("-(t:dude or skill>5)").q == ~Q(type="dude") & Q(skill__lte=5)
    assert parse_query("-(t:dude skill>5)").q == ~Q(type="dude") | Q(skill__lte=5)


def test_not_binds_tighter_than_and_which_binds_tighter_than_or():
    expected = (Q(type="gear") & ~Q(rarity="rare")) | Q(type="dude")
    assert parse_query("t:gear -r:rare or t:dude").q == expected
    assert parse_query("t:gear and -r:rare OR t:dude").q == expected
    assert parse_query("t:gear (-r:rare or t:dude)").q == Q(type="gear") & (
        ~Q(rarity="rare") | Q(type="dude")
    )


def test_not_equal_on_a_text_keyword_negates_it():
    assert parse_query("t!=dude").q == ~Q(type="dude")


def test_hyphen_inside_a_word_is_part_of_the_name():
    assert parse_query("gun-slinger").q == Q(name__icontains="gun-slinger")


def test_escaped_quote_inside_a_phrase():
    assert parse_query(r'"say \"when\""').q == Q(name__icontains='say "when"')


def test_sort_collects_fields_in_order_with_name_and_code_as_tiebreaks():
    assert parse_query("sort:-cost t:dude sort:luck").ordering == (
        "-cost",
        "luck",
        "name",
        "code",
    )
    assert parse_query("sort:-name").ordering == ("-name", "code")
    assert parse_query("sort:kl").ordering == ("kicker_limit", "name", "code")
    assert parse_query("sort:set").ordering == (
        "set_order",
        "card_set__code",
        "number",
        "name",
        "code",
    )
    assert parse_query("sort:cost").q == Q()


def test_sort_can_go_anywhere_a_term_can_and_never_filters():
    assert parse_query("t:dude or t:gear sort:cost") == CardQuery(
        q=Q(type="dude") | Q(type="gear"), ordering=("cost", "name", "code")
    )
    assert parse_query("(t:dude sort:-luck) or t:gear").q == Q(type="dude") | Q(type="gear")
    assert parse_query("(sort:luck)").ordering == ("luck", "name", "code")


@pytest.mark.parametrize(
    ("text", "position", "message"),
    [
        ("zz:foo", 0, "Unknown keyword 'zz'"),
        ("t:dude zz:foo", 7, "Unknown keyword 'zz'"),
        ("t:wizard", 2, "Unknown type 'wizard'"),
        ("r:mythic", 2, "Unknown rarity 'mythic'"),
        ("sort:power", 5, "Cannot sort by 'power'"),
        ("sort!=cost", 4, "'sort' takes ':' or '=', not '!='"),
        ("t<dude", 1, "'t' takes ':', '=' or '!=', not '<'"),
        ("(t:dude", 0, "Unclosed '('"),
        ("t:dude (skill>3 or (luck>3)", 7, "Unclosed '('"),
        ("t:dude)", 6, "Unmatched ')'"),
        (")", 0, "Unmatched ')'"),
        ('o:"reinvest', 2, "Unclosed quote"),
        ('jack "black', 5, "Unclosed quote"),
        ('""', 0, "Empty quotes"),
        ("cost<=abc", 6, "'abc' is not a whole number"),
        ("skill>99999999999999999999", 6, "is not a whole number"),
        ("t:dude ()", 7, "Empty parentheses"),
        ("t:dude or", 7, "'or' needs a term on each side"),
        ("or t:dude", 0, "'or' needs a term on each side"),
        ("t:dude or )", 7, "'or' needs a term on each side"),
        ("t:dude and", 7, "'and' needs a term on each side"),
        ("cost>=", 4, "'cost>=' needs a value after '>='"),
        ("t:dude o:", 8, "'o:' needs a value after ':'"),
        ("t:dude -", 7, "'-' must be followed by a term"),
        ("-sort:cost", 1, "sort: cannot be negated"),
        ("-(t:dude sort:cost)", 9, "sort: cannot be negated"),
        ("t:dude or sort:cost", 10, "sort: cannot be a side of 'or' on its own"),
        ("sort:name or t:dude", 0, "sort: cannot be a side of 'or' on its own"),
        ("t:dude or (sort:cost sort:luck)", 11, "sort: cannot be a side of 'or' on its own"),
    ],
)
def test_malformed_queries_say_what_and_where(text, position, message):
    with pytest.raises(QuerySyntaxError) as caught:
        parse_query(text)
    assert caught.value.position == position
    assert message in caught.value.message
    assert isinstance(caught.value, ValueError)


def test_query_longer_than_the_limit_is_rejected():
    assert parse_query("a" * MAX_LENGTH).q == Q(name__icontains="a" * MAX_LENGTH)
    with pytest.raises(QuerySyntaxError) as caught:
        parse_query("a" * (MAX_LENGTH + 1))
    assert caught.value.position == MAX_LENGTH
    assert "longer than 500 characters" in caught.value.message


def test_query_with_too_many_terms_is_rejected_at_the_first_term_too_many():
    parse_query(" ".join(["a"] * MAX_TERMS))
    with pytest.raises(QuerySyntaxError) as caught:
        parse_query(" ".join(["a"] * (MAX_TERMS + 1)))
    assert caught.value.position == 2 * MAX_TERMS
    assert "more than 50 terms" in caught.value.message


def test_nesting_deeper_than_the_limit_is_rejected_at_the_parenthesis_too_many():
    parse_query("(" * MAX_DEPTH + "a" + ")" * MAX_DEPTH)
    with pytest.raises(QuerySyntaxError) as caught:
        parse_query("(" * (MAX_DEPTH + 1) + "a" + ")" * (MAX_DEPTH + 1))
    assert caught.value.position == MAX_DEPTH
    assert "nested deeper than 10" in caught.value.message


def test_a_long_chain_of_negations_does_not_recurse():
    assert parse_query("-" * 400 + "a").q == Q(name__icontains="a")


_PIECES = st.sampled_from(
    ["t:dude", "r:", "cost<=", "3", "-", "(", ")", '"', " or ", " and ", " ", "sort:", "x", ":"]
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), st.lists(_PIECES, max_size=30).map("".join)))
def test_any_text_either_parses_or_raises_a_syntax_error_inside_it(text):
    try:
        parse_query(text)
    except QuerySyntaxError as error:
        assert 0 <= error.position <= len(text)


# --- Against the database --------------------------------------------------------------------


@pytest.fixture
def cards(db):
    """A small catalogue in two sets of our own (the shipped catalogue is loaded too)."""
    qta = CardSetFactory(code="QTA", order=90)
    qtb = CardSetFactory(code="QTB", order=91)

    def dude(code, name, faction, rarity, cost, smarts, skill, luck, kl, text=""):
        card_set, number = (qta if code.startswith("QTA") else qtb), int(code[-3:])
        CardFactory(
            card_set=card_set,
            number=number,
            code=code,
            name=name,
            faction=faction,
            rarity=rarity,
            cost=cost,
            smarts=smarts,
            skill=skill,
            luck=luck,
            kicker_limit=kl,
            text=text,
        )

    def other(code, name, type, rarity, cost, text="", is_copy=False):
        card_set, number = (qta if code.startswith("QTA") else qtb), int(code[-3:])
        CardFactory(
            card_set=card_set,
            number=number,
            code=code,
            name=name,
            type=type,
            faction="",
            rarity=rarity,
            cost=cost,
            smarts=None,
            skill=None,
            luck=None,
            kicker_limit=None,
            text=text,
            is_copy=is_copy,
        )

    dude("QTA-001", "Wyatt Bodine", "Law Dogs", "rare", 5, 4, 8, 3, 2, "Reinvest: gain $1.")
    dude("QTA-002", "Doc Mercer", "Outlaws", "uncommon", 4, 8, 3, 5, 1)
    dude("QTA-003", "Black Jack Cassidy", "Outlaws", "rare", 7, 5, 9, 8, 3)
    other("QTA-004", "Shotgun", "gear", "common", 2, "The dude gets +2 skill.")
    other("QTA-005", "Lucky Horseshoe", "gear", "uncommon", 1, "Reinvest 1.")
    other("QTA-006", "Ambush at Dry Gulch", "fortune", "common", 3, "A shootout begins.")
    dude("QTB-001", "Sister Mary", "Drifters", "promo", 3, 9, 2, 9, 0)
    other("QTB-002", "Shotgun", "gear", "fixed", 2, "The dude gets +2 skill.", is_copy=True)
    return Card.objects.filter(card_set__code__in=["QTA", "QTB"])


def find(cards, text: str) -> set[str]:
    return set(parse_query(text).apply(cards).values_list("code", flat=True))


def ordered(cards, text: str) -> list[str]:
    return list(parse_query(text).apply(cards).values_list("code", flat=True))


WYATT, DOC, JACK, SHOTGUN, HORSESHOE, AMBUSH = (f"QTA-00{n}" for n in range(1, 7))
MARY, SHOTGUN_COPY = "QTB-001", "QTB-002"
DUDES = {WYATT, DOC, JACK, MARY}
ALL = DUDES | {SHOTGUN, HORSESHOE, AMBUSH, SHOTGUN_COPY}


def test_empty_query_finds_every_card(cards):
    assert find(cards, "") == ALL


def test_bare_words_match_names_case_insensitively_and_all_must_match(cards):
    assert find(cards, "shotgun") == {SHOTGUN, SHOTGUN_COPY}
    assert find(cards, "JACK") == {JACK}
    assert find(cards, "black cassidy") == {JACK}
    assert find(cards, "black wyatt") == set()
    assert find(cards, '"dry gulch"') == {AMBUSH}
    assert find(cards, '"gulch dry"') == set()
    assert find(cards, "n:doc") == {DOC}
    assert find(cards, 'name:"sister m"') == {MARY}


def test_type_and_copy(cards):
    assert find(cards, "t:dude") == DUDES
    assert find(cards, "type:gear") == {SHOTGUN, HORSESHOE, SHOTGUN_COPY}
    assert find(cards, "t:fortune") == {AMBUSH}
    assert find(cards, "t:copy") == {SHOTGUN_COPY}
    assert find(cards, "t:gear -t:copy") == {SHOTGUN, HORSESHOE}


def test_rarity_and_its_abbreviations(cards):
    assert find(cards, "r:rare") == {WYATT, JACK}
    assert find(cards, "r:r") == {WYATT, JACK}
    assert find(cards, "rarity:u") == {DOC, HORSESHOE}
    assert find(cards, "r:c") == {SHOTGUN, AMBUSH}
    assert find(cards, "r:f") == {SHOTGUN_COPY}
    assert find(cards, "r:p") == {MARY}


def test_set_code_is_case_insensitive(cards):
    assert find(cards, "s:qtb") == {MARY, SHOTGUN_COPY}
    assert find(cards, "set:QTA t:dude") == {WYATT, DOC, JACK}


def test_a_set_term_becomes_the_sets_ids_looked_up_once_per_code(cards, django_assert_num_queries):
    qtb = CardSet.objects.get(code="QTB").pk
    with django_assert_num_queries(1):  # one lookup, however often the code is used
        queryset = parse_query("(s:qtb or s:qtb t:dude) -s:qtb").apply(cards)
    sql = str(queryset.query)
    assert f'card_set_id" IN ({qtb})' in sql
    assert "UPPER" not in sql  # the code is not matched in the query: its ids are
    assert set(queryset.values_list("code", flat=True)) == set()
    assert find(cards, "s:qtb or (s:qtb t:dude) or -s:qtb") == ALL


def test_an_unknown_set_matches_nothing_and_its_negation_everything(cards):
    assert find(cards, "s:nope") == set()
    assert find(cards, "s:nope or t:fortune") == {AMBUSH}
    assert find(cards, "-s:nope") == ALL
    assert find(cards, "set!=nope t:copy") == {SHOTGUN_COPY}


def test_faction_is_the_whole_name_ignoring_case_and_spaces(cards):
    assert find(cards, "f:outlaws") == {DOC, JACK}
    assert find(cards, 'f:"law dogs"') == {WYATT}
    assert find(cards, 'faction:"LAW   DOGS"') == {WYATT}


def test_faction_prefix_names_the_one_faction_it_begins_a_word_of(cards):
    # "Outlaws" contains "law" but does not begin with it: f:law is the Law Dogs only.
    assert find(cards, "f:law") == {WYATT}
    assert find(cards, "faction:LAW") == {WYATT}
    assert find(cards, "f:dogs") == {WYATT}
    assert find(cards, "f:out") == {DOC, JACK}
    assert find(cards, "-f:law t:dude") == {DOC, JACK, MARY}


def test_faction_prefix_of_two_factions_is_an_error_naming_both(cards):
    qtb = CardSet.objects.get(code="QTB")
    CardFactory(card_set=qtb, number=99, code="QTB-099", faction="Lawmen")
    with pytest.raises(QuerySyntaxError) as caught:
        find(cards, "t:dude f:law")
    message = "Faction 'law' could be Law Dogs or Lawmen; type more of its name."
    assert caught.value.message == message
    assert caught.value.position == 9
    assert find(cards, "f:lawm") == {"QTB-099"}
    assert find(cards, 'f:"law dogs"') == {WYATT}  # a whole name is never ambiguous


def test_faction_in_a_catalogue_without_factions_is_an_error_saying_so(cards):
    Card.objects.update(faction="")
    with pytest.raises(QuerySyntaxError) as caught:
        find(cards, "f:law")
    assert caught.value.message == "No faction is called 'law'; no card has one."


def test_faction_that_no_card_has_is_an_error_listing_the_factions(cards):
    with pytest.raises(QuerySyntaxError) as caught:
        find(cards, "f:lawyers")
    assert caught.value.message.startswith("No faction is called 'lawyers'; the factions are ")
    assert "Law Dogs" in caught.value.message and "Outlaws" in caught.value.message
    assert caught.value.position == 2


def test_oracle_text_contains(cards):
    assert find(cards, "o:reinvest") == {WYATT, HORSESHOE}
    assert find(cards, 'o:"+2 skill"') == {SHOTGUN, SHOTGUN_COPY}
    assert find(cards, "oracle:shootout") == {AMBUSH}


def test_cost_comparisons_cover_every_card_type(cards):
    assert find(cards, "cost<3") == {SHOTGUN, HORSESHOE, SHOTGUN_COPY}
    assert find(cards, "cost<=3") == {SHOTGUN, HORSESHOE, SHOTGUN_COPY, AMBUSH, MARY}
    assert find(cards, "cost>5") == {JACK}
    assert find(cards, "cost>=5") == {WYATT, JACK}
    assert find(cards, "cost=4") == {DOC}
    assert find(cards, "cost:4") == {DOC}
    assert find(cards, "cost!=2") == ALL - {SHOTGUN, SHOTGUN_COPY}


def test_stat_comparisons_only_ever_match_dudes(cards):
    assert find(cards, "smarts>=8") == {DOC, MARY}
    assert find(cards, "skill>8") == {JACK}
    assert find(cards, "luck<4") == {WYATT}
    assert find(cards, "kl:0") == {MARY}
    assert find(cards, "kl>=2") == {WYATT, JACK}
    assert find(cards, "skill!=9") == {WYATT, DOC, MARY}
    assert find(cards, "skill>=0") == DUDES


def test_negated_stat_comparison_still_requires_the_stat(cards):
    assert find(cards, "-skill>5") == {DOC, MARY}
    assert find(cards, "-skill>5") == find(cards, "skill<=5")
    assert find(cards, "-skill!=9") == {JACK}
    assert find(cards, "-(skill>5 or luck>5)") == {DOC}
    assert find(cards, "-(skill>8 luck>7)") == {WYATT, DOC, MARY}
    assert find(cards, "-t:dude") == ALL - DUDES  # non-stat terms negate plainly


def test_negation_of_terms_and_groups(cards):
    assert find(cards, "-f:outlaws t:dude") == {WYATT, MARY}
    assert find(cards, "-(t:gear or t:fortune)") == DUDES
    assert find(cards, "-shotgun -t:dude") == {HORSESHOE, AMBUSH}


def test_or_and_precedence(cards):
    assert find(cards, "t:fortune or t:copy") == {AMBUSH, SHOTGUN_COPY}
    assert find(cards, "t:gear r:common or r:rare") == {SHOTGUN, WYATT, JACK}
    assert find(cards, "t:gear (r:common or r:rare)") == {SHOTGUN}
    assert find(cards, "t:gear and r:common OR t:fortune") == {SHOTGUN, AMBUSH}
    assert find(cards, "((t:dude) and ((luck>8)))") == {MARY}


def test_combined_query_with_sort(cards):
    assert ordered(cards, "t:dude (skill>=8 or luck>=8) -f:outlaws sort:-cost") == [WYATT, MARY]
    assert ordered(cards, "sort:-cost t:dude (skill>=8 or luck>=8)") == [JACK, WYATT, MARY]


def test_sort_orders_with_name_as_tiebreak(cards):
    assert ordered(cards, "t:dude sort:cost") == [MARY, DOC, WYATT, JACK]
    assert ordered(cards, "t:dude sort:-luck") == [MARY, JACK, DOC, WYATT]
    assert ordered(cards, "t:gear sort:cost") == [HORSESHOE, SHOTGUN, SHOTGUN_COPY]
    assert ordered(cards, "sort:name s:qta") == [AMBUSH, JACK, DOC, HORSESHOE, SHOTGUN, WYATT]
    assert ordered(cards, "sort:-set sort:name t:gear") == [SHOTGUN_COPY, HORSESHOE, SHOTGUN]


def test_sorting_by_a_stat_puts_cards_without_it_last_both_ways(cards):
    up = ordered(cards, "sort:smarts")
    down = ordered(cards, "sort:-smarts")
    assert up[:4] == [WYATT, JACK, DOC, MARY]
    assert down[:4] == [MARY, DOC, JACK, WYATT]
    assert set(up[4:]) == set(down[4:]) == ALL - DUDES


def test_without_sort_the_model_ordering_stands(cards):
    query = parse_query("t:dude")
    assert query.ordering == ()
    assert ordered(cards, "t:dude") == list(
        cards.filter(type="dude").values_list("code", flat=True)
    )


def test_apply_never_needs_distinct(cards):
    queryset = parse_query("s:qta or f:outlaws sort:set").apply(cards)
    assert not queryset.query.distinct
    codes = list(queryset.values_list("code", flat=True))
    assert len(codes) == len(set(codes)) == 6


def test_f_law_in_the_shipped_catalogue_is_the_28_law_dogs_not_58(api_client, catalogue):
    """Issue #17: `f:law` found the Outlaws too (58 cards, "Outlaws" contains "law")."""
    response = api_client.get("/api/v1/cards/", {"q": "f:law", "limit": 100})
    assert response.status_code == 200
    factions = {card["faction"] for card in response.json()["results"]}
    assert (response.json()["count"], factions) == (28, {"Law Dogs"})
    wrong = api_client.get("/api/v1/cards/", {"q": "t:dude f:lawyers"})
    assert wrong.status_code == 400
    assert wrong.json()["errors"][0]["code"] == "invalid_query"
    assert wrong.json()["errors"][0]["position"] == 9
