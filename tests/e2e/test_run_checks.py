"""In a real Chromium at a phone's width, with a real Celery worker: a finished run's results
page says which bots measured its headline, "Check with stronger bots" starts the same games
again with the search bot in every seat, and the check's page reads the verdict side by side
with the run it checks (#25 §6)."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.checks import PageChecks, assert_fits
from tests.workers import start_worker, stop_at_once

VERDICTS = ("It holds", "It is weaker", "It turns around", "Unclear")


def _finished_run(username: str):
    from django.contrib.auth import get_user_model

    from simulator.runs.services import run_create, run_execute_locally

    owner = get_user_model().objects.get(username=username)
    run, _ = run_create(
        owner=owner, game="drifter", games=40, seed=5, dispatch=False,
        players=[{"starter": "HSD-S1", "bot": "sharp"}, {"starter": "HSD-S2", "bot": "random"}],
    )  # fmt: skip
    return run_execute_locally(run=run)


@pytest.mark.worker
def test_check_a_runs_headline_with_stronger_bots_and_read_the_verdict(signed_up_page, settings):
    queue = f"sim-e2e-{uuid.uuid4().hex[:8]}"
    settings.SIMULATION_QUEUE = queue
    settings.SIMULATION_CHUNK_SECONDS = 0.5
    settings.SIMULATION_CHECK_SECONDS = 2.0  # a short check: its games from the bots' costs
    worker = start_worker(queues=queue)
    try:
        page = signed_up_page
        checks = PageChecks(page, width=390, label="checks")
        run = _finished_run("cowpoke")
        page.goto(f"/simulations/{run.pk}/")
        expect(page.locator("#verdict")).to_contain_text("Measured with sharp and random bots")
        expect(page.locator("#check-run")).to_have_text("Check with stronger bots")
        assert_fits(page)
        checks.shot("results-before-check")

        page.click("#check-run")
        page.wait_for_url(lambda url: url.rstrip("/").split("/")[-1] not in ("", str(run.pk)))
        expect(page.locator("#check-of")).to_contain_text(f"run #{run.pk}")
        expect(page.locator("#run-status")).to_have_text("Done", timeout=120_000)
        verdict = page.locator(".check-verdict")
        expect(verdict).to_have_count(1, timeout=20_000)
        expect(verdict).to_contain_text("with search bots in every seat")
        text = verdict.inner_text()
        assert any(words in text for words in VERDICTS), text
        expect(page.locator("#measured-with")).to_contain_text("Measured with search bots")
        expect(page.locator(".check-side")).to_have_count(2)
        assert_fits(page)
        checks.shot("check-verdict")

        page.goto(f"/simulations/{run.pk}/")  # the run checked shows the same verdict
        expect(page.locator(".check-verdict")).to_have_text(text.split("stronger bots. ", 1)[-1])
        assert_fits(page)
        assert checks.errors == []
    finally:
        stop_at_once(worker)
