"""The simulation API without a worker: submission checks, ownership, idempotency, cancel,
and a run played in-process by the same `chunk_execute` a worker calls."""

from __future__ import annotations

import pytest

from simulator.models import ChunkResult, SimulationChunk, SimulationRun
from simulator.runs.services import run_execute_locally

QUICKDRAW = {
    "game": "quickdraw",
    "games": 40,
    "seed": 11,
    "players": [{"bot": "heuristic"}, {"bot": "random"}],
}


def starter_run(games: int = 4, **extra) -> dict:
    return {
        "game": "drifter",
        "format": "standard",
        "games": games,
        "seed": 5,
        "players": [{"starter": "HSD-S1", "bot": "random"}, {"starter": "HSD-S2", "bot": "random"}],
        **extra,
    }


def test_post_answers_202_with_location_and_the_run(user_client):
    response = user_client.post("/api/v1/simulations/", QUICKDRAW, format="json")
    assert response.status_code == 202, response.json()
    body = response.json()
    assert response["Location"].endswith(f"/api/v1/simulations/{body['id']}/")
    assert body["url"] == response["Location"]
    assert body["status"] == "queued"
    assert body["total_games"] == 40
    assert body["chunk_count"] == SimulationChunk.objects.filter(run_id=body["id"]).count()
    poll = user_client.get(body["url"])
    assert poll.status_code == 200
    assert poll.json()["games_done"] == 0


def test_a_run_played_in_process_finishes_with_exactly_the_games_asked(user_client, settings):
    settings.SIMULATION_CHUNK_SECONDS = 0.001  # many small chunks
    body = user_client.post("/api/v1/simulations/", QUICKDRAW, format="json").json()
    run = SimulationRun.objects.get(pk=body["id"])
    assert run.chunk_count > 3
    run = run_execute_locally(run=run)
    assert run.status == "done"
    assert run.games_done == 40
    assert ChunkResult.objects.filter(run=run).count() == run.chunk_count
    results = user_client.get(f"/api/v1/simulations/{run.pk}/results/").json()
    players = results["players"]
    assert sum(p["wins"] + p["ties"] for p in players) >= 40
    assert players[0]["games"] == players[1]["games"] == 40
    assert 0 <= players[0]["win_rate"]["low"] <= players[0]["win_rate"]["rate"]


def test_drifter_starter_decks_report_cards_stakes_and_records(user_client, catalogue):
    body = user_client.post("/api/v1/simulations/", starter_run(6), format="json").json()
    run = run_execute_locally(run=SimulationRun.objects.get(pk=body["id"]))
    assert run.status == "done" and run.games_done == 6
    results = user_client.get(f"/api/v1/simulations/{run.pk}/results/").json()
    first = results["players"][0]
    assert first["stakes"]["histogram"]
    assert first["cards"], "cards played are reported"
    assert results["turns"]["mean"] > 0
    records = user_client.get(f"/api/v1/simulations/{run.pk}/records/").json()
    assert records
    one = user_client.get(f"/api/v1/simulations/{run.pk}/records/{records[0]['id']}/").json()
    from simulator.engine import drifter

    assert drifter.replay(one["record"]).final() == one["final"]


def test_an_illegal_deck_is_refused_at_submission_with_the_validators_errors(
    user_client, user, catalogue
):
    from decks.services import deck_create

    deck = deck_create(owner=user, name="Short", fmt="standard", cards={"HSD-001": 1})
    payload = starter_run(players=[{"deck": deck.pk}, {"starter": "HSD-S1"}])
    response = user_client.post("/api/v1/simulations/", payload, format="json")
    assert response.status_code == 400
    codes = {(e["code"], e["attr"]) for e in response.json()["errors"]}
    assert ("deck_size", "players.0.cards") in codes
    assert not SimulationRun.objects.exists()


def test_a_what_if_change_that_breaks_the_deck_is_refused(user_client, catalogue):
    payload = starter_run(
        kind="what_if",
        players=[{"starter": "HSD-S1"}, {"starter": "HSD-S1", "add": {"HSD-001": 1}}],
    )
    response = user_client.post("/api/v1/simulations/", payload, format="json")
    assert response.status_code == 400
    assert any(e["attr"].startswith("players.1") for e in response.json()["errors"])


