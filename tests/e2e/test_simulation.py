"""In a real Chromium: the new-run form for two games (switching game in place), a results page at
1280 and 390 px (no page wider than the screen, no console error, the charts drawn), and a run
started from the form with a real Celery worker, watched to done.

Screenshots go to /tmp/shots-<branch>/ (DRIFTER_SHOTS overrides) for people to look at."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.checks import assert_accessible, assert_fits
from tests.workers import start_worker, stop_at_once

SHOTS = Path(os.environ.get("DRIFTER_SHOTS", "/tmp/shots-results"))
WIDTHS = (1280, 390)


def _watch_console(page: Page) -> list[str]:
    """Every console error and uncaught exception the page logs from now on."""
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_form_shows_only_the_chosen_games_options(signed_up_page, width):
    page = signed_up_page
    page.set_viewport_size({"width": width, "height": 900})
    errors = _watch_console(page)
    page.goto("/simulations/new/")
    options = page.locator("#game-options")
    expect(options).to_have_attribute("data-game", "drifter")
    expect(page.locator("#id_deck_0")).to_be_visible()
    expect(page.locator("#variant-options")).to_contain_text("Cold Hands")
    expect(page.locator("#id_bot_0 option[value=search]")).to_have_count(1)
    assert_fits(page)
    _shot(page, f"form-drifter-{width}")

    page.select_option("#id_game", "gunfighter")  # swapped in place by htmx
    expect(options).to_have_attribute("data-game", "gunfighter")
    expect(page.locator("#game-summary")).to_contain_text("gunfighters")
    expect(page.locator("#id_deck_0")).to_have_count(0)
    expect(page.locator("#format-options, #variant-options")).to_have_count(0)
    expect(page.locator("#id_bot_0 option[value=search]")).to_have_count(0)
    assert_fits(page)
    _shot(page, f"form-gunfighter-{width}")

    page.select_option("#id_game", "quickdraw")
    expect(options).to_have_attribute("data-game", "quickdraw")
    page.select_option("#id_bot_0", "heuristic")
    page.select_option("#id_bot_1", "random")
    page.fill("#id_games", "20")
    page.click("#start-run")
    page.wait_for_url("**/simulations/*/")
    expect(page.locator("#run-rules")).to_have_text("Quickdraw")
    assert errors == []


def _finished_run(username: str, game: str, **fields):
    from django.contrib.auth import get_user_model

    from simulator.runs.services import run_create, run_execute_locally

    owner = get_user_model().objects.get(username=username)
    run, _ = run_create(owner=owner, game=game, dispatch=False, **fields)
    run_execute_locally(run=run)
    return run


@pytest.mark.parametrize("width", WIDTHS)
def test_a_results_page_fits_the_screen_and_draws_its_charts(signed_up_page, width):
    page = signed_up_page
    run = _finished_run(
        "cowpoke", "drifter", kind="round_robin", games=12, seed=5, variants=["cold_hands"],
        players=[{"starter": "HSD-S1", "bot": "heuristic"}, {"starter": "HSD-S2", "bot": "random"},
                 {"starter": "HSD-S2", "bot": "heuristic"}],
    )  # fmt: skip
    page.set_viewport_size({"width": width, "height": 900})
    errors = _watch_console(page)
    page.goto(f"/simulations/{run.pk}/")
    expect(page.locator("#standings li")).to_have_count(3)
    expect(page.locator("#run-rules")).to_have_text("High Stakes Drifter · Standard · Cold Hands")
    expect(page.locator("#win-chart canvas[data-drawn]")).to_have_count(1)
    box = page.locator("#win-chart canvas").bounding_box()
    assert box and 0 < box["width"] <= width and box["height"] > 100
    assert_fits(page)
    _shot(page, f"results-{width}")

    # Every section opened: its charts are drawn then, inside the screen.
    page.locator("details.result-section").evaluate_all("all => all.forEach(d => (d.open = true))")
    charts = page.locator("canvas[data-chart]")
    expect(page.locator("canvas[data-chart]:not([data-drawn])")).to_have_count(0)
    assert charts.count() >= 7  # wins, going first, turns, shootouts, three ending stakes
    for i in range(charts.count()):
        b = charts.nth(i).bounding_box()
        assert b and b["width"] > 100 and b["height"] > 100 and b["x"] >= 0
        assert b["x"] + b["width"] <= width
    assert_fits(page)
    _shot(page, f"results-open-{width}")
    assert_accessible(page)
    assert errors == []


@pytest.mark.worker
def test_start_a_run_watch_it_finish_and_see_the_charts(signed_up_page, settings):
    queue = f"sim-e2e-{uuid.uuid4().hex[:8]}"
    settings.SIMULATION_QUEUE = queue
    settings.SIMULATION_CHUNK_SECONDS = 0.2
    worker = start_worker(queues=queue)
    try:
        page = signed_up_page
        errors = _watch_console(page)
        page.click("nav >> text=Simulations")
        page.wait_for_url("**/simulations/")
        page.click("#new-run")
        page.select_option("#id_game", "quickdraw")
        expect(page.locator("#game-options")).to_have_attribute("data-game", "quickdraw")
        page.fill("#id_games", "3000")
        page.fill("#id_seed", "42")
        page.select_option("#id_bot_0", "heuristic")
        page.select_option("#id_bot_1", "random")
        page.click("#start-run")
        page.wait_for_url("**/simulations/*/")
        expect(page.locator("[role=progressbar]")).to_be_visible()
        expect(page.locator("#run-status")).to_have_text("Done", timeout=120_000)
        expect(page.locator("#run-progress")).to_contain_text("3,000 of 3,000 games")
        expect(page.locator("#win-chart canvas[data-drawn]")).to_be_visible(timeout=20_000)
        expect(page.locator("#standings")).to_contain_text("Player 1 Heuristic bot")
        page.click("#replay-details > summary")
        page.click("#samples a >> nth=0")
        page.wait_for_url("**/games/*/")
        expect(page.locator("#narration")).to_be_visible()
        expect(page.locator("#step-counter")).to_contain_text("Step 0 of")
        page.click("#next-step")
        expect(page.locator("#step-counter")).to_contain_text("Step 1 of")
        assert errors == []
    finally:
        stop_at_once(worker)
