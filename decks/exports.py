"""Deck exports: text list, JSON, and a printable proxy sheet (PDF).

The proxy sheet is A4 portrait with nine cards a page (3 x 3) at true size, 63 x 88 mm, butted
together so one cut serves two cards, with cut marks in the margins on every cut line.
"""

from __future__ import annotations

import io
import json
from typing import Any

from django.http import HttpResponse
from django.utils.text import slugify
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from cards.images import card_png
from cards.models import Card
from config.api import DomainError
from decks.engine_catalogue import engine_catalogue
from decks.models import Deck
from decks.selectors import deck_contents
from decks.text import export_text

CARD_W, CARD_H = 63 * mm, 88 * mm
COLS, ROWS = 3, 3
PAGE = A4
MARK = 5 * mm  # cut-mark length, drawn outside the card block
MARK_GAP = 1 * mm


def deck_text(deck: Deck) -> str:
    cards, chips = deck_contents(deck)
    return export_text(
        name=deck.name,
        fmt=deck.format,
        cards=cards,
        kicker_chips=chips,
        catalogue=engine_catalogue(),
    )


def deck_json(deck: Deck) -> dict[str, Any]:
    """The deck as JSON: what `POST /api/v1/decks/` accepts, plus names for people."""
    cards, chips = deck_contents(deck)
    catalogue = engine_catalogue()
    return {
        "name": deck.name,
        "description": deck.description,
        "format": deck.format,
        "version": deck.version,
        "cards": [
            {"code": c, "name": catalogue.card_by_code[c].name, "qty": q} for c, q in cards.items()
        ],
        "kicker_chips": [{"code": c, "qty": q} for c, q in chips.items()],
    }


def proxy_pdf(deck: Deck) -> bytes:
    """Every card of the deck (each copy), nine a page at 63 x 88 mm, with cut marks."""
    cards, _ = deck_contents(deck)
    by_code = {c.code: c for c in Card.objects.filter(code__in=list(cards))}
    sheet: list[Card] = [by_code[code] for code, qty in cards.items() for _ in range(qty)]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=PAGE, pageCompression=1)
    pdf.setTitle(f"{deck.name}: proxy sheet")
    pdf.setCreator("Drifter")
    page_w, page_h = PAGE
    left = (page_w - COLS * CARD_W) / 2
    bottom = (page_h - ROWS * CARD_H) / 2
    images: dict[str, ImageReader] = {}
    per_page = COLS * ROWS
    for start in range(0, max(len(sheet), 1), per_page):
        for i, card in enumerate(sheet[start : start + per_page]):
            col, row = i % COLS, i // COLS
            x = left + col * CARD_W
            y = bottom + (ROWS - 1 - row) * CARD_H
            if card.code not in images:
                images[card.code] = ImageReader(io.BytesIO(card_png(card, "full")))
            pdf.drawImage(images[card.code], x, y, CARD_W, CARD_H)
        _cut_marks(pdf, left, bottom)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _cut_marks(pdf: canvas.Canvas, left: float, bottom: float) -> None:
    pdf.setLineWidth(0.25)
    top, right = bottom + ROWS * CARD_H, left + COLS * CARD_W
    for c in range(COLS + 1):
        x = left + c * CARD_W
        pdf.line(x, top + MARK_GAP, x, top + MARK_GAP + MARK)
        pdf.line(x, bottom - MARK_GAP, x, bottom - MARK_GAP - MARK)
    for r in range(ROWS + 1):
        y = bottom + r * CARD_H
        pdf.line(left - MARK_GAP, y, left - MARK_GAP - MARK, y)
        pdf.line(right + MARK_GAP, y, right + MARK_GAP + MARK, y)


def export_response(deck: Deck, kind: str) -> HttpResponse:
    """The deck exported as `kind` (text, json or pdf), as a download."""
    base = slugify(deck.name) or f"deck-{deck.pk}"
    if kind == "text":
        response = HttpResponse(deck_text(deck), content_type="text/plain; charset=utf-8")
        ext = "txt"
    elif kind == "json":
        body = json.dumps(deck_json(deck), indent=2)
        response = HttpResponse(body, content_type="application/json")
        ext = "json"
    elif kind == "pdf":
        response = HttpResponse(proxy_pdf(deck), content_type="application/pdf")
        ext = "pdf"
    else:
        raise DomainError(
            f"Export as text, json or pdf, not {kind!r}.", code="invalid_choice", attr="as"
        )
    response["Content-Disposition"] = f'attachment; filename="{base}.{ext}"'
    return response
