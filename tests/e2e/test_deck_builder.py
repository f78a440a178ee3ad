"""The deck builder in a real browser, at a desktop's and a phone's width: search, add copies
with the 1/2/3 buttons, kicker chips toward $50, legality, the card preview, saving a version,
export, and an import whose error keeps the text and suggests the card meant. No page is wider
than the screen and none logs a console error."""

from __future__ import annotations

import pytest

from cards.models import Card, KickerChip
from tests.e2e.checks import assert_accessible, assert_fits

SHOTS = "/tmp/shots-builder"
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}


@pytest.fixture(params=list(WIDTHS))
def sized_page(request, signed_up_page):
    """The signed-up page at each width, collecting console errors and page errors."""
    page = signed_up_page
    width, height = WIDTHS[request.param]
    page.set_viewport_size({"width": width, "height": height})
    page.console_errors = []
    page.on("console", lambda m: m.type == "error" and page.console_errors.append(m.text))
    page.on("pageerror", lambda e: page.console_errors.append(str(e)))
    page.label = request.param
    return page


def shot(page, name: str) -> None:
    page.screenshot(path=f"{SHOTS}/{name}-{page.label}.png", full_page=True)


def test_build_a_legal_deck_save_a_version_and_export(sized_page):
    page = sized_page
    page.goto("/decks/")
    assert_fits(page)
    page.fill("input[name=name]", "Trail Dust")
    page.click("#new-deck")
    page.wait_for_url("**/build/")
    assert "Not legal yet" in page.inner_text("#legality")
    assert_fits(page)
    assert_accessible(page)

    commons = list(
        Card.objects.filter(card_set__code="HSD", rarity="common", type="dude")
        .order_by("number")
        .values_list("code", flat=True)[:18]
    )
    # The first page of results holds these 18 (catalogue order is set, then number).
    page.fill("#builder-q", "s:HSD r:common t:dude")
    page.wait_for_selector(f"#card-results li[data-code='{commons[-1]}']")
    first = f"#card-results li[data-code='{commons[0]}']"
    # A common in Standard: 1, 2 and 3 copies, one click each.
    assert page.locator(f"{first} .copies button").all_inner_texts() == ["1", "2", "3"]
    page.click(f"{first} button[data-qty='2']")
    page.wait_for_selector(f"#deck-cards li[data-code='{commons[0]}'] .qty:text-is('2')")
    assert page.get_attribute(f"{first} button[data-qty='2']", "aria-pressed") == "true"
    page.click(f"#deck-cards li[data-code='{commons[0]}'] button[aria-label^='One more']")
    page.wait_for_selector(f"#deck-cards li[data-code='{commons[0]}'] .qty:text-is('3')")
    for code in commons[1:]:
        page.click(f"#card-results li[data-code='{code}'] button[data-qty='3']")
        page.wait_for_selector(f"#deck-cards li[data-code='{code}'] .qty:text-is('3')")
    assert "Dudes (54)" in page.inner_text("#deck-cards")

    # The card's picture: its name opens it in the page, not a new tab.
    page.click(f"{first} button.card-name")
    page.wait_for_selector("#card-preview[open] img[src$='/full.png']")
    shot(page, "builder-preview")
    page.click("#card-preview button.close")
    page.wait_for_selector("#card-preview", state="hidden")
    if page.label == "desktop":  # with a mouse, hovering shows it beside the pointer
        page.hover(f"{first} button.thumb")
        page.wait_for_selector("#hover-preview:not([hidden]) img[src$='/full.png']")
        page.mouse.move(0, 0)
        page.wait_for_selector("#hover-preview", state="hidden")

    green = KickerChip.objects.filter(color="green").order_by("code").first()
    page.click("#chip-picker summary")
    page.click(f"#chip-results-green li[data-chip='{green.code}'] button")
    page.wait_for_selector("#chip-budget:has-text('$25 to go')")
    page.click(f"#chip-results-green li[data-chip='{green.code}'] button")
    page.wait_for_selector("#legality[data-legal='true']")
    assert page.inner_text("#legality") == "Legal Standard deck"
    assert "the $50 rule is met" in page.inner_text("#chip-budget")
    if page.label == "phone":  # the bar at the bottom follows the deck
        bar = " ".join(page.inner_text("#deck-bar").split())
        assert bar == "Legal · 54/54 cards · chips $50 See the deck ↓"
    assert_fits(page)
    shot(page, "builder")

    # One-click edits make no version until one is saved, with a note.
    assert "Unsaved changes since version 1" in page.inner_text("#version-state")
    page.fill(".save-version input[name=note]", "Eighteen commons")
    page.click("#save-version")
    page.wait_for_selector("#version-state:has-text('Saved as version 2')")

    page.click("text=Deck page: charts, versions and export")
    page.wait_for_selector("#export-text")
    assert_fits(page)
    assert "Eighteen commons" in page.inner_text("#version-history")
    page.select_option("#compare-from", "1")
    page.select_option("#compare-to", "2")
    page.click(".versions-form button")
    page.wait_for_selector("#diff")
    name = Card.objects.get(code=commons[0]).name
    assert f"+ 3 {name}" in page.inner_text("#diff")
    # the pickers keep the choice made
    assert page.input_value("#compare-from") == "1" and page.input_value("#compare-to") == "2"
    shot(page, "deck-page")
    with page.expect_download() as download:
        page.click("#export-text")
    with open(download.value.path(), encoding="utf-8") as file:
        text = file.read()
    assert "# Trail Dust" in text and "Kicker chips:" in text
    assert f"[{commons[0]}]" in text and f"2 [{green.code}]" in text

    page.goto("/decks/sealed/")
    assert_fits(page)
    shot(page, "sealed")
    page.click("#open-boosters")
    page.wait_for_url("**/decks/pools/*/")
    assert_fits(page)
    page.goto("/decks/drafts/")
    assert_fits(page)
    page.goto("/decks/")
    assert_fits(page)
    shot(page, "deck-list")
    assert page.console_errors == []


def test_an_import_error_keeps_the_list_and_suggests_the_card(sized_page):
    page = sized_page
    page.goto("/decks/")
    page.fill("#import input[name=name]", "Posse")
    listing = "3 Wyatt Earp\n2 Wyat Earp\n"
    page.fill("#import-text", listing)
    page.click("#import-deck")
    page.wait_for_selector("#import-errors")
    errors = page.inner_text("#import-errors")
    assert "Line 2" in errors and "Did you mean Wyatt Earp" in errors
    assert page.input_value("#import-text") == listing
    assert page.input_value("#import input[name=name]") == "Posse"
    assert_fits(page)
    shot(page, "import-error")

    page.fill("#import-text", "3 Wyatt Earp\n2 Wyatt Earp\n")
    page.click("#import-deck")
    page.wait_for_selector("#legality")
    assert page.inner_text("h1") == "Posse"
    assert page.console_errors == []
