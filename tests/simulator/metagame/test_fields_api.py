"""The metagame lab's API (#28): fields (create, read, change, delete, copy), starting a field
run and its status, cancel and export; owner scoping, and every bad input refused in the one
error shape with nothing written."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cards.models import StarterDeck
from decks.services import deck_create
from simulator.metagame.models import Field, FieldRun
from simulator.metagame.services import field_create, field_run_create, field_run_execute_locally
from simulator.runs.models import SimulationRun
from tests.simulator.test_doctor import fifty_dollars

pytestmark = pytest.mark.django_db

BOT = "heuristic"
STARTERS = [{"starter": "HSD-S1", "share": 2}, {"starter": "HSD-S2", "share": 1}]


def legal_deck(owner, name: str = "Boomtown copy", *, public: bool = False):
    """A deck of `owner` legal in standard: starter HSD-S1's cards and $50 of kicker chips."""
    cards = {e["code"]: e["qty"] for e in StarterDeck.objects.get(code="HSD-S1").cards}
    return deck_create(
        owner=owner, name=name, cards=cards, kicker_chips=fifty_dollars(), is_public=public
    )


def body(**extra) -> dict:
    return {"name": "Saturday night", "bot": BOT, "budget": 300, "entries": STARTERS, **extra}


def a_field(owner, **extra) -> Field:
    values = {"name": "Saturday night", "bot": BOT, "budget": 300, "entries": STARTERS, **extra}
    return field_create(owner=owner, **values)


def written() -> tuple[int, int, int]:
    return Field.objects.count(), FieldRun.objects.count(), SimulationRun.objects.count()


def assert_refused(response, attr: str | None, status: int = 400) -> list[dict]:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"] == "application/json"
    errors = response.json()["errors"]
    assert errors and all(set(e) >= {"code", "detail", "attr"} for e in errors)
    if attr is not None:
        assert attr in [e["attr"] for e in errors], errors
    return errors


# --- fields ------------------------------------------------------------------------------------


def test_a_field_is_saved_with_its_defaults_and_read_back(user_client, user, catalogue):
    response = user_client.post("/api/v1/fields/", body(), format="json")
    assert response.status_code == 201, response.json()
    field = response.json()
    assert field["url"].endswith(f"/api/v1/fields/{field['id']}/")
    assert field["runs_url"].endswith(f"/api/v1/fields/{field['id']}/runs/")
    assert (field["confidence"], field["target"], field["public"], field["format"]) == (
        0.95, "best", False, ""
    )  # fmt: skip
    assert field["entries"] == STARTERS and field["mine"] and field["owner"] == user.username
    assert user_client.get(field["url"]).json() == field
    listed = user_client.get("/api/v1/fields/").json()
    assert [f["id"] for f in listed["results"]] == [field["id"]]


def test_a_field_takes_decks_of_every_kind_a_run_player_takes(
    user_client, user, other_user, catalogue
):
    own = legal_deck(user)
    public = legal_deck(other_user, "Their public deck", public=True)
    entries = [
        {"deck": own.pk, "share": 1.5, "bot": "random"},
        {"public_deck": public.slug, "share": 3},
        {"deck": public.pk, "share": 0, "bot": "search", "budget": 30},
        {"starter": "HSD-S2", "share": 2},
    ]
    response = user_client.post("/api/v1/fields/", body(entries=entries), format="json")
    assert response.status_code == 201, response.json()
    assert Field.objects.get().entries == entries


def test_public_fields_are_listed_only_when_asked(user_client, user, other_user, catalogue):
    mine = a_field(user)
    theirs = a_field(other_user, public=True)
    a_field(other_user, name="Their secret")
    ids = lambda r: [f["id"] for f in r.json()["results"]]  # noqa: E731
    assert ids(user_client.get("/api/v1/fields/")) == [mine.pk]
    assert sorted(ids(user_client.get("/api/v1/fields/?public=true"))) == [mine.pk, theirs.pk]
    assert ids(user_client.get("/api/v1/fields/?public=0")) == [mine.pk]
    assert_refused(user_client.get("/api/v1/fields/?public=maybe"), "public")


