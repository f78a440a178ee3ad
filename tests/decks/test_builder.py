"""The deck builder's page and edits: copy buttons to the format's limit, the deck by type,
kicker chips toward $50, formats by their names, versions that are saved on purpose, and the
deck pages' version history and diffs."""

from __future__ import annotations

import json

import pytest

from cards.models import Card, KickerChip
from decks import selectors, services
from decks.models import Deck, DeckVersion

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def edit(web, deck, **data):
    return web.post(f"/decks/{deck.pk}/build/edit/", data, **HX)


def buttons(body: str, code: str) -> list[str]:
    """The copy buttons a search result offers for `code`."""
    row = body.split(f'data-code="{code}"')[1].split("</li>")[0]
    return [part.split('"')[0] for part in row.split('data-qty="')[1:]]


def one(**filters) -> Card:
    return Card.objects.filter(card_set__code="HSD", **filters).order_by("number").first()


def test_copy_buttons_go_up_to_the_formats_limit(web, user, catalogue):
    deck = services.deck_create(owner=user, name="Limits")
    common, uncommon, rare = one(rarity="common"), one(rarity="uncommon"), one(rarity="rare")
    search = f"/decks/{deck.pk}/build/search/?q=s:HSD"
    body = web.get(search + " r:common").content.decode()
    assert buttons(body, common.code) == ["1", "2", "3"]
    assert buttons(web.get(search + " r:uncommon").content.decode(), uncommon.code) == ["1", "2"]
    assert buttons(web.get(search + " r:rare").content.decode(), rare.code) == ["1"]
    services.deck_update(deck=deck, fmt="on_your_lonesome")
    assert buttons(web.get(search + " r:common").content.decode(), common.code) == ["1"]
    services.deck_update(deck=deck, fmt="tres_amigos")
    assert buttons(web.get(search + " r:rare").content.decode(), rare.code) == ["1", "2", "3"]


def test_a_pool_decks_buttons_stop_at_the_copies_in_the_pool(web, user, catalogue):
    pool = services.pool_open_stud(owner=user, set_codes="HSD", seed=11)
    deck = services.deck_from_pool(owner=user, pool=pool, auto=False)
    body = web.get(f"/decks/{deck.pk}/build/search/?q=").content.decode()
    shown = [code for code in pool.cards if f'data-code="{code}"' in body]  # the first page
    assert len(shown) == 24 and any(pool.cards[code] == 1 for code in shown)
    for code in shown:
        assert buttons(body, code) == [str(n) for n in range(1, min(pool.cards[code], 3) + 1)]


def test_one_click_sets_the_copies_and_tells_the_results(web, user, catalogue):
    deck = services.deck_create(owner=user, name="Clicks")
    card = one(rarity="common")
    response = edit(web, deck, card=card.code, qty=2)
    assert selectors.deck_contents(deck)[0] == {card.code: 2}
    assert json.loads(response["HX-Trigger"]) == {"deckChanged": {"card": card.code, "qty": 2}}
    edit(web, deck, card=card.code, qty=1)
    assert selectors.deck_contents(deck)[0] == {card.code: 1}
    body = web.get(f"/decks/{deck.pk}/build/search/?q=s:HSD r:common").content.decode()
    row = body.split(f'data-code="{card.code}"')[1].split("</li>")[0]
    assert 'data-qty="1" aria-pressed="true"' in row and 'data-qty="2" aria-pressed="false"' in row


def test_a_bad_quantity_is_an_error_in_the_panel_and_changes_nothing(web, user, catalogue):
    deck = services.deck_create(owner=user, name="Bad")
    panel = edit(web, deck, card=one(rarity="common").code, qty="many").content.decode()
    assert 'class="notice notice-error"' in panel and "0 or more" in panel
    assert selectors.deck_contents(deck) == ({}, {})


