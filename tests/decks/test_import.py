"""Importing a deck list: our own export comes back as the same deck with its name and format,
a misspelt card gets the closest names, and a failed import on the page keeps what was typed."""

from __future__ import annotations

import pytest

from cards.models import Card, KickerChip
from decks import exports, selectors, services
from decks.engine_catalogue import engine_catalogue
from decks.models import Deck
from decks.text import closest_names, parse_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def amigos(user, catalogue) -> Deck:
    """A Tres Amigos deck of dudes, gear and fortunes, with chips."""
    cards = Card.objects.filter(card_set__code="HSD").order_by("type", "number")
    chips = KickerChip.objects.order_by("code")
    return services.deck_create(
        owner=user,
        name='Dust & Lead: the "Return"',
        fmt="tres_amigos",
        cards={c.code: 1 + i % 3 for i, c in enumerate(cards[:30])},
        kicker_chips={chips[0].code: 2, chips[5].code: 1},
    )


def test_a_misspelt_name_gets_the_closest_names(catalogue):
    catalogue = engine_catalogue()
    assert closest_names("Wyat Earp", catalogue)[0] == "Wyatt Earp"
    assert closest_names("wyatt earpp", catalogue)[0] == "Wyatt Earp"
    assert closest_names("Zzzzzz qqq", catalogue) == []
    parsed = parse_text("2 Wyat Earp\n1 Zzzzzz qqq\n", catalogue)
    first, second = (p.as_dict() for p in parsed.problems)
    assert first["line"] == 1 and first["suggestions"][0] == "Wyatt Earp"
    assert "Did you mean Wyatt Earp" in first["detail"]
    assert "suggestions" not in second and "Did you mean" not in second["detail"]


def test_export_then_import_gives_the_same_deck_name_and_format(amigos, user):
    text = exports.deck_text(amigos)
    copy = services.deck_import_text(owner=user, text=text)
    assert copy.name == amigos.name and copy.format == "tres_amigos"
    assert selectors.deck_contents(copy) == selectors.deck_contents(amigos)


def test_a_name_or_format_given_wins_over_the_header(amigos, user):
    text = exports.deck_text(amigos)
    copy = services.deck_import_text(owner=user, text=text, name="Mine now", fmt="deuces_wild")
    assert copy.name == "Mine now" and copy.format == "deuces_wild"
    bare = services.deck_import_text(owner=user, text="3 Wyatt Earp\n")
    assert bare.name == "Imported deck" and bare.format == "standard"


def test_a_stud_header_names_the_combined_format(catalogue):
    parsed = parse_text(
        "# Sealed\n# Format: Stud (sealed) + On Your Lonesome\n", engine_catalogue()
    )
    assert (parsed.name, parsed.format) == ("Sealed", "on_your_lonesome+stud")
    parsed = parse_text("# Format: Poker\n# Not a name: the header is over\n", engine_catalogue())
    assert (parsed.name, parsed.format) == (None, None)


def test_the_page_round_trips_our_export_with_its_name(web, amigos, user):
    text = web.get(f"/decks/{amigos.pk}/export/text/").content.decode()
    r = web.post("/decks/import/", {"name": "", "format": "", "text": text})
    copy = Deck.objects.exclude(pk=amigos.pk).get()
    assert r.url == f"/decks/{copy.pk}/"
    assert copy.name == amigos.name and copy.format == amigos.format
    assert selectors.deck_contents(copy) == selectors.deck_contents(amigos)


def test_a_failed_import_keeps_the_text_and_name_and_shows_errors_as_errors(web, user, catalogue):
    listing = "3 Wyatt Earp\n2 Wyat Earp\n"
    r = web.post("/decks/import/", {"name": "Posse", "format": "tres_amigos", "text": listing})
    assert r.status_code == 302 and r.url == "/decks/#import"
    assert not Deck.objects.exists()
    body = web.get("/decks/").content.decode()
    errors = body.split('id="import-errors"')[1].split("</ul>")[0]
    assert 'class="import-errors error"' in body and "Did you mean Wyatt Earp" in errors
    assert f">{listing}</textarea>" in body and 'value="Posse"' in body
    assert '<option value="tres_amigos" selected>' in body
    assert 'class="messages"' not in body  # not in the success style
    # shown once: a reload starts afresh
    assert 'id="import-errors"' not in web.get("/decks/").content.decode()


def test_the_api_import_reads_the_header_too(user_client, amigos):
    text = exports.deck_text(amigos)
    r = user_client.post("/api/v1/decks/import/", {"text": text}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["name"] == amigos.name and r.json()["format"] == "tres_amigos"
    r = user_client.post("/api/v1/decks/import/", {"text": "2 Wyat Earp"}, format="json")
    assert r.status_code == 400
    assert r.json()["errors"][0]["suggestions"][0] == "Wyatt Earp"
