"""The service is generic over games: a game is served by its spec, found by its name, and a
game only the engine knows is planned, played, reported, charted and replayed whole."""

from __future__ import annotations

import dataclasses

import pytest

from simulator.engine.core import get_game, registry
from simulator.games import GameService, service_for, service_specs
from simulator.games.base import DEFAULT_GAME_COST
from simulator.games.problems import RunRefused
from simulator.games.replays import replay_step
from simulator.games.runner import estimate_cost
from simulator.runs.selectors import run_report
from simulator.runs.services import run_create, run_execute_locally


@pytest.fixture
def twin(monkeypatch):
    """Quickdraw registered again under a name no module of the service mentions."""
    spec = dataclasses.replace(get_game("quickdraw"), name="twin", title="Twin Quickdraw")
    monkeypatch.setitem(registry._GAMES, "twin", spec)
    service_for.cache_clear()
    yield spec
    service_for.cache_clear()


def test_each_game_is_served_by_its_own_spec_or_the_plain_one():
    specs = service_specs()
    assert type(specs["drifter"]).__module__ == "simulator.games.drifter"
    assert type(specs["quickdraw"]).__module__ == "simulator.games.quickdraw"
    assert type(specs["tabletown"]).__module__ == "simulator.games.tabletown"
    assert {name: s.spec.name for name, s in specs.items()} == {name: name for name in specs}


def test_a_game_only_the_engine_knows_is_served_whole(twin, user):
    game = service_for("twin")
    assert type(game) is GameService and game.title == "Twin Quickdraw"
    assert estimate_cost("twin", ["heuristic"]) == DEFAULT_GAME_COST

    with pytest.raises(RunRefused) as refused:
        run_create(owner=user, game="twin", players=[{}, {}], games=5, format="stud")
    assert [(e["code"], e["attr"]) for e in refused.value.problems] == [("invalid", "format")]
    with pytest.raises(RunRefused) as refused:
        run_create(
            owner=user, game="twin", players=[{"starter": "HSD-S1"}, {"bot": "nobody"}], games=5
        )
    assert [e["code"] for e in refused.value.problems] == ["no_decks", "unknown_bot"]

    run, _ = run_create(
        owner=user, game="twin", players=[{"bot": "heuristic"}, {"bot": "random"}], games=12,
        seed=4, dispatch=False,
    )  # fmt: skip
    assert run.plan["game"] == "twin" and "catalogue_version" not in run.plan
    assert [p["label"] for p in run.plan["players"]] == [
        "Player 1 (heuristic)",
        "Player 2 (random)",
    ]
    run_execute_locally(run=run)
    run.refresh_from_db()
    assert run.status == "done" and run.games_done == 12
    report = run_report(run)
    assert [p["games"] for p in report["players"]] == [12, 12]
    charts = game.charts(report, ["Player 1", "Player 2"])
    assert charts["win_chart"]["labels"] == ["Player 1", "Player 2"]
    assert len(charts["win_chart"]["series"][0]["values"]) == 2
    sample = run.samples.first()
    assert sample is not None
    last = replay_step(sample.record, 10**6, None)
    assert last.step == last.last > 0 and last.final == sample.final


def test_the_new_run_form_offers_a_game_only_the_engine_knows(twin, client, user):
    client.force_login(user)
    assert "Twin Quickdraw" in client.get("/simulations/new/").content.decode()


@pytest.mark.parametrize("game", ["drifter", "gunfighter", "duel", "quickdraw", "tabletown"])
def test_every_game_sets_the_ismcts_bots_budget(game):
    """The ISMCTS bot has a budget in every game (issue #25 §2): a seat's reaches the bot."""
    service = service_for(game)
    default, most = service.bot_budgets["ismcts"]
    assert 1 <= default <= most
    assert service.make_bot("ismcts", 1, 5, 7).iterations == 7
    assert service.make_bot("ismcts", 1, 5).iterations == default
