"""The site's everyday journeys in a real browser, at a desktop's and a phone's width: home
(logged out and in), the public decks found logged out by a card and opened, a wish added by
typing a card's name, a collection's public link copied. On every page: it fits the window,
logs no console error and axe-core finds no serious or critical violation."""

from __future__ import annotations

import pytest

from cards.models import Card, StarterDeck
from collecting.models import Collection, WishlistEntry
from decks import services as deck_services
from decks.models import Deck
from tests.e2e.checks import WIDTHS, PageChecks
from tests.factories import UserFactory


def _starter_deck(owner, code: str, name: str, *, listed: bool = True) -> Deck:
    starter = StarterDeck.objects.get(code=code)
    cards = {row["code"]: row["qty"] for row in starter.cards}
    chips: dict[str, int] = {}
    for chip in starter.kicker_chips:
        chips[chip] = chips.get(chip, 0) + 1
    return deck_services.deck_create(
        owner=owner, name=name, cards=cards, kicker_chips=chips, is_public=True, listed=listed
    )


def _sign_up(page, username: str = "cowpoke") -> None:
    page.goto("/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", "saddle-up-partner-1")
    page.fill("#id_password2", "saddle-up-partner-1")
    page.click("button[type=submit]")
    page.wait_for_url("**/")


@pytest.mark.parametrize("width", WIDTHS)
def test_home_shows_a_visitor_what_to_do_and_a_member_their_recent_work(page, width):
    checks = PageChecks(page, width=width)
    page.goto("/")
    actions = page.locator("#actions").inner_text()
    for thing in ("Search the cards", "public decks", "Build a deck", "collection", "Simulate"):
        assert thing.lower() in actions.lower()
    assert page.locator("#actions a[href='/play/']").count() == 1
    assert page.locator("#recent").count() == 0
    assert "make run" not in page.content()
    checks.page_ok("home-visitor")

    _sign_up(page)
    page.goto("/collections/")
    page.fill("#id_name", "Binder")
    page.click("text=Create")
    page.wait_for_selector("#completion")
    page.goto("/")
    assert "Binder" in page.locator("#recent-collections").inner_text()
    assert "No decks yet." in page.locator("#recent-decks").inner_text()
    checks.page_ok("home-member")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_visitor_finds_a_public_deck_by_a_card_and_reads_it(page, width):
    owner = UserFactory(username="marshal")
    law = _starter_deck(owner, "HSD-S1", "Boomtown Law")
    patrol = _starter_deck(owner, "HSD-S2", "Frontier Patrol")
    _starter_deck(owner, "HSD-S2", "Secret posse", listed=False)
    law_codes = {r["code"] for r in StarterDeck.objects.get(code="HSD-S1").cards}
    patrol_codes = {r["code"] for r in StarterDeck.objects.get(code="HSD-S2").cards}
    card = Card.objects.filter(code__in=law_codes - patrol_codes).order_by("number").first()
    checks = PageChecks(page, width=width)

    page.goto("/decks/public/")
    listed = page.locator("#public-decks li.deck-card")
    names = set(page.locator("#public-decks a.deck-name").all_inner_texts())
    assert names == {"Boomtown Law", "Frontier Patrol"}  # not the unlisted one
    checks.page_ok("public-decks")

    page.fill("#pd-card", card.name[:6])
    page.wait_for_selector(f"#pd-card-names option[value='{card.name}']", state="attached")
    page.fill("#pd-card", card.name)
    page.click("#public-search button[type=submit]")
    page.wait_for_url("**card=*")
    assert [li.get_attribute("data-slug") for li in listed.all()] == [law.slug]
    assert patrol.name not in page.locator("#public-decks").inner_text()
    checks.page_ok("public-decks-search")

    page.click(f"#public-decks a:text-is('{law.name}')")
    page.wait_for_url(f"**/decks/s/{law.slug}/")
    tile = page.locator(f"ul.card-tiles li[data-code='{card.code}'] img")
    assert tile.get_attribute("alt") == card.name
    assert page.locator("#legality").get_attribute("data-legal") in ("true", "false")
    assert page.locator("svg.chart").count() >= 1
    assert page.locator("#copy-deck").count() == 0  # copying is for the signed-in
    assert page.locator("a:text-is('Log in')").count() >= 1
    checks.page_ok("public-deck")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_member_copies_a_public_deck_to_their_decks(page, width):
    owner = UserFactory(username="marshal")
    law = _starter_deck(owner, "HSD-S1", "Boomtown Law")
    checks = PageChecks(page, width=width)
    _sign_up(page)
    page.goto(f"/decks/s/{law.slug}/")
    checks.page_ok("public-deck-member")
    page.click("#copy-deck")
    page.wait_for_url("**/decks/*/")
    copy = Deck.objects.exclude(pk=law.pk).get()
    assert copy.owner.username == "cowpoke" and copy.name == "Boomtown Law (copy)"
    assert not copy.is_public
    assert dict(copy.entries.values_list("card__code", "qty")) == dict(
        law.entries.values_list("card__code", "qty")
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_a_wish_is_added_by_typing_a_cards_name(page, width):
    card = Card.objects.get(name="Wyatt Earp")
    checks = PageChecks(page, width=width)
    _sign_up(page)
    page.goto("/collections/wishlist/")
    checks.page_ok("wishlist")

    page.locator("#wish-item").press_sequentially("wyatt", delay=30)
    option = page.locator("#wish-suggestions option[value='Wyatt Earp']")
    option.wait_for(state="attached")
    page.fill("#wish-item", option.get_attribute("value"))  # what picking the suggestion does
    page.fill("#wish-quantity", "2")
    page.click("#wish-form button[type=submit]")
    row = page.locator(f"#wishlist tr[data-code='{card.code}']")
    row.wait_for()
    assert "Wyatt Earp" in row.inner_text()
    assert WishlistEntry.objects.get(card=card).quantity == 2

    page.fill("#wish-item", "Wyat Earp")
    page.click("#wish-form button[type=submit]")
    page.wait_for_selector("#wish-not-found")
    assert "Did you mean" in page.locator("#wish-not-found").inner_text()
    checks.page_ok("wishlist-did-you-mean")
    page.click("#wish-not-found button:text-is('Wyatt Earp')")
    page.wait_for_selector(".messages")
    assert WishlistEntry.objects.filter(card=card).count() == 1
    checks.page_ok("wishlist-added")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_collections_public_trade_list_link_is_copied_with_one_click(page, width):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    checks = PageChecks(page, width=width)
    _sign_up(page)
    page.goto("/collections/")
    page.fill("#id_name", "Binder")
    page.click("text=Create")
    page.wait_for_selector("#completion")
    binder = Collection.objects.get(name="Binder")
    assert page.locator("#tradelist-link").count() == 0  # private: nothing to share
    page.check("input[name=trade_list_public]")
    page.click("form.stacked button:text-is('Save')")
    link = page.locator("#tradelist-link")
    link.wait_for()
    url = link.get_attribute("href")
    assert url == f"{page.base_url}/collections/{binder.pk}/tradelist/"
    page.click(".copy-link button.copy")
    page.wait_for_selector(".copy-link .copied:text-is('Copied.')")
    assert page.evaluate("navigator.clipboard.readText()") == url
    checks.page_ok("collection")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_draft_shows_readable_cards_a_zoom_and_picks_grouped_by_type(page, width):
    checks = PageChecks(page, width=width)
    _sign_up(page)
    page.goto("/decks/drafts/")
    checks.page_ok("draft-list")
    page.fill("#pod-seats", "2")
    page.click("#new-pod")
    page.click("#start-draft")
    first = page.locator("#pack figure").first
    first.wait_for()
    shown = first.locator("img").bounding_box()
    assert shown["width"] >= 150  # was 126 px
    checks.page_ok("draft-pack")

    name = first.locator("img").get_attribute("alt")
    first.locator("button.zoom-button").click()
    zoomed = page.locator("dialog#zoom[open] img")
    zoomed.wait_for()
    assert zoomed.get_attribute("alt") == name
    page.wait_for_function("document.querySelector('dialog#zoom img').naturalWidth === 630")
    checks.shot("draft-zoom")
    page.click("dialog#zoom button:text-is('Close')")

    for picked in (1, 2, 3):
        page.locator("#pack button.pick").first.click()
        page.wait_for_selector(f"#draft-table h2:text-is('Your picks ({picked})')")
    picks = page.locator("#picks")
    picks.wait_for()
    groups = page.locator("#picks section h3").all_inner_texts()
    assert groups and all(g.split(" (")[0] in ("Dudes", "Gear", "Fortunes") for g in groups)
    assert sum(int(g.split("(")[1].rstrip(")")) for g in groups) == 3
    checks.page_ok("draft-picks")


@pytest.mark.parametrize("width", WIDTHS)
def test_practice_booster_sign_up_and_tokens_pages_fit_and_read_right(page, width):
    checks = PageChecks(page, width=width)
    page.goto("/collections/practice-booster/?set=HSD&seed=7")
    assert page.locator("#booster figure").count() == 9
    checks.page_ok("practice-booster")
    page.goto("/accounts/signup/")
    label = page.locator("label[for=id_username]").bounding_box()
    field = page.locator("#id_username").bounding_box()
    assert field["y"] > label["y"]  # the label above its field, as on the log-in page
    checks.page_ok("signup")
    _sign_up(page)
    page.goto("/accounts/tokens/")
    checks.page_ok("tokens")
    page.click("button:text-is('Create a token')")
    message = page.locator(".messages").inner_text()
    assert "created" in message and "old one" not in message
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click(".copy-link button.copy")
    page.wait_for_selector(".copy-link .copied:text-is('Copied.')")
    assert page.evaluate("navigator.clipboard.readText()") == page.inner_text("#token")
    page.click("button:text-is('Replace my token')")
    assert "the old one no longer works" in page.locator(".messages").inner_text()
    checks.page_ok("tokens-replaced")
