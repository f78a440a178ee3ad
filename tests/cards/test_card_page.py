"""The card page: the cards before and after it in its set, and for a signed-in player the
decks and collections panels the apps above the catalogue hand in (cards/panels.py)."""

from __future__ import annotations

import pytest

from cards import panels
from collecting.models import Collection, CollectionEntry
from decks.models import DeckCard, DeckVersion
from decks.services import deck_update
from tests.factories import DeckFactory

pytestmark = pytest.mark.django_db

HENRY = "HSD-012"  # Henry Meek, a common Townsfolk dude


@pytest.fixture
def player(client, user):
    client.force_login(user)
    return client


def test_card_page_links_the_cards_before_and_after_it_in_its_set(client, catalogue):
    html = client.get(f"/cards/{HENRY}/").content.decode()
    assert 'rel="prev" href="/cards/HSD-011/"' in html
    assert 'rel="next" href="/cards/HSD-013/"' in html
    first = client.get("/cards/HSD-001/").content.decode()
    assert 'rel="prev"' not in first and 'rel="next" href="/cards/HSD-002/"' in first


def test_the_card_image_is_named_by_its_alt_text(client, catalogue):
    html = client.get(f"/cards/{HENRY}/").content.decode()
    assert 'alt="Henry Meek"' in html


def test_a_visitor_is_asked_to_log_in_and_sees_no_panels(client, catalogue):
    html = client.get(f"/cards/{HENRY}/").content.decode()
    assert "to add Henry Meek to your decks and collections" in html
    assert "In my decks" not in html and "In my collections" not in html


def test_both_apps_hand_the_card_page_a_panel():
    from collecting import card_page as collecting_page
    from decks import card_page as decks_page

    assert panels._panels == {"collections": collecting_page.panel, "decks": decks_page.panel}


def test_my_decks_that_use_the_card_are_listed_with_their_copies(
    player, user, other_user, catalogue
):
    mine = DeckFactory(owner=user, name="Townsfolk Rush")
    deck_update(deck=mine, cards={HENRY: 2})
    DeckFactory(owner=user, name="Empty Saddle")
    theirs = DeckFactory(owner=other_user, name="Not Yours")
    deck_update(deck=theirs, cards={HENRY: 3})
    html = player.get(f"/cards/{HENRY}/").content.decode()
    used = html.split('id="decks-panel"')[1].split("<form")[0]
    assert "Townsfolk Rush" in used and "2 copies" in used
    assert "Empty Saddle" not in used
    assert "Not Yours" not in html


def test_add_to_a_deck_adds_one_copy_through_the_decks_service(player, user, catalogue):
    deck = DeckFactory(owner=user, name="Townsfolk Rush")
    response = player.post(f"/decks/add-card/{HENRY}/", {"deck": deck.pk}, follow=True)
    assert response.redirect_chain == [(f"/cards/{HENRY}/", 302)]
    assert "Added Henry Meek to Townsfolk Rush: 1 copy now." in response.content.decode()
    assert DeckCard.objects.get(deck=deck, card__code=HENRY).qty == 1
    # The decks' service wrote it as the builder's clicks do: a change waiting for "Save
    # version", not a version of its own.
    deck.refresh_from_db()
    assert deck.unsaved_changes
    assert not DeckVersion.objects.filter(deck=deck, snapshot__cards={HENRY: 1}).exists()


def test_add_to_a_deck_stops_at_the_formats_copy_limit(player, user, catalogue):
    deck = DeckFactory(owner=user, name="Townsfolk Rush")
    deck_update(deck=deck, cards={HENRY: 3})  # a common: 3 in standard
    response = player.post(f"/decks/add-card/{HENRY}/", {"deck": deck.pk}, follow=True)
    html = response.content.decode()
    assert "Townsfolk Rush already has 3 Henry Meek: Standard allows at most 3." in html
    assert DeckCard.objects.get(deck=deck, card__code=HENRY).qty == 3


def test_another_players_deck_is_a_404_and_unchanged(player, other_user, catalogue):
    theirs = DeckFactory(owner=other_user)
    response = player.post(f"/decks/add-card/{HENRY}/", {"deck": theirs.pk})
    assert response.status_code == 404
    assert not DeckCard.objects.filter(deck=theirs).exists()


def test_add_to_a_deck_without_a_deck_says_so(player, catalogue):
    response = player.post(f"/decks/add-card/{HENRY}/", {"deck": "nope"}, follow=True)
    assert "Choose one of your decks." in response.content.decode()


def test_a_visitor_cannot_add_to_a_deck(client, catalogue):
    response = client.post(f"/decks/add-card/{HENRY}/", {"deck": 1})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_add_to_a_collection_adds_one_near_mint_copy(player, user, catalogue):
    binder = Collection.objects.create(owner=user, name="Binder")
    player.post(f"/collections/add-card/{HENRY}/", {"collection": binder.pk})
    response = player.post(
        f"/collections/add-card/{HENRY}/", {"collection": binder.pk}, follow=True
    )
    html = response.content.decode()
    assert "Added Henry Meek to Binder: 2 copies now." in html
    entry = CollectionEntry.objects.get(collection=binder, card__code=HENRY)
    assert (entry.quantity, entry.condition) == (2, "near_mint")
    panel = html.split('id="collections-panel"')[1].split("<form")[0]
    assert "Binder" in panel and "2 copies" in panel


def test_another_players_collection_is_a_404_and_unchanged(player, other_user, catalogue):
    theirs = Collection.objects.create(owner=other_user, name="Theirs")
    response = player.post(f"/collections/add-card/{HENRY}/", {"collection": theirs.pk})
    assert response.status_code == 404
    assert not CollectionEntry.objects.filter(collection=theirs).exists()


def test_without_decks_or_collections_the_panels_say_how_to_start(player, catalogue):
    html = player.get(f"/cards/{HENRY}/").content.decode()
    assert "Start a deck" in html and "Start a collection" in html


def test_the_card_back_is_served_as_a_png(client, catalogue, settings, tmp_path):
    settings.CARD_IMAGE_CACHE = tmp_path
    response = client.get("/cards/back/thumb.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert client.get("/cards/back/huge.png").status_code == 404
