"""Public decks: only decks their owners made public and listed are listed; found by card,
format and faction; a public deck's page is open to everyone; copying makes a private copy."""

from __future__ import annotations

import pytest
from django.test import Client

from cards.models import Card
from decks import selectors, services
from decks.models import Deck

pytestmark = pytest.mark.django_db


def _deck(owner, name: str, codes: list[str], *, fmt="standard", public=True, listed=True):
    return services.deck_create(
        owner=owner,
        name=name,
        fmt=fmt,
        cards={code: 1 for code in codes},
        is_public=public,
        listed=listed,
    )


@pytest.fixture
def decks(user, catalogue):
    law = list(Card.objects.filter(faction="Law Dogs").order_by("number")[:3])
    outlaws = list(Card.objects.filter(faction="Outlaws").order_by("number")[:3])
    return {
        "law": _deck(user, "Tin Stars", [c.code for c in law]),
        "outlaws": _deck(user, "Gang", [c.code for c in outlaws], fmt="stud+tres_amigos"),
        "by_link": _deck(user, "Link only", [law[0].code], listed=False),
        "private": _deck(user, "Mine alone", [law[0].code], public=False, listed=True),
        "law_cards": law,
        "outlaw_cards": outlaws,
    }


def _listed(query: str = "") -> list[str]:
    body = Client().get(f"/decks/public/{query}").content.decode()
    return [
        chunk.split('"')[0] for chunk in body.split('data-slug="')[1:]
    ]  # the slugs listed, in order


def test_only_public_and_listed_decks_are_listed_and_a_visitor_may_see_them(decks):
    assert sorted(_listed()) == sorted([decks["law"].slug, decks["outlaws"].slug])


def test_a_deck_public_only_by_link_is_still_read_by_its_link_but_not_listed(decks):
    assert Client().get(f"/decks/s/{decks['by_link'].slug}/").status_code == 200
    assert decks["by_link"].slug not in _listed()
    assert Client().get(f"/decks/s/{decks['private'].slug}/").status_code == 404


def test_search_by_card_name_or_code(decks):
    card = decks["law_cards"][1]
    assert _listed(f"?card={card.name[:5].lower()}") == [decks["law"].slug]
    assert _listed(f"?card={card.code}") == [decks["law"].slug]
    assert _listed("?card=no+such+card+anywhere") == []


def test_search_by_format_matches_a_variant_within_a_joined_format(decks):
    assert "+" in decks["outlaws"].format
    assert _listed("?format=stud") == [decks["outlaws"].slug]
    assert _listed("?format=tres_amigos") == [decks["outlaws"].slug]
    assert _listed("?format=deuces_wild") == []
    assert _listed("?format=standard") == [decks["law"].slug]


def test_search_by_faction_and_an_unknown_faction_or_format_is_ignored(decks):
    assert _listed("?faction=Outlaws") == [decks["outlaws"].slug]
    assert sorted(_listed("?faction=Space+Pirates&format=chess")) == sorted(
        [decks["law"].slug, decks["outlaws"].slug]
    )


def test_the_list_is_paged_twenty_at_a_time(user, catalogue):
    code = Card.objects.order_by("number").first().code
    for i in range(23):
        _deck(user, f"Deck {i:02}", [code])
    first, second = _listed(), _listed("?page=2")
    assert len(first) == 20 and len(second) == 3 and not set(first) & set(second)
    assert _listed("?page=99") == second  # past the end: the last page, not an error


def test_the_public_page_shows_pictures_legality_and_charts(decks):
    law = decks["law"]
    body = Client().get(f"/decks/s/{law.slug}/").content.decode()
    for card in decks["law_cards"]:
        assert f'alt="{card.name}"' in body
    assert 'data-legal="false"' in body and "Not legal in Standard" in body
    assert "Cost curve" in body
    assert 'id="copy-deck"' not in body  # a visitor is asked to log in instead


