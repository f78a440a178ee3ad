"""The deck builder in a real browser: from an empty deck to a legal one, then export it."""

from __future__ import annotations

from cards.models import Card, KickerChip


def test_build_a_standard_deck_until_legal_then_export_as_text(signed_up_page):
    page = signed_up_page
    page.goto("/decks/")
    page.fill("input[name=name]", "Trail Dust")
    page.click("#new-deck")
    page.wait_for_url("**/build/")
    assert "Not legal yet" in page.inner_text("#legality")

    commons = list(
        Card.objects.filter(card_set__code="HSD", rarity="common", type="dude")
        .order_by("number")
        .values_list("code", flat=True)[:18]
    )
    # The first page of results holds these 18 (catalogue order is set, then number).
    page.fill("#builder-q", "s:HSD r:common t:dude")
    page.wait_for_selector(f"#card-results tr[data-code='{commons[-1]}']")
    for code in commons:
        button = f"#card-results tr[data-code='{code}'] button.add-card"
        for copies in range(1, 4):
            page.click(button)
            page.wait_for_selector(f"#deck-cards tr[data-code='{code}'] td.qty:text-is('{copies}')")
    green = KickerChip.objects.filter(color="green").order_by("code").first()
    for copies in (1, 2):
        page.click(f"#chip-results tr[data-chip='{green.code}'] button.add-chip")
        page.wait_for_selector(
            f"#deck-chips tr[data-chip='{green.code}'] td.qty:text-is('{copies}')"
        )
    page.wait_for_selector("#legality[data-legal='true']")
    assert "Legal standard deck" in page.inner_text("#legality")

    page.click("text=Deck page, charts and export")
    page.wait_for_selector("#export-text")
    with page.expect_download() as download:
        page.click("#export-text")
    with open(download.value.path(), encoding="utf-8") as file:
        text = file.read()
    assert "# Trail Dust" in text and "Kicker chips:" in text
    assert f"[{commons[0]}]" in text and f"2 [{green.code}]" in text
