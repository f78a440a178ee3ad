"""Text format round trip, JSON export and the proxy-sheet PDF."""

from __future__ import annotations

import math
import re

import pytest

from decks import exports, services
from decks.engine_catalogue import engine_catalogue
from decks.text import export_text, parse_text
from tests.factories import DeckFactory


def test_text_round_trip_on_the_mini_catalogue(mini):
    cards = {"TST-001": 3, "TST-021": 2, "TST-031": 1}
    chips = {"TST-K04": 2}
    text = export_text(
        name="Mini", fmt="deuces_wild", cards=cards, kicker_chips=chips, catalogue=mini
    )
    parsed = parse_text(text, mini)
    assert (
        parsed.problems == [] and dict(parsed.cards) == cards and dict(parsed.kicker_chips) == chips
    )


def test_text_accepts_names_codes_x_and_comments_and_sums_repeats(mini):
    text = """# my deck
    2 Common 1
    1x TST-002   # the same card again, by bare code
    1 Whatever it is called [TST-003]
    Kicker chips:
    2 TST-K04
    """
    parsed = parse_text(text, mini)
    assert parsed.problems == []
    assert dict(parsed.cards) == {"TST-002": 3, "TST-003": 1}
    assert dict(parsed.kicker_chips) == {"TST-K04": 2}


def test_text_reports_every_bad_line(mini):
    text = "3 Common 0\nnonsense\n0 Common 1\n2 Nobody\nKicker chips:\n1 [TST-K77]"
    parsed = parse_text(text, mini)
    # "Common 0" is both TST-001 and the promo reprint TST-049: a name alone is ambiguous.
    assert [(p.line, p.code) for p in parsed.problems] == [
        (1, "ambiguous_card"), (2, "bad_line"), (3, "bad_quantity"), (4, "unknown_card"),
        (6, "unknown_kicker_chip"),
    ]  # fmt: skip


def _pdf_pages(data: bytes) -> list[tuple[float, float]]:
    boxes = re.findall(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    count = len(re.findall(rb"/Type /Page\b", data))
    assert count == len(boxes)
    return [(float(w), float(h)) for w, h in boxes]


@pytest.mark.django_db
@pytest.mark.parametrize("total", [54, 10, 9])
def test_proxy_sheet_has_nine_cards_a_page_on_a4(user, catalogue, total):
    from cards.models import Card

    codes = list(Card.objects.filter(card_set__code="HSD").values_list("code", flat=True)[:total])
    deck = DeckFactory(owner=user)
    services.deck_update(deck=deck, cards=dict.fromkeys(codes, 1))
    data = exports.proxy_pdf(deck)
    assert data.startswith(b"%PDF")
    pages = _pdf_pages(data)
    assert len(pages) == math.ceil(total / 9)
    mm = 72 / 25.4
    for w, h in pages:
        assert (round(w / mm), round(h / mm)) == (210, 297)
    # The card block is 3 x 63 mm by 3 x 88 mm, centred: it fits with room for cut marks.
    assert 210 * mm - 2 * exports.MARK > exports.CARD_W * 3
    assert round(exports.CARD_W / mm, 3) == 63 and round(exports.CARD_H / mm, 3) == 88


@pytest.mark.django_db
def test_json_export_is_what_the_api_accepts(user_client, user, catalogue, legal):
    deck = services.deck_create(
        owner=user, name="J", cards=legal["cards"], kicker_chips=legal["kicker_chips"]
    )
    body = exports.deck_json(deck)
    r = user_client.post("/api/v1/decks/", body, format="json")
    assert r.status_code == 201 and r.json()["legal"] is True


@pytest.mark.django_db
def test_export_text_of_the_real_catalogue_round_trips(user, catalogue, legal):
    deck = services.deck_create(
        owner=user, name="R", cards=legal["cards"], kicker_chips=legal["kicker_chips"]
    )
    parsed = parse_text(exports.deck_text(deck), engine_catalogue())
    assert parsed.problems == []
    assert (
        dict(parsed.cards) == legal["cards"] and dict(parsed.kicker_chips) == legal["kicker_chips"]
    )
