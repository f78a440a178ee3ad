"""In Chromium: a simulation's stored game on the replay viewer, the game's table stepped one
decision at a time to the end with the keys and the buttons, one seat's view and every card
face up, at a desktop's width and a phone's; no page wider than the screen, no console error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from simulator.runs.services import run_execute_locally
from tests.e2e.checks import assert_accessible, assert_fits
from tests.simulator.test_simulation_pages import _start

# Where to save screenshots to look at (none unless asked: DRIFTER_SHOTS=/tmp/shots-...).
SHOTS = os.environ.get("DRIFTER_SHOTS")

RUNS = {
    "drifter": {"game": "drifter", "format": "standard", "deck_0": "starter:HSD-S1",
                "deck_1": "starter:HSD-S2", "bot_0": "heuristic", "bot_1": "heuristic"},
    "quickdraw": {"game": "quickdraw"},
    "duel": {"game": "duel", "bot_0": "random", "bot_1": "random"},
    "gunfighter": {"game": "gunfighter", "bot_0": "random", "bot_1": "random"},
    "tabletown": {"game": "tabletown", "bot_0": "random", "bot_1": "random"},
}  # fmt: skip


def _sample_url(game: str) -> str:
    client = Client()
    client.force_login(get_user_model().objects.get(username="cowpoke"))
    run = _start(client, games="2", **RUNS[game])
    run_execute_locally(run=run)  # played here: the runs' queue has no worker in this test
    return f"/simulations/{run.pk}/games/{run.samples.first().pk}/"


def _shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


@pytest.mark.parametrize(
    ("game", "width"),
    [("drifter", 1280), ("drifter", 390), ("quickdraw", 390), ("duel", 1280),
     ("gunfighter", 390), ("tabletown", 1280)],
)  # fmt: skip
def test_step_a_replay_to_its_end_on_the_table(signed_up_page, game, width):
    page = signed_up_page
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(_sample_url(game))
    expect(page.locator(f".felt-{game}")).to_be_visible()
    expect(page.locator("#step-counter")).to_contain_text("Step 0 of")
    expect(page.locator("#table-result")).to_have_count(0)
    assert_fits(page)
    assert_accessible(page)
    page.click("#next-step")
    expect(page.locator("#step-counter")).to_contain_text("Step 1 of")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-counter")).to_contain_text("Step 2 of")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#step-counter")).to_contain_text("Step 1 of")
    _shot(page, f"{game}-{width}-seat")
    page.click("#face-up")
    expect(page.locator("#face-up")).to_have_attribute("aria-current", "true")
    assert page.locator(".felt .card-back").count() == 0 or game == "drifter"
    page.keyboard.press("End")
    expect(page.locator("#next-step")).to_have_count(0)
    expect(page.locator("#table-result")).to_be_visible()
    last = page.locator(".replay-controls").get_attribute("data-last")
    expect(page.locator("#step-counter")).to_have_text(f"Step {last} of {last}")
    assert "seat=all" in page.url and f"step={last}" in page.url
    assert_fits(page)
    _shot(page, f"{game}-{width}-end")
    page.reload()
    expect(page.locator("#table-result")).to_be_visible()
    assert not errors, errors