def test_a_run_over_the_cap_is_refused(user_client, settings):
    settings.SIMULATION_MAX_GAMES_PER_RUN = 100
    response = user_client.post("/api/v1/simulations/", QUICKDRAW | {"games": 101}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "over_cap"


def test_too_many_active_runs_are_refused(user_client, settings):
    settings.SIMULATION_MAX_ACTIVE_RUNS = 2
    for _ in range(2):
        assert user_client.post("/api/v1/simulations/", QUICKDRAW, format="json").status_code == 202
    response = user_client.post("/api/v1/simulations/", QUICKDRAW, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "too_many_runs"


def test_idempotency_key_returns_the_same_run(user_client):
    headers = {"HTTP_IDEMPOTENCY_KEY": "abc-123"}
    first = user_client.post("/api/v1/simulations/", QUICKDRAW, format="json", **headers)
    again = user_client.post("/api/v1/simulations/", QUICKDRAW, format="json", **headers)
    assert first.status_code == again.status_code == 202
    assert first.json()["id"] == again.json()["id"]
    assert first["Location"] == again["Location"]
    assert SimulationRun.objects.count() == 1
    other = user_client.post("/api/v1/simulations/", QUICKDRAW, format="json")
    assert other.json()["id"] != first.json()["id"]


def test_the_same_key_from_another_user_is_another_run(user_client, other_user):
    from rest_framework.test import APIClient

    headers = {"HTTP_IDEMPOTENCY_KEY": "shared"}
    mine = user_client.post("/api/v1/simulations/", QUICKDRAW, format="json", **headers).json()
    client = APIClient()
    client.force_authenticate(other_user)
    theirs = client.post("/api/v1/simulations/", QUICKDRAW, format="json", **headers).json()
    assert mine["id"] != theirs["id"]


def test_another_users_run_is_404(user_client, other_user):
    from rest_framework.test import APIClient

    run_id = user_client.post("/api/v1/simulations/", QUICKDRAW, format="json").json()["id"]
    client = APIClient()
    client.force_authenticate(other_user)
    for url in (f"/api/v1/simulations/{run_id}/", f"/api/v1/simulations/{run_id}/results/"):
        assert client.get(url).status_code == 404
    assert client.post(f"/api/v1/simulations/{run_id}/cancel/").status_code == 404
    assert client.get("/api/v1/simulations/").json()["count"] == 0


def test_anonymous_cannot_start_a_run(api_client, db):
    assert api_client.post("/api/v1/simulations/", QUICKDRAW, format="json").status_code == 401


def test_cancel_stops_dispatch_and_workers_skip_the_chunks(user_client, settings):
    from simulator.runs.services import chunk_execute

    settings.SIMULATION_CHUNK_SECONDS = 0.001
    run_id = user_client.post("/api/v1/simulations/", QUICKDRAW, format="json").json()["id"]
    response = user_client.post(f"/api/v1/simulations/{run_id}/cancel/")
    assert response.json()["status"] == "cancelled"
    queued = SimulationChunk.objects.filter(run_id=run_id, status="queued").first()
    if queued is not None:
        assert chunk_execute(chunk_id=queued.pk, send_no=queued.sends) == "skipped"
    assert not SimulationChunk.objects.filter(run_id=run_id, status="pending").exists()
    assert not ChunkResult.objects.filter(run_id=run_id).exists()
    again = user_client.post(f"/api/v1/simulations/{run_id}/cancel/").json()
    assert again["status"] == "cancelled"


def test_unknown_game_and_bad_player_counts_are_refused(user_client):
    bad_game = user_client.post(
        "/api/v1/simulations/", QUICKDRAW | {"game": "poker"}, format="json"
    )
    assert bad_game.status_code == 400
    assert bad_game.json()["errors"][0]["code"] == "unknown_game"
    three = QUICKDRAW | {"players": [{"bot": "random"}] * 3}
    assert user_client.post("/api/v1/simulations/", three, format="json").status_code == 400
    bot = QUICKDRAW | {"players": [{"bot": "psychic"}, {"bot": "random"}]}
    errors = user_client.post("/api/v1/simulations/", bot, format="json").json()["errors"]
    assert errors[0]["code"] == "unknown_bot"


@pytest.mark.parametrize("kind", ["gauntlet", "round_robin"])
def test_gauntlet_and_round_robin_fill_the_matchup_matrix(user_client, kind):
    payload = QUICKDRAW | {
        "kind": kind,
        "games": 10,
        "players": [{"bot": "heuristic"}, {"bot": "random"}, {"bot": "random"}],
    }
    run_id = user_client.post("/api/v1/simulations/", payload, format="json").json()["id"]
    run = run_execute_locally(run=SimulationRun.objects.get(pk=run_id))
    matchups = 2 if kind == "gauntlet" else 3
    assert run.games_done == 10 * matchups
    matrix = user_client.get(f"/api/v1/simulations/{run_id}/results/").json()["matrix"]
    assert matrix[0][1]["n"] == 10
    assert (matrix[1][2] is not None) == (kind == "round_robin")


def test_what_if_reports_a_paired_difference(user_client, catalogue):
    payload = starter_run(
        8,
        kind="what_if",
        players=[
            {"starter": "HSD-S1", "bot": "random"},
            {"starter": "HSD-S1", "bot": "random", "label": "A'"},
            {"starter": "HSD-S2", "bot": "random"},
        ],
    )
    run_id = user_client.post("/api/v1/simulations/", payload, format="json").json()["id"]
    run_execute_locally(run=SimulationRun.objects.get(pk=run_id))
    what_if = user_client.get(f"/api/v1/simulations/{run_id}/results/").json()["what_if"]
    # The same deck on the same seeds plays the same games: no difference at all.
    assert what_if[0]["difference"]["n"] == 8
    assert what_if[0]["difference"]["mean"] == 0
    assert what_if[0]["a"]["k"] == what_if[0]["b"]["k"]


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"games": 0, "players": []},
        QUICKDRAW | {"games": -1},
        QUICKDRAW | {"games": 1_000_001},
        QUICKDRAW | {"kind": "knockout"},
        QUICKDRAW | {"players": "two"},
        QUICKDRAW | {"players": [{"bot": 7}, {"deck": "x"}]},
        QUICKDRAW | {"seed": -5},
        QUICKDRAW | {"format": "stud"},
        QUICKDRAW | {"variants": ["lowball"]},
        QUICKDRAW | {"players": [{"deck": 999999}, {"bot": "random"}]},
        starter_run(format="jousting"),
        starter_run(variants=["high_low", "lowball"]),
        starter_run(players=[{"deck": 999999}, {"starter": "NOPE"}]),
        starter_run(players=[{"bot": "random"}, {"bot": "random"}]),
        starter_run(kind="match", players=[{"starter": "HSD-S1"}] * 9),
    ],
)
def test_bad_input_is_a_400_in_the_one_error_shape(user_client, catalogue, payload):
    response = user_client.post("/api/v1/simulations/", payload, format="json")
    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert errors and all({"code", "detail", "attr"} <= set(e) for e in errors)
    assert not SimulationRun.objects.exists()


