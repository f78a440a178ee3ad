"""The bots' decks of a finished draft: built from exactly their picks, hidden until the end,
shown only to the people seated at the pod, and played against the person's draft deck."""

from __future__ import annotations

from collections import Counter

import pytest
from django.test import Client

from decks import selectors, services
from decks.engine_catalogue import engine_catalogue
from decks.models import DraftPick, DraftPod, DraftSeat
from simulator.engine.drifter import formats
from simulator.engine.drifter.sealed import Draft
from simulator.models import SimulationRun
from simulator.runs.services import run_execute_locally

pytestmark = pytest.mark.django_db


def draft_to_the_end(pod: DraftPod, people: dict[int, object], *, stop_after: int | None = None):
    """Every person takes the first card of their pack until the draft ends (or `stop_after`
    picks of seat 0)."""
    picks = 0
    while DraftPod.objects.get(pk=pod.pk).status == DraftPod.Status.DRAFTING:
        if stop_after is not None and picks >= stop_after:
            break
        draft = Draft.from_json(DraftPod.objects.get(pk=pod.pk).state)
        for seat, person in people.items():
            pack = draft.pack(seat)
            if pack:
                services.draft_pick(pod=pod, user=person, code=pack[0])
                if seat == 0:
                    picks += 1
    pod.refresh_from_db()
    return pod


def started_pod(owner, *, seats: int = 4, seed: int = 21) -> DraftPod:
    pod = services.draft_pod_create(owner=owner, seats=seats, set_codes="HSD", seed=seed)
    services.draft_pod_start(pod=pod, user=owner)
    pod.refresh_from_db()
    return pod


@pytest.fixture
def finished_pod(user, catalogue) -> DraftPod:
    """Four seats: `user` in seat 1 and three bots, drafted to the end."""
    return draft_to_the_end(started_pod(user), {0: user})


def bot_seats(pod: DraftPod) -> list[DraftSeat]:
    return list(pod.seat_set.filter(user__isnull=True).order_by("number"))


# --- built at the end ---------------------------------------------------------------------


def test_each_bot_deck_is_exactly_the_bots_picks_and_chips_and_legal_for_draw(finished_pod):
    draft = Draft.from_json(finished_pod.state)
    catalogue = engine_catalogue()
    bots = bot_seats(finished_pod)
    assert [s.number for s in bots] == [1, 2, 3]
    for seat in bots:
        picked = Counter(
            DraftPick.objects.filter(pod=finished_pod, seat=seat.number).values_list(
                "card__code", flat=True
            )
        )
        chips = Counter(draft.kicker_chips(seat.number))
        assert (
            DraftPick.objects.filter(pod=finished_pod, seat=seat.number, by_bot=False).count() == 0
        )
        assert seat.bot_deck["cards"] == dict(picked)
        assert sum(seat.bot_deck["cards"].values()) == 54
        assert seat.bot_deck["kicker_chips"] == dict(chips)
        assert sum(seat.bot_deck["kicker_chips"].values()) == 6
        problems = formats.validate_deck(
            fmt=formats.DRAW,
            cards=seat.bot_deck["cards"],
            kicker_chips=seat.bot_deck["kicker_chips"],
            catalogue=catalogue,
            pool=formats.Pool(cards=dict(picked), kicker_chips=dict(chips)),
        )
        assert problems == []


def test_the_persons_seat_keeps_its_own_pool_and_deck_and_no_bot_deck(finished_pod, user):
    mine = finished_pod.seat_set.get(user=user)
    assert mine.bot_deck is None
    assert mine.deck.owner == user and mine.deck.format == "draw"


def test_a_pod_that_ended_before_bot_decks_were_kept_gets_them_on_first_read(
    finished_pod, user_client
):
    built = {s.number: s.bot_deck for s in bot_seats(finished_pod)}
    DraftSeat.objects.filter(pod=finished_pod).update(bot_deck=None)  # as an old pod was
    body = user_client.get(f"/api/v1/drafts/{finished_pod.pk}/").json()
    assert [d["seat"] for d in body["bot_decks"]] == [1, 2, 3]
    assert {s.number: s.bot_deck for s in bot_seats(finished_pod)} == built


# --- hidden until the end, and only for the people at the pod -----------------------------


def test_bot_decks_are_hidden_while_the_draft_runs(user, user_client, catalogue):
    pod = draft_to_the_end(started_pod(user), {0: user}, stop_after=5)
    assert pod.status == DraftPod.Status.DRAFTING
    body = user_client.get(f"/api/v1/drafts/{pod.pk}/").json()
    assert body["bot_decks"] is None
    assert all(s.bot_deck is None for s in bot_seats(pod))
    web = Client()
    web.force_login(user)
    page = web.get(f"/decks/drafts/{pod.pk}/").content.decode()
    assert 'id="bot-decks"' not in page and "Bot, seat" not in page
    r = user_client.post(f"/api/v1/drafts/{pod.pk}/simulate/", {"games": 5}, format="json")
    assert r.status_code == 400 and r.json()["errors"][0]["code"] == "draft_not_over"
    assert not SimulationRun.objects.exists()


