"""Every headline checkable under stronger play (#25 §6): the verdict rule, case by case; the
check endpoint (a linked run with the stronger bot in every seat, refusals that write nothing);
a player's budget on a new run; the comparison on the run's API answer and on both pages."""

from __future__ import annotations

import copy

import pytest

from simulator.games import service_for
from simulator.runs.headlines import change_headline, check_verdict, leader_headline
from simulator.runs.models import SimulationRun
from simulator.runs.services import run_check, run_create, run_execute_locally

# --- the verdict rule -----------------------------------------------------------------------


def _leader(leader, significant, rate=0.6, low=0.55, high=0.65):
    share = {"rate": rate, "low": low, "high": high}
    return {"kind": "leader", "leader": leader, "runner_up": 1 - leader, "share": share,
            "significant": significant, "games": 400}  # fmt: skip


def test_the_same_leader_significant_under_stronger_bots_holds():
    assert check_verdict(_leader(0, True), _leader(0, True)) == "holds"


def test_a_significant_check_holds_even_where_the_first_run_was_not():
    assert check_verdict(_leader(0, False), _leader(0, True)) == "holds"


def test_a_lead_that_is_no_longer_significant_is_weaker_whichever_way_it_leans():
    assert check_verdict(_leader(0, True), _leader(0, False)) == "weaker"
    assert check_verdict(_leader(0, True), _leader(1, False)) == "weaker"


def test_a_lead_that_shrank_beyond_the_intervals_is_weaker():
    before = _leader(0, True, rate=0.8, low=0.77, high=0.83)
    after = _leader(0, True, rate=0.6, low=0.56, high=0.64)
    assert check_verdict(before, after) == "weaker"


def test_the_other_side_significantly_ahead_reverses():
    assert check_verdict(_leader(0, True), _leader(1, True)) == "reverses"
    assert check_verdict(_leader(0, False), _leader(1, True)) == "reverses"


def test_neither_significant_or_a_check_still_playing_is_unclear():
    assert check_verdict(_leader(0, False), _leader(0, False)) == "unclear"
    assert check_verdict(_leader(0, False), _leader(1, False)) == "unclear"
    assert check_verdict(_leader(0, True), _leader(0, True), finished=False) == "unclear"
    assert check_verdict(_leader(0, True), None) == "unclear"


def test_a_headline_is_the_best_win_rate_clearly_ahead_only_above_every_interval():
    clear = leader_headline([300, 100], [400, 400])
    assert (clear["leader"], clear["runner_up"], clear["significant"]) == (0, 1, True)
    assert clear["share"]["low"] < 0.75 < clear["share"]["high"]
    close = leader_headline([48, 52], [100, 100])
    assert (close["leader"], close["significant"]) == (1, False)
    assert leader_headline([0, 0], [0, 0])["leader"] is None


def test_a_what_if_headline_is_the_side_the_paired_games_favour():
    # 100 paired games: the changed deck won 30 that A lost, A 5 that it lost.
    helps = change_headline(100, 25, 35, 5, 30)
    assert (helps["leader"], helps["significant"]) == (1, True)
    hurts = change_headline(100, -25, 35, 30, 5)
    assert (hurts["leader"], hurts["significant"]) == (0, True)
    assert hurts["share"]["rate"] == pytest.approx(0.25)
    assert hurts["share"]["low"] < 0.25 < hurts["share"]["high"]


def test_the_stronger_bot_is_the_next_up_each_games_order():
    drifter, quickdraw = service_for("drifter"), service_for("quickdraw")
    assert drifter.stronger_bot(["heuristic", "random"]) == "sharp"
    assert drifter.stronger_bot(["sharp"]) == "search"
    assert drifter.stronger_bot(["search"]) == "ismcts"
    assert drifter.stronger_bot(["ismcts"]) is None
    assert quickdraw.stronger_bot(["heuristic"]) == "ismcts"


# --- the check endpoint ---------------------------------------------------------------------