def test_another_users_private_field_is_a_404_everywhere(user_client, other_user, catalogue):
    theirs = a_field(other_user)
    base = f"/api/v1/fields/{theirs.pk}"
    for method, path in [
        ("get", f"{base}/"), ("put", f"{base}/"), ("patch", f"{base}/"), ("delete", f"{base}/"),
        ("post", f"{base}/copy/"), ("get", f"{base}/runs/"), ("post", f"{base}/runs/"),
    ]:  # fmt: skip
        data = {} if method == "get" else body()  # a GET's data would be its query
        response = getattr(user_client, method)(path, data, format="json")
        assert_refused(response, None, status=404)
    assert written() == (1, 0, 0)
    theirs.refresh_from_db()
    assert theirs.name == "Saturday night"


def test_another_users_public_field_is_read_and_copied_never_changed_or_run(
    user_client, user, other_user, catalogue
):
    theirs = a_field(other_user, public=True)
    base = f"/api/v1/fields/{theirs.pk}"
    read = user_client.get(f"{base}/")
    assert read.status_code == 200 and read.json()["mine"] is False
    for method, path in [
        ("put", f"{base}/"), ("patch", f"{base}/"), ("delete", f"{base}/"),
        ("post", f"{base}/runs/"),
    ]:  # fmt: skip
        assert_refused(getattr(user_client, method)(path, body(), format="json"), None, 404)
    assert user_client.get(f"{base}/runs/").json()["results"] == []
    copied = user_client.post(f"{base}/copy/", {}, format="json")
    assert copied.status_code == 201, copied.json()
    copy = Field.objects.get(pk=copied.json()["id"])
    assert copy.owner == user and copy.public is False and copy.name == "Saturday night (copy)"
    assert copy.entries == theirs.entries and copy.budget == theirs.budget
    assert user_client.post(f"/api/v1/fields/{copy.pk}/runs/", {}, format="json").status_code == 202


def test_a_copy_cannot_play_the_owners_private_decks(user_client, user, other_user, catalogue):
    private = legal_deck(other_user, "Their secret deck")
    theirs = a_field(other_user, public=True, entries=[*STARTERS, {"deck": private.pk, "share": 1}])
    before = written()
    response = user_client.post(f"/api/v1/fields/{theirs.pk}/copy/", {"name": "Mine"})
    [error] = assert_refused(response, "entries.2.deck")
    assert error["code"] == "not_found" and "private deck of its owner's" in error["detail"]
    assert written() == before


def test_a_field_is_changed_whole_or_in_part_and_checked_again(user_client, user, catalogue):
    field = a_field(user)
    url = f"/api/v1/fields/{field.pk}/"
    patched = user_client.patch(url, {"confidence": 0.9, "public": True}, format="json")
    assert patched.status_code == 200, patched.json()
    assert patched.json()["confidence"] == 0.9 and patched.json()["entries"] == STARTERS
    refused = user_client.patch(url, {"entries": [STARTERS[0]]}, format="json")
    assert_refused(refused, "entries")
    replaced = user_client.put(url, body(name="Sunday", target="support"), format="json")
    assert replaced.status_code == 200, replaced.json()
    field.refresh_from_db()
    assert (field.name, field.target, field.confidence, field.public) == (
        "Sunday", "support", 0.95, False
    )  # fmt: skip


def test_deleting_a_field_cancels_its_active_run(user_client, user, catalogue):
    field = a_field(user)
    field_run, _ = field_run_create(field=field, seed=1)
    stage_runs = [s.run for s in field_run.stages.all()]
    assert user_client.delete(f"/api/v1/fields/{field.pk}/").status_code == 204
    assert not Field.objects.exists() and not FieldRun.objects.exists()
    assert {SimulationRun.objects.get(pk=r.pk).status for r in stage_runs} == {"cancelled"}


# --- bad input ---------------------------------------------------------------------------------


def seventeen_decks() -> list[dict]:
    return [{"starter": "HSD-S1", "share": 1}] * 17