def test_an_open_pod_shows_no_bot_decks_to_anyone(user, other_user, catalogue):
    pod = services.draft_pod_create(owner=user, seats=3, set_codes="HSD", seed=1)
    from rest_framework.test import APIClient

    stranger = APIClient()
    stranger.force_authenticate(other_user)
    assert stranger.get(f"/api/v1/drafts/{pod.pk}/").json()["bot_decks"] is None


def test_the_api_lists_every_bot_deck_once_the_draft_is_over(finished_pod, user_client):
    body = user_client.get(f"/api/v1/drafts/{finished_pod.pk}/").json()
    decks = body["bot_decks"]
    assert [d["seat"] for d in decks] == [1, 2, 3]
    for deck, seat in zip(decks, bot_seats(finished_pod)):
        assert deck["name"] == f"Bot, seat {seat.number + 1}"
        assert deck["format"] == "draw" and deck["legal"] is True and deck["errors"] == []
        assert {c["code"]: c["qty"] for c in deck["cards"]} == seat.bot_deck["cards"]
        assert sum(deck["by_type"].values()) == 54
        assert [c["type"] for c in deck["cards"]] == sorted(
            (c["type"] for c in deck["cards"]), key=["dude", "gear", "fortune"].index
        )
        assert {c["code"]: c["qty"] for c in deck["kicker_chips"]} == seat.bot_deck["kicker_chips"]
        assert (
            Counter(deck["picks"]) == Counter(seat.bot_deck["cards"]) and len(deck["picks"]) == 54
        )
    assert body["seat_list"][0]["deck"] == finished_pod.seat_set.get(number=0).deck_id


def test_the_pod_page_lists_the_bot_decks_by_type_with_chips(finished_pod, user):
    web = Client()
    web.force_login(user)
    page = web.get(f"/decks/drafts/{finished_pod.pk}/").content.decode()
    assert 'id="bot-decks"' in page and 'id="test-against-bots"' in page
    for seat in bot_seats(finished_pod):
        assert f'id="bot-deck-{seat.number}"' in page
        assert f"Bot, seat {seat.number + 1}" in page
    assert "Dudes (" in page and "Kicker chips (6)" in page and "a legal Draw deck" in page


def test_someone_not_seated_at_the_pod_gets_404(finished_pod, other_user):
    from rest_framework.test import APIClient

    stranger = APIClient()
    stranger.force_authenticate(other_user)
    assert stranger.get(f"/api/v1/drafts/{finished_pod.pk}/").status_code == 404
    r = stranger.post(f"/api/v1/drafts/{finished_pod.pk}/simulate/", {}, format="json")
    assert r.status_code == 404
    web = Client()
    web.force_login(other_user)
    assert web.get(f"/decks/drafts/{finished_pod.pk}/").status_code == 404
    assert web.post(f"/decks/drafts/{finished_pod.pk}/simulate/", {"games": 5}).status_code == 404
    # The simulations API takes no bot decks: named there, it is not a deck at all.
    r = stranger.post(
        "/api/v1/simulations/",
        {
            "game": "drifter",
            "format": "draw",
            "games": 1,
            "players": [{"starter": "HSD-S1"}, {"draft_bot": {"pod": finished_pod.pk, "seat": 1}}],
        },
        format="json",
    )
    assert r.status_code == 400
    assert not SimulationRun.objects.exists()


def test_the_bot_deck_source_refuses_anyone_not_seated(finished_pod, other_user):
    from simulator.games.problems import RunRefused
    from simulator.runs.services import run_create

    with pytest.raises(RunRefused) as refused:
        run_create(
            owner=other_user,
            game="drifter",
            kind="gauntlet",
            format="draw",
            games=1,
            players=[
                {"draft_bot": {"pod": finished_pod.pk, "seat": 1}},
                {"draft_bot": {"pod": finished_pod.pk, "seat": 2}},
            ],
        )
    assert {e["code"] for e in refused.value.problems} == {"not_found"}
    assert not SimulationRun.objects.exists()


# --- testing my deck against the bots -----------------------------------------------------


def test_testing_against_the_bots_starts_a_draw_gauntlet_of_my_deck_against_each_bot(
    finished_pod, user, user_client
):
    r = user_client.post(
        f"/api/v1/drafts/{finished_pod.pk}/simulate/", {"games": 2, "seed": 4}, format="json"
    )
    assert r.status_code == 202, r.json()
    body = r.json()
    assert r["Location"] == body["url"] and body["url"].endswith(f"/simulations/{body['id']}/")
    run = SimulationRun.objects.get(pk=body["id"], owner=user)
    mine = finished_pod.seat_set.get(user=user)
    assert (run.game, run.kind, run.format, run.games, run.seed) == (
        "drifter", "gauntlet", "draw", 2, 4,
    )  # fmt: skip
    assert run.plan["matchups"] == [[0, 1], [0, 2], [0, 3]] and run.total_games == 6
    players = run.plan["players"]
    assert players[0]["source"] == f"deck:{mine.deck_id}"
    assert [p["source"] for p in players[1:]] == [
        f"draft:{finished_pod.pk}:seat:{n}" for n in (2, 3, 4)
    ]
    for player, seat in zip(players[1:], bot_seats(finished_pod)):
        assert Counter(player["seat"]["deck"]) == Counter(seat.bot_deck["cards"])
        assert Counter(player["seat"]["chips"]) == Counter(seat.bot_deck["kicker_chips"])
        assert player["label"].startswith(f"Bot, seat {seat.number + 1}")
    # The engine plays the decks as they are (no worker: the same chunks, in process).
    run = run_execute_locally(run=run)
    assert run.status == "done" and run.games_done == 6