def test_copy_makes_a_private_copy_for_the_signed_in_and_changes_nothing_else(decks, other_user):
    web = Client()
    web.force_login(other_user)
    law = decks["law"]
    response = web.post(f"/decks/s/{law.slug}/copy/")
    copy = Deck.objects.get(owner=other_user)
    assert response.status_code == 302 and response["Location"] == f"/decks/{copy.pk}/"
    assert copy.name == "Tin Stars (copy)" and not copy.is_public and not copy.listed
    assert selectors.deck_contents(copy) == selectors.deck_contents(law)
    assert Deck.objects.filter(owner=law.owner).count() == 4


def test_a_private_deck_cannot_be_copied_by_anyone_else(decks, other_user):
    web = Client()
    web.force_login(other_user)
    assert web.post(f"/decks/s/{decks['private'].slug}/copy/").status_code == 404
    assert web.get(f"/decks/s/{decks['law'].slug}/copy/").status_code == 405
    assert not Deck.objects.filter(owner=other_user).exists()


def test_the_owner_lists_a_deck_from_its_settings(user, catalogue):
    deck = _deck(user, "Quiet", [], public=False, listed=False)
    web = Client()
    web.force_login(user)
    web.post(f"/decks/{deck.pk}/settings/", {"name": "Quiet", "is_public": "on", "listed": "on"})
    deck.refresh_from_db()
    assert deck.is_public and deck.listed and deck.version == 1  # sharing is not a new version
    assert deck.slug in _listed()


def test_the_api_lists_public_decks_to_anyone_with_the_same_search(decks, api_client):
    body = api_client.get("/api/v1/decks/public/").json()
    assert body["count"] == 2
    assert {d["slug"] for d in body["results"]} == {decks["law"].slug, decks["outlaws"].slug}
    law = next(d for d in body["results"] if d["slug"] == decks["law"].slug)
    assert law["owner"] == decks["law"].owner.username and law["factions"] == ["Law Dogs"]
    assert law["share_url"].endswith(f"/api/v1/decks/shared/{decks['law'].slug}/")
    assert "id" not in law and "pool" not in law  # nothing private
    found = api_client.get("/api/v1/decks/public/", {"fmt": "tres_amigos"}).json()["results"]
    assert [d["slug"] for d in found] == [decks["outlaws"].slug]
    card = decks["law_cards"][0]
    found = api_client.get("/api/v1/decks/public/", {"card": card.code}).json()["results"]
    assert [d["slug"] for d in found] == [decks["law"].slug]
    blank = api_client.get("/api/v1/decks/public/", {"fmt": "", "faction": "", "card": ""})
    assert blank.json()["count"] == 2  # an empty field is "any", as on the page


@pytest.mark.parametrize(
    ("query", "attr"), [({"fmt": "chess"}, "fmt"), ({"faction": "Space Pirates"}, "faction")]
)
def test_the_api_refuses_an_unknown_format_or_faction(decks, api_client, query, attr):
    response = api_client.get("/api/v1/decks/public/", query)
    assert response.status_code == 400
    assert [e["attr"] for e in response.json()["errors"]] == [attr]


def test_the_list_reads_a_page_in_the_same_few_queries_however_many_decks(
    user, catalogue, django_assert_max_num_queries
):
    codes = list(Card.objects.order_by("number").values_list("code", flat=True)[:6])
    for i in range(20):
        _deck(user, f"Deck {i:02}", codes)
    with django_assert_max_num_queries(8):  # session-free visitor: count, page, factions, ...
        assert len(_listed()) == 20


def test_the_owners_deck_page_shows_the_full_link_with_a_copy_button_while_public(user, decks):
    web = Client()
    web.force_login(user)
    body = web.get(f"/decks/{decks['law'].pk}/").content.decode()
    link = f"http://testserver/decks/s/{decks['law'].slug}/"
    assert f'href="{link}"' in body and f'data-copy="{link}"' in body
    assert 'name="listed" checked' in body
    private = web.get(f"/decks/{decks['private'].pk}/").content.decode()
    assert 'id="share-link"' not in private