DRIFTER = {
    "game": "drifter",
    "format": "standard",
    "variants": ["cold_hands"],
    "games": 60,
    "seed": 5,
    "players": [{"starter": "HSD-S1", "bot": "sharp"}, {"starter": "HSD-S2", "bot": "random"}],
}


@pytest.fixture
def finished(user, catalogue):
    run, _ = run_create(owner=user, dispatch=False, **copy.deepcopy(DRIFTER))
    return run_execute_locally(run=run)


def test_a_check_is_the_same_question_with_the_stronger_bot_in_every_seat(user_client, finished):
    response = user_client.post(f"/api/v1/simulations/{finished.pk}/check/", {}, format="json")
    assert response.status_code == 202, response.json()
    body = response.json()
    assert response["Location"].endswith(f"/api/v1/simulations/{body['id']}/")
    assert body["checks"] == finished.pk
    assert body["measured_with"] == [{"bot": "search", "budget": None}]
    check = SimulationRun.objects.get(pk=body["id"])
    assert (check.game, check.format, check.variants, check.kind, check.seed) == (
        "drifter", "standard", ["cold_hands"], "match", 5,
    )  # fmt: skip
    assert [p["bot"] for p in check.plan["players"]] == ["search", "search"]
    assert [p["seat"]["deck"] for p in check.plan["players"]] == [
        p["seat"]["deck"] for p in finished.plan["players"]
    ]
    assert 1 <= check.games <= finished.games
    assert check.checks_id == finished.pk


def test_a_check_takes_a_bot_a_budget_and_games(user_client, finished):
    body = {"bot": "search", "budget": 8, "games": 10}
    response = user_client.post(f"/api/v1/simulations/{finished.pk}/check/", body, format="json")
    assert response.status_code == 202, response.json()
    check = SimulationRun.objects.get(pk=response.json()["id"])
    assert check.games == 10
    assert {(p["bot"], p.get("budget")) for p in check.plan["players"]} == {("search", 8)}


@pytest.mark.parametrize(
    ("body", "attr", "code"),
    [
        ({"bot": "wizard"}, "bot", "unknown_bot"),
        ({"bot": "search", "budget": 100_000}, "budget", "bad_budget"),
        ({"bot": "heuristic", "budget": 5}, "budget", "no_budget"),
        ({"games": 61}, "games", "invalid"),
    ],
)
def test_a_bad_check_is_refused_in_the_error_shape_and_writes_nothing(
    user_client, finished, body, attr, code
):
    before = SimulationRun.objects.count()
    response = user_client.post(f"/api/v1/simulations/{finished.pk}/check/", body, format="json")
    assert response.status_code == 400, response.json()
    (error,) = response.json()["errors"]
    assert (error["attr"], error["code"]) == (attr, code)
    assert SimulationRun.objects.count() == before


def test_another_users_run_is_not_found(finished, other_user, api_client):
    api_client.force_authenticate(other_user)
    response = api_client.post(f"/api/v1/simulations/{finished.pk}/check/", {}, format="json")
    assert response.status_code == 404
    assert SimulationRun.objects.filter(checks=finished).count() == 0


def test_a_run_not_finished_is_a_conflict(user_client, user, catalogue):
    run, _ = run_create(owner=user, dispatch=False, **copy.deepcopy(DRIFTER))
    response = user_client.post(f"/api/v1/simulations/{run.pk}/check/", {}, format="json")
    assert response.status_code == 409
    assert response.json()["errors"][0]["code"] == "not_finished"
    assert SimulationRun.objects.count() == 1


