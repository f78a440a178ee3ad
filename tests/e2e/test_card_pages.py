"""In a real Chromium at 1280 and 390 px: the set page and a card page fit the screen and log no
console error, and a player adds a card to a deck and a collection from the card's page.

Screenshots go to /tmp/shots-cards-art/ (`DRIFTER_SHOTS` to change), to be looked at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

SHOTS = Path(os.environ.get("DRIFTER_SHOTS", "/tmp/shots-cards-art"))
WIDTHS = [1280, 390]


def watch_console(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def overflow(page) -> int:
    """How many pixels the page is wider than the screen (0 when it fits)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def load_images(page) -> None:
    """Wait for the images on the first screen (each is drawn on its first request)."""
    page.wait_for_function(
        "[...document.images].filter(i => i.getBoundingClientRect().top < innerHeight)"
        ".every(i => i.complete && i.naturalWidth > 0)",
        timeout=120_000,
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_set_page_and_card_page_fit_the_screen_without_console_errors(
    page, settings, tmp_path, width
):
    settings.CARD_IMAGE_CACHE = tmp_path
    SHOTS.mkdir(parents=True, exist_ok=True)
    errors = watch_console(page)
    page.set_viewport_size({"width": width, "height": 900})

    page.goto("/sets/HSD/")
    figures = page.locator(".card-grid figure")
    expect(figures).to_have_count(171)
    assert page.locator(".card-grid img:not([alt])").count() == 0
    assert page.locator(".card-grid img[alt='']").count() == 0
    load_images(page)
    page.screenshot(path=str(SHOTS / f"set-HSD-{width}.png"))
    assert overflow(page) == 0

    for path in ("/sets/DMH/", "/sets/", "/cards/", "/cards/?q=f:law", "/kicker-chips/HSD-K01/"):
        page.goto(path)
        assert overflow(page) == 0, path
        assert page.locator("img:not([alt]), img[alt='']").count() == 0, path
    expect(page.locator(".chip-sides img").first).to_have_attribute(
        "alt", "Kicker chip HSD-K01, side 1: +1 smarts"
    )

    page.goto("/cards/HSD-012/")
    expect(page.locator("img.face")).to_have_attribute("alt", "Henry Meek")
    page.wait_for_function("document.querySelector('img.face').complete")
    assert page.evaluate("document.querySelector('img.face').naturalWidth") == 630
    page.screenshot(path=str(SHOTS / f"card-HSD-012-{width}.png"), full_page=True)
    assert overflow(page) == 0

    page.click("a[rel=next]")
    page.wait_for_url("**/cards/HSD-013/")
    page.click("a[rel=prev]")
    page.wait_for_url("**/cards/HSD-012/")
    assert errors == []


@pytest.mark.parametrize("width", WIDTHS)
def test_add_a_card_to_a_deck_and_a_collection_from_its_page(
    signed_up_page, settings, tmp_path, width
):
    from django.contrib.auth import get_user_model

    from collecting.models import Collection
    from decks.models import DeckCard
    from tests.factories import DeckFactory

    settings.CARD_IMAGE_CACHE = tmp_path
    page = signed_up_page
    errors = watch_console(page)
    page.set_viewport_size({"width": width, "height": 900})
    cowpoke = get_user_model().objects.get(username="cowpoke")
    deck = DeckFactory(owner=cowpoke, name="Townsfolk Rush")
    DeckFactory(owner=cowpoke, name="Law and Disorder")
    binder = Collection.objects.create(owner=cowpoke, name="Binder")

    page.goto("/cards/HSD-012/")
    expect(page.locator("#decks-panel")).to_have_text("In my decks")
    page.select_option("#add-to-deck", label="Townsfolk Rush (Standard)")
    page.click("text=Add to deck")
    page.wait_for_url("**/cards/HSD-012/")
    expect(page.locator(".messages")).to_contain_text(
        "Added Henry Meek to Townsfolk Rush: 1 copy now."
    )
    expect(page.locator(".card-panel-list").first).to_contain_text("Townsfolk Rush")
    assert DeckCard.objects.get(deck=deck, card__code="HSD-012").qty == 1

    page.select_option("#add-to-collection", label="Binder")
    page.click("text=Add to collection")
    expect(page.locator(".messages")).to_contain_text("Added Henry Meek to Binder: 1 copy now.")
    assert binder.entries.get(card__code="HSD-012").quantity == 1
    page.screenshot(path=str(SHOTS / f"card-added-{width}.png"), full_page=True)
    assert overflow(page) == 0
    assert errors == []
