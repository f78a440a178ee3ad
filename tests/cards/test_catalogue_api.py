"""The read-only catalogue API: cards, sets, kicker chips; search, filters, paging, errors."""

from __future__ import annotations

import pytest

from cards.models import Card, KickerChip
from cards.services import catalogue_load

pytestmark = pytest.mark.django_db


def errors(response) -> list[dict]:
    body = response.json()
    assert set(body) == {"errors"}, body
    for error in body["errors"]:
        assert {"code", "detail", "attr"} <= set(error)
    return body["errors"]


def test_card_list_is_paged_with_a_default_limit(api_client, catalogue):
    response = api_client.get("/api/v1/cards/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == Card.objects.count() >= 150
    assert len(body["results"]) == 50
    assert body["results"][0]["code"] == "DMH-001" or body["results"][0]["set"] == "HSD"


def test_card_detail_by_code_has_stats_ability_and_images(api_client, catalogue):
    body = api_client.get("/api/v1/cards/HSD-012/").json()
    assert body["name"] == "Henry Meek"
    assert body["type"] == "dude" and body["cost"] == 6
    assert {"smarts", "skill", "luck", "kicker_limit", "abilities", "text"} <= set(body)
    assert body["image_url"].endswith("/cards/HSD-012/full.png")
    assert body["thumb_url"].endswith("/cards/HSD-012/thumb.png")


def test_search_syntax_filters_the_list(api_client, catalogue):
    body = api_client.get("/api/v1/cards/", {"q": "t:dude skill>=8", "limit": 200}).json()
    expected = Card.objects.filter(type="dude", skill__gte=8).count()
    assert body["count"] == expected > 0
    assert all(c["type"] == "dude" and c["skill"] >= 8 for c in body["results"])


def test_search_sort_orders_results(api_client, catalogue):
    body = api_client.get("/api/v1/cards/", {"q": "t:dude sort:-cost", "limit": 200}).json()
    costs = [c["cost"] for c in body["results"]]
    assert costs == sorted(costs, reverse=True)


def test_filters_and_ordering_parameters(api_client, catalogue):
    body = api_client.get(
        "/api/v1/cards/", {"rarity": "rare", "set": "hsd", "ordering": "-cost", "limit": 200}
    ).json()
    assert body["count"] == Card.objects.filter(rarity="rare", card_set__code="HSD").count()
    costs = [c["cost"] for c in body["results"]]
    assert costs == sorted(costs, reverse=True)


def test_malformed_query_is_a_400_with_the_position(api_client, catalogue):
    response = api_client.get("/api/v1/cards/", {"q": "t:dude (skill>5"})
    assert response.status_code == 400
    [error] = errors(response)
    assert error["code"] == "invalid_query" and error["attr"] == "q"
    assert isinstance(error["position"], int)


def test_non_numeric_stat_bound_is_a_400_not_a_500(api_client, catalogue):
    in_query = api_client.get("/api/v1/cards/", {"q": "cost<=abc"})
    assert in_query.status_code == 400
    assert errors(in_query)[0]["code"] == "invalid_query"
    in_filter = api_client.get("/api/v1/cards/", {"cost__lte": "abc"})
    assert in_filter.status_code == 400
    assert errors(in_filter)[0]["attr"] == "cost__lte"


def test_unknown_card_code_is_a_404_in_the_error_shape(api_client, catalogue):
    response = api_client.get("/api/v1/cards/HSD-999/")
    assert response.status_code == 404
    assert errors(response)[0]["code"] == "not_found"


@pytest.mark.parametrize("limit", ["100000", "0", "-5", "many"])
def test_bad_page_size_is_a_400(api_client, catalogue, limit):
    response = api_client.get("/api/v1/cards/", {"limit": limit})
    assert response.status_code == 400
    assert errors(response)[0]["attr"] == "limit"


def test_largest_allowed_page_size_is_served(api_client, catalogue):
    response = api_client.get("/api/v1/cards/", {"limit": 200})
    assert response.status_code == 200
    assert len(response.json()["results"]) == min(200, Card.objects.count())


def test_catalogue_is_read_only_for_everyone(api_client, user_client, catalogue):
    before = Card.objects.count()
    assert api_client.post("/api/v1/cards/", {"name": "x"}).status_code in (401, 403)
    assert user_client.post("/api/v1/cards/", {"name": "x"}).status_code == 405
    assert user_client.delete("/api/v1/cards/HSD-012/").status_code == 405
    assert Card.objects.count() == before


def test_sets_carry_their_booster_layout_and_starters(api_client, catalogue):
    sets = api_client.get("/api/v1/sets/").json()
    by_code = {s["code"]: s for s in sets}
    assert {"HSD", "DMH"} <= set(by_code)
    hsd = by_code["HSD"]
    assert hsd["booster_layout"]["cards"] == 9
    assert hsd["booster_layout"]["kicker_chips"] == 1
    assert hsd["card_count"] == Card.objects.filter(card_set__code="HSD").count()
    assert all(sum(e["qty"] for e in st["cards"]) == 54 for st in hsd["starters"])


def test_kicker_chips_list_both_sides(api_client, catalogue):
    body = api_client.get("/api/v1/kicker-chips/", {"limit": 200}).json()
    assert body["count"] == KickerChip.objects.count() >= 24
    chip = body["results"][0]
    assert len(chip["sides"]) == 2 and len(chip["image_urls"]) == 2
    assert chip["value"] == {"white": 1, "red": 5, "blue": 10, "green": 25}[chip["color"]]


def test_catalogue_answers_are_cached_until_the_catalogue_is_reloaded(
    api_client, catalogue, django_capture_on_commit_callbacks
):
    first = api_client.get("/api/v1/cards/HSD-012/").json()
    Card.objects.filter(code="HSD-012").update(name="Cached Meek")
    assert api_client.get("/api/v1/cards/HSD-012/").json()["name"] == first["name"]
    with django_capture_on_commit_callbacks(execute=True):
        catalogue_load()  # restores the name and clears the cache
    Card.objects.filter(code="HSD-012").update(name="Fresh Meek")
    assert api_client.get("/api/v1/cards/HSD-012/").json()["name"] == "Fresh Meek"


def test_a_cached_answer_is_never_served_to_a_bad_token(api_client, catalogue):
    assert api_client.get("/api/v1/cards/").status_code == 200
    api_client.credentials(HTTP_AUTHORIZATION="Token nope")
    assert api_client.get("/api/v1/cards/").status_code == 401