@pytest.mark.parametrize(
    ("change", "attr"),
    [
        ({"entries": [STARTERS[0], {"starter": "HSD-S2", "share": -1}]}, "entries.1.share"),
        ({"entries": [{"starter": "HSD-S1", "share": 0}, {"starter": "HSD-S2", "share": 0}]},
         "entries"),
        ({"entries": [*STARTERS, {"starter": "HSD-S2", "share": "3"}]}, "entries.2.share"),
        ({"entries": [*STARTERS, {"starter": "HSD-S2"}]}, "entries.2.share"),
        ({"entries": [*STARTERS, {"starter": "NOPE", "share": 1}]}, "entries.2.starter"),
        ({"entries": [*STARTERS, {"deck": "x", "share": 1}]}, "entries.2.deck"),
        ({"entries": [*STARTERS, {"share": 1}]}, "entries.2"),
        ({"entries": [*STARTERS, {"starter": "HSD-S1", "deck": 1, "share": 1}]}, "entries.2"),
        ({"entries": [*STARTERS, {"starter": "HSD-S1", "share": 5}]}, "entries.2"),  # again
        # the same deck again, once with the field's bot left implied and once named
        ({"entries": [*STARTERS, {"starter": "HSD-S1", "bot": BOT, "share": 5}]}, "entries.2"),
        ({"entries": [*STARTERS, {"starter": "HSD-S2", "bot": "psychic", "share": 1}]},
         "entries.2.bot"),
        ({"entries": [*STARTERS, {"starter": "HSD-S2", "bot": "random", "budget": 5,
                                  "share": 1}]}, "entries.2.budget"),
        ({"entries": seventeen_decks()}, "entries"),
        ({"entries": [STARTERS[0]]}, "entries"),
        ({"entries": "HSD-S1"}, "entries"),
        ({"budget": 199}, "budget"),
        ({"budget": 1_000_001}, "budget"),
        ({"budget": "300"}, "budget"),
        ({"confidence": 0.5}, "confidence"),
        ({"confidence": 0.9991}, "confidence"),
        ({"confidence": 1}, "confidence"),
        ({"confidence": "high"}, "confidence"),
        ({"target": "worst"}, "target"),
        ({"public": 0}, "public"),
        ({"name": ""}, "name"),
        ({"name": 7}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"bot": "psychic"}, "bot"),
        ({"format": "jousting"}, "format"),
    ],
)  # fmt: skip
def test_bad_input_is_a_400_naming_it_and_writes_nothing(user_client, catalogue, change, attr):
    before = written()
    response = user_client.post("/api/v1/fields/", body(**change), format="json")
    assert_refused(response, attr)
    assert written() == before


def test_a_deck_illegal_for_the_format_or_not_yours_is_refused_by_entry(
    user_client, user, other_user, catalogue
):
    tiny = deck_create(owner=user, name="Too small", cards={"HSD-001": 2})
    private = legal_deck(other_user, "Their secret deck")
    entries = [*STARTERS, {"deck": tiny.pk, "share": 1}, {"deck": private.pk, "share": 1}]
    before = written()
    errors = assert_refused(user_client.post("/api/v1/fields/", body(entries=entries)), None)
    attrs = [e["attr"] for e in errors]
    assert "entries.3.deck" in attrs
    assert [e for e in errors if e["attr"].startswith("entries.2")], errors  # deck size
    assert written() == before