def test_the_deck_is_grouped_by_type_with_counts_and_costs(web, user, catalogue):
    dude, gear = one(type="dude"), one(type="gear")
    fortune = one(type="fortune")
    deck = services.deck_create(
        owner=user, name="Types", cards={dude.code: 3, gear.code: 2, fortune.code: 1}
    )
    body = web.get(f"/decks/{deck.pk}/build/").content.decode()
    panel = body.split('id="deck-cards"')[1]
    assert panel.index("Dudes") < panel.index("Gear") < panel.index("Fortunes")
    assert '<span class="muted">(3)</span>' in panel and '<span class="muted">(2)</span>' in panel
    assert f"${dude.cost}" in panel
    assert 'target="_blank"' not in body  # a card name opens the preview in the page
    assert f"/cards/{dude.code}/full.png" in body and "/thumb.png" in body


def test_the_chip_budget_fills_toward_50_and_says_when_over(web, user, catalogue):
    deck = services.deck_create(owner=user, name="Chips")
    green = KickerChip.objects.filter(color="green").order_by("code").first()
    panel = edit(web, deck, kicker_chip=green.code, delta=1).content.decode()
    assert "$25 of $50: $25 to go" in panel
    panel = edit(web, deck, kicker_chip=green.code, delta=1).content.decode()
    assert "the $50 rule is met" in panel
    panel = edit(web, deck, kicker_chip=green.code, delta=1).content.decode()
    assert "$75: $25 over the $50 rule" in panel
    panel = edit(web, deck, kicker_chip=green.code, delta=-1).content.decode()
    assert "the $50 rule is met" in panel and "One fewer Green ($25) chip" in panel


def test_the_format_control_speaks_human_names_and_says_what_each_changes(web, user, catalogue):
    deck = services.deck_create(owner=user, name="Formats")
    body = web.get(f"/decks/{deck.pk}/build/").content.decode()
    control = body.split('id="deck-format"')[1].split("</select>")[0]
    assert ">Deuces Wild<" in control and ">Tres Amigos<" in control
    assert "Stud" not in control  # a Stud deck comes from a pool, not from this control
    assert "none ticked" not in body and "tres_amigos deck" not in body
    panel = edit(web, deck, format="tres_amigos").content.decode()
    assert "Up to 3 copies of any card" in panel and 'value="tres_amigos" selected' in panel
    services.deck_update(deck=deck, cards={one(rarity="rare").code: 1})
    legal = services.deck_create(
        owner=user,
        name="Legal",
        fmt="tres_amigos",
        cards={
            c.code: 3 for c in Card.objects.filter(card_set__code="HSD").order_by("number")[:18]
        },
        kicker_chips={KickerChip.objects.filter(color="green").order_by("code")[0].code: 2},
    )
    assert "Legal Tres Amigos deck" in web.get(f"/decks/{legal.pk}/build/").content.decode()


def test_a_stud_decks_formats_are_stud_alone_or_with_a_copy_limit(web, user, catalogue):
    pool = services.pool_open_stud(owner=user, set_codes="HSD", seed=3)
    deck = services.deck_from_pool(owner=user, pool=pool, auto=False)
    body = web.get(f"/decks/{deck.pk}/build/").content.decode()
    control = body.split('id="deck-format"')[1].split("</select>")[0]
    assert ">Stud (sealed)<" in control and ">On Your Lonesome + Stud (sealed)<" in control
    assert ">Standard<" not in control and "no $50 rule" in body


def test_builder_clicks_make_no_version_until_one_is_saved_with_a_note(web, user, catalogue):
    deck = services.deck_create(owner=user, name="Versions")
    card = one(rarity="common")
    for qty in (1, 2, 3):
        edit(web, deck, card=card.code, qty=qty)
    deck.refresh_from_db()
    assert deck.version == 1 and deck.unsaved_changes
    assert "Unsaved changes since version 1" in web.get(f"/decks/{deck.pk}/").content.decode()
    panel = edit(web, deck, save_version=1, note="Three of the first").content.decode()
    assert "Saved as version 2" in panel
    deck.refresh_from_db()
    saved = DeckVersion.objects.get(deck=deck, number=2)
    assert not deck.unsaved_changes and saved.note == "Three of the first"
    assert saved.snapshot["cards"] == {card.code: 3}
    panel = edit(web, deck, save_version=1).content.decode()
    assert "Nothing to save" in panel and "notice-error" in panel
    assert DeckVersion.objects.filter(deck=deck).count() == 2


