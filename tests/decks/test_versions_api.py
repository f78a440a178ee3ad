"""Versions through the API: every API save is a version; the builder's clicks wait, shown by
`unsaved_changes`, until `POST versions/` saves them with an optional note."""

from __future__ import annotations

import pytest

from cards.models import Card
from decks import services
from decks.models import DeckVersion

pytestmark = pytest.mark.django_db


@pytest.fixture
def clicked(user, catalogue):
    """A deck with a builder click not yet saved as a version."""
    deck = services.deck_create(owner=user, name="Clicked")
    card = Card.objects.filter(rarity="common").order_by("card_set__order", "number").first()
    services.deck_set_quantity(deck=deck, card=card.code, qty=2)
    return deck


def test_a_click_is_unsaved_until_a_version_is_saved_with_a_note(user_client, clicked):
    url = f"/api/v1/decks/{clicked.pk}/"
    assert user_client.get(url).json()["unsaved_changes"] is True
    r = user_client.post(url + "versions/", {"note": "Two copies"}, format="json")
    assert r.status_code == 201
    assert r.json()["number"] == 2 and r.json()["note"] == "Two copies"
    assert r.json()["snapshot"]["cards"] == {clicked.entries.get().card.code: 2}
    body = user_client.get(url).json()
    assert body["unsaved_changes"] is False and body["version"] == 2
    listed = user_client.get(url + "versions/").json()["results"]
    assert [(v["number"], v["note"]) for v in listed] == [(2, "Two copies"), (1, "")]


def test_nothing_to_save_is_a_400_and_writes_nothing(user_client, user, catalogue):
    deck = services.deck_create(owner=user, name="Still")
    r = user_client.post(f"/api/v1/decks/{deck.pk}/versions/", {}, format="json")
    assert r.status_code == 400 and r.json()["errors"][0]["code"] == "nothing_to_save"
    assert DeckVersion.objects.filter(deck=deck).count() == 1


@pytest.mark.parametrize(
    "body", [{"note": "x" * 201}, {"note": 5}, {"note": None}], ids=["long", "number", "null"]
)
def test_a_bad_note_is_a_400_in_the_error_shape(user_client, clicked, body):
    r = user_client.post(f"/api/v1/decks/{clicked.pk}/versions/", body, format="json")
    assert r.status_code == 400
    assert {e["attr"] for e in r.json()["errors"]} == {"note"}
    assert DeckVersion.objects.filter(deck=clicked).count() == 1


def test_another_persons_deck_cannot_be_saved(api_client, other_user, clicked):
    api_client.force_authenticate(other_user)
    r = api_client.post(f"/api/v1/decks/{clicked.pk}/versions/", {"note": "mine"}, format="json")
    assert r.status_code == 404
    assert DeckVersion.objects.filter(deck=clicked).count() == 1


def test_an_api_save_is_a_version_and_takes_the_clicks_with_it(user_client, clicked):
    r = user_client.patch(f"/api/v1/decks/{clicked.pk}/", {"name": "Renamed"}, format="json")
    assert r.json()["version"] == 2 and r.json()["unsaved_changes"] is False
    snapshot = DeckVersion.objects.get(deck=clicked, number=2).snapshot
    assert snapshot["name"] == "Renamed" and sum(snapshot["cards"].values()) == 2
