"""Catalogue pages: grid with live search, card page, set page, served images."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cards.models import Card
from cards.paging import CappedPaginator
from cards.views import PAGE_SIZE

pytestmark = pytest.mark.django_db


def test_grid_lists_cards_with_thumbnails(client, catalogue):
    response = client.get("/cards/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'hx-get="/cards/"' in html  # the live search box
    assert "/cards/HSD-001/thumb.png" in html


def test_htmx_search_returns_only_the_results_fragment(client, catalogue):
    response = client.get("/cards/", {"q": '"Henry Meek"'}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "<html" not in html
    assert 'data-code="HSD-012"' in html
    assert "1 card" in html


def result_count(html: str) -> str:
    return re.search(r'id="result-count">([^<]*)<', html).group(1)


def test_grid_counts_exactly_up_to_1000_cards(client, catalogue):
    total = Card.objects.count()
    assert total < 1000
    html = client.get("/cards/").content.decode()
    assert result_count(html) == f"{total} cards"
    assert f"page 1 of {-(-total // PAGE_SIZE)}\n" in html


def test_grid_past_the_cap_shows_a_lower_bound_and_pages_on(client, catalogue, monkeypatch):
    monkeypatch.setattr(CappedPaginator, "cap", 100)
    total, pages = Card.objects.count(), -(-Card.objects.count() // PAGE_SIZE)
    assert total > 2 * PAGE_SIZE + 1 and pages > 2
    with CaptureQueriesContext(connection) as queries:
        html = client.get("/cards/").content.decode()
    assert result_count(html) == "100+ cards"
    assert "page 1 of 2+" in html and "page=2" in html  # 101 cards known: two pages of 60
    assert "LIMIT 101" in next(q["sql"] for q in queries if "COUNT(*)" in q["sql"])
    html = client.get("/cards/", {"page": 2}).content.decode()  # counts to the page's end
    assert result_count(html) == "100+ cards" and "page 2 of 3+" in html and "page=3" in html
    html = client.get("/cards/", {"page": pages}).content.decode()
    assert result_count(html) == f"{total} cards" and f"page {pages} of {pages}\n" in html
    html = client.get("/cards/", {"q": '"Henry Meek"'}).content.decode()
    assert result_count(html) == "1 card"


def test_grid_shows_a_search_problem_with_its_position(client, catalogue):
    response = client.get("/cards/", {"q": "cost<=abc"})
    assert response.status_code == 200
    assert b"Search problem at character" in response.content


def test_card_page_shows_the_card_and_its_image(client, catalogue):
    html = client.get("/cards/HSD-012/").content.decode()
    assert "Henry Meek" in html and "/cards/HSD-012/full.png" in html


def test_unknown_card_page_is_404(client, catalogue):
    assert client.get("/cards/HSD-999/").status_code == 404


def test_set_page_lists_the_set_in_collector_order(client, catalogue):
    response = client.get("/sets/HSD/")
    html = response.content.decode()
    names = list(Card.objects.filter(card_set__code="HSD").order_by("number")[:3])
    positions = [html.index(c.get_absolute_url()) for c in names]
    assert positions == sorted(positions)
    assert "Kicker chips" in html


def test_card_image_is_a_png_with_etag_and_revalidates(client, catalogue, settings, tmp_path):
    settings.CARD_IMAGE_CACHE = tmp_path
    response = client.get("/cards/HSD-012/thumb.png")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response.content[:8] == b"\x89PNG\r\n\x1a\n"
    again = client.get("/cards/HSD-012/thumb.png", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_chip_images_have_two_sides(client, catalogue, settings, tmp_path):
    settings.CARD_IMAGE_CACHE = tmp_path
    from cards.models import KickerChip

    chip = KickerChip.objects.first()
    side0 = client.get(f"/kicker-chips/{chip.code}/0.png")
    side1 = client.get(f"/kicker-chips/{chip.code}/1.png")
    assert side0.status_code == side1.status_code == 200
    assert side0.content != side1.content
    assert client.get(f"/kicker-chips/{chip.code}/2.png").status_code == 404