def test_someone_elses_private_deck_is_unknown_but_a_public_one_plays(
    user_client, other_user, catalogue
):
    from cards.models import StarterDeck
    from decks.services import deck_create

    starter = StarterDeck.objects.get(code="HSD-S1")
    cards = {e["code"]: e["qty"] for e in starter.cards}
    private = deck_create(owner=other_user, name="Mine", cards=cards)
    refused = user_client.post(
        "/api/v1/simulations/",
        starter_run(players=[{"deck": private.pk}, {"starter": "HSD-S2"}]),
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json()["errors"][0] == {
        "code": "not_found", "detail": "No such deck.", "attr": "players.0"
    }  # fmt: skip
    # A public deck plays once it is legal: the starter's cards and $50 of kicker chips.
    from cards.models import KickerChip

    chips, total = {}, 0
    for chip in KickerChip.objects.order_by("-value", "code"):
        while total + chip.value <= 50 and chips.get(chip.code, 0) < 3:
            chips[chip.code] = chips.get(chip.code, 0) + 1
            total += chip.value
    assert total == 50
    public = deck_create(
        owner=other_user, name="Shared", cards=cards, kicker_chips=chips, is_public=True
    )
    response = user_client.post(
        "/api/v1/simulations/",
        starter_run(players=[{"public_deck": public.slug}, {"deck": public.pk}]),
        format="json",
    )
    assert response.status_code == 202, response.json()
    assert [p["source"] for p in response.json()["players"]] == [f"deck:{public.pk}"] * 2


def _chunk_states(run_id: int) -> list[tuple]:
    return list(
        SimulationChunk.objects.filter(run_id=run_id).values_list("status", "sends", "sent_at")
    )


def test_reading_a_runs_status_only_reads_it(user_client, settings, django_assert_max_num_queries):
    """A poll re-sends and dispatches nothing, even with every chunk overdue: the workers'
    timer reconciles. So it costs one query however many chunks the run has, and that query
    leaves the results (which grow with the players and cards) unread."""
    settings.SIMULATION_CHUNK_SECONDS = 0.001
    settings.SIMULATION_QUEUED_STALE_SECONDS = 0
    body = user_client.post("/api/v1/simulations/", QUICKDRAW, format="json").json()
    before = _chunk_states(body["id"])
    assert len(before) > 3
    with django_assert_max_num_queries(1) as queries:
        response = user_client.get(body["url"])
    assert response.status_code == 200
    assert response.json()["status"] == "queued"
    assert _chunk_states(body["id"]) == before
    assert '"aggregate"' not in queries.captured_queries[0]["sql"]


def test_the_list_of_runs_is_ordered_as_asked(user_client):
    """`?ordering=`: newest first by default, oldest first when asked (with `?stages=` too)."""
    first = user_client.post("/api/v1/simulations/", QUICKDRAW, format="json").json()["id"]
    second = user_client.post("/api/v1/simulations/", QUICKDRAW, format="json").json()["id"]

    def ids(query: str) -> list[int]:
        answer = user_client.get(f"/api/v1/simulations/{query}")
        assert answer.status_code == 200
        return [run["id"] for run in answer.json()["results"]]

    assert ids("") == ids("?ordering=-created_at") == [second, first]
    assert ids("?ordering=created_at") == ids("?ordering=created_at&stages=true") == [first, second]


def test_a_field_runs_rounds_are_listed_only_when_asked_for(user_client, user, client, catalogue):
    """A field run plays its rounds as runs of their own; the list of my runs (the API and the
    page) holds the runs I started, and those rounds' runs only with `stages`, so that one
    field of ten decks (45 runs a round) does not bury them."""
    from simulator.metagame.services import field_create, field_run_create

    mine = user_client.post("/api/v1/simulations/", QUICKDRAW, format="json").json()
    decks = [{"starter": "HSD-S1", "share": 1}, {"starter": "HSD-S2", "share": 1}]
    field = field_create(owner=user, name="Saturday", entries=decks, bot="random", budget=200)
    field_run_create(field=field, seed=3)
    stage_ids = set(
        SimulationRun.objects.filter(field_stage__isnull=False).values_list("pk", flat=True)
    )
    assert stage_ids and mine["id"] not in stage_ids

    def listed(query: str = "") -> dict[int, dict | None]:
        answer = user_client.get(f"/api/v1/simulations/{query}")
        assert answer.status_code == 200
        return {run["id"]: run["part_of"] for run in answer.json()["results"]}

    assert listed() == listed("?stages=false") == {mine["id"]: None}
    everything_api = listed("?stages=true")
    assert set(everything_api) == {mine["id"], *stage_ids}
    # each round's run says what it is part of, as the page does, with the API link to it
    field_run = field.runs.get()
    assert everything_api[mine["id"]] is None
    for run_id in stage_ids:
        assert everything_api[run_id] == {
            "kind": "field_run", "id": field_run.pk, "round": 1,
            "description": "Round 1 of a run of the field Saturday",
            "url": f"http://testserver/api/v1/field-runs/{field_run.pk}/",
        }  # fmt: skip
    bad = user_client.get("/api/v1/simulations/?stages=maybe")
    assert bad.status_code == 400 and bad.json()["errors"][0]["attr"] == "stages"
    # each stage run is still one of mine to open
    assert user_client.get(f"/api/v1/simulations/{min(stage_ids)}/").status_code == 200

    client.force_login(user)
    page = client.get("/simulations/").content.decode()
    assert f"#{mine['id']}<" in page and f"#{min(stage_ids)}<" not in page
    assert f"Not listed: {len(stage_ids)} run" in page
    everything = client.get("/simulations/?stages=1").content.decode()
    assert f"#{min(stage_ids)}<" in everything and "Only the runs I started" in everything
    # each says what it is part of, with the link to it; mine says I started it
    assert everything.count("Round 1 of a run of the field Saturday") == len(stage_ids)
    assert f'href="/simulations/field-runs/{field_run.pk}/"' in everything
    assert everything.count("Started by you") == 1
    # a round's own page says so too, and its progress (which the page polls) is mine to read
    stage_page = client.get(f"/simulations/{min(stage_ids)}/").content.decode()
    assert "Round 1 of a run of the field Saturday" in stage_page
    assert f'href="/simulations/field-runs/{field_run.pk}/"' in stage_page
    assert client.get(f"/simulations/{min(stage_ids)}/progress/").status_code == 200
    assert 'id="part-of"' not in client.get(f"/simulations/{mine['id']}/").content.decode()