def test_a_finished_check_gives_both_runs_a_comparison_with_its_verdict(user_client, finished):
    check, _ = run_check(run=finished, games=12, dispatch=False)
    running = user_client.get(f"/api/v1/simulations/{check.pk}/").json()
    assert running["check"]["verdict"] == "unclear"
    assert running["check"]["status"] == "queued"
    run_execute_locally(run=check)
    mine = user_client.get(f"/api/v1/simulations/{check.pk}/").json()["check"]
    theirs = user_client.get(f"/api/v1/simulations/{finished.pk}/").json()
    assert theirs["check"] is None
    assert theirs["checked_by"] == [mine]
    assert mine["original"] == finished.pk and mine["run"] == check.pk
    assert mine["bot"] == "search" and mine["status"] == "done"
    assert mine["verdict"] in ("holds", "weaker", "reverses", "unclear")
    assert mine["original_bots"] == [
        {"bot": "sharp", "budget": None}, {"bot": "random", "budget": None}
    ]  # fmt: skip
    assert mine["check_headline"]["games"] == 12
    results = user_client.get(f"/api/v1/simulations/{finished.pk}/results/").json()
    assert results["measured_with"] == mine["original_bots"]
    assert results["headline"] == mine["original_headline"]


# --- a player's budget on a new run ---------------------------------------------------------


def test_a_new_run_takes_a_players_budget(user_client, catalogue):
    body = copy.deepcopy(DRIFTER)
    body["players"][0] |= {"bot": "search", "budget": 12}
    response = user_client.post("/api/v1/simulations/", body, format="json")
    assert response.status_code == 202, response.json()
    assert response.json()["players"][0]["budget"] == 12
    run = SimulationRun.objects.get(pk=response.json()["id"])
    assert run.plan["players"][0]["budget"] == 12
    assert "search@12" in run.plan["cost_key"]


@pytest.mark.parametrize(("bot", "budget", "code"), [("search", 401, "bad_budget"),
                                                      ("heuristic", 3, "no_budget")])  # fmt: skip
def test_a_bad_budget_is_refused_and_nothing_is_written(user_client, catalogue, bot, budget, code):
    body = copy.deepcopy(DRIFTER)
    body["players"][1] |= {"bot": bot, "budget": budget}
    response = user_client.post("/api/v1/simulations/", body, format="json")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["attr"], error["code"]) == ("players.1.budget", code)
    assert not SimulationRun.objects.exists()


# --- the pages ------------------------------------------------------------------------------


def test_the_results_page_says_what_the_headline_was_measured_with_and_offers_a_check(
    web, finished
):
    page = web.get(f"/simulations/{finished.pk}/results/").content.decode()
    assert "Measured with sharp and random bots." in page
    assert 'id="check-run"' in page and "the search bot in every seat" in page
    response = web.post(f"/simulations/{finished.pk}/check/", {"idempotency_key": "k1"})
    check = SimulationRun.objects.get(checks=finished)
    assert response.status_code == 302 and response["Location"] == f"/simulations/{check.pk}/"
    web.post(f"/simulations/{finished.pk}/check/", {"idempotency_key": "k1"})
    assert SimulationRun.objects.filter(checks=finished).count() == 1  # a double click: one
    assert "run #" in web.get(f"/simulations/{check.pk}/").content.decode()


def test_a_result_that_turns_around_under_stronger_bots_says_so(web, finished):
    check, _ = run_check(run=finished, games=12, dispatch=False)
    # The check's players won what the run's lost: the other side clearly ahead.
    aggregate = copy.deepcopy(finished.aggregate)
    for matchup in aggregate["matchups"]:
        matchup["positions"].reverse()
    SimulationRun.objects.filter(pk=check.pk).update(
        status="done", aggregate=aggregate, games_done=finished.games_done
    )
    page = web.get(f"/simulations/{finished.pk}/results/").content.decode()
    assert 'id="check-warning"' in page
    assert "Careful: with stronger bots this result turns around." in page
    assert 'data-verdict="reverses"' in page
    own = web.get(f"/simulations/{check.pk}/results/").content.decode()
    assert 'data-verdict="reverses"' in own and 'id="check-warning"' not in own


def test_a_check_of_a_run_not_finished_is_shown_not_made(web, user, catalogue):
    run, _ = run_create(owner=user, dispatch=False, **copy.deepcopy(DRIFTER))
    response = web.post(f"/simulations/{run.pk}/check/", follow=True)
    assert "only a finished run" in response.content.decode()
    assert SimulationRun.objects.count() == 1
