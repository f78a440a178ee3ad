"""In a real Chromium: sign up, search the card grid live, open a card page and see its image."""

from __future__ import annotations

import re

from playwright.sync_api import expect


def test_sign_up_search_the_grid_and_open_a_card(signed_up_page, settings, tmp_path):
    settings.CARD_IMAGE_CACHE = tmp_path
    page = signed_up_page
    expect(page.locator("header.site")).to_contain_text("cowpoke")

    page.click("text=Cards")
    page.wait_for_url("**/cards/")
    count = page.locator("#result-count")
    expect(count).to_contain_text("cards")
    before = count.inner_text()

    page.fill("input[name=q]", '"Henry Meek"')
    expect(count).to_have_text("1 card")
    assert before != "1 card"
    expect(page.locator("figure[data-code]")).to_have_count(1)
    expect(page).to_have_url(re.compile(r"q=%22Henry"))  # hx-push-url keeps the search

    page.click("figure[data-code=HSD-012] a >> nth=0")
    page.wait_for_url("**/cards/HSD-012/")
    expect(page.locator("h1")).to_have_text("Henry Meek")
    image = page.locator("img.face")
    expect(image).to_be_visible()
    page.wait_for_function("document.querySelector('img.face').complete")
    assert page.evaluate("document.querySelector('img.face').naturalWidth") == 630