def test_the_service_refuses_what_the_serializer_would_and_names_it_alike(user, catalogue):
    """The checks are the service's: a caller other than the API (a page, a command) gets the
    same problems, every one at once."""
    from simulator.games.problems import RunRefused

    with pytest.raises(RunRefused) as refused:
        field_create(
            owner=user, name=" ", budget=100, confidence=0.4, target="worst", public="no",
            entries=[STARTERS[0], {"starter": "HSD-S2", "share": -2, "colour": "red"}],
        )  # fmt: skip
    attrs = {p["attr"] for p in refused.value.problems}
    assert attrs >= {"name", "budget", "confidence", "target", "public", "entries.1.share",
                     "entries.1.colour"}  # fmt: skip
    with pytest.raises(RunRefused) as refused:
        field_create(owner=user, name="Nine", budget=300, entries=[
            {"starter": "HSD-S1", "share": float("nan")}, {"starter": "HSD-S2", "share": True},
        ])  # fmt: skip
    assert {p["attr"] for p in refused.value.problems} == {"entries.0.share", "entries.1.share"}
    with pytest.raises(RunRefused) as refused:
        field_create(owner=user, name="Many", budget=300, entries=[
            {"starter": "HSD-S1", "bot": BOT, "share": 1, "budget": n} for n in range(1, 10)
        ])  # fmt: skip
    # 9 decks are 36 pairs: round 0 needs 10 games of each; the heuristic bot takes no budget
    problems = {p["attr"]: p for p in refused.value.problems}
    assert set(problems) == {"budget"} | {f"entries.{n}.budget" for n in range(9)}
    assert problems["budget"]["detail"] == (
        "budget is a whole number of games from 360 to 1,000,000 for 9 decks."
    )
    assert written() == (0, 0, 0)


# --- field runs --------------------------------------------------------------------------------


def test_starting_a_run_answers_202_with_its_round_zero(user_client, user, catalogue):
    field = a_field(user, entries=[*STARTERS, {"starter": "HSD-S1", "bot": "random", "share": 1}])
    response = user_client.post(f"/api/v1/fields/{field.pk}/runs/", {"seed": 4}, format="json")
    assert response.status_code == 202, response.json()
    run = response.json()
    assert response["Location"] == run["url"]
    assert run["url"].endswith(f"/api/v1/field-runs/{run['id']}/")
    assert (run["status"], run["round"], run["games_spent"], run["seed"]) == ("queued", 0, 0, 4)
    assert [e["label"] for e in run["entries"]] == [
        "Boomtown Law (heuristic)", "Frontier Patrol", "Boomtown Law (random)"
    ]  # fmt: skip
    # Round 0: a fifth of the budget (60 games), 20 for each of the three pairs, a match run
    # each, of the pair's two decks.
    assert run["rounds"][0]["games"] == [[0, 20, 20], [20, 0, 20], [20, 20, 0]]
    stages = FieldRun.objects.get().stages.order_by("i", "j")
    assert [(s.i, s.j, s.round) for s in stages] == [(0, 1, 0), (0, 2, 0), (1, 2, 0)]
    assert sorted(run["stage_runs"]) == sorted(s.run_id for s in stages)
    for stage in stages:
        assert stage.run.kind == "match" and stage.run.games == 20 and stage.run.owner == user
        assert [p["bot"] for p in stage.run.plan["players"]] == [
            run["entries"][stage.i]["bot"], run["entries"][stage.j]["bot"]
        ]  # fmt: skip
    polled = user_client.get(run["url"]).json()
    assert polled["counts"]["games"] == [[0, 0, 0]] * 3 and polled["result"] is None
    listed = user_client.get(f"/api/v1/fields/{field.pk}/runs/").json()["results"]
    assert [r["id"] for r in listed] == [run["id"]]


