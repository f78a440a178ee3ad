"""The deck API: owner scoping, CRUD with versions, validate (saved and stateless), stats,
export, import, compare."""

from __future__ import annotations

import json

import pytest

from cards.models import Card
from decks import services
from decks.models import Deck, DeckCard, DeckVersion
from tests.decks.conftest import entries
from tests.factories import DeckFactory

pytestmark = pytest.mark.django_db


def create(client, legal, **extra):
    body = {"name": "Dust and Lead", "format": "standard", "cards": entries(legal["cards"]),
            "kicker_chips": entries(legal["kicker_chips"]), **extra}  # fmt: skip
    return client.post("/api/v1/decks/", body, format="json")


def test_create_read_update_delete_a_deck(user_client, legal):
    r = create(user_client, legal)
    assert r.status_code == 201, r.json()
    deck = r.json()
    assert deck["legal"] is True and deck["version"] == 1
    assert sum(e["qty"] for e in deck["cards"]) == 54
    r = user_client.patch(f"/api/v1/decks/{deck['id']}/", {"name": "Renamed"}, format="json")
    assert r.status_code == 200 and r.json()["name"] == "Renamed" and r.json()["version"] == 2
    assert user_client.get("/api/v1/decks/").json()["count"] == 1
    assert user_client.delete(f"/api/v1/decks/{deck['id']}/").status_code == 204
    assert not Deck.objects.exists()


def test_another_users_private_deck_is_not_found(user_client, other_user):
    deck = DeckFactory(owner=other_user)
    for suffix in ("", "validate/", "stats/", "versions/", "export/?as=text"):
        assert user_client.get(f"/api/v1/decks/{deck.pk}/{suffix}").status_code == 404
    assert (
        user_client.patch(f"/api/v1/decks/{deck.pk}/", {"name": "x"}, format="json").status_code
        == 404
    )
    assert user_client.delete(f"/api/v1/decks/{deck.pk}/").status_code == 404
    assert user_client.get("/api/v1/decks/").json()["count"] == 0
    assert Deck.objects.filter(pk=deck.pk, name=deck.name).exists()


def test_a_public_deck_is_readable_by_its_link_only(user_client, other_user, api_client):
    deck = DeckFactory(owner=other_user)
    assert api_client.get(f"/api/v1/decks/shared/{deck.slug}/").status_code == 404
    services.deck_update(deck=deck, is_public=True)
    r = api_client.get(f"/api/v1/decks/shared/{deck.slug}/")
    assert r.status_code == 200 and r.json()["name"] == deck.name
    assert user_client.get(f"/api/v1/decks/{deck.pk}/").status_code == 404  # not editable
    assert len(deck.slug) >= 16


def test_anonymous_cannot_list_decks(api_client):
    assert api_client.get("/api/v1/decks/").status_code in (401, 403)


def test_validate_reports_every_problem(user_client, legal):
    cards = dict(legal["cards"])
    first = next(iter(cards))
    cards[first] = 4
    r = create(user_client, legal, cards=entries(cards), kicker_chips=[])
    deck_id = r.json()["id"]
    body = user_client.get(f"/api/v1/decks/{deck_id}/validate/").json()
    assert body["legal"] is False
    assert sorted(e["code"] for e in body["errors"]) == ["copy_limit", "deck_size", "kicker_value"]


def test_stateless_validate_needs_no_account(api_client, legal):
    body = {
        "format": "standard",
        "cards": entries(legal["cards"]),
        "kicker_chips": entries(legal["kicker_chips"]),
    }
    r = api_client.post("/api/v1/decks/validate/", body, format="json")
    assert r.status_code == 200 and r.json() == {"legal": True, "format": "standard", "errors": []}
    r = api_client.post(
        "/api/v1/decks/validate/",
        {"format": "standard", "cards": [{"code": "HSD-012", "qty": 3}]},
        format="json",
    )
    assert r.json()["legal"] is False
    assert {e["code"] for e in r.json()["errors"]} == {"deck_size", "kicker_value"}


def test_stateless_validate_takes_a_pool_for_stud(api_client, legal):
    pool = {"cards": entries(legal["cards"]), "kicker_chips": []}
    body = {"format": "stud", "cards": entries(legal["cards"]), "kicker_chips": [], "pool": pool}
    assert api_client.post("/api/v1/decks/validate/", body, format="json").json()["legal"] is True
    body["pool"] = {"cards": entries({k: 2 for k in legal["cards"]})}
    errors = api_client.post("/api/v1/decks/validate/", body, format="json").json()["errors"]
    assert {e["code"] for e in errors} == {"not_in_pool"} and len(errors) == 18