def test_clicking_back_to_the_saved_deck_leaves_nothing_unsaved(web, user, catalogue):
    deck = services.deck_create(owner=user, name="Back")
    card = one(rarity="common")
    edit(web, deck, card=card.code, delta=1)
    assert Deck.objects.get(pk=deck.pk).unsaved_changes
    edit(web, deck, card=card.code, delta=-1)
    assert not Deck.objects.get(pk=deck.pk).unsaved_changes


def test_the_deck_page_saves_a_version_too(web, user, catalogue):
    deck = services.deck_create(owner=user, name="Page")
    edit(web, deck, card=one(rarity="common").code, qty=2)
    r = web.post(f"/decks/{deck.pk}/versions/", {"note": "From the deck page"})
    assert r.status_code == 302
    assert DeckVersion.objects.get(deck=deck, number=2).note == "From the deck page"
    body = web.get(f"/decks/{deck.pk}/").content.decode()
    assert "Saved version 2." in body and "From the deck page" in body
    web.post(f"/decks/{deck.pk}/versions/", {"note": ""})
    assert (
        'class="error" role="alert">Nothing to save'
        in web.get(f"/decks/{deck.pk}/").content.decode()
    )


def test_another_persons_deck_cannot_be_versioned(web, other_user, catalogue):
    deck = services.deck_create(owner=other_user, name="Theirs")
    assert web.post(f"/decks/{deck.pk}/versions/", {"note": "x"}).status_code == 404
    assert web.post(f"/decks/{deck.pk}/build/edit/", {"save_version": 1}).status_code == 404
    assert DeckVersion.objects.filter(deck=deck).count() == 1


def test_every_version_is_reachable_and_the_pickers_keep_their_choice(web, user, catalogue):
    deck = services.deck_create(owner=user, name="Long history")
    for n in range(2, 46):
        services.deck_update(deck=deck, description=f"Take {n}")
    body = web.get(f"/decks/{deck.pk}/").content.decode()
    history = body.split('id="version-history"')[1].split("</table>")[0]
    assert history.count("<tr>") == 1 + 20 and "Version 45" in history and "Page 1 of 3" in body
    oldest = web.get(f"/decks/{deck.pk}/?versions=3").content.decode()
    assert "<td>Version 1</td>" in oldest.split('id="version-history"')[1]
    picker = body.split('id="compare-from"')[1].split("</select>")[0]
    assert picker.count("<option") == 45
    chosen = web.get(f"/decks/{deck.pk}/?from=3&to=40").content.decode()
    assert '<option value="3" selected>' in chosen.split('id="compare-from"')[1]
    assert '<option value="40" selected>' in chosen.split('id="compare-to"')[1]
    assert "From version 3 to version 40" in chosen


def test_a_diff_names_the_cards_and_chips(web, user, catalogue):
    card, other = one(rarity="common"), one(rarity="uncommon")
    green = KickerChip.objects.filter(color="green").order_by("code").first()
    deck = services.deck_create(owner=user, name="Diff", cards={card.code: 3})
    services.deck_update(
        deck=deck, cards={card.code: 2, other.code: 1}, kicker_chips={green.code: 1}
    )
    diff = web.get(f"/decks/{deck.pk}/?from=1&to=2").content.decode().split('id="diff"')[1]
    assert f"+ 1 {other.name}" in diff and f"{card.name}: 3 → 2" in diff
    assert f"+ 1 green $25 chip ({green.side_a_amount:+d} {green.side_a_stat}" in diff
    assert card.code not in diff and green.code not in diff


def test_error_messages_read_as_errors(web, user, catalogue):
    web.post("/decks/new/", {"name": "Odd", "format": "poker"})
    body = web.get("/decks/").content.decode()
    assert '<li class="error" role="alert">There is no format' in body
