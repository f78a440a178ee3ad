"""Cheap requests that once answered 500s or opened doors (issue #13, sections 1 and 2): each is
now a 4xx in the one error shape, writes nothing, and never sends anyone off the site.

Where each item of the issue is tested:

1. Server errors from cheap requests
   - deeply nested JSON: `test_deeply_nested_json_is_a_400_and_writes_no_deck`
   - `offset` / `limit` past 64 bits, on every list:
     `test_out_of_bounds_paging_is_a_400_on_every_list`
   - `remove=abc` on the wishlist page:
     `test_removing_a_wish_that_is_not_a_number_is_a_400_and_removes_nothing`
   - `next=not-a-url-name` on the +/- form:
     `test_a_click_whose_next_is_not_a_path_is_a_400_and_counts_nothing`
2. Wrong shapes and open doors
   - `next` off-site: `test_a_click_never_sends_anyone_off_the_site` (a 400, nothing counted)
   - a body over the upload limit: `test_a_body_over_the_upload_limit_is_a_413_and_writes_no_deck`
   - HTML under /api/: `test_every_unknown_path_under_the_api_is_a_404_in_the_error_shape`,
     `test_a_server_error_under_the_api_is_a_500_in_the_error_shape`
   - no throttling, no log-in protection: tests/test_throttling.py
   - (found later) a NUL character in a body, path, query or form, a 500 on PostgreSQL:
     `test_a_nul_in_a_json_body_is_a_400_and_writes_nothing` and the three tests after it
   - usernames enumerable by trade matching:
     `test_unknown_user_is_indistinguishable_from_user_with_no_matches` (API and page)
   - draft pods showing the owner's account id: `test_draft_pods_show_no_account_id`
   - no token without a browser: `test_a_token_for_wrong_credentials_is_a_400_and_issues_none`
     here, and `test_a_username_and_password_get_a_working_token` in tests/test_accounts.py
3. The table (issue #16), in tests/simulator/test_table_api.py
   - every bad game to start (unknown game or bot, seat counts, budgets, decks, rules,
     variants, wrong types), each a 400 naming its seat or field and writing nothing:
     `test_a_bad_game_is_refused_in_the_error_shape_and_nothing_is_written` (the table `BAD`)
   - every bad decision body: `test_a_bad_action_body_is_a_400_and_changes_nothing`; an
     illegal action, a stale move, a finished game, another user's game: the tests beside them
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from cards.models import Card
from collecting import services as collection_services
from collecting.models import Collection, CollectionEntry, WishlistEntry
from decks.models import Deck
from tests.factories import DeckFactory

pytestmark = pytest.mark.django_db

PAST_64_BITS = str(2**63)


def assert_error(response, status: int, code: str, attr: str | None = None) -> None:
    """`response` is `status` in the one error shape, its first error `code` on `attr`."""
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json"
    error = response.json()["errors"][0]
    assert (error["code"], error["attr"]) == (code, attr), error
    assert error["detail"]


def client_for(user=None, **kwargs) -> APIClient:
    client = APIClient(**kwargs)
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def binder(user, catalogue) -> Collection:
    return collection_services.collection_create(owner=user, name="Binder")


@pytest.fixture
def card(catalogue) -> Card:
    return Card.objects.order_by("code").first()


# --- 1. Server errors from cheap requests ----------------------------------------------------


def nested(depth: int, *, closed: bool) -> bytes:
    """A deck whose `cards` are `depth` lists deep: cut off as in the report, or well formed."""
    return b'{"cards": ' + b"[" * depth + (b"]" * depth + b"}" if closed else b"")


@pytest.mark.parametrize(
    "url_name, signed_in",
    [
        ("api:deck-validate-stateless", False),
        ("api:deck-validate-stateless", True),
        ("api:deck-list", True),
    ],
)
@pytest.mark.parametrize(
    "body",
    [
        nested(1000, closed=False),  # past the interpreter's recursion limit
        nested(900, closed=True),  # parses, deep enough to overflow whatever walks it
        nested(32, closed=True),  # one level past the ceiling
    ],
    ids=["1000-cut-off", "900", "33-levels"],
)
def test_deeply_nested_json_is_a_400_and_writes_no_deck(url_name, signed_in, body, user, catalogue):
    client = client_for(user if signed_in else None)
    response = client.post(reverse(url_name), data=body, content_type="application/json")
    assert_error(response, 400, "parse_error")
    assert "nested more than 32 levels" in response.json()["errors"][0]["detail"]
    assert not Deck.objects.exists()


def test_json_nested_up_to_the_ceiling_reaches_the_deck_rules(catalogue):
    response = client_for().post(
        reverse("api:deck-validate-stateless"),
        data=nested(31, closed=True),  # 32 levels: the object, then 31 lists
        content_type="application/json",
    )
    assert_error(response, 400, "invalid", attr="cards.0")


# Every paginated list, by its URL name, with the objects its path needs.
LISTS = [
    "api:card-list",
    "api:kickerchip-list",
    "api:deck-list",
    "api:deck-versions",
    "api:collection-list",
    "api:collection-entry-list",
    "api:collection-chip-list",
    "api:collection-scan-list",
    "api:collection-missing",
    "api:collection-openings",
    "api:collection-tradelist",
    "api:wishlist-list",
    "api:pool-list",
    "api:draftpod-list",
    "api:simulation-list",
]


def list_url(name: str, *, collection: Collection, deck: Deck) -> str:
    kwargs = {
        "api:deck-versions": {"pk": deck.pk},
        "api:collection-entry-list": {"collection_pk": collection.pk},
        "api:collection-chip-list": {"collection_pk": collection.pk},
        "api:collection-scan-list": {"collection_pk": collection.pk},
        "api:collection-missing": {"pk": collection.pk},
        "api:collection-openings": {"pk": collection.pk},
        "api:collection-tradelist": {"pk": collection.pk},
    }
    return reverse(name, kwargs=kwargs.get(name))


@pytest.mark.parametrize("name", LISTS)
def test_out_of_bounds_paging_is_a_400_on_every_list(name, user, binder):
    client = client_for(user)
    url = list_url(name, collection=binder, deck=DeckFactory(owner=user))
    for param, value in [
        ("offset", PAST_64_BITS),
        ("offset", "1000000001"),
        ("offset", "-1"),
        ("limit", PAST_64_BITS),
    ]:
        assert_error(client.get(url, {param: value}), 400, "invalid", attr=param)
    # The last offset allowed reads an empty page.
    response = client.get(url, {"offset": "1000000000"})
    assert response.status_code == 200, response.content[:300]
    assert response.json()["results"] == []


def test_removing_a_wish_that_is_not_a_number_is_a_400_and_removes_nothing(client, user, card):
    collection_services.wishlist_add(owner=user, card=card, quantity=2)
    client.force_login(user)
    response = client.post(reverse("collecting:wishlist"), {"remove": "abc"})
    assert response.status_code == 400
    assert "Choose a wish to remove." in response.content.decode()
    assert WishlistEntry.objects.filter(owner=user, card=card, quantity=2).count() == 1


def adjust(client, collection: Collection, card: Card, next_url: str):
    url = reverse("collecting:collection-adjust", kwargs={"pk": collection.pk, "code": card.code})
    return client.post(url, {"delta": "1", "next": next_url})


def owned(collection: Collection, card: Card) -> int:
    entries = CollectionEntry.objects.filter(collection=collection, card=card)
    return sum(entries.values_list("quantity", flat=True))


def test_a_click_whose_next_is_not_a_path_is_a_400_and_counts_nothing(client, user, binder, card):
    client.force_login(user)
    response = adjust(client, binder, card, "not-a-url-name")
    assert response.status_code == 400
    assert "nothing was done" in response.content.decode()
    assert owned(binder, card) == 0


@pytest.mark.parametrize(
    "next_url",
    [
        "https://evil.example/phish",
        "//evil.example/x",
        "/\\evil.example/x",
        "http://testserver.evil.example/",
        "javascript:alert(1)",
    ],
)
def test_a_click_never_sends_anyone_off_the_site(client, user, binder, card, next_url):
    client.force_login(user)
    response = adjust(client, binder, card, next_url)
    assert response.status_code == 400
    assert "Location" not in response
    assert owned(binder, card) == 0


def test_a_click_without_next_goes_back_to_the_grid(client, user, binder, card):
    client.force_login(user)
    url = reverse("collecting:collection-adjust", kwargs={"pk": binder.pk, "code": card.code})
    response = client.post(url, {"delta": "1"})
    assert response.status_code == 302
    assert response["Location"] == reverse("collecting:collection-cards", kwargs={"pk": binder.pk})
    assert owned(binder, card) == 1


def test_a_click_goes_back_to_the_page_it_came_from(client, user, binder, card):
    client.force_login(user)
    page = reverse("collecting:collection-card", kwargs={"pk": binder.pk, "code": card.code})
    response = adjust(client, binder, card, page)
    assert (response.status_code, response["Location"]) == (302, page)


# --- 2. Wrong shapes and open doors ----------------------------------------------------------


@pytest.mark.parametrize(
    "url_name, signed_in",
    [("api:deck-validate-stateless", False), ("api:deck-list", True)],
)
def test_a_body_over_the_upload_limit_is_a_413_and_writes_no_deck(
    url_name, signed_in, user, catalogue
):
    padding = b" " * (10 * 1024 * 1024)
    assert len(padding) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = b'{"name": "Big", "cards": []' + padding + b"}"
    client = client_for(user if signed_in else None)
    response = client.post(reverse(url_name), data=body, content_type="application/json")
    assert_error(response, 413, "too_large")
    assert not Deck.objects.exists()


# A NUL character in any text of a request: PostgreSQL cannot store or even compare one, so
# before it was refused each of these was a 500 there (found by schemathesis' stateful phase).
NUL = "HSD\x00001"


@pytest.mark.parametrize(
    "url_name, body",
    [
        ("api:deck-list", {"name": "Posse", "cards": [{"code": NUL, "qty": 1}]}),
        ("api:deck-list", {"name": "Posse", "kicker_chips": [{"code": "K", "qty": 1}], NUL: 1}),
        ("api:deck-validate-stateless", {"cards": [{"code": NUL, "qty": 1}]}),
        ("api:wishlist-list", {"card": NUL, "quantity": 1}),
    ],
    ids=["deck-card", "deck-key", "validate", "wishlist"],
)
def test_a_nul_in_a_json_body_is_a_400_and_writes_nothing(url_name, body, user, catalogue):
    response = client_for(user).post(reverse(url_name), body, format="json")
    assert_error(response, 400, "parse_error")
    assert "NUL" in response.json()["errors"][0]["detail"]
    assert not Deck.objects.exists() and not WishlistEntry.objects.exists()


@pytest.mark.parametrize(
    "path, name",
    [
        ("/api/v1/cards/?q=Wyatt&q=Earp", "q"),
        ("/api/v1/decks/?format=standard&format=&limit=5", "format"),
        ("/api/v1/games/1/talk/?after=&after=%2B0.0", "after"),  # schemathesis found this one
    ],
)
def test_a_query_parameter_given_twice_is_a_400_naming_it(path, name, user, catalogue):
    """No API parameter is a list: a repeated one is refused, not read as its last value."""
    response = client_for(user).get(path)
    assert_error(response, 400, "invalid", attr=name)
    assert "given 2 times" in response.json()["errors"][0]["detail"]


@pytest.mark.parametrize("after", ["", "one", "-1", "1.5"])
def test_table_talk_after_that_is_no_line_id_is_a_400_naming_it(after, user, catalogue):
    """`after` is a line id, a whole number from 0: an empty one is refused too (the long
    schemathesis run found it answered as if it were left out)."""
    response = client_for(user).get(f"/api/v1/games/1/talk/?after={after}")
    assert_error(
        response, 400, "invalid" if after in ("", "one", "1.5") else "min_value", attr="after"
    )


def test_a_page_may_repeat_a_query_parameter(client, catalogue):
    assert client.get("/cards/?q=Wyatt&q=Earp").status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/cards/HSD%00001/",
        "/api/v1/sets/HSD%00/",
        "/api/v1/cards/?q=Wyatt%00",
        "/api/v1/decks/?format=standard%00",
        "/api/v1/cards/?name%00=x",
    ],
)
def test_a_nul_in_an_api_path_or_query_is_a_400_in_the_error_shape(path, user, catalogue):
    response = client_for(user).get(path)
    assert_error(response, 400, "bad_request")
    assert "NUL" in response.json()["errors"][0]["detail"]


@pytest.mark.parametrize("path", ["/cards/HSD%00001/", "/sets/HSD%00/", "/cards/?q=Wyatt%00"])
def test_a_nul_in_a_page_address_is_the_styled_400_page(path, client, catalogue):
    response = client.get(path)
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("multipart", [True, False], ids=["multipart", "urlencoded"])
@pytest.mark.parametrize(
    "url_name, data",
    [
        ("decks:new", {"name": "Posse\x00"}),
        ("decks:import", {"name": "Posse", "text": "2 Wyatt\x00 Earp"}),
        ("decks:sealed", {"set": "HSD\x00"}),
    ],
    ids=["new-deck", "import", "sealed-pool"],
)
def test_a_nul_in_a_form_is_a_400_and_writes_nothing(url_name, data, multipart, client, user):
    from urllib.parse import urlencode

    client.force_login(user)
    if multipart:
        response = client.post(reverse(url_name), data)
    else:
        response = client.post(
            reverse(url_name), urlencode(data), content_type="application/x-www-form-urlencoded"
        )
    assert response.status_code == 400
    assert not Deck.objects.exists()


def test_a_multipart_body_that_cannot_be_read_is_a_400_in_the_error_shape(user, binder):
    url = reverse("api:collection-import", args=[binder.pk])
    response = client_for(user).generic(
        "POST", url, b"--x\r\nnot a part", content_type="multipart/form-data; boundary="
    )
    assert_error(response, 400, "bad_request")
    assert not CollectionEntry.objects.exists()


@pytest.mark.parametrize(
    "path",
    [
        "/api/",
        "/api/v2/cards/",
        "/api/v1/nope/",
        "/api/v1/cards/not-a-code/",
        "/api/v1/decks/shared/not.a.slug/",
        "/api/v1/decks/shared/no-such-deck/",
    ],
)
def test_every_unknown_path_under_the_api_is_a_404_in_the_error_shape(path, db):
    assert_error(client_for().get(path), 404, "not_found")


def test_pages_outside_the_api_keep_their_html_404(client, db):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_the_schema_is_still_served_as_it_was(db):
    response = client_for().get("/api/schema/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.oai.openapi")


def test_a_server_error_under_the_api_is_a_500_in_the_error_shape(monkeypatch, catalogue):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("decks.api.views.formats.validate_deck", broken)
    client = client_for(raise_request_exception=False)
    response = client.post(reverse("api:deck-validate-stateless"), {"cards": []}, format="json")
    assert_error(response, 500, "server_error")
    assert "a bug" not in response.content.decode()


def test_unknown_user_is_indistinguishable_from_user_with_no_matches(user, other_user, client):
    api = client_for(user)
    real = api.get(reverse("api:trade-matches"), {"user": other_user.username})
    unknown = api.get(reverse("api:trade-matches"), {"user": "no-such-rider"})
    assert real.status_code == unknown.status_code == 200
    assert real.json() == {
        "user": other_user.username,
        "they_have_i_want": [],
        "i_have_they_want": [],
    }
    assert unknown.json() == {
        "user": "no-such-rider",
        "they_have_i_want": [],
        "i_have_they_want": [],
    }

    client.force_login(user)
    real = client.get(reverse("collecting:trades"), {"user": other_user.username})
    unknown = client.get(reverse("collecting:trades"), {"user": "no-such-rider"})
    assert real.status_code == unknown.status_code == 200
    assert page_text(real, other_user.username) == page_text(unknown, "no-such-rider")


def page_text(response, username: str) -> str:
    """The page with the name asked for and the per-request CSRF tokens blotted out."""
    text = response.content.decode().replace(username, "NAME")
    return re.sub(r"[A-Za-z0-9]{64}", "CSRF", text)


def test_trade_matching_without_a_username_is_a_400(user):
    response = client_for(user).get(reverse("api:trade-matches"))
    assert_error(response, 400, "required", attr="user")


def test_draft_pods_show_no_account_id(user, other_user, catalogue):
    created = client_for(user).post(reverse("api:draftpod-list"), {"set": "HSD", "seats": 3})
    assert created.status_code == 201
    pod = created.json()
    assert "owner" not in pod
    assert pod["seat_list"][0]["player"] == user.username
    # Open pods are listed to every user.
    listed = client_for(other_user).get(reverse("api:draftpod-list")).json()["results"]
    assert [p["id"] for p in listed] == [pod["id"]]
    assert "owner" not in listed[0]
    detail = client_for(other_user).get(reverse("api:draftpod-detail", kwargs={"pk": pod["id"]}))
    assert "owner" not in detail.json()


@pytest.mark.parametrize(
    "body, code, attr",
    [
        ({"password": "saddle-up-partner-1!"}, "invalid_credentials", None),
        ({"password": ""}, "blank", "password"),
        ({}, "required", "password"),
    ],
    ids=["wrong-password", "blank-password", "no-password"],
)
def test_a_token_for_wrong_credentials_is_a_400_and_issues_none(body, code, attr, user):
    response = client_for().post(
        reverse("api:token-create"), {"username": user.username, **body}, format="json"
    )
    assert_error(response, 400, code, attr=attr)
    assert not Token.objects.exists()


def test_a_token_for_an_unknown_user_is_the_same_400(db):
    response = client_for().post(
        reverse("api:token-create"),
        {"username": "no-such-rider", "password": "saddle-up-partner-1"},
        format="json",
    )
    assert_error(response, 400, "invalid_credentials")
    assert not Token.objects.exists()
