"""Deck pages: list, builder edits via htmx, the deck page with charts, sealed and draft."""

from __future__ import annotations

import pytest
from django.test import Client

from decks import services
from decks.models import Deck, DraftPod, Pool
from tests.factories import DeckFactory

pytestmark = pytest.mark.django_db


def test_my_decks_lists_only_mine(web, user, other_user):
    DeckFactory(owner=user, name="Mine")
    DeckFactory(owner=other_user, name="Theirs")
    body = web.get("/decks/").content.decode()
    assert "Mine" in body and "Theirs" not in body


def test_pages_need_a_login():
    assert Client().get("/decks/").status_code == 302


def test_new_deck_then_builder_edits_update_validation_live(web, user, legal):
    r = web.post("/decks/new/", {"name": "Live", "format": "standard"})
    deck = Deck.objects.get(owner=user)
    assert r.url == f"/decks/{deck.pk}/build/"
    page = web.get(r.url).content.decode()
    assert 'id="deck-panel"' in page and "Not legal yet" in page
    hx = {"HTTP_HX_REQUEST": "true"}
    for code, qty in legal["cards"].items():
        for _ in range(qty):
            web.post(f"/decks/{deck.pk}/build/edit/", {"card": code, "delta": 1}, **hx)
    chip = next(iter(legal["kicker_chips"]))
    web.post(f"/decks/{deck.pk}/build/edit/", {"kicker_chip": chip, "delta": 1}, **hx)
    panel = web.post(f"/decks/{deck.pk}/build/edit/", {"kicker_chip": chip, "delta": 1}, **hx)
    assert 'data-legal="true"' in panel.content.decode()
    panel = web.post(f"/decks/{deck.pk}/build/edit/", {"variant": ["on_your_lonesome"]}, **hx)
    assert 'data-legal="false"' in panel.content.decode()
    assert Deck.objects.get(pk=deck.pk).format == "on_your_lonesome"


def test_builder_search_uses_the_search_syntax(web, user):
    deck = DeckFactory(owner=user)
    body = web.get(f"/decks/{deck.pk}/build/search/?q=t:dude+r:rare").content.decode()
    assert "add-card" in body and "gear" not in body.split("card-results")[1].split("</table>")[
        0
    ].replace("gear</", "")
    bad = web.get(f"/decks/{deck.pk}/build/search/?q=(").content.decode()
    assert "Search problem" in bad


def test_deck_page_has_svg_charts_exports_and_versions(web, user, legal):
    deck = services.deck_create(
        owner=user, name="Charts", cards=legal["cards"], kicker_chips=legal["kicker_chips"]
    )
    services.deck_update(deck=deck, name="Charts 2")
    body = web.get(f"/decks/{deck.pk}/").content.decode()
    assert body.count("<svg") >= 4 and "Cost curve" in body and 'data-legal="true"' in body
    assert f"/decks/{deck.pk}/export/pdf/" in body
    diff = web.get(f"/decks/{deck.pk}/?from=1&to=2").content.decode()
    assert "Charts → Charts 2" in diff
    text = web.get(f"/decks/{deck.pk}/export/text/")
    assert text["Content-Disposition"].endswith('.txt"') and b"Kicker chips:" in text.content


def test_other_peoples_deck_pages_are_404_but_public_links_work(web, other_user):
    deck = DeckFactory(owner=other_user, is_public=False)
    assert web.get(f"/decks/{deck.pk}/").status_code == 404
    assert Client().get(f"/decks/s/{deck.slug}/").status_code == 404
    deck.is_public = True
    deck.save()
    assert Client().get(f"/decks/s/{deck.slug}/").status_code == 200


def test_sealed_page_opens_a_pool_and_builds_a_deck(web, user, catalogue):
    r = web.post("/decks/sealed/", {"set": "HSD", "seed": "5"})
    pool = Pool.objects.get(owner=user)
    assert r.url == f"/decks/pools/{pool.pk}/"
    assert web.get(r.url).content.decode().count("<figure") == 54
    r = web.post(r.url, {"auto": "1"})
    deck = pool.decks.get()
    assert r.url == f"/decks/{deck.pk}/build/"


def test_draft_table_lets_a_person_pick_against_bots(web, user, catalogue):
    web.post("/decks/drafts/", {"set": "HSD", "seats": "2"})
    pod = DraftPod.objects.get(owner=user)
    hx = {"HTTP_HX_REQUEST": "true"}
    table = web.post(f"/decks/drafts/{pod.pk}/", {"action": "start"}, **hx).content.decode()
    assert "Your pack: pick one" in table and "passing left" in table
    code = table.split('data-code="')[1].split('"')[0]
    table = web.post(
        f"/decks/drafts/{pod.pk}/", {"action": "pick", "card": code}, **hx
    ).content.decode()
    assert "Your picks (1)" in table


def test_a_stud_deck_builder_searches_only_its_pool(web, user, catalogue):
    pool = services.pool_open_stud(owner=user, set_codes="HSD", seed=11)
    deck = services.deck_from_pool(owner=user, pool=pool, auto=False)
    body = web.get(f"/decks/{deck.pk}/build/search/?q=").content.decode()
    shown = set(
        body.split('data-code="')[i].split('"')[0] for i in range(1, body.count('data-code="') + 1)
    )
    assert shown and shown <= set(pool.cards)
