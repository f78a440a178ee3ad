"""The collections API: owner-scoped, one error shape, bad input answered 4xx with nothing
written, and a complete OpenAPI schema."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from cards.models import StarterDeck
from collecting import services as svc
from collecting.models import (
    Collection,
    CollectionChip,
    CollectionEntry,
    ProductOpening,
    TradeKeep,
    WishlistEntry,
)
from tests.collecting.collection_fixtures import *  # noqa: F403

API = "/api/v1/collections/"


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def counts() -> tuple[int, ...]:
    return (
        Collection.objects.count(),
        CollectionEntry.objects.count(),
        CollectionChip.objects.count(),
        WishlistEntry.objects.count(),
        ProductOpening.objects.count(),
        TradeKeep.objects.count(),
    )


def test_create_list_and_rename(user_client):
    response = user_client.post(API, {"name": "Binder"})
    assert response.status_code == 201
    pk = response.json()["id"]
    assert user_client.post(API, {"name": "Binder"}).json()["errors"][0]["code"] == "unique"
    listed = user_client.get(API).json()["results"]
    assert [(c["name"], c["card_count"]) for c in listed] == [("Binder", 0)]
    response = user_client.patch(f"{API}{pk}/", {"trade_list_public": True})
    assert response.json()["trade_list_public"] is True


def test_anonymous_users_get_401(api_client, binder):
    assert api_client.get(API).status_code in (401, 403)
    assert api_client.get(f"{API}{binder.pk}/completion/").status_code in (401, 403)


def test_adjust_entries_and_chips(user_client, binder, common, chip):
    url = f"{API}{binder.pk}/adjust/"
    assert user_client.post(url, {"card": common.code, "delta": 2}).json()["quantity"] == 2
    body = user_client.post(url, {"card": common.code, "delta": 1, "condition": "mint"}).json()
    assert (body["quantity"], body["owned"]) == (1, 3)
    assert user_client.post(url, {"kicker_chip": chip.code, "delta": 1}).json()["quantity"] == 1
    response = user_client.post(url, {"card": common.code, "delta": -5})
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "not_enough_copies"


@pytest.mark.parametrize(
    "payload",
    [
        {"card": "HSD-001", "delta": 0},
        {"card": "HSD-001", "delta": -100000},
        {"card": "HSD-001", "delta": 10**15},
        {"card": "HSD-001", "delta": "many"},
        {"card": "HSD-999", "delta": 1},
        {"card": "HSD-001", "delta": 1, "condition": "pristine"},
        {"delta": 1},
    ],
)
def test_bad_clicks_are_400_and_write_nothing(user_client, binder, payload):
    before = counts()
    response = user_client.post(f"{API}{binder.pk}/adjust/", payload, format="json")
    assert response.status_code == 400
    assert set(response.json()["errors"][0]) >= {"code", "detail", "attr"}
    assert counts() == before


def test_entries_crud(user_client, binder, common):
    url = f"{API}{binder.pk}/entries/"
    response = user_client.post(url, {"card": common.code, "condition": "good", "quantity": 2})
    assert response.status_code == 201, response.json()
    entry_id = response.json()["id"]
    user_client.post(url, {"card": common.code, "condition": "good", "quantity": 1})
    assert user_client.get(url).json()["results"][0]["quantity"] == 3
    assert user_client.get(url, {"set": "DMH"}).json()["count"] == 0
    response = user_client.post(url, {"card": common.code, "quantity": 1})
    assert response.json()["condition"] == "near_mint"
    response = user_client.patch(f"{url}{entry_id}/", {"quantity": 5, "notes": "signed"})
    assert response.json()["quantity"] == 5
    assert user_client.patch(f"{url}{entry_id}/", {"quantity": -1}).status_code == 400
    assert user_client.patch(f"{url}{entry_id}/", {"quantity": 0}).status_code == 204
    assert list(CollectionEntry.objects.values_list("condition", flat=True)) == ["near_mint"]


def test_entries_filter_by_set_card_and_condition(user_client, binder, common):
    svc.entry_adjust(collection=binder, card=common, condition="good", delta=2)
    svc.entry_adjust(collection=binder, card=common, condition="mint", delta=1)
    url = f"{API}{binder.pk}/entries/"

    def conditions(**params):
        return sorted(e["condition"] for e in user_client.get(url, params).json()["results"])

    assert conditions(set=common.card_set.code.lower()) == ["good", "mint"]
    assert conditions(set="DMH") == [] and conditions(card="HSD-999") == []
    assert conditions(card=common.code.lower(), condition="mint") == ["mint"]
    assert conditions(set="", card="") == ["good", "mint"]  # blank: no filter
    for bad in ("", "pristine"):  # a condition, once given, is one of them
        response = user_client.get(url, {"condition": bad})
        assert response.status_code == 400
        assert response.json()["errors"] == [
            {
                "code": "invalid_choice",
                "detail": "condition is one of mint, near_mint, excellent, good, light_played, "
                "played, poor.",
                "attr": "condition",
            }
        ]


def test_chips_crud(user_client, binder, chip):
    url = f"{API}{binder.pk}/chips/"
    response = user_client.post(url, {"kicker_chip": chip.code, "quantity": 2})
    assert response.status_code == 201
    assert user_client.delete(f"{url}{response.json()['id']}/").status_code == 204
    assert user_client.post(url, {"kicker_chip": "HSD-K99", "quantity": 1}).status_code == 400
    assert CollectionChip.objects.count() == 0


def test_completion_and_missing(user_client, binder, common):
    svc.entry_adjust(collection=binder, card=common, delta=4)
    rows = user_client.get(f"{API}{binder.pk}/completion/").json()
    hsd = next(r for r in rows if r["code"] == "HSD")
    assert (hsd["owned"], hsd["copies"], hsd["playset_owned"]) == (1, 4, 3)
    common_row = next(r for r in hsd["rarities"] if r["code"] == "common")
    assert common_row["owned"] == 1
    missing = user_client.get(f"{API}{binder.pk}/missing/", {"set": "HSD"}).json()
    assert missing["count"] == hsd["total"] - 1
    assert user_client.get(f"{API}{binder.pk}/missing/", {"set": "NOPE"}).status_code == 404


def test_another_users_collection_is_404(user_client, other_user, common):
    theirs = Collection.objects.create(owner=other_user, name="Theirs")
    svc.entry_adjust(collection=theirs, card=common, delta=5)
    before = counts()
    base = f"{API}{theirs.pk}/"
    for url in (
        "",
        "completion/",
        "missing/",
        "entries/",
        "chips/",
        "scans/",
        "export/",
        "tradelist/",
        "openings/",
    ):
        assert user_client.get(base + url).status_code == 404, url
    assert user_client.patch(base, {"name": "Mine now"}).status_code == 404
    assert user_client.delete(base).status_code == 404
    assert user_client.post(base + "adjust/", {"card": common.code, "delta": 1}).status_code == 404
    upload = SimpleUploadedFile("a.csv", f"code,qty\n{common.code},1\n".encode())
    assert (
        user_client.post(base + "import/", {"file": upload}, format="multipart").status_code == 404
    )
    assert (
        user_client.post(base + "tradelist/", {"card": common.code, "keep": 0}).status_code == 404
    )
    assert counts() == before
    assert theirs.entries.get().quantity == 5


def test_a_public_trade_list_is_readable_but_nothing_else(
    user_client, api_client, other_user, common
):
    theirs = Collection.objects.create(owner=other_user, name="Box", trade_list_public=True)
    svc.entry_adjust(collection=theirs, card=common, delta=5)
    for client in (user_client, api_client):
        body = client.get(f"{API}{theirs.pk}/tradelist/").json()
        assert [(c["code"], c["tradeable"]) for c in body["results"]] == [(common.code, 2)]
    assert user_client.get(f"{API}{theirs.pk}/").status_code == 404
    assert user_client.get(f"{API}{theirs.pk}/completion/").status_code == 404
    response = user_client.post(f"{API}{theirs.pk}/tradelist/", {"card": common.code, "keep": 0})
    assert response.status_code == 404
    assert TradeKeep.objects.count() == 0


def test_the_owner_adjusts_the_trade_list(user_client, binder, common):
    svc.entry_adjust(collection=binder, card=common, delta=4)
    url = f"{API}{binder.pk}/tradelist/"
    assert user_client.get(url).json()["results"][0]["tradeable"] == 1
    body = user_client.post(url, {"card": common.code, "keep": 0}, format="json").json()
    assert body["results"][0]["tradeable"] == 4
    assert (
        user_client.post(url, {"card": common.code, "keep": -1}, format="json").status_code == 400
    )
    body = user_client.post(url, {"card": common.code, "keep": None}, format="json").json()
    assert body["results"][0]["tradeable"] == 1


def test_import_all_or_nothing_lists_every_bad_row(user_client, binder, common):
    url = f"{API}{binder.pk}/import/"
    bad = f"code,qty\n{common.code},2\nHSD-999,1\n{common.code},-3\n".encode()
    response = user_client.post(url, {"file": SimpleUploadedFile("c.csv", bad)}, format="multipart")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [(e["line"], e["column"], e["code"]) for e in errors] == [
        (3, "code", "unknown_card"),
        (4, "qty", "quantity_out_of_range"),
    ]
    assert CollectionEntry.objects.count() == 0
    good = f"code,qty\n{common.code},2\n".encode()
    response = user_client.post(
        url, {"file": SimpleUploadedFile("c.csv", good)}, format="multipart"
    )
    assert response.status_code == 200
    assert response.json()["card_copies"] == 2


def test_import_of_a_binary_file_is_400(user_client, binder):
    data = bytes(range(256)) * 10
    response = user_client.post(
        f"{API}{binder.pk}/import/", {"file": SimpleUploadedFile("c.csv", data)}, format="multipart"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "binary_file"
    assert CollectionEntry.objects.count() == 0


def test_export_is_csv(user_client, binder, common):
    svc.entry_adjust(collection=binder, card=common, delta=2)
    response = user_client.get(f"{API}{binder.pk}/export/", {"shape": "short"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    body = b"".join(response.streaming_content).decode()
    assert body == f"code,qty,condition\r\n{common.code},2,near_mint\r\n"
    assert user_client.get(f"{API}{binder.pk}/export/", {"shape": "xml"}).status_code == 400


def test_openings(user_client, binder):
    starter = StarterDeck.objects.order_by("code").first()
    url = f"{API}{binder.pk}/openings/"
    response = user_client.post(url, {"starter": starter.code}, format="json")
    assert response.status_code == 201
    assert response.json()["kind"] == "starter"
    assert user_client.get(url).json()["count"] == 1
    before = counts()
    response = user_client.post(url, {"set": "HSD", "cards": {"HSD-001": 1}}, format="json")
    assert response.status_code == 400
    assert (
        user_client.post(url, {"set": "HSD", "cards": {"HSD-001": -1}}, format="json").status_code
        == 400
    )
    assert counts() == before


def test_wishlist(user_client, binder, common, chip):
    url = "/api/v1/wishlist/"
    response = user_client.post(url, {"card": common.code, "quantity": 3})
    assert response.status_code == 201
    assert response.json()["needed"] == 3
    assert user_client.post(url, {"kicker_chip": chip.code, "quantity": 1}).status_code == 201
    svc.entry_adjust(collection=binder, card=common, delta=3)
    assert user_client.get(url).json()["results"][0]["needed"] == 0
    svc.entry_adjust(collection=binder, card=common, delta=-3)
    svc.entry_adjust(collection=binder, card=common, delta=1, condition="mint")
    before = counts()
    response = user_client.post(url, {"card": common.code, "quantity": 1})
    assert response.status_code == 409
    assert response.json()["errors"][0]["code"] == "already_owned"
    for bad in (
        {"card": common.code, "quantity": 0},
        {"card": "HSD-999", "quantity": 1},
        {"card": common.code, "quantity": -2},
        {"quantity": 1},
    ):
        assert user_client.post(url, bad).status_code == 400, bad
    assert counts() == before


def test_trade_matches(user_client, user, other_user, binder, common):
    box = Collection.objects.create(owner=other_user, name="Box", trade_list_public=True)
    svc.entry_adjust(collection=box, card=common, delta=5)
    svc.wishlist_add(owner=user, card=common, quantity=1)
    body = user_client.get("/api/v1/trade-matches/", {"user": other_user.username}).json()
    assert body["they_have_i_want"][0]["card"] == common.code
    # An unknown user is answered like one with no matches (tests/test_bad_input.py).
    assert user_client.get("/api/v1/trade-matches/", {"user": "nobody"}).status_code == 200


def test_practice_boosters_are_seeded_and_touch_nothing(api_client, user, binder):
    before = counts()
    first = api_client.get("/api/v1/practice-boosters/", {"set": "HSD", "seed": 7}).json()
    again = api_client.get("/api/v1/practice-boosters/", {"set": "HSD", "seed": 7}).json()
    assert first == again
    assert len(first["cards"]) == 9 and len(first["kicker_chips"]) == 1
    assert api_client.get("/api/v1/practice-boosters/", {"set": "NOPE"}).status_code == 400
    assert (
        api_client.get("/api/v1/practice-boosters/", {"set": "HSD", "seed": "x"}).status_code == 400
    )
    assert counts() == before


def test_the_schema_covers_the_collections_api(api_client):
    response = api_client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in (
        "/api/v1/collections/",
        "/api/v1/collections/{id}/completion/",
        "/api/v1/collections/{id}/import/",
        "/api/v1/collections/{id}/export/",
        "/api/v1/collections/{id}/tradelist/",
        "/api/v1/collections/{collection_pk}/entries/",
        "/api/v1/collections/{collection_pk}/scans/",
        "/api/v1/wishlist/",
        "/api/v1/trade-matches/",
        "/api/v1/practice-boosters/",
    ):
        assert path in paths, path


def test_schema_generation_has_no_warnings_for_collections(capsys):
    from django.core.management import call_command

    call_command("spectacular", "--file", "/dev/null", "--validate")
    err = capsys.readouterr().err
    assert "collection" not in err.lower() and "wishlist" not in err.lower(), err


def test_a_collection_id_that_is_not_a_number_is_404(user_client):
    assert user_client.get(f"{API}abc/tradelist/").status_code == 404
    assert user_client.get(f"{API}1.5/").status_code == 404
