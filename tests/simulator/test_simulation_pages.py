"""The simulation pages: the form, the run page's polling fragment, SVG results, replays."""

from __future__ import annotations

import pytest

from simulator.models import SimulationRun
from simulator.services import run_execute_locally


@pytest.fixture
def logged_in(client, user):
    client.force_login(user)
    return client


def _start(client, **fields) -> SimulationRun:
    data = {"game": "quickdraw", "kind": "match", "games": "30", "seed": "3",
            "bot_0": "heuristic", "bot_1": "random"} | fields  # fmt: skip
    response = client.post("/simulations/new/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return SimulationRun.objects.latest("pk")


def test_the_form_offers_every_registered_game(logged_in, catalogue):
    from simulator.engine.core import games

    page = logged_in.get("/simulations/new/").content.decode()
    for spec in games().values():
        assert f'value="{spec.name}"' in page
    assert "fixed components: no deck" in page
    assert "HSD-S1" in page


def test_a_fixed_component_game_needs_no_deck(logged_in, catalogue):
    run = _start(logged_in, deck_0="starter:HSD-S1")  # ignored for quickdraw
    assert run.game == "quickdraw" and run.total_games == 30
    assert [p["source"] for p in run.plan["players"]] == [None, None]


def test_the_run_page_polls_until_done_then_loads_the_charts(logged_in, catalogue):
    run = _start(logged_in)
    page = logged_in.get(f"/simulations/{run.pk}/").content.decode()
    assert 'hx-trigger="every 1s"' in page and 'role="progressbar"' in page
    run_execute_locally(run=run)
    fragment = logged_in.get(f"/simulations/{run.pk}/progress/").content.decode()
    assert 'hx-trigger="every 1s"' not in fragment
    assert 'data-status="done"' in fragment and f"/simulations/{run.pk}/results/" in fragment
    results = logged_in.get(f"/simulations/{run.pk}/results/").content.decode()
    assert "<svg" in results and 'class="win-bar"' in results and 'class="whisker"' in results


def test_drifter_results_have_histograms_card_impact_and_a_replay(logged_in, catalogue):
    run = _start(logged_in, game="drifter", format="standard", games="6", deck_0="starter:HSD-S1",
                 deck_1="starter:HSD-S2", bot_0="random", bot_1="random")  # fmt: skip
    run_execute_locally(run=run)
    results = logged_in.get(f"/simulations/{run.pk}/results/").content.decode()
    assert 'class="hist-bar"' in results and 'class="impact-bar"' in results
    sample = run.samples.first()
    replay = logged_in.get(f"/simulations/{run.pk}/games/{sample.pk}/")
    assert replay.status_code == 200
    text = replay.content.decode()
    assert 'class="felt felt-drifter"' in text and 'id="narration"' in text and "goes first" in text
    assert 'id="table-result"' not in text  # no result before the end
    last = logged_in.get(f"/simulations/{run.pk}/games/{sample.pk}/?step=999").content.decode()
    assert 'id="table-result"' in last and "Stakes:" in last


def test_round_robin_shows_the_heatmap(logged_in, catalogue):
    run = _start(logged_in, kind="round_robin", bot_2="random", games="10")
    run_execute_locally(run=run)
    results = logged_in.get(f"/simulations/{run.pk}/results/").content.decode()
    assert 'class="heat-cell"' in results


def test_submitting_the_form_twice_makes_one_run(logged_in, catalogue):
    first = _start(logged_in, idempotency_key="form-1")
    again = _start(logged_in, idempotency_key="form-1")
    assert first.pk == again.pk
    assert SimulationRun.objects.count() == 1


def test_a_refused_run_shows_the_problems(logged_in, catalogue):
    response = logged_in.post("/simulations/new/", {"game": "quickdraw", "games": "10",
                                                    "bot_0": "heuristic"})  # fmt: skip
    assert response.status_code == 400
    assert b"run-errors" in response.content


def test_someone_elses_run_page_is_404(logged_in, other_user, client, catalogue):
    run = _start(logged_in)
    client.force_login(other_user)
    assert client.get(f"/simulations/{run.pk}/").status_code == 404
    assert client.get(f"/simulations/{run.pk}/results/").status_code == 404