def test_the_same_idempotency_key_returns_the_same_field_run(user_client, user, catalogue):
    field = a_field(user)
    url = f"/api/v1/fields/{field.pk}/runs/"
    one = user_client.post(url, {"seed": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    two = user_client.post(url, {"seed": 2}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert one.status_code == two.status_code == 202
    assert one.json()["id"] == two.json()["id"] and two.json()["seed"] == 1
    assert FieldRun.objects.count() == 1 and SimulationRun.objects.count() == 1


def test_a_run_checks_the_decks_again_and_its_own_input(user_client, user, catalogue):
    deck = legal_deck(user)
    field = a_field(user, entries=[*STARTERS, {"deck": deck.pk, "share": 1}])
    url = f"/api/v1/fields/{field.pk}/runs/"
    assert_refused(user_client.post(url, {"seed": -1}, format="json"), "seed")
    assert_refused(user_client.post(url, {"seed": "7"}, format="json"), "seed")
    assert_refused(user_client.post(url, {"reuse": "maybe"}, format="json"), "reuse")
    deck.delete()
    [error] = assert_refused(user_client.post(url, {}, format="json"), "entries.2.deck")
    assert error["code"] == "not_found"
    assert FieldRun.objects.count() == 0 and SimulationRun.objects.count() == 0


def test_field_runs_are_capped_like_simulation_runs(user_client, user, catalogue, settings):
    settings.SIMULATION_MAX_ACTIVE_RUNS = 1
    field = a_field(user)
    url = f"/api/v1/fields/{field.pk}/runs/"
    assert user_client.post(url, {}, format="json").status_code == 202
    [error] = assert_refused(user_client.post(url, {}, format="json"), None)
    assert error["code"] == "too_many_runs"
    assert FieldRun.objects.count() == 1


def test_starting_field_runs_counts_against_the_simulations_rate(user_client, user, settings):
    settings.THROTTLE_ENABLED = True
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "simulations": "1/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    url = reverse("api:field-runs", kwargs={"pk": 1})
    assert user_client.post(url, {}, format="json").status_code == 404  # counted all the same
    assert user_client.get(url).status_code == 404  # reading does not count
    response = user_client.post(url, {}, format="json")
    assert response.status_code == 429 and response.json()["errors"][0]["code"] == "throttled"


def test_another_users_field_run_is_a_404(user_client, other_user, catalogue):
    field_run, _ = field_run_create(field=a_field(other_user), seed=1)
    for method, path in [
        ("get", f"/api/v1/field-runs/{field_run.pk}/"),
        ("post", f"/api/v1/field-runs/{field_run.pk}/cancel/"),
        ("get", f"/api/v1/field-runs/{field_run.pk}/export/"),
        ("get", f"/api/v1/field-runs/{field_run.pk}/export/?as=json"),
    ]:
        assert_refused(getattr(user_client, method)(path), None, status=404)
    field_run.refresh_from_db()
    assert field_run.status == "queued"


def test_cancel_stops_the_field_run_and_its_runs(user_client, user, catalogue):
    from simulator.metagame.services import field_run_advance

    field_run, _ = field_run_create(field=a_field(user), seed=1)
    url = f"/api/v1/field-runs/{field_run.pk}/cancel/"
    cancelled = user_client.post(url)
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert {s.run.status for s in field_run.stages.all()} == {"cancelled"}
    assert field_run_advance(field_run_id=field_run.pk) == 0
    again = user_client.post(url)
    assert again.status_code == 200 and again.json()["status"] == "cancelled"


def test_an_unfinished_run_has_nothing_to_export(user_client, user, catalogue):
    field_run, _ = field_run_create(field=a_field(user), seed=1)
    url = f"/api/v1/field-runs/{field_run.pk}/export/"
    [error] = assert_refused(user_client.get(url), None, status=409)
    assert error["code"] == "not_finished"
    assert_refused(user_client.get(f"{url}?as=xlsx"), "as")


def test_a_second_run_reuses_the_first_unless_asked_not_to(user_client, user, catalogue):
    """Started over the API, a run of a field takes the games its last finished run played
    with the same decks (nothing left to play: answered at once, with no game), unless the
    request says `"reuse": false`, which plays every pair again."""
    field = a_field(user, entries=[*STARTERS, {"starter": "HSD-S1", "bot": "random", "share": 1}])
    first, _ = field_run_create(field=field, seed=1)
    field_run_execute_locally(field_run=first)
    url = f"/api/v1/fields/{field.pk}/runs/"
    again = user_client.post(url, {"seed": 2}, format="json").json()
    assert again["counts"]["reused"]["reused_from"] == first.pk
    assert again["games_spent"] == 0 and not FieldRun.objects.get(pk=again["id"]).stages.exists()
    fresh = user_client.post(url, {"seed": 3, "reuse": False}, format="json").json()
    assert "reused" not in fresh["counts"]
    assert fresh["rounds"][0]["games"] == [[0, 20, 20], [20, 0, 20], [20, 20, 0]]
