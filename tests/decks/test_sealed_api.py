"""Stud pools and Draw pods through the services and the API."""

from __future__ import annotations

import pytest

from decks import selectors, services
from decks.models import DraftPick, DraftPod, Pool

pytestmark = pytest.mark.django_db


def test_opening_a_stud_pool_is_seeded_and_recorded(user_client, user, catalogue):
    r = user_client.post("/api/v1/pools/", {"set": "HSD", "seed": 1234}, format="json")
    assert r.status_code == 201
    pool = r.json()
    assert pool["seed"] == 1234 and len(pool["boosters"]) == 6
    assert (
        sum(e["qty"] for e in pool["cards"]) == 54
        and sum(e["qty"] for e in pool["kicker_chips"]) == 6
    )
    again = services.pool_open_stud(owner=user, set_codes="HSD", seed=1234)
    assert again.boosters == pool["boosters"]
    assert all(len(b["cards"]) == 9 and len(b["kicker_chips"]) == 1 for b in pool["boosters"])


def test_a_stud_deck_is_built_automatically_and_is_legal(user_client, catalogue):
    pool = user_client.post(
        "/api/v1/pools/", {"sets": ["HSD"] * 5 + ["DMH"], "seed": 7}, format="json"
    ).json()
    r = user_client.post(f"/api/v1/pools/{pool['id']}/deck/", {}, format="json")
    assert r.status_code == 201
    deck = r.json()
    assert deck["format"] == "stud" and deck["pool"] == pool["id"] and deck["legal"] is True


def test_a_stud_deck_by_hand_starts_empty_and_is_checked_against_the_pool(user_client, catalogue):
    pool = user_client.post("/api/v1/pools/", {"set": "HSD", "seed": 7}, format="json").json()
    deck = user_client.post(
        f"/api/v1/pools/{pool['id']}/deck/",
        {"auto": False, "variants": ["on_your_lonesome"]},
        format="json",
    ).json()
    assert deck["format"] == "on_your_lonesome+stud" and deck["cards"] == []
    outside = "HSD-012" if not any(e["code"] == "HSD-012" for e in pool["cards"]) else "HSD-013"
    user_client.patch(
        f"/api/v1/decks/{deck['id']}/", {"cards": [{"code": outside, "qty": 1}]}, format="json"
    )
    errors = user_client.get(f"/api/v1/decks/{deck['id']}/validate/").json()["errors"]
    assert {"deck_size", "not_in_pool"} <= {e["code"] for e in errors}


def test_a_draft_pod_with_a_person_and_bots_runs_to_decks(
    user_client, api_client, user, other_user, catalogue
):
    pod = user_client.post(
        "/api/v1/drafts/", {"set": "HSD", "seats": 3, "seed": 99}, format="json"
    ).json()
    assert pod["status"] == "open" and pod["my_seat"] == 0
    friend = api_client
    friend.force_authenticate(other_user)
    assert friend.post(f"/api/v1/drafts/{pod['id']}/join/").json()["my_seat"] == 1
    assert friend.post(f"/api/v1/drafts/{pod['id']}/start/").status_code == 400  # not the creator
    pod = user_client.post(f"/api/v1/drafts/{pod['id']}/start/").json()
    assert pod["status"] == "drafting" and pod["round"] == 1 and pod["pass_direction"] == "left"
    assert [s["is_bot"] for s in pod["seat_list"]] == [False, False, True]
    clients = {0: user_client, 1: friend}  # seat -> client
    while pod["status"] == "drafting":
        for client in clients.values():
            state = client.get(f"/api/v1/drafts/{pod['id']}/").json()
            if state["my_pack"]:
                r = client.post(
                    f"/api/v1/drafts/{pod['id']}/pick/",
                    {"card": state["my_pack"][0]},
                    format="json",
                )
                assert r.status_code == 200, r.json()
        pod = user_client.get(f"/api/v1/drafts/{pod['id']}/").json()
    assert DraftPick.objects.filter(pod_id=pod["id"]).count() == 3 * 54
    assert DraftPick.objects.filter(pod_id=pod["id"], by_bot=True).count() == 54
    for person in (user, other_user):
        (pool,) = Pool.objects.filter(owner=person, kind="draw")
        assert sum(pool.cards.values()) == 54 and sum(pool.kicker_chips.values()) == 6
        deck = pool.decks.get()
        assert deck.format == "draw" and selectors.deck_problems(deck) == []


def test_a_pick_not_in_your_pack_is_refused(user, catalogue):
    pod = services.draft_pod_create(owner=user, seats=2, set_codes="HSD", seed=3)
    services.draft_pod_start(pod=pod, user=user)
    with pytest.raises(services.DomainError):
        services.draft_pick(pod=pod, user=user, code="HSD-999")
    assert DraftPod.objects.get(pk=pod.pk).picks.count() == 0


def test_draft_is_deterministic_by_seed(user, other_user, catalogue):
    def run(owner):
        pod = services.draft_pod_create(owner=owner, seats=2, set_codes="HSD", seed=5)
        services.draft_pod_start(pod=pod, user=owner)
        while DraftPod.objects.get(pk=pod.pk).status == "drafting":
            from simulator.engine.drifter.sealed import Draft

            draft = Draft.from_json(DraftPod.objects.get(pk=pod.pk).state)
            services.draft_pick(pod=pod, user=owner, code=draft.pack(0)[0])
        return list(pod.picks.values_list("round", "pick_no", "seat", "card__code"))

    assert run(user) == run(other_user)