def test_the_test_run_uses_the_idempotency_key(finished_pod, user_client):
    url = f"/api/v1/drafts/{finished_pod.pk}/simulate/"
    first = user_client.post(url, {"games": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    again = user_client.post(url, {"games": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert first.json()["id"] == again.json()["id"]
    assert SimulationRun.objects.count() == 1


@pytest.mark.parametrize(
    ("payload", "code", "attr"),
    [
        ({"games": 0}, "min_value", "games"),
        ({"games": "many"}, "invalid", "games"),
        ({"games": 2_000_000}, "max_value", "games"),
        ({"seed": -1}, "min_value", "seed"),
        ({"bot": "card-sharp"}, "unknown_bot", "players.0.bot"),
    ],
)
def test_bad_input_is_a_400_and_starts_nothing(finished_pod, user_client, payload, code, attr):
    r = user_client.post(f"/api/v1/drafts/{finished_pod.pk}/simulate/", payload, format="json")
    assert r.status_code == 400
    assert (code, attr) in {(e["code"], e["attr"]) for e in r.json()["errors"]}
    assert not SimulationRun.objects.exists()


def test_a_refused_run_leaves_an_old_pods_bot_decks_unbuilt(finished_pod, user_client):
    DraftSeat.objects.filter(pod=finished_pod).update(bot_deck=None)
    r = user_client.post(
        f"/api/v1/drafts/{finished_pod.pk}/simulate/", {"bot": "card-sharp"}, format="json"
    )
    assert r.status_code == 400
    assert all(s.bot_deck is None for s in bot_seats(finished_pod))
    assert not SimulationRun.objects.exists()


def test_a_deleted_draft_deck_cannot_be_tested(finished_pod, user, user_client):
    finished_pod.seat_set.get(user=user).deck.delete()
    r = user_client.post(f"/api/v1/drafts/{finished_pod.pk}/simulate/", {}, format="json")
    assert r.status_code == 400 and r.json()["errors"][0]["code"] == "no_draft_deck"
    assert not SimulationRun.objects.exists()


def test_a_changed_draft_deck_is_refused_with_the_validators_problems(
    finished_pod, user, user_client
):
    deck = finished_pod.seat_set.get(user=user).deck
    cards = {c: q for c, q in list(selectors.deck_contents(deck)[0].items())[1:]}
    services.deck_update(deck=deck, cards=cards)
    r = user_client.post(f"/api/v1/drafts/{finished_pod.pk}/simulate/", {}, format="json")
    assert r.status_code == 400
    codes = {(e["code"], e["attr"]) for e in r.json()["errors"]}
    assert ("deck_size", "players.0.cards") in codes
    assert not SimulationRun.objects.exists()


def test_a_pod_of_people_only_has_no_bots_to_test_against(user, other_user, catalogue):
    pod = services.draft_pod_create(owner=user, seats=2, set_codes="HSD", seed=8)
    services.draft_pod_join(pod=pod, user=other_user)
    services.draft_pod_start(pod=pod, user=user)
    pod = draft_to_the_end(pod, {0: user, 1: other_user})
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(user)
    assert client.get(f"/api/v1/drafts/{pod.pk}/").json()["bot_decks"] == []
    r = client.post(f"/api/v1/drafts/{pod.pk}/simulate/", {}, format="json")
    assert r.status_code == 400 and r.json()["errors"][0]["code"] == "no_bots"
    assert not SimulationRun.objects.exists()


def test_the_pod_page_button_starts_the_run_and_opens_its_page(finished_pod, user):
    web = Client()
    web.force_login(user)
    r = web.post(
        f"/decks/drafts/{finished_pod.pk}/simulate/", {"games": "3", "idempotency_key": "x"}
    )
    run = SimulationRun.objects.get(owner=user)
    assert r.status_code == 302 and r.url == f"/simulations/{run.pk}/"
    assert run.kind == "gauntlet" and run.format == "draw" and run.games == 3
    assert len(run.plan["players"]) == 4


def test_the_pod_page_button_with_bad_input_says_why_and_starts_nothing(finished_pod, user):
    web = Client()
    web.force_login(user)
    r = web.post(f"/decks/drafts/{finished_pod.pk}/simulate/", {"games": "0"}, follow=True)
    assert r.status_code == 200 and "games is a whole number" in r.content.decode()
    assert not SimulationRun.objects.exists()
