"""Collection pages: dashboard bars, the grid's +/- (htmx), import report, wishlist, trade
list, trades, practice boosters; other users' collections are 404."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from cards.models import StarterDeck
from collecting import services as svc
from collecting.models import Collection, CollectionEntry, ProductOpening, WishlistEntry
from config.api import DomainError
from tests.collecting.collection_fixtures import *  # noqa: F403


@pytest.fixture
def site(client, user):
    client.force_login(user)
    return client


def test_pages_need_a_login(client, binder):
    response = client.get(reverse("collecting:collections"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_start_a_collection(site, user):
    response = site.post(reverse("collecting:collections"), {"name": "Binder"})
    collection = Collection.objects.get(owner=user)
    assert response["Location"] == collection.get_absolute_url()
    assert "Binder" in site.get(reverse("collecting:collections")).content.decode()


def test_dashboard_shows_completion_bars(site, binder, common):
    svc.entry_adjust(collection=binder, card=common, delta=3)
    html = site.get(binder.get_absolute_url()).content.decode()
    assert 'class="completion-bar"' in html
    assert 'data-set="HSD" data-owned="1"' in html
    assert "<svg" in html


def test_the_grid_shows_owned_counts_and_plus_minus_works(site, binder, common):
    url = reverse("collecting:collection-cards", args=[binder.pk])
    html = site.get(url, {"q": f"s:HSD {common.name.split()[0]}"}).content.decode()
    assert f'id="counter-{common.code}"' in html
    adjust = reverse("collecting:collection-adjust", args=[binder.pk, common.code])
    response = site.post(adjust, {"delta": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'data-owned="1"' in response.content.decode()
    site.post(adjust, {"delta": "1"}, HTTP_HX_REQUEST="true")
    response = site.post(adjust, {"delta": "-1"}, HTTP_HX_REQUEST="true")
    assert 'data-owned="1"' in response.content.decode()
    assert CollectionEntry.objects.get().quantity == 1


def test_a_bad_search_says_where(site, binder):
    url = reverse("collecting:collection-cards", args=[binder.pk])
    assert "Search problem" in site.get(url, {"q": "cost<<"}).content.decode()


def test_the_import_page_names_the_bad_row(site, binder, common):
    url = reverse("collecting:collection-import", args=[binder.pk])
    bad = SimpleUploadedFile("c.csv", f"code,qty\n{common.code},1\nHSD-999,2\n".encode())
    response = site.post(url, {"file": bad, "mode": "add"})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-line="3"' in html and "No card HSD-999" in html
    assert CollectionEntry.objects.count() == 0
    good = SimpleUploadedFile("c.csv", f"code,qty\n{common.code},1\n".encode())
    assert site.post(url, {"file": good, "mode": "add"}).status_code == 302
    assert CollectionEntry.objects.get().quantity == 1


def test_export_download(site, binder, common):
    svc.entry_adjust(collection=binder, card=common, delta=1)
    response = site.get(reverse("collecting:collection-export", args=[binder.pk]))
    assert response.status_code == 200
    assert b"".join(response.streaming_content).startswith(b"set_code,collector_number")


def test_open_a_starter_and_a_booster(site, binder):
    url = reverse("collecting:collection-open", args=[binder.pk])
    starter = StarterDeck.objects.order_by("code").first()
    assert site.post(url, {"starter": starter.code}).status_code == 302
    assert site.post(url, {"set": "HSD", "contents": "HSD-001\nHSD-002 2"}).status_code == 200
    assert ProductOpening.objects.count() == 1


def test_missing_page(site, binder):
    html = site.get(reverse("collecting:collection-missing", args=[binder.pk]), {"set": "HSD"})
    assert 'id="missing-count"' in html.content.decode()


def test_wishlist_page_says_when_you_already_own_it(site, binder, common):
    svc.entry_adjust(collection=binder, card=common, delta=2)
    response = site.post(reverse("collecting:wishlist"), {"code": common.code, "quantity": "1"})
    html = site.get(response["Location"]).content.decode()
    assert "already own 2" in html
    assert not WishlistEntry.objects.exists()
    site.post(reverse("collecting:wishlist"), {"code": common.code, "quantity": "3"})
    assert WishlistEntry.objects.get().quantity == 3


def test_trade_list_page_and_keep_adjustment(site, binder, common):
    svc.entry_adjust(collection=binder, card=common, delta=5)
    url = reverse("collecting:collection-tradelist", args=[binder.pk])
    assert 'class="tradeable">2<' in site.get(url).content.decode()
    site.post(url, {"card": common.code, "keep": "1"})
    assert 'class="tradeable">4<' in site.get(url).content.decode()


def test_another_users_pages_are_404(site, other_user, common):
    theirs = Collection.objects.create(owner=other_user, name="Theirs")
    for name in (
        "collection-detail",
        "collection-cards",
        "collection-missing",
        "collection-import",
        "collection-export",
        "collection-open",
        "collection-tradelist",
    ):
        assert site.get(reverse(f"collecting:{name}", args=[theirs.pk])).status_code == 404, name
    adjust = reverse("collecting:collection-adjust", args=[theirs.pk, common.code])
    assert site.post(adjust, {"delta": "1"}).status_code == 404
    assert CollectionEntry.objects.count() == 0


def test_a_public_trade_list_page_is_read_only(client, other_user, common):
    theirs = Collection.objects.create(owner=other_user, name="Box", trade_list_public=True)
    svc.entry_adjust(collection=theirs, card=common, delta=4)
    url = reverse("collecting:collection-tradelist", args=[theirs.pk])
    html = client.get(url).content.decode()
    assert common.code in html and 'name="keep"' not in html
    assert client.post(url, {"card": common.code, "keep": "0"}).status_code == 404


def test_trades_page(site, user, other_user, binder, common):
    box = Collection.objects.create(owner=other_user, name="Box", trade_list_public=True)
    svc.entry_adjust(collection=box, card=common, delta=5)
    svc.wishlist_add(owner=user, card=common, quantity=2)
    html = site.get(reverse("collecting:trades"), {"user": other_user.username}).content.decode()
    assert common.name in html


def test_practice_booster_page(client, catalogue):
    html = client.get(reverse("collecting:practice-booster"), {"set": "HSD", "seed": "7"})
    assert html.content.decode().count("<figure") == 9


def test_a_keep_that_is_not_a_number_changes_nothing(site, binder, common):
    from collecting.models import TradeKeep

    svc.trade_keep_set(collection=binder, card=common, keep=2)
    url = reverse("collecting:collection-tradelist", args=[binder.pk])
    site.post(url, {"card": common.code, "keep": "lots"})
    assert TradeKeep.objects.get().keep == 2


TWO_PROBLEMS = DomainError(
    problems=[
        {"code": "unknown_card", "detail": "No card is called HSD-999.", "attr": "contents"},
        {"code": "too_many", "detail": "A booster holds 9 cards, not 12.", "attr": "contents"},
    ]
)


def test_a_refused_opening_shows_every_problem_not_only_the_first(site, binder, monkeypatch):
    def refuse(**kwargs):
        raise TWO_PROBLEMS

    monkeypatch.setattr(svc, "opening_record", refuse)
    url = reverse("collecting:collection-open", args=[binder.pk])
    html = site.post(url, {"set": "HSD", "contents": "HSD-999 12"}).content.decode()
    assert "No card is called HSD-999." in html
    assert "A booster holds 9 cards, not 12." in html


def test_a_refused_click_shows_every_problem_beside_the_counter(site, binder, common, monkeypatch):
    def refuse(**kwargs):
        raise TWO_PROBLEMS

    monkeypatch.setattr(svc, "entry_adjust", refuse)
    adjust = reverse("collecting:collection-adjust", args=[binder.pk, common.code])
    html = site.post(adjust, {"delta": "1"}, HTTP_HX_REQUEST="true").content.decode()
    assert html.count('class="error"') == 2
    assert "No card is called HSD-999." in html and "A booster holds 9 cards, not 12." in html
