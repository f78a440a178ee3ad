"""The wishlist takes what a person types: a card's name (any case), a code, a suggestion's
"Name (CODE)"; a near miss is a 400 that keeps the input, adds nothing and offers the closest
names; suggestions come as a `<datalist>` while typing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cards.models import Card, KickerChip
from cards.suggest import lookup, suggestions
from collecting.models import WishlistEntry
from tests.factories import CardFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def site(client, user, catalogue):
    client.force_login(user)
    return client


def _wish(site, typed: str, quantity: str = "1"):
    return site.post(reverse("collecting:wishlist"), {"code": typed, "quantity": quantity})


def test_a_wish_by_name_in_any_case_adds_that_card(site, user):
    card = Card.objects.get(name="Wyatt Earp")
    response = _wish(site, "  wyatt   EARP ", "2")
    assert response.status_code == 302
    assert WishlistEntry.objects.get(owner=user).card == card
    assert WishlistEntry.objects.get(owner=user).quantity == 2


def test_a_wish_by_code_or_by_a_suggestions_name_and_code_still_works(site, user):
    card = Card.objects.order_by("number")[5]
    chip = KickerChip.objects.order_by("code").first()
    _wish(site, card.code.lower())
    _wish(site, chip.code)
    assert {(w.card_id, w.kicker_chip_id) for w in WishlistEntry.objects.filter(owner=user)} == {
        (card.pk, None),
        (None, chip.pk),
    }
    assert lookup(f"{card.name} ({card.code})").card == card


def test_a_near_miss_is_a_400_that_adds_nothing_and_asks_did_you_mean(site, user):
    response = _wish(site, "Wyat Earp", "3")
    body = response.content.decode()
    assert response.status_code == 400
    assert "No card or kicker chip is called “Wyat Earp”." in body
    assert 'value="Wyatt Earp"' in body and "Did you mean" in body
    assert 'id="wish-item"' in body and 'value="Wyat Earp"' in body  # the input is kept
    assert not WishlistEntry.objects.filter(owner=user).exists()


def test_nonsense_is_a_400_without_a_guess(site, user):
    response = _wish(site, "zzqqxx")
    assert response.status_code == 400 and "Did you mean" not in response.content.decode()
    assert not WishlistEntry.objects.filter(owner=user).exists()


def test_suggestions_start_with_names_that_begin_with_the_text(client, catalogue):
    found = suggestions("bill")
    names = [s["value"] for s in found]
    assert names and all("bill" in n.lower() for n in names)
    starts = [n for n in names if n.lower().startswith("bill")]
    assert names[: len(starts)] == starts
    assert suggestions("b") == []  # one letter suggests nothing


def test_a_name_two_cards_share_is_suggested_with_its_code(catalogue):
    first = Card.objects.get(name="Wyatt Earp")
    twin = CardFactory(name="Wyatt Earp", card_set=first.card_set, number=900, code="HSD-900")
    values = [s["value"] for s in suggestions("wyatt")]
    assert f"Wyatt Earp ({first.code})" in values and f"Wyatt Earp ({twin.code})" in values
    assert lookup(f"Wyatt Earp ({twin.code})").card == twin


def test_the_suggestion_endpoint_answers_a_datalist_named_as_asked(client, catalogue):
    body = client.get("/cards/suggest/", {"code": "wyatt", "list": "wish-suggestions"})
    html = body.content.decode()
    assert html.startswith('<datalist id="wish-suggestions">')
    assert '<option value="Wyatt Earp"' in html
    chips = client.get("/cards/suggest/", {"q": "HSD-K0", "chips": "1"}).content.decode()
    assert 'id="card-suggestions"' in chips and "kicker chip" in chips
    odd = client.get("/cards/suggest/", {"q": "wy", "list": '"><script>'}).content.decode()
    assert "<script>" not in odd and 'id="card-suggestions"' in odd
