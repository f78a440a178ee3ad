"""In a real Chromium with a real Celery worker: start a run from the form, watch its progress
bar reach done, and see the charts."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from tests.workers import start_worker, stop_worker

pytestmark = pytest.mark.worker


def test_start_a_run_watch_it_finish_and_see_the_charts(signed_up_page, settings):
    queue = f"sim-e2e-{uuid.uuid4().hex[:8]}"
    settings.SIMULATION_QUEUE = queue
    settings.SIMULATION_CHUNK_SECONDS = 0.2
    worker = start_worker(queues=queue)
    try:
        page = signed_up_page
        page.click("nav >> text=Simulations")
        page.wait_for_url("**/simulations/")
        page.click("#new-run")
        page.select_option("#id_game", "quickdraw")
        page.fill("#id_games", "3000")
        page.fill("#id_seed", "42")
        page.select_option("#id_bot_0", "heuristic")
        page.select_option("#id_bot_1", "random")
        page.click("#start-run")
        page.wait_for_url("**/simulations/*/")
        expect(page.locator("[role=progressbar]")).to_be_visible()
        expect(page.locator("#run-status")).to_have_text("done", timeout=120_000)
        expect(page.locator("#run-progress")).to_contain_text("3,000 of 3,000 games")
        expect(page.locator("#win-chart svg")).to_be_visible(timeout=20_000)
        expect(page.locator("#win-chart rect.win-bar")).to_have_count(2)
        expect(page.locator("#player-table")).to_contain_text("Player 1 (heuristic)")
        page.click("#samples a >> nth=0")
        expect(page.locator("#narration")).to_be_visible()
        expect(page.locator("#step-counter")).to_contain_text("Step 0 of")
        page.click("#next-step")
        expect(page.locator("#step-counter")).to_contain_text("Step 1 of")
    finally:
        stop_worker(worker)
