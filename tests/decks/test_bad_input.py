"""Bad input: a clear 4xx that names the problem, and nothing half-saved."""

from __future__ import annotations

import pytest

from decks import services
from decks.models import Deck, DeckCard, DeckKickerChip, DeckVersion, Pool
from tests.decks.conftest import entries

pytestmark = pytest.mark.django_db


def rows() -> tuple[int, int, int, int]:
    return (Deck.objects.count(), DeckCard.objects.count(), DeckKickerChip.objects.count(),
            DeckVersion.objects.count())  # fmt: skip


def post(client, **body):
    return client.post("/api/v1/decks/", {"name": "Bad", **body}, format="json")


def test_more_than_1000_entries(user_client):
    cards = [{"code": f"HSD-{i:03d}", "qty": 1} for i in range(1001)]
    r = post(user_client, cards=cards)
    assert r.status_code == 400
    assert r.json()["errors"][0]["attr"] == "cards" and "1000" in r.json()["errors"][0]["detail"]
    assert rows() == (0, 0, 0, 0)
    r = user_client.post("/api/v1/decks/validate/", {"cards": cards}, format="json")
    assert r.status_code == 400


@pytest.mark.parametrize("qty", [-1, 0, 1.5, 10**9, "three", None])
def test_bad_quantity_is_named_with_its_place(user_client, qty, catalogue):
    r = post(user_client, cards=[{"code": "HSD-012", "qty": 2}, {"code": "HSD-013", "qty": qty}])
    assert r.status_code == 400
    (error,) = r.json()["errors"]
    assert error["attr"] == "cards.1.qty"
    assert rows() == (0, 0, 0, 0)


def test_bad_quantity_in_the_stateless_validator(api_client):
    r = api_client.post(
        "/api/v1/decks/validate/", {"cards": [{"code": "HSD-012", "qty": -3}]}, format="json"
    )
    assert r.status_code == 400 and r.json()["errors"][0]["attr"] == "cards.0.qty"


def test_unknown_codes_are_all_named_and_nothing_is_saved(user_client, catalogue):
    cards = [
        {"code": "HSD-012", "qty": 3},
        {"code": "HSD-999", "qty": 1},
        {"code": "ZZZ-001", "qty": 1},
    ]
    r = post(user_client, cards=cards, kicker_chips=[{"code": "HSD-K99", "qty": 1}])
    assert r.status_code == 400
    assert [(e["code"], e.get("card") or e.get("kicker_chip")) for e in r.json()["errors"]] == [
        ("unknown_card", "HSD-999"),
        ("unknown_card", "ZZZ-001"),
        ("unknown_kicker_chip", "HSD-K99"),
    ]
    assert rows() == (0, 0, 0, 0)


def test_unknown_code_in_the_stateless_validator_is_a_problem_not_an_error(api_client, catalogue):
    r = api_client.post(
        "/api/v1/decks/validate/", {"cards": [{"code": "HSD-999", "qty": 1}]}, format="json"
    )
    assert r.status_code == 200
    assert "unknown_card" in {e["code"] for e in r.json()["errors"]}


@pytest.mark.parametrize("fmt", ["poker", "stud+draw", "deuces_wild+tres_amigos", ""])
def test_a_format_that_does_not_exist_or_conflicts(user_client, fmt):
    r = post(user_client, format=fmt)
    assert r.status_code == 400
    assert r.json()["errors"][0]["attr"] == "format"
    assert rows() == (0, 0, 0, 0)


def test_unknown_format_in_the_stateless_validator(api_client):
    r = api_client.post("/api/v1/decks/validate/", {"format": "holdem"}, format="json")
    assert r.status_code == 200 and r.json()["legal"] is False
    assert r.json()["errors"][0]["code"] == "unknown_format"


def test_a_pool_that_is_not_the_users(user_client, other_user, catalogue):
    pool = services.pool_open_stud(owner=other_user, set_codes="HSD", seed=1)
    before = rows()
    r = post(user_client, format="stud", pool=pool.pk)
    assert r.status_code == 400 and r.json()["errors"][0]["code"] == "not_your_pool"
    r = user_client.post(f"/api/v1/pools/{pool.pk}/deck/", {}, format="json")
    assert r.status_code == 404
    r = user_client.post(
        "/api/v1/decks/import/",
        {"name": "x", "text": "1 [HSD-012]", "pool": pool.pk},
        format="json",
    )
    assert r.status_code == 400 and r.json()["errors"][0]["attr"] == "pool"
    assert rows() == before


def test_an_update_with_a_bad_line_changes_nothing(user_client, legal):
    body = {
        "name": "Good",
        "cards": entries(legal["cards"]),
        "kicker_chips": entries(legal["kicker_chips"]),
    }
    deck = user_client.post("/api/v1/decks/", body, format="json").json()
    before = rows()
    r = user_client.patch(
        f"/api/v1/decks/{deck['id']}/",
        {"name": "Changed", "cards": [{"code": "NOPE-1", "qty": 1}]},
        format="json",
    )
    assert r.status_code == 400
    assert rows() == before
    assert Deck.objects.get(pk=deck["id"]).name == "Good"


def test_export_with_an_unknown_kind(user_client, legal):
    deck = user_client.post("/api/v1/decks/", {"name": "Good"}, format="json").json()
    r = user_client.get(f"/api/v1/decks/{deck['id']}/export/?as=docx")
    assert r.status_code == 400 and r.json()["errors"][0]["attr"] == "as"


def test_bad_pool_and_pod_requests(user_client, catalogue):
    assert user_client.post("/api/v1/pools/", {"set": "NOPE"}, format="json").status_code == 400
    assert (
        user_client.post("/api/v1/pools/", {"sets": ["HSD"] * 5}, format="json").status_code == 400
    )
    assert (
        user_client.post("/api/v1/drafts/", {"set": "HSD", "seats": 9}, format="json").status_code
        == 400
    )
    assert (
        user_client.post("/api/v1/drafts/", {"set": "HSD", "seats": 1}, format="json").status_code
        == 400
    )
    assert Pool.objects.count() == 0
