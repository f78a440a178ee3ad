"""In a real Chromium: the deck doctor's form on a deck, a search started from it and
cancelled, and a finished search's suggestions, at 1280 and 390 px (no page wider than the
screen, no console error, no blocking axe violation). Screenshots: /tmp/shots-doctor/
(DRIFTER_SHOTS overrides)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.checks import WIDTHS, PageChecks


def _planted_for(username: str):
    from django.contrib.auth import get_user_model

    from tests.simulator.test_doctor import planted_deck

    return planted_deck(get_user_model().objects.get(username=username))


@pytest.mark.parametrize("width", WIDTHS)
def test_the_doctor_form_starts_a_search_that_can_be_cancelled(signed_up_page, width):
    page = signed_up_page
    checks = PageChecks(page, width=width, label="doctor")
    deck = _planted_for("cowpoke")
    page.goto(f"/decks/{deck.pk}/")
    page.click("#doctor")
    page.wait_for_url(f"**/simulations/doctor/deck/{deck.pk}/")
    expect(page.locator("#id_opponent_0")).to_have_value("starter:HSD-S2")
    checks.page_ok("e2e-form")
    page.select_option("#id_budget", "2000")
    page.click("#start-doctor")
    page.wait_for_url("**/simulations/doctor/*/")
    expect(page.locator("#doctor-status")).to_have_text("Queued")
    checks.page_ok("e2e-queued")
    page.click("#cancel-doctor")
    expect(page.locator("#doctor-status")).to_have_text("Cancelled")
    assert checks.errors == []


def test_a_finished_search_shows_its_verdict_and_evidence(signed_up_page):
    """One search played, then its page at each width (the search is the slow part): the
    verdict, every swap, Holm named, and each swap's link to its evidence."""
    from simulator.doctor.services import doctor_create, doctor_execute_locally

    page = signed_up_page
    deck = _planted_for("cowpoke")
    doctor, _ = doctor_create(
        owner=deck.owner, deck_id=deck.pk, gauntlet=[{"starter": "HSD-S2"}], budget=2000, seed=1
    )
    doctor = doctor_execute_locally(doctor=doctor)
    for width in WIDTHS:
        checks = PageChecks(page, width=width, label="doctor")
        page.goto(f"/simulations/doctor/{doctor.pk}/")
        expect(page.locator("#doctor-verdict")).to_be_visible()
        expect(page.locator("#doctor-swaps li")).to_have_count(len(doctor.result["swaps"]))
        expect(page.locator("#doctor-progress")).to_contain_text("Holm")
        checks.page_ok("e2e-result")
        page.click("#doctor-swaps li >> text=The evidence")
        page.wait_for_url(f"**/simulations/{doctor.result['swaps'][0]['run']}/")
        assert checks.errors == [], width


def test_a_chained_search_shows_its_steps_in_order_and_applies_the_chain(signed_up_page):
    """Adds from the format's whole pool, 12,000 games, seed 0: step 1 proves a swap early,
    step 2 (the deck with it made) proves another (deterministic for this seed). The search is
    played once (it is the slow part); then its page, at each width, lists the chain ("then
    cut ..."), each step with its swaps and evidence; at the last width the chain applies as
    one new version of the deck named by both swaps. (tests/simulator/test_doctor.py's
    6,000-game chain is no substitute: its second step proves no swap, a chain of one.)"""
    from simulator.doctor.services import chain_swaps, doctor_create, doctor_execute_locally

    page = signed_up_page
    deck = _planted_for("cowpoke")
    doctor, _ = doctor_create(
        owner=deck.owner, deck_id=deck.pk, gauntlet=[{"starter": "HSD-S2", "bot": "heuristic"}],
        source="format", budget=12000, seed=0, bot="heuristic",  # the bots this seed was sized for
    )  # fmt: skip
    doctor = doctor_execute_locally(doctor=doctor)
    steps = doctor.result["steps"]
    chain = chain_swaps(doctor)
    assert len(steps) == len(chain) == 2
    for width in WIDTHS:
        checks = PageChecks(page, width=width, label="doctor")
        page.goto(f"/simulations/doctor/{doctor.pk}/")
        for step in steps:
            section = page.locator(f"#doctor-step-{step['step']}")
            expect(section.locator("h2")).to_contain_text(f"Step {step['step']}")
            expect(section.locator(".doctor-swaps li")).to_have_count(len(step["swaps"]))
            expect(section.locator(".doctor-swaps li").first).to_contain_text("The evidence")
        expect(page.locator("#doctor-progress")).to_contain_text("Each step is its own test at 5%")
        expect(page.locator("#doctor-chain li")).to_have_count(2)
        expect(page.locator("#doctor-chain li").nth(1)).to_contain_text(
            f"then cut {chain[1]['cut_name']} for {chain[1]['add_name']}"
        )
        checks.page_ok("e2e-chain")
        assert checks.errors == [], width
    page.click("#doctor-step-2 .doctor-apply-chain")  # at the last width, a phone's
    page.wait_for_url(f"**/decks/{deck.pk}/")
    named = "; ".join(f"\u22121 {s['cut_name']}, +1 {s['add_name']}" for s in chain)
    expect(page.locator("body")).to_contain_text(f"Deck doctor: {named}")
    assert checks.errors == []


def test_a_proven_swap_is_checked_with_stronger_bots_and_its_verdict_shown(signed_up_page):
    """#25 §6: the page says what the swaps were measured with; "Check with stronger bots"
    beside a proven swap starts the check and comes back to the doctor, which reads the
    check's status, then (played here, in process) its verdict beside the swap, without a
    reload."""
    from django.contrib.auth import get_user_model

    from simulator.runs.models import SimulationRun
    from simulator.runs.services import run_execute_locally
    from tests.simulator.test_doctor import proven_doctor

    page = signed_up_page
    checks = PageChecks(page, width=390, label="doctor")
    doctor = proven_doctor(get_user_model().objects.get(username="cowpoke"))
    page.goto(f"/simulations/doctor/{doctor.pk}/")
    expect(page.locator("#doctor-measured")).to_have_text("Measured with heuristic bots.")
    button = page.locator("#doctor-swaps .doctor-check")
    expect(button).to_have_text("Check with stronger bots")
    button.click()
    page.wait_for_url(f"**/simulations/doctor/{doctor.pk}/")
    check = SimulationRun.objects.get(checks_id=doctor.result["swaps"][0]["run"])
    expect(page.locator(f"#check-verdict-{check.pk}")).to_contain_text("still playing")
    SimulationRun.objects.filter(pk=check.pk).update(games=20)
    check.refresh_from_db()
    run_execute_locally(run=check)
    verdict = page.locator(f"#check-verdict-{check.pk}")  # the page polls while it plays
    expect(verdict).to_contain_text("with sharp bots in every seat", timeout=15_000)
    expect(page.locator("#doctor-progress[hx-get]")).to_have_count(0)  # and then stops
    assert verdict.get_attribute("data-verdict") in ("holds", "weaker", "reverses", "unclear")
    checks.page_ok("e2e-check")
    assert checks.errors == []
