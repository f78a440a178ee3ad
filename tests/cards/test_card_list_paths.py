"""The card list's cheap paths give the answers of the plain ones: the capped count, the page
read as rows, the serializer's direct to_representation, filters skipped when unused, and the
search indexes' upkeep on PostgreSQL (docs/search.md, "Speed")."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import get_script_prefix, set_script_prefix
from rest_framework import serializers
from rest_framework.test import APIRequestFactory

from cards.api.pagination import CardPagination
from cards.api.serializers import CardSerializer
from cards.filtersets import CardFilterSet
from cards.models import Card
from cards.paging import CappedPaginator, count_up_to
from cards.query import parse_query
from config.api import _filters_nothing

pytestmark = pytest.mark.django_db

CAP = 10


@pytest.fixture
def small_cap(monkeypatch):
    """A count cap the shipped catalogue (a few hundred cards) goes well past."""
    monkeypatch.setattr(CardPagination, "count_cap", CAP)


def page(api_client, **params) -> dict:
    response = api_client.get("/api/v1/cards/", params)
    assert response.status_code == 200, response.content
    return response.json()


# --- The serializer: the direct path against ModelSerializer's generic one -------------------


def test_to_representation_gives_the_generic_json_for_every_card(catalogue):
    request = APIRequestFactory().get("/api/v1/cards/")
    serializer = CardSerializer(context={"request": request})
    cards = list(Card.objects.select_related("card_set"))
    rows = {row["code"]: row for row in CardSerializer.rows(Card.objects.all())}
    assert len(rows) == len(cards) > 150
    for card in cards:
        generic = serializers.ModelSerializer.to_representation(serializer, card)
        assert serializer.to_representation(card) == generic
        assert serializer.to_representation(rows[card.code]) == generic
        assert list(serializer.to_representation(card)) == list(generic)  # same key order


# What the API answered for these two fixture cards before the direct path (a dude, and a gear
# with NULL stats and structured abilities).
HENRY_MEEK = {
    "code": "HSD-012", "url": "http://testserver/api/v1/cards/HSD-012/", "set": "HSD",
    "number": 12, "name": "Henry Meek", "type": "dude", "is_copy": False, "faction": "Townsfolk",
    "rarity": "common", "cost": 6, "smarts": 6, "skill": 2, "luck": 6, "kicker_limit": 15,
    "text": "", "flavor": "Quiet as a church mouse, and twice as hard to corner.",
    "abilities": [], "image_url": "http://testserver/cards/HSD-012/full.png",
    "thumb_url": "http://testserver/cards/HSD-012/thumb.png",
}  # fmt: skip
PLAINS_SADDLE = {
    "code": "HSD-102", "url": "http://testserver/api/v1/cards/HSD-102/", "set": "HSD",
    "number": 102, "name": "Plains Saddle", "type": "gear", "is_copy": False, "faction": "",
    "rarity": "common", "cost": 2, "smarts": None, "skill": None, "luck": None,
    "kicker_limit": None, "text": "Equipped dude gets +1 skill and +1 luck.",
    "flavor": "A good saddle is worth more than the horse.",
    "abilities": [{"timing": "static", "effects": [
        {"kind": "stat_mod", "stat": "skill", "amount": 1, "target": "self"},
        {"kind": "stat_mod", "stat": "luck", "amount": 1, "target": "self"},
    ]}],
    "image_url": "http://testserver/cards/HSD-102/full.png",
    "thumb_url": "http://testserver/cards/HSD-102/thumb.png",
}  # fmt: skip


@pytest.mark.parametrize("expected", [HENRY_MEEK, PLAINS_SADDLE], ids=lambda e: e["code"])
def test_fixture_cards_read_as_before_in_the_list_and_alone(api_client, catalogue, expected):
    detail = api_client.get(f"/api/v1/cards/{expected['code']}/")
    assert detail.json() == expected
    assert list(detail.json()) == list(expected)
    listed = page(api_client, q=f'"{expected["name"]}"', limit=5)["results"]
    assert listed == [expected]


def test_card_urls_follow_the_script_prefix(catalogue):
    """The URL paths are reversed once per process and prefix, not per response."""
    card = Card.objects.select_related("card_set").get(code="HSD-012")
    before = get_script_prefix()
    try:
        for prefix in ("/", "/drifter/", "/"):
            set_script_prefix(prefix)
            data = CardSerializer(card).data  # no request: the paths alone
            assert data["url"] == f"{prefix}api/v1/cards/HSD-012/"
            assert data["thumb_url"] == f"{prefix}cards/HSD-012/thumb.png"
    finally:
        set_script_prefix(before)


def test_a_list_page_shows_each_card_as_its_detail_does(api_client, catalogue):
    listed = page(api_client, q="t:dude sort:-cost", limit=30)["results"]
    assert len(listed) == 30
    for card in listed:
        assert api_client.get(f"/api/v1/cards/{card['code']}/").json() == card


# --- The count: exact up to the cap, then a flagged lower bound ------------------------------


def test_counts_are_exact_on_the_shipped_catalogue(api_client, catalogue):
    body = page(api_client, limit=20)
    assert body["count"] == Card.objects.count() and body["count_exact"] is True
    assert list(body) == ["count", "count_exact", "next", "previous", "results"]


def test_a_count_past_the_cap_is_the_cap_flagged_inexact(api_client, catalogue, small_cap):
    matches = Card.objects.filter(type="dude").count()
    assert matches > CAP + 5
    body = page(api_client, q="t:dude", limit=5)
    assert body["count"] == CAP and body["count_exact"] is False
    assert "offset=5" in body["next"] and len(body["results"]) == 5


def test_a_count_up_to_the_cap_is_exact(api_client, catalogue, small_cap):
    for q in ("t:dude cost>=10", "Henry Meek"):
        matches = page(api_client, q=q, limit=200)["results"]
        body = page(api_client, q=q, limit=1)
        assert 0 < body["count"] == len(matches) <= CAP and body["count_exact"] is True


def test_exactly_the_cap_counts_as_exact(api_client, catalogue, small_cap, monkeypatch):
    matches = Card.objects.filter(type="dude", cost__gte=5).count()
    monkeypatch.setattr(CardPagination, "count_cap", matches)
    body = page(api_client, q="t:dude cost>=5", limit=2)
    assert body["count"] == matches and body["count_exact"] is True


def test_paging_past_the_cap_counts_to_the_page_and_ends_exact(api_client, catalogue, small_cap):
    matches = Card.objects.filter(type="dude").count()
    body = page(api_client, q="t:dude", limit=5, offset=CAP + 5)
    assert body["count"] == CAP + 10 and body["count_exact"] is False
    assert f"offset={CAP + 10}" in body["next"]
    last = page(api_client, q="t:dude", limit=5, offset=matches - 3)
    assert last["count"] == matches and last["count_exact"] is True
    assert last["next"] is None and len(last["results"]) == 3
    beyond = page(api_client, q="t:dude", limit=5, offset=matches + 50)
    assert beyond == {**beyond, "count": matches, "count_exact": True, "results": []}


def test_walking_every_page_visits_every_match_once(api_client, catalogue, small_cap):
    expected = list(
        Card.objects.filter(type="gear").order_by("set_order", "number").values_list("code")
    )
    seen, url = [], "/api/v1/cards/?q=t:gear&limit=7"
    while url:
        body = api_client.get(url).json()
        seen += [(card["code"],) for card in body["results"]]
        url = body["next"]
    assert seen == expected and len(seen) > CAP


def test_a_last_page_counts_without_a_count_query(api_client, catalogue, django_assert_num_queries):
    matches = Card.objects.filter(type="dude", cost__gte=9).count()
    assert 0 < matches < 50
    with django_assert_num_queries(1):  # the page; a short page is the last: no COUNT(*)
        body = page(api_client, q="t:dude cost>=9", limit=50)
    assert body["count"] == matches == len(body["results"])
    with django_assert_num_queries(2):  # a full page cannot tell how many follow
        assert page(api_client, q="t:dude cost>=9", limit=matches)["count"] == matches
    with django_assert_num_queries(1):
        assert page(api_client, q="zzz nothing", limit=5)["count"] == 0


def test_count_up_to_counts_no_further_than_asked(catalogue, django_assert_num_queries):
    dudes = Card.objects.filter(type="dude")
    total = dudes.count()
    with django_assert_num_queries(1):
        assert count_up_to(dudes, 5) == 5
    assert count_up_to(dudes, total) == count_up_to(dudes, total + 10) == total
    assert count_up_to(dudes.order_by("-cost"), total + 1) == total
    with django_assert_num_queries(0):  # nothing can match: no query
        assert count_up_to(Card.objects.none(), 5) == 0
        assert count_up_to(Card.objects.filter(card_set__in=[]), 5) == 0


def test_other_lists_keep_plain_exact_counts(api_client, catalogue):
    body = api_client.get("/api/v1/kicker-chips/", {"limit": 5}).json()
    assert "count_exact" not in body
    assert body["count"] > 5 and body["next"]


# --- The card grid page's paginator: the same capped count ---------------------------------


@pytest.fixture
def gear():
    return Card.objects.filter(type="gear").order_by("set_order", "number")


def paginate(cards, number, *, per_page=7, cap=CAP) -> tuple[CappedPaginator, object]:
    paginator = CappedPaginator(cards, per_page)
    paginator.cap = cap
    paginator.bound = cap
    return paginator, paginator.get_page(number)


def test_the_paginator_counts_exactly_up_to_its_cap(catalogue, gear):
    total = gear.count()
    assert CappedPaginator.cap == CardPagination.count_cap == 1000
    paginator, page = paginate(gear, 1, cap=total)
    assert paginator.count == total and paginator.count_exact
    assert paginator.num_pages == -(-total // 7)
    assert [card.code for card in page] == [card.code for card in gear[:7]]


def test_past_the_cap_the_count_is_a_lower_bound_and_the_next_page_exists(catalogue, gear):
    total = gear.count()
    assert total > 3 * CAP
    paginator, page = paginate(gear, 1)
    assert (paginator.count, paginator.count_exact) == (CAP + 1, False)
    assert paginator.num_pages == 2 and page.has_next()  # 11 known matches: 2 pages of 7
    paginator, page = paginate(gear, 3)  # past the cap: counts as far as the page, plus one
    assert (paginator.count, paginator.count_exact) == (3 * 7 + 1, False)
    assert len(page) == 7 and page.has_next() and page.number == 3
    assert [card.code for card in page] == [card.code for card in gear[14:21]]


def test_the_last_pages_count_exactly_and_out_of_range_pages_fall_back(catalogue, gear):
    total, pages = gear.count(), -(-gear.count() // 7)
    paginator, page = paginate(gear, pages)
    assert (paginator.count, paginator.count_exact, page.number) == (total, True, pages)
    assert not page.has_next() and len(page) == total - 7 * (pages - 1)
    for far in (pages + 3, 10**30):
        paginator, page = paginate(gear, far)
        assert (page.number, paginator.count, paginator.count_exact) == (pages, total, True)
    for bad in ("x", None, "2.5"):
        assert paginate(gear, bad)[1].number == 1
    for bad in (0, -4):  # as Django's Paginator: the last page, here the last one known
        paginator, page = paginate(gear, bad)
        assert page.number == paginator.num_pages == 2 and not paginator.count_exact


# --- Filters: skipped only when none of their parameters is given ---------------------------


def test_the_filterset_is_skipped_only_without_its_parameters():
    filters = CardFilterSet
    assert _filters_nothing(filters, ["q", "limit", "offset", "ordering"])
    assert not _filters_nothing(filters, ["q", "cost__lte"])
    assert not _filters_nothing(filters, ["set"])
    assert not _filters_nothing(filters, ["cost_min"])  # a multi-part widget's suffix


def test_required_filters_and_custom_filtering_are_never_skipped():
    import django_filters

    class Required(django_filters.FilterSet):
        name = django_filters.CharFilter(required=True)

        class Meta:
            model = Card
            fields = ["name"]

    class Custom(django_filters.FilterSet):
        class Meta:
            model = Card
            fields = ["type"]

        def filter_queryset(self, queryset):
            return queryset.filter(type="dude")

    assert not _filters_nothing(Required, ["q"])
    assert not _filters_nothing(Custom, ["q"])


def test_filters_still_filter_and_still_reject_bad_values(api_client, catalogue):
    body = page(api_client, type="gear", cost__lte=2, limit=200)
    assert body["count"] == Card.objects.filter(type="gear", cost__lte=2).count() > 0
    assert api_client.get("/api/v1/cards/", {"skill__gte": "lots"}).status_code == 400


# --- Indexes --------------------------------------------------------------------------------


def test_cost_sorts_have_indexes_in_their_exact_order(catalogue):
    """`sort:cost` / `sort:-cost` order by cost, name, code (cards.query): an index in that
    order lets the page stop after `limit` rows instead of sorting a whole cost group."""
    with connection.cursor() as cursor:
        indexes = connection.introspection.get_constraints(cursor, Card._meta.db_table)
    assert {
        name: (index["columns"], index["orders"])
        for name, index in indexes.items()
        if name in ("card_cost_order", "card_cost_desc_order")
    } == {
        "card_cost_order": (["cost", "name", "code"], ["ASC", "ASC", "ASC"]),
        "card_cost_desc_order": (["cost", "name", "code"], ["DESC", "ASC", "ASC"]),
    }
    assert parse_query("sort:-cost").ordering == ("-cost", "name", "code")
    assert parse_query("sort:cost").ordering == ("cost", "name", "code")


# --- PostgreSQL: the trigram indexes keep no pending list; faction has statistics ------------


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only")
def test_search_indexes_are_kept_ready_on_postgresql(catalogue):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, reloptions FROM pg_class WHERE relname IN "
            "('card_name_trgm', 'card_text_trgm') ORDER BY relname"
        )
        assert cursor.fetchall() == [
            ("card_name_trgm", ["fastupdate=off"]),
            ("card_text_trgm", ["fastupdate=off"]),
        ]
        cursor.execute("SELECT 1 FROM pg_statistic_ext WHERE stxname = 'card_faction_upper'")
        assert cursor.fetchone() == (1,)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only")
@pytest.mark.parametrize("query", ["t:dude sort:skill", "t:dude sort:-skill", "f:outlaws sort:-kl"])
def test_stat_sorts_walk_an_index_in_their_exact_order_on_postgresql(catalogue, query):
    """`sort:` on a stat orders NULLs last, then by name and code; an index in that order
    (migration 0007) gives the page without sorting every match."""
    cards = parse_query(query).apply(Card.objects.all())[:20]
    sql, params = cards.values("id").query.sql_with_params()
    with connection.cursor() as cursor:
        # The fixtures are too few for the planner to want the index; with sorting priced out,
        # a plan without a Sort exists only if an index has exactly the query's order.
        cursor.execute("SET enable_sort = off")
        try:
            cursor.execute(f"EXPLAIN {sql}", params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
        finally:
            cursor.execute("RESET enable_sort")
    assert "Index Scan" in plan and "Sort" not in plan, plan
    stat = {"skill": "skill", "kl": "kicker_limit"}[query.rsplit(":", 1)[1].lstrip("-")]
    assert f"card_{stat}_{'desc_order' if ':-' in query else 'order'}" in plan, plan