def test_stats_endpoint(user_client, legal):
    deck_id = create(user_client, legal).json()["id"]
    stats = user_client.get(f"/api/v1/decks/{deck_id}/stats/").json()
    assert stats["cards"] == 54 and stats["kicker_chips"]["value"] == 50
    assert 0 < stats["opening_hand"]["dude"] <= stats["opening_hand"]["dude_with_redraw"] <= 1


def test_every_save_keeps_a_version_and_two_can_be_compared(user_client, legal):
    deck_id = create(user_client, legal).json()["id"]
    cards = dict(legal["cards"])
    a, b = list(cards)[:2]
    cards[a] = 2
    del cards[b]
    cards["HSD-012"] = cards.get("HSD-012", 0) + 1
    user_client.patch(f"/api/v1/decks/{deck_id}/", {"cards": entries(cards)}, format="json")
    versions = user_client.get(f"/api/v1/decks/{deck_id}/versions/").json()
    assert [v["number"] for v in versions["results"]] == [2, 1]
    diff = user_client.get(f"/api/v1/decks/{deck_id}/compare/?from=1&to=2").json()
    name = dict(Card.objects.filter(code__in=[a, b]).values_list("code", "name"))
    assert {"code": b, "name": name[b], "qty": 3} in diff["cards"]["removed"]
    assert {"code": a, "name": name[a], "from": 3, "to": 2} in diff["cards"]["changed"]
    assert any(e["code"] == "HSD-012" for e in diff["cards"]["added"] + diff["cards"]["changed"])
    assert diff["kicker_chips"] == {"added": [], "removed": [], "changed": []}
    assert (
        user_client.get(f"/api/v1/decks/{deck_id}/versions/1/").json()["snapshot"]["cards"]
        == legal["cards"]
    )
    # Saving with nothing changed makes no version.
    user_client.patch(f"/api/v1/decks/{deck_id}/", {"cards": entries(cards)}, format="json")
    assert DeckVersion.objects.filter(deck_id=deck_id).count() == 2


def test_export_text_then_import_gives_the_same_deck(user_client, legal):
    deck_id = create(user_client, legal).json()["id"]
    r = user_client.get(f"/api/v1/decks/{deck_id}/export/?as=text")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/plain")
    text = r.content.decode()
    assert "Kicker chips:" in text
    r = user_client.post("/api/v1/decks/import/", {"name": "Copy", "text": text}, format="json")
    assert r.status_code == 201, r.json()
    copy = r.json()
    original = user_client.get(f"/api/v1/decks/{deck_id}/").json()
    assert copy["cards"] == original["cards"] and copy["kicker_chips"] == original["kicker_chips"]
    assert copy["legal"] is True


def test_export_json_and_pdf(user_client, legal):
    deck_id = create(user_client, legal).json()["id"]
    body = json.loads(user_client.get(f"/api/v1/decks/{deck_id}/export/?as=json").content)
    assert body["format"] == "standard" and sum(e["qty"] for e in body["cards"]) == 54
    assert user_client.get(f"/api/v1/decks/{deck_id}/export/?as=doc").status_code == 400


def test_import_reports_bad_lines_by_number_and_saves_nothing(user_client):
    text = (
        "3 Henry Meek [HSD-012]\n# comment\n\n2 No Such Card\n-1 [HSD-012]\n2.5 Henry Meek\n"
        "Kicker chips:\n1 [HSD-K99]\n"
    )
    r = user_client.post("/api/v1/decks/import/", {"name": "Bad", "text": text}, format="json")
    assert r.status_code == 400
    errors = r.json()["errors"]
    assert [(e["line"], e["code"]) for e in errors] == [
        (4, "unknown_card"), (5, "bad_quantity"), (6, "bad_quantity"), (8, "unknown_kicker_chip"),
    ]  # fmt: skip
    assert Deck.objects.count() == 0 and DeckCard.objects.count() == 0


def test_list_is_filterable_by_format(user_client, user):
    DeckFactory(owner=user, format="standard")
    DeckFactory(owner=user, format="deuces_wild")
    r = user_client.get("/api/v1/decks/?fmt=deuces_wild")
    assert [d["format"] for d in r.json()["results"]] == ["deuces_wild"]
