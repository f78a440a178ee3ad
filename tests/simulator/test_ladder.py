"""The bots' ladder (issue #25 §5): round robins of every bot of a game on the workers' runs,
rated by Bradley–Terry with bootstrap intervals; its command, page and API."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from config.api import DomainError
from simulator.games import service_for
from simulator.games.players import budget_problems
from simulator.games.problems import RunRefused
from simulator.games.runner import DecisionTime, play_chunk
from simulator.ladder import rating
from simulator.ladder.models import BotLadder
from simulator.ladder.services import ladder_create, ladder_entrants, ladder_rate
from simulator.runs.models import SimulationRun
from simulator.runs.services import run_create, run_execute_locally, runs_reconcile_due

# --- the rating --------------------------------------------------------------------------------


def test_a_bot_that_wins_four_games_in_five_ranks_above_the_other_with_ordered_intervals():
    fit = rating.fit(2, [rating.PairResult(0, 1, a_wins=80, b_wins=20, ties=0)], seed=3)
    strong, weak = fit.ratings
    assert strong["rating"] > weak["rating"]
    assert strong["low"] <= strong["rating"] <= strong["high"]
    assert weak["low"] <= weak["rating"] <= weak["high"]
    assert strong["low"] > weak["high"]  # 100 games at 80% leave no doubt
    assert fit.superiority[0][1] == 1.0 and fit.superiority[1][0] == 0.0
    # 80 of 100 and the prior's one drawn game: the model's chance is 80.5 / 101.
    assert fit.win_chance[0][1] == pytest.approx(80.5 / 101, abs=0.002)
    assert fit.superiority[0][0] is None


def test_ratings_are_reproducible_by_seed_and_a_clean_sweep_stays_finite():
    results = [
        rating.PairResult(0, 1, 50, 0, 0),
        rating.PairResult(0, 2, 30, 20, 0),
        rating.PairResult(1, 2, 10, 35, 5),
    ]
    first = rating.fit(3, results, seed=9, bootstrap=200)
    assert first == rating.fit(3, results, seed=9, bootstrap=200)
    top, bottom, middle = (r["rating"] for r in first.ratings)  # 0 beat both; 2 beat 1
    assert top > middle > bottom
    assert all(abs(r["rating"]) < 10_000 for r in first.ratings)


def test_an_entrant_with_no_games_cannot_be_rated():
    with pytest.raises(ValueError):
        rating.fit(3, [rating.PairResult(0, 1, 5, 5, 0)], seed=1)


# --- runs carry a bot's budget -------------------------------------------------------------------


def test_the_ladder_enters_each_registered_bot_and_a_higher_budget_of_a_budgeted_one():
    drifter = service_for("drifter")
    entrants = ladder_entrants(drifter)
    assert [e["bot"] for e in entrants if e["budget"] is None] == list(drifter.spec.bots)
    default, top = drifter.bot_budgets["search"]
    assert {"bot": "search", "budget": min(top, 4 * default), "label": "Search (budget 96)"} in (
        entrants
    )
    assert [e["budget"] for e in ladder_entrants(service_for("quickdraw"), TWO)] == [None, None]


@pytest.mark.django_db
def test_a_run_player_carries_its_bots_budget_and_a_bad_one_is_refused(user, catalogue):
    players = [
        {"starter": "HSD-S1", "bot": "search", "budget": 30},
        {"starter": "HSD-S2", "bot": "heuristic"},
    ]
    run, _ = run_create(owner=user, game="drifter", players=players, games=1, dispatch=False)
    assert run.plan["players"][0]["budget"] == 30
    assert "budget" not in run.plan["players"][1]
    assert "search@30" in run.plan["cost_key"]
    bad = [{**players[0], "budget": 10_000}, {**players[1], "budget": 5}]
    with pytest.raises(RunRefused) as refused:
        run_create(owner=user, game="drifter", players=bad, games=1, dispatch=False)
    assert [(p["code"], p["attr"]) for p in refused.value.problems] == [
        ("bad_budget", "players.0.budget"),
        ("no_budget", "players.1.budget"),
    ]
    assert budget_problems(service_for("drifter"), "search", 400, "x") == []


def test_a_timing_pass_counts_every_decision_of_each_player():
    plan = {
        "game": "quickdraw", "rules": {}, "seed": 5, "games": 4, "pairs": [],
        "players": [{"label": "a", "bot": "random", "source": None},
                    {"label": "b", "bot": "heuristic", "source": None}],
        "matchups": [[0, 1]],
    }  # fmt: skip
    timings = [DecisionTime(), DecisionTime()]
    timed = play_chunk(plan, 0, 4, timings=timings)
    assert timed.aggregate == play_chunk(plan, 0, 4).aggregate  # timing changes no game
    assert all(t.decisions > 0 and t.seconds > 0 for t in timings)


# --- building and rating a ladder ----------------------------------------------------------------


TWO = ["random", "heuristic"]  # the fast bots: a ladder of them plays in a second or two


def build(game: str = "quickdraw", games: int = 30, seed: int = 4) -> tuple[BotLadder, str]:
    out = io.StringIO()
    call_command(
        "bots_ladder", "--game", game, "--games", str(games), "--seed", str(seed), "--local",
        "--bots", "random,heuristic", stdout=out, stderr=io.StringIO(),
    )  # fmt: skip
    return BotLadder.objects.get(), out.getvalue()


@pytest.mark.django_db
def test_the_command_builds_and_rates_a_small_ladder_in_this_process(user):
    ladder, printed = build()
    assert ladder.status == BotLadder.Status.DONE
    (run,) = ladder.runs.all()
    assert run.kind == SimulationRun.Kind.ROUND_ROBIN and run.status == SimulationRun.Status.DONE
    result = ladder.result
    assert result["games"] == 30 and result["runs"] == [run.pk]
    rows = result["entrants"]
    assert sorted(r["bot"] for r in rows) == ["heuristic", "random"]
    assert [r["rank"] for r in rows] == [1, 2]
    assert rows[0]["rating"] >= rows[1]["rating"]
    assert all(r["low"] <= r["rating"] <= r["high"] for r in rows)
    assert all(r["wins"] + r["losses"] + r["ties"] == r["games"] == 30 for r in rows)
    assert all(r["ms_per_decision"] is not None and r["decisions_timed"] > 0 for r in rows)
    assert len(result["superiority"]) == 2 and result["superiority"][0][0] is None
    assert f"Ladder {ladder.pk} of quickdraw: done" in printed
    assert rows[0]["label"] in printed
    again = BotLadder.objects.get(pk=ladder.pk)
    assert ladder_rate(ladder_id=again.pk) == 0  # rated once


@pytest.mark.django_db
def test_a_ladder_whose_run_failed_says_so_and_is_not_rated(user):
    ladder = ladder_create(owner=user, game="quickdraw", games=2, seed=1, bots=TWO, dispatch=False)
    assert ladder_rate(ladder_id=ladder.pk) == 0  # its run has not played
    ladder.runs.update(status=SimulationRun.Status.FAILED)
    assert ladder_rate(ladder_id=ladder.pk) == 1
    ladder.refresh_from_db()
    assert ladder.status == BotLadder.Status.FAILED and ladder.result is None
    assert "failed" in ladder.error


@pytest.mark.django_db
def test_a_ladder_is_rated_when_the_reconcilers_tick_finds_its_runs_ended(user):
    ladder = ladder_create(owner=user, game="quickdraw", games=3, seed=2, bots=TWO, dispatch=False)
    run_execute_locally(run=ladder.runs.get())
    counts = runs_reconcile_due()
    assert counts["ladders"] == 1
    ladder.refresh_from_db()
    assert ladder.status == BotLadder.Status.DONE


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("game", "games", "bots", "code", "attr"),
    [
        ("nope", 10, None, "unknown_game", "game"),
        ("quickdraw", 0, None, "invalid", "games"),
        ("quickdraw", 10, ["random", "genius"], "unknown_bot", "bots"),
        ("quickdraw", 10, ["random"], "unknown_bot", "bots"),
    ],
)
def test_a_ladder_of_no_game_no_games_or_unknown_bots_is_refused_and_nothing_written(
    user, game, games, bots, code, attr
):
    with pytest.raises(DomainError) as refused:
        ladder_create(owner=user, game=game, games=games, bots=bots, dispatch=False)
    assert (refused.value.problems[0]["code"], refused.value.problems[0]["attr"]) == (code, attr)
    assert not BotLadder.objects.exists() and not SimulationRun.objects.exists()


# --- the page and the API ------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_page_says_how_to_build_a_ladder_when_there_is_none(client):
    page = client.get(reverse("bots:ladder"))
    assert page.status_code == 200
    body = page.content.decode()
    assert "No ladder yet" in body and "manage.py bots_ladder" in body
    assert reverse("bots:ladder") in body  # in the site's navigation


@pytest.mark.django_db
def test_the_page_and_the_api_show_the_ladder_with_its_intervals(client, user):
    ladder, _ = build()
    rows = ladder.result["entrants"]
    body = client.get(reverse("bots:ladder")).content.decode()
    assert "No ladder yet" not in body
    assert "Quickdraw" in body and "Heuristic" in body and "Random" in body
    assert f"{rows[0]['low']:.0f} to {rows[0]['high']:.0f}" in body
    assert "30 games" in body and "Which bot is stronger" in body
    listed = client.get("/api/v1/bots/ladder/", {"game": "quickdraw"}).json()
    assert listed["count"] == 1
    detail = client.get(listed["results"][0]["url"]).json()
    assert detail["id"] == ladder.pk and detail["status"] == "done"
    assert detail["result"]["entrants"][0]["rating"] == rows[0]["rating"]
    assert client.get("/api/v1/bots/ladder/", {"game": "duel"}).json()["count"] == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "status", "code", "attr"),
    [
        ("/api/v1/bots/ladder/?game=poker", 400, "invalid_choice", "game"),
        ("/api/v1/bots/ladder/?game=", 400, "blank", "game"),
        ("/api/v1/bots/ladder/?limit=many", 400, None, "limit"),
        ("/api/v1/bots/ladder/424242/", 404, "not_found", None),
    ],
)
def test_bad_input_to_the_api_is_a_4xx_in_the_one_error_shape(client, url, status, code, attr):
    response = client.get(url)
    assert response.status_code == status
    (error,) = response.json()["errors"]
    assert set(error) >= {"code", "detail", "attr"}
    assert error["attr"] == attr
    if code:
        assert error["code"] == code
