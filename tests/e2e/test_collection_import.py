"""In a real browser: an import with a bad row names the row and writes nothing; a good one
moves the completion bars."""

from __future__ import annotations

from cards.models import Card


def _csv(name: str, text: str) -> dict:
    return {"name": name, "mimeType": "text/csv", "buffer": text.encode("utf-8")}


def test_import_reports_the_bad_row_then_a_good_file_moves_the_bars(signed_up_page):
    page = signed_up_page
    cards = list(Card.objects.filter(card_set__code="HSD").order_by("number")[:3])
    page.goto("/collections/")
    page.fill("#id_name", "Binder")
    page.click("text=Create")
    page.wait_for_selector("#completion")
    hsd_bar = page.locator('tr.set-row[data-set="HSD"] svg.completion-bar').first
    assert hsd_bar.get_attribute("data-percent") == "0.0"

    page.click("text=Import")
    bad = f"code,qty\n{cards[0].code},2\nHSD-999,1\n{cards[1].code},1\n"
    page.set_input_files("#id_file", _csv("bad.csv", bad))
    page.click("button:has-text('Import')")
    report = page.locator("#import-errors")
    report.wait_for()
    assert "Nothing was imported" in report.inner_text()
    row = page.locator('tr.import-error[data-line="3"]')
    assert "line 3" in row.inner_text() and "HSD-999" in row.inner_text()

    good = "".join(f"{card.code},3\n" for card in cards)
    page.set_input_files("#id_file", _csv("good.csv", "code,qty\n" + good))
    page.click("button:has-text('Import')")
    page.wait_for_selector("#completion")
    assert "Imported 3 rows" in page.locator(".messages").inner_text()
    row = page.locator('tr.set-row[data-set="HSD"]')
    assert row.get_attribute("data-owned") == "3"
    assert float(hsd_bar.get_attribute("data-percent")) > 0


def test_two_quick_clicks_on_plus_both_count(signed_up_page):
    from collecting.models import Collection, CollectionEntry

    page = signed_up_page
    page.goto("/collections/")
    page.fill("#id_name", "Binder")
    page.click("text=Create")
    page.wait_for_selector("#completion")
    binder = Collection.objects.get(name="Binder")
    card = Card.objects.filter(card_set__code="HSD").order_by("number").first()
    page.goto(f"/collections/{binder.pk}/cards/?q=s:HSD")
    plus = page.locator(f"#counter-{card.code} button[aria-label^='Add one']")
    plus.dblclick()
    page.wait_for_function(
        "code => document.querySelector(`#counter-${code} .owned`).dataset.owned === '2'",
        arg=card.code,
    )
    assert CollectionEntry.objects.get(collection=binder, card=card).quantity == 2
