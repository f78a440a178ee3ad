"""In a real Chromium: the metagame lab. A player builds a field of five decks through the
form (the two starter decks, played by different bots), runs it with a small budget, watches
it play (in this process, as the doctor's journeys do) and reads its answer, tier list,
matchups, equilibrium and the drift of the meta, at 390 and 1280 px (no page wider than the
screen, no console error, no blocking axe violation, the charts drawn). Screenshots:
/tmp/shots-metagame/ (DRIFTER_SHOTS overrides)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.checks import PageChecks

#: (deck, bot) of each row: the starters, each played by more than one bot.
ROWS = [
    ("starter:HSD-S1", ""),
    ("starter:HSD-S2", ""),
    ("starter:HSD-S1", "random"),
    ("starter:HSD-S2", "sharp"),
    ("starter:HSD-S1", "sharp"),
]
SHARES = ["3", "2", "1", "2", "1"]
SECTIONS = ("#field-summary", "#tier-table", "#heatmap", "#equilibrium-table", "#drift-end")
CHARTS = ("tier-chart", "equilibrium-chart", "drift-chart")


def _build_a_field(page, checks: PageChecks) -> None:
    page.goto("/simulations/")
    page.click("#metagame-lab")
    page.wait_for_url("**/simulations/fields/")
    page.click("#new-field")
    page.wait_for_url("**/simulations/fields/new/")
    checks.page_ok("form")
    page.fill("#id_name", "Saturday night at the Lucky Horseshoe")
    for i, ((deck, bot), share) in enumerate(zip(ROWS, SHARES, strict=True)):
        page.select_option(f"#id_choice_{i}", deck)
        page.fill(f"#id_share_{i}", share)
        page.select_option(f"#id_bot_{i}", bot)
    page.select_option("#id_bot", "heuristic")
    page.select_option("#id_budget", "1000")
    page.click("#save-field")
    page.wait_for_url("**/simulations/fields/*/")
    expect(page.locator("#field-decks tbody tr")).to_have_count(5)
    expect(page.locator("#field-decks")).to_contain_text("33.3%")
    checks.page_ok("field")


def _read_the_answer(page, checks: PageChecks, name: str) -> None:
    for section in SECTIONS:
        expect(page.locator(section)).to_be_visible()
    expect(page.locator("#field-headline")).to_contain_text("Bring ")
    expect(page.locator("#field-stopped")).to_contain_text("confidence")
    expect(page.locator("#heatmap td.heat-mirror")).to_have_count(5)
    for chart in CHARTS:
        expect(page.locator(f"canvas[data-chart='{chart}-data'][data-drawn]")).to_have_count(1)
    checks.page_ok(name)


def test_a_field_is_built_run_and_read_on_a_phone_and_a_desktop(signed_up_page):
    from simulator.metagame.models import FieldRun
    from simulator.metagame.services import field_run_execute_locally

    page = signed_up_page
    phone = PageChecks(page, width=390, label="metagame")
    _build_a_field(page, phone)
    page.click("#run-field")
    page.wait_for_url("**/simulations/field-runs/*/")
    expect(page.locator("#field-run-progress[hx-get]")).to_have_count(1)
    phone.page_ok("run-playing")
    field_run = field_run_execute_locally(field_run=FieldRun.objects.get())
    assert field_run.status == "done", field_run.error
    # The page polls while the run plays, and shows the answer in place when it is done.
    expect(page.locator("#field-summary")).to_be_visible(timeout=15_000)
    expect(page.locator("#field-run-progress[hx-get]")).to_have_count(0)
    _read_the_answer(page, phone, "run-done")
    desktop = PageChecks(page, width=1280, label="metagame")
    page.reload()
    _read_the_answer(page, desktop, "run-done")
    page.click("#games-went summary")
    expect(page.locator("#games-table tbody tr")).to_have_count(10)
    page.click(".breadcrumbs >> text=Metagame lab")
    expect(page.locator("#field-list")).to_contain_text("Bring ")
    desktop.page_ok("list")
    assert phone.errors == [] and desktop.errors == []


def test_a_field_at_tables_of_four_is_read_on_a_phone_and_a_desktop(signed_up_page):
    """Tables of four (#28 §1.5): the form's table size, the run's tier list with win rates
    and mean places, and the section that says no matchup grid describes these games."""
    from simulator.metagame.models import FieldRun
    from simulator.metagame.services import field_run_execute_locally

    page = signed_up_page
    phone = PageChecks(page, width=390, label="metagame-tables")
    page.goto("/simulations/fields/new/")
    page.fill("#id_name", "Four at a table")
    for i, ((deck, bot), share) in enumerate(zip(ROWS[:3], SHARES[:3], strict=True)):
        page.select_option(f"#id_choice_{i}", deck)
        page.fill(f"#id_share_{i}", share)
        page.select_option(f"#id_bot_{i}", bot)
    page.select_option("#id_table_size", "4")
    page.select_option("#id_budget", "1000")
    page.click("#save-field")
    page.wait_for_url("**/simulations/fields/*/")
    expect(page.locator("#table-note")).to_contain_text("tables of 4 players")
    phone.page_ok("field")
    page.click("#run-field")
    page.wait_for_url("**/simulations/field-runs/*/")
    field_run = field_run_execute_locally(field_run=FieldRun.objects.get())
    assert field_run.status == "done", field_run.error
    expect(page.locator("#field-summary")).to_be_visible(timeout=15_000)
    for width, checks in (
        (390, phone),
        (1280, PageChecks(page, width=1280, label="metagame-tables")),
    ):
        page.set_viewport_size({"width": width, "height": 900})
        page.reload()
        expect(page.locator("#field-headline")).to_contain_text("Bring ")
        expect(page.locator("#tier-table tbody tr")).to_have_count(3)
        expect(page.locator("#no-matrix-text")).to_contain_text("does not describe games of 4")
        expect(page.locator("#heatmap")).to_have_count(0)
        expect(page.locator("canvas[data-chart='tier-chart-data'][data-drawn]")).to_have_count(1)
        checks.page_ok("run-done")
        assert checks.errors == []
