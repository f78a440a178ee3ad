"""Card and kicker-chip images drawn with Pillow: deterministic, cached on disk by content hash,
as PNG and, for the browsers that accept it, the same picture as WebP (a quarter to a half of the
PNG's bytes), cached beside it.

Everything is drawn with Pillow primitives and the scalable font bundled with Pillow, so the
same inputs give byte-identical PNGs on any machine with the same Pillow. The functions are
duck-typed: they take a `cards.models.Card` / `KickerChip` or the engine's `CardDef` /
`KickerChipDef` alike. Only the cache functions touch Django (lazily), so `render_card` and
`render_chip` work in plain Python.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import tempfile
import unicodedata
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from cards import art

# Bump whenever the drawing changes, so cached PNGs and ETags are invalidated.
RENDER_VERSION = "2"  # 2: each card its own art (cards/art.py)

# WebP's quality (lossy): at 85 a card's text and art look the same as the PNG's, side by side.
WEBP_QUALITY = 85

CARD_SIZE = (630, 880)  # 63 x 88 mm at ~254 dpi
THUMB_SIZE = (252, 352)
CHIP_SIZE = (300, 300)
SIZES = {"full": CARD_SIZE, "thumb": THUMB_SIZE}

Box = tuple[int, int, int, int]

# --- Layout (card pixels). Tests sample pixels at these places. -------------------------------
MARGIN = 28
NAME_BAR: Box = (MARGIN, 28, 602, 104)
COST_CENTER = (552, 66)
COST_RADIUS = 46
ART_BOX: Box = (MARGIN, 116, 602, 404)
TYPE_LINE: Box = (MARGIN, 414, 602, 456)
STAT_ROW_TOP, STAT_ROW_BOTTOM = 466, 560
STAT_BOXES: tuple[Box, ...] = tuple(
    (MARGIN + i * 146, STAT_ROW_TOP, MARGIN + i * 146 + 136, STAT_ROW_BOTTOM) for i in range(4)
)
STAT_HEADER_HEIGHT = 28
TEXT_BOX_DUDE: Box = (MARGIN, 570, 602, 810)
TEXT_BOX_OTHER: Box = (MARGIN, 466, 602, 810)
TEXT_PADDING = 18
FLAVOR_SIZES = range(20, 13, -2)
FOOTER_Y = 834
FRAME_SAMPLE = (12, 440)  # inside the frame band, clear of every panel

# --- Palette ---------------------------------------------------------------------------------
INK = (38, 27, 20)
PARCHMENT = (246, 236, 210)
PAPER = (252, 248, 238)
FLAVOR_INK = (112, 84, 60)
KEYLINE = (24, 17, 12)
FRAME_COLORS = {
    "dude": (122, 42, 28),  # oxblood
    "gear": (58, 86, 102),  # gunmetal
    "fortune": (170, 122, 26),  # old gold
}
ACCENT = (227, 199, 122)
COPY_ACCENT = (55, 198, 192)  # copy cards get a turquoise inner rule and a COPY tag
STAT_COLORS = {
    "smarts": (44, 86, 138),
    "skill": (150, 40, 32),
    "luck": (38, 118, 64),
    "kicker": (38, 27, 20),
}
RARITY_MARKS = {
    # rarity: (shape, fill, letter)
    "common": ("circle", (30, 30, 30), "C"),
    "uncommon": ("diamond", (150, 160, 172), "U"),
    "rare": ("star", (214, 168, 40), "R"),
    "fixed": ("square", (60, 110, 170), "F"),
    "promo": ("hexagon", (128, 56, 150), "P"),
}
CHIP_COLORS = {
    # colour: (body, edge inserts)
    "white": ((240, 237, 228), (84, 84, 88)),
    "red": ((178, 36, 30), (246, 240, 228)),
    "blue": ((30, 76, 156), (246, 240, 228)),
    "green": ((28, 118, 58), (246, 240, 228)),
}

# Glyphs the bundled Aileron subset actually has; anything else would print as a box.
_GLYPHS = frozenset(chr(c) for c in range(0x20, 0x7F)) | frozenset("©«°±´·»‘’“”…‹›⁄™")
_REPLACEMENTS = {"−": "-", "–": "-", "—": "-", "×": "x", "\u00a0": " ", "\t": " ", "★": "*"}


# --- Faces: exactly what an image shows, so the cache key can hash it --------------------------
@dataclass(frozen=True, slots=True)
class CardFace:
    """What a card image shows, normalised from a model `Card` or an engine `CardDef`."""

    code: str
    set_code: str
    number: str
    name: str
    type: str
    is_copy: bool
    faction: str
    rarity: str
    cost: int
    smarts: int
    skill: int
    luck: int
    kicker_limit: int
    text: str
    flavor: str = ""

    @property
    def is_dude(self) -> bool:
        return self.type == "dude"


@dataclass(frozen=True, slots=True)
class ChipFace:
    """One side of a kicker chip as printed."""

    code: str
    color: str
    value: int
    side: int
    stat: str
    amount: int


def card_face(card: Any) -> CardFace:
    """Read the printed fields off anything card-shaped."""
    code = str(card.code)
    set_code, _, number = code.partition("-")
    return CardFace(
        code=code,
        set_code=set_code,
        number=number,
        name=str(card.name),
        type=str(card.type),
        is_copy=bool(getattr(card, "is_copy", False)),
        faction=str(getattr(card, "faction", "") or ""),
        rarity=str(card.rarity),
        cost=int(card.cost or 0),
        smarts=int(getattr(card, "smarts", 0) or 0),
        skill=int(getattr(card, "skill", 0) or 0),
        luck=int(getattr(card, "luck", 0) or 0),
        kicker_limit=int(getattr(card, "kicker_limit", 0) or 0),
        text=str(getattr(card, "text", "") or ""),
        flavor=str(getattr(card, "flavor", "") or ""),
    )


def chip_face(chip: Any, side: int) -> ChipFace:
    """Read one side (0 or 1) off anything kicker-chip-shaped."""
    if side not in (0, 1):
        raise ValueError(f"a kicker chip has sides 0 and 1, not {side!r}")
    stat, amount = list(chip.sides)[side]
    return ChipFace(
        code=str(chip.code),
        color=str(chip.color),
        value=int(chip.value),
        side=side,
        stat=str(stat),
        amount=int(amount),
    )


# --- Fonts and text --------------------------------------------------------------------------
@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled Aileron at `size` px: no system fonts, so output is the same everywhere."""
    return ImageFont.load_default(size=size)  # type: ignore[return-value]


def printable(text: str) -> str:
    """Fold `text` onto the glyphs the bundled font has (accents dropped, dashes to hyphens)."""
    if all(c in _GLYPHS for c in text):
        return text
    out = []
    for c in text:
        c = _REPLACEMENTS.get(c, c)
        if c not in _GLYPHS and c != "\n":
            c = "".join(d for d in unicodedata.normalize("NFKD", c) if d in _GLYPHS) or "?"
        out.append(c)
    return "".join(out)


@lru_cache(maxsize=8192)
def _width(fnt: ImageFont.FreeTypeFont, word: str) -> float:
    # Measuring is the costly part of wrapping (docs/performance.md, "Card images"), so each
    # word is measured once, not once per try.
    return fnt.getlength(word)


@lru_cache(maxsize=64)
def _narrowest(fnt: ImageFont.FreeTypeFont) -> float:
    return min(fnt.getlength(c) for c in _GLYPHS if c != " ")


def _too_wide(word: str, fnt: ImageFont.FreeTypeFont, width: int) -> bool:
    # A monster word is known to overflow without measuring all of it.
    return len(word) * _narrowest(fnt) > width or _width(fnt, word) > width


def _longest_prefix(word: str, fnt: ImageFont.FreeTypeFont, width: int) -> int:
    """How many leading letters of `word` fit `width` (at least one)."""
    lo, hi = 1, min(len(word), int(width / _narrowest(fnt)) + 1)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fnt.getlength(word[:mid]) <= width:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _take_line(words: list[str], start: int, fnt: ImageFont.FreeTypeFont, width: int) -> int:
    """The index just past the words that fit on one line beginning with `words[start]`."""
    space = _width(fnt, " ")
    end, used = start + 1, _width(fnt, words[start])
    while end < len(words) and used + space + _width(fnt, words[end]) <= width:
        used += space + _width(fnt, words[end])
        end += 1
    # Summed word widths ignore kerning at the spaces: confirm with one exact measurement.
    while end - start > 1 and fnt.getlength(" ".join(words[start:end])) > width:
        end -= 1
    return end


def wrap_text(
    text: str, fnt: ImageFont.FreeTypeFont, width: int, limit: int | None = None
) -> list[str]:
    """Greedy word wrap: every returned line measures at most `width` px in `fnt`.

    Newlines start new paragraphs; a word wider than `width` is broken between letters. With
    `limit`, wrapping stops as soon as there are more than `limit` lines (the text won't fit
    anyway, so there is no point measuring the rest).
    """
    cap = len(text) + 1 if limit is None else limit
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words, start = paragraph.split(), 0
        if not words:
            lines.append("")
        while start < len(words) and len(lines) <= cap:
            word = words[start]
            if _too_wide(word, fnt, width):
                cut = _longest_prefix(word, fnt, width)
                words[start : start + 1] = [word[:cut], word[cut:]]
                lines.append(words[start])
                start += 1
                continue
            end = _take_line(words, start, fnt, width)
            lines.append(" ".join(words[start:end]))
            start = end
        if len(lines) > cap:
            break
    return lines


def _ellipsize(line: str, fnt: ImageFont.FreeTypeFont, width: int) -> str:
    while line and fnt.getlength(line + "…") > width:
        line = line[:-1]
    return line.rstrip() + "…"


def line_height(size: int) -> int:
    return round(size * 1.28)


def fit_text(
    text: str, width: int, height: int, sizes: range = range(30, 13, -2)
) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """The largest font in `sizes` whose wrapped lines fit `width` x `height`, and those lines.

    If even the smallest size overflows, the text is cut at the last line that fits and ends
    with an ellipsis: the box is never overrun.
    """
    text = printable(text.strip())
    for size in sizes:
        fnt = font(size)
        max_lines = max(1, height // line_height(size))
        lines = wrap_text(text, fnt, width, limit=max_lines)
        if len(lines) <= max_lines:
            return fnt, lines
    kept = lines[:max_lines]
    kept[-1] = _ellipsize(kept[-1], fnt, width)
    return fnt, kept


def _fit_line(text: str, width: int, sizes: range) -> tuple[ImageFont.FreeTypeFont, str]:
    """The largest font in `sizes` at which one line of `text` fits `width`, and the text
    (cut with an ellipsis if it is too long even at the smallest size)."""
    text = printable(text)
    for size in sizes:
        fnt = font(size)
        if fnt.getlength(text) <= width:
            return fnt, text
    return fnt, _ellipsize(text, fnt, width)


def _text_centered(
    draw: ImageDraw.ImageDraw,
    center: tuple[float, float],
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: tuple[int, ...],
    bold: int = 0,
) -> None:
    draw.text(center, text, font=fnt, fill=fill, anchor="mm", stroke_width=bold, stroke_fill=fill)


# --- Supersampled drawing for round shapes (Pillow's primitives are not antialiased) ---------
def _smooth(
    size: tuple[int, int], paint: Callable[[ImageDraw.ImageDraw, int], None], factor: int = 3
) -> Image.Image:
    """Paint at `factor` times `size` on a transparent layer and scale down: smooth edges."""
    layer = Image.new("RGBA", (size[0] * factor, size[1] * factor), (0, 0, 0, 0))
    paint(ImageDraw.Draw(layer), factor)
    return layer.resize(size, Image.Resampling.LANCZOS)


def _paste(base: Image.Image, layer: Image.Image, at: tuple[int, int]) -> None:
    base.paste(layer, at, layer)


def _star_points(
    cx: float, cy: float, outer: float, inner: float, tips: int
) -> list[tuple[float, float]]:
    points = []
    for i in range(tips * 2):
        r = outer if i % 2 == 0 else inner
        a = math.pi * i / tips - math.pi / 2
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return points


def _polygon_points(
    cx: float, cy: float, r: float, sides: int, turn: float = 0.0
) -> list[tuple[float, float]]:
    return [
        (
            cx + r * math.cos(2 * math.pi * i / sides + turn),
            cy + r * math.sin(2 * math.pi * i / sides + turn),
        )
        for i in range(sides)
    ]


# --- The card --------------------------------------------------------------------------------
def render_card(card: Any) -> Image.Image:
    """The card face, 630 x 880 RGB: frame by type, name, cost disc, art emblem, type line,
    stats and kicker limit (dudes), word-wrapped ability text, rarity mark, set and number."""
    return _render_card_face(card_face(card))


def _render_card_face(face: CardFace) -> Image.Image:
    frame = FRAME_COLORS.get(face.type, FRAME_COLORS["gear"])
    image = Image.new("RGB", CARD_SIZE, frame)
    draw = ImageDraw.Draw(image)
    w, h = CARD_SIZE
    draw.rectangle((0, 0, w - 1, h - 1), outline=KEYLINE, width=4)
    accent = COPY_ACCENT if face.is_copy else ACCENT
    draw.rounded_rectangle(
        (MARGIN - 10, MARGIN - 10, w - MARGIN + 9, FOOTER_Y - 16),
        radius=18,
        outline=accent,
        width=6 if face.is_copy else 3,
    )

    _draw_art(image, face)
    _draw_name(image, draw, face)
    _draw_type_line(image, draw, face, accent)
    if face.is_dude:
        _draw_stats(draw, face)
    _draw_text_box(draw, face, TEXT_BOX_DUDE if face.is_dude else TEXT_BOX_OTHER)
    _draw_footer(draw, face)
    return image


def _draw_name(image: Image.Image, draw: ImageDraw.ImageDraw, face: CardFace) -> None:
    draw.rounded_rectangle(NAME_BAR, radius=12, fill=PARCHMENT, outline=KEYLINE, width=3)
    x0, y0, _, y1 = NAME_BAR
    room = COST_CENTER[0] - COST_RADIUS - 12 - (x0 + 20)
    fnt, name = _fit_line(face.name, room, range(40, 21, -2))
    draw.text(
        (x0 + 20, (y0 + y1) / 2),
        name,
        font=fnt,
        fill=INK,
        anchor="lm",
        stroke_width=1,
        stroke_fill=INK,
    )
    _draw_cost(image, face.cost)


def _draw_cost(image: Image.Image, cost: int) -> None:
    """A betting chip: dark body, eight cream edge inserts, a cream centre with the cost."""
    r = COST_RADIUS
    d = 2 * r + 4

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        c = d * s / 2
        outer = (c - r * s, c - r * s, c + r * s, c + r * s)
        draw.ellipse(outer, fill=(28, 24, 22), outline=KEYLINE, width=2 * s)
        for i in range(8):
            start = i * 45 - 8
            draw.pieslice(outer, start, start + 16, fill=(240, 226, 190))
        ri = (r - 11) * s
        draw.ellipse(
            (c - ri, c - ri, c + ri, c + ri), fill=(250, 242, 220), outline=KEYLINE, width=2 * s
        )

    layer = _smooth((d, d), paint)
    draw = ImageDraw.Draw(layer)
    label = str(cost)
    fnt, label = _fit_line(label, 2 * (r - 16), range(40, 15, -2))
    _text_centered(draw, (d / 2, d / 2 + 1), label, fnt, INK, bold=1)
    _paste(image, layer, (COST_CENTER[0] - d // 2, COST_CENTER[1] - d // 2))


def _draw_art(image: Image.Image, face: CardFace) -> None:
    """The card's own picture (cards/art.py), seeded by its code, framed by a keyline."""
    x0, y0, x1, y1 = ART_BOX
    subject = art.Subject(code=face.code, type=face.type, faction=face.faction, name=face.name)
    image.paste(art.paint(subject, (x1 - x0, y1 - y0)), (x0, y0))
    ImageDraw.Draw(image).rectangle(ART_BOX, outline=KEYLINE, width=3)


def _draw_type_line(
    image: Image.Image, draw: ImageDraw.ImageDraw, face: CardFace, accent: tuple[int, int, int]
) -> None:
    x0, y0, x1, y1 = TYPE_LINE
    draw.rounded_rectangle(TYPE_LINE, radius=8, fill=KEYLINE, outline=accent, width=2)
    words = [face.type.upper()]
    if face.is_copy:
        words.append("COPY")
    if face.faction:
        words.append(face.faction)
    label = "  ·  ".join(words)
    mark = y1 - y0 - 4
    room = x1 - x0 - 28 - mark - 12
    fnt, label = _fit_line(label, room, range(24, 13, -1))
    draw.text((x0 + 16, (y0 + y1) / 2), label, font=fnt, fill=PARCHMENT, anchor="lm")
    _draw_rarity(image, face.rarity, (x1 - 10 - mark, y0 + 2), mark)


def _draw_rarity(image: Image.Image, rarity: str, at: tuple[int, int], size: int) -> None:
    """The rarity mark: a shape and colour per rarity, with the rarity's letter in it."""
    shape, fill, letter = RARITY_MARKS.get(rarity, ("circle", (30, 30, 30), "?"))

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        c, r = size * s / 2, (size / 2 - 1) * s
        edge: dict[str, Any] = {"fill": fill, "outline": PAPER, "width": 2 * s}
        if shape == "circle":
            draw.ellipse((c - r, c - r, c + r, c + r), **edge)
        elif shape == "diamond":
            draw.polygon(_polygon_points(c, c, r, 4, 0.0), **edge)
        elif shape == "star":
            draw.polygon(_star_points(c, c, r, r * 0.62, 5), **edge)
        elif shape == "square":
            q = r * 0.86
            draw.rectangle((c - q, c - q, c + q, c + q), **edge)
        else:
            draw.polygon(_polygon_points(c, c, r, 6, 0.0), **edge)

    layer = _smooth((size, size), paint, factor=4)
    ink = INK if rarity in ("uncommon", "rare") else PAPER
    dy = 2 if shape == "star" else 0
    _text_centered(
        ImageDraw.Draw(layer),
        (size / 2, size / 2 + dy),
        letter,
        font(15 if shape == "star" else 18),
        ink,
        bold=1 if shape != "star" else 0,
    )
    _paste(image, layer, at)


def _draw_stats(draw: ImageDraw.ImageDraw, face: CardFace) -> None:
    values = (
        ("SMARTS", "smarts", face.smarts),
        ("SKILL", "skill", face.skill),
        ("LUCK", "luck", face.luck),
        ("KICKER LIMIT", "kicker", face.kicker_limit),
    )
    for box, (label, key, value) in zip(STAT_BOXES, values):
        x0, y0, x1, y1 = box
        draw.rounded_rectangle(box, radius=10, fill=PAPER, outline=KEYLINE, width=3)
        header = (x0, y0, x1, y0 + STAT_HEADER_HEIGHT)
        draw.rounded_rectangle(
            header,
            radius=10,
            fill=STAT_COLORS[key],
            outline=KEYLINE,
            width=3,
            corners=(True, True, False, False),
        )
        fnt, label = _fit_line(label, x1 - x0 - 14, range(17, 10, -1))
        _text_centered(draw, ((x0 + x1) / 2, y0 + STAT_HEADER_HEIGHT / 2 + 1), label, fnt, PAPER)
        cy = (y0 + STAT_HEADER_HEIGHT + y1) / 2
        _text_centered(draw, ((x0 + x1) / 2, cy), str(value), font(48), STAT_COLORS[key], bold=1)


def _draw_text_box(draw: ImageDraw.ImageDraw, face: CardFace, box: Box) -> None:
    """Ability text, and the flavor text under a rule in muted ink: at the foot of the box
    (a third of it at most) below ability text, or in the middle of a box with none."""
    draw.rounded_rectangle(box, radius=12, fill=PARCHMENT, outline=KEYLINE, width=3)
    x0, y0, x1, y1 = text_area(box)
    text, flavor = face.text.strip(), face.flavor.strip()
    if flavor:
        room = (y1 - y0) // 3 if text else y1 - y0
        fnt, lines = fit_text(flavor, x1 - x0, room, FLAVOR_SIZES if text else range(26, 13, -2))
        height = line_height(int(fnt.size)) * len(lines)
        y = y1 - height if text else y0 + (y1 - y0 - height) // 2
        _draw_lines(draw, lines, fnt, x0, y, FLAVOR_INK)
        if text:
            draw.line((x0 + 40, y - 9, x1 - 40, y - 9), fill=FLAVOR_INK, width=1)
            y1 = y - 18
    if text:
        fnt, lines = fit_text(text, x1 - x0, y1 - y0)
        step = line_height(int(fnt.size))
        # Short texts sit in the middle of their room; long ones start at the top.
        _draw_lines(draw, lines, fnt, x0, y0 + max(0, (y1 - y0 - step * len(lines)) // 2), INK)


def _draw_lines(
    draw: ImageDraw.ImageDraw,
    lines: list[str],
    fnt: ImageFont.FreeTypeFont,
    x: int,
    y: int,
    fill: tuple[int, int, int],
) -> None:
    step = line_height(int(fnt.size))
    for line in lines:
        draw.text((x, y), line, font=fnt, fill=fill)
        y += step


def text_area(box: Box) -> Box:
    """The part of a text box that ability text may use."""
    x0, y0, x1, y1 = box
    return (x0 + TEXT_PADDING, y0 + TEXT_PADDING - 4, x1 - TEXT_PADDING, y1 - TEXT_PADDING)


def _draw_footer(draw: ImageDraw.ImageDraw, face: CardFace) -> None:
    number = f"{face.set_code}-{face.number}" if face.number else face.set_code
    draw.text(
        (MARGIN + 4, FOOTER_Y),
        printable(number),
        font=font(22),
        fill=PARCHMENT,
        anchor="lm",
        stroke_width=1,
        stroke_fill=PARCHMENT,
    )
    rarity = RARITY_MARKS.get(face.rarity, ("", None, "?"))[2]
    draw.text(
        (CARD_SIZE[0] - MARGIN - 4, FOOTER_Y),
        f"{rarity}  ·  HIGH STAKES DRIFTER",
        font=font(16),
        fill=PARCHMENT,
        anchor="rm",
    )


# --- The card back ---------------------------------------------------------------------------
BACK_COLOR = (96, 30, 22)


def render_back() -> Image.Image:
    """The back every card shares, 630 x 880 RGB: a tooled-leather oxblood field, a gold
    sheriff's star in a double ring, and the game's name."""
    w, h = CARD_SIZE
    image = Image.new("RGB", CARD_SIZE, BACK_COLOR)
    draw = ImageDraw.Draw(image)
    # A diamond lattice, as tooled into a saddle, under the frame's rules.
    lattice = (118, 44, 32)
    for x in range(-h, w + h, 44):
        draw.line((x, 0, x + h, h), fill=lattice, width=3)
        draw.line((x, 0, x - h, h), fill=lattice, width=3)
    draw.rectangle((0, 0, w - 1, h - 1), outline=KEYLINE, width=4)
    draw.rounded_rectangle(
        (MARGIN - 10, MARGIN - 10, w - MARGIN + 9, h - MARGIN + 9),
        radius=18,
        outline=ACCENT,
        width=3,
    )
    draw.rounded_rectangle(
        (MARGIN + 8, MARGIN + 8, w - MARGIN - 8, h - MARGIN - 8),
        radius=14,
        outline=ACCENT,
        width=2,
    )
    size = 360

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        c = size * s / 2
        for r, fill in ((176, KEYLINE), (170, BACK_COLOR), (150, ACCENT), (144, (70, 22, 16))):
            d.ellipse((c - r * s, c - r * s, c + r * s, c + r * s), fill=fill)
        points = _star_points(c, c, 120 * s, 62 * s, 6)
        d.polygon(points, fill=(222, 176, 48), outline=KEYLINE, width=3 * s)
        for x, y in points[::2]:
            r = 14 * s
            d.ellipse(
                (x - r, y - r, x + r, y + r), fill=(222, 176, 48), outline=KEYLINE, width=3 * s
            )
        r = 46 * s
        d.ellipse((c - r, c - r, c + r, c + r), fill=(150, 108, 20), outline=KEYLINE, width=3 * s)

    layer = _smooth((size, size), paint, factor=2)
    _paste(image, layer, ((w - size) // 2, (h - size) // 2))
    for y, text in ((120, "HIGH STAKES"), (h - 120, "DRIFTER")):
        draw.rounded_rectangle((120, y - 34, w - 120, y + 34), radius=12, fill=KEYLINE)
        _text_centered(draw, (w / 2, y), text, font(40), ACCENT, bold=1)
    return image


# --- The kicker chip -------------------------------------------------------------------------
def render_chip(chip: Any, side: int) -> Image.Image:
    """One side (0 or 1) of a kicker chip: a 300 x 300 RGBA poker chip in the chip's colour,
    its value, and that side's modifier (e.g. "+2 LUCK")."""
    return _render_chip_face(chip_face(chip, side))


def _render_chip_face(face: ChipFace) -> Image.Image:
    body, inserts = CHIP_COLORS.get(face.color, CHIP_COLORS["white"])
    stat_color = STAT_COLORS.get(face.stat, INK)
    w = CHIP_SIZE[0]

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        c, r = w * s / 2, (w / 2 - 3) * s
        outer = (c - r, c - r, c + r, c + r)
        draw.ellipse(outer, fill=body, outline=KEYLINE, width=3 * s)
        for i in range(8):
            start = i * 45 - 8  # one insert centred at the top, under the side letter
            draw.pieslice(outer, start, start + 16, fill=inserts)
        draw.ellipse(outer, outline=KEYLINE, width=3 * s)
        ring = r - 34 * s
        draw.ellipse(
            (c - ring, c - ring, c + ring, c + ring), fill=body, outline=KEYLINE, width=2 * s
        )
        for i in range(36):
            start = i * 10
            draw.arc(
                (c - ring + 8 * s, c - ring + 8 * s, c + ring - 8 * s, c + ring - 8 * s),
                start,
                start + 5,
                fill=inserts,
                width=3 * s,
            )
        inner = r - 58 * s
        draw.ellipse(
            (c - inner, c - inner, c + inner, c + inner), fill=PAPER, outline=KEYLINE, width=2 * s
        )
        # A minus drawn as a bar: the bundled font has no U+2212 and its hyphen is stubby.
        _draw_modifier(draw, face.amount, (c, c + 2 * s), 64 * s, stat_color)

    image = _smooth(CHIP_SIZE, paint, factor=3)
    draw = ImageDraw.Draw(image)
    cx = w / 2
    _text_centered(draw, (cx, 104), f"${face.value}", font(26), INK, bold=1)
    _text_centered(draw, (cx, 196), face.stat.upper(), font(24), stat_color, bold=1)
    _text_centered(draw, (cx, 18 + 2), "AB"[face.side], font(18), body, bold=1)
    return image


def _draw_modifier(
    draw: ImageDraw.ImageDraw, amount: int, center: tuple[float, float], size: int, fill: Any
) -> None:
    """ "+2" / "−1" centred on `center`, with a proper minus the width of the font's plus."""
    fnt = font(size)
    digits = str(abs(amount))
    sign_w = fnt.getlength("+")
    total = sign_w + fnt.getlength(digits)
    x = center[0] - total / 2
    if amount >= 0:
        draw.text(
            (x, center[1]), "+", font=fnt, fill=fill, anchor="lm", stroke_width=2, stroke_fill=fill
        )
    else:
        left, top, right, bottom = fnt.getbbox("+", anchor="lm")
        bar = max(2, (bottom - top) // 7)
        mid = center[1] + (top + bottom) / 2
        draw.rectangle((x + left, mid - bar, x + right, mid + bar), fill=fill)
    draw.text(
        (x + sign_w, center[1]),
        digits,
        font=fnt,
        fill=fill,
        anchor="lm",
        stroke_width=2,
        stroke_fill=fill,
    )


# --- PNG and WebP bytes, cache and ETags -----------------------------------------------------
def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    # No pnginfo, no timestamps: same pixels, same bytes.
    image.save(buffer, "PNG", optimize=False, compress_level=6)
    return buffer.getvalue()


def _webp(png: bytes) -> bytes:
    """The picture of `png` as lossy WebP (an alpha channel, a chip's, is kept)."""
    buffer = io.BytesIO()
    with Image.open(io.BytesIO(png)) as image:
        image.save(buffer, "WEBP", quality=WEBP_QUALITY)
    return buffer.getvalue()


def _key(kind: str, face: CardFace | ChipFace, **extra: Any) -> str:
    payload = {"render": RENDER_VERSION, "kind": kind, **asdict(face), **extra}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def card_etag(card: Any, size: str = "full") -> str:
    """The cache key of a card image: a SHA-256 of everything it shows and RENDER_VERSION."""
    if size not in SIZES:
        raise ValueError(f"unknown card image size {size!r}; use one of {sorted(SIZES)}")
    return _key("card", card_face(card), size=size)


def chip_etag(chip: Any, side: int) -> str:
    """The cache key of one side of a kicker chip."""
    return _key("chip", chip_face(chip, side))


def back_etag(size: str = "full") -> str:
    """The cache key of the card back (it changes only with RENDER_VERSION)."""
    if size not in SIZES:
        raise ValueError(f"unknown card image size {size!r}; use one of {sorted(SIZES)}")
    payload = {"render": RENDER_VERSION, "kind": "back", "size": size}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def back_png(size: str = "full") -> bytes:
    """The card back as PNG bytes, "full" or "thumb", cached on disk."""

    def draw() -> bytes:
        image = render_back()
        if size != "full":
            image = image.resize(SIZES[size], Image.Resampling.LANCZOS)
        return _png(image)

    return _cached(back_etag(size), draw)


def card_png(card: Any, size: str = "full") -> bytes:
    """The card as PNG bytes, "full" (630 x 880) or "thumb" (252 x 352), cached on disk."""

    def draw() -> bytes:
        image = render_card(card)
        if size != "full":
            image = image.resize(SIZES[size], Image.Resampling.LANCZOS)
        return _png(image)

    return _cached(card_etag(card, size), draw)


def chip_png(chip: Any, side: int) -> bytes:
    """One side of a kicker chip as PNG bytes, cached on disk."""
    return _cached(chip_etag(chip, side), lambda: _png(render_chip(chip, side)))


def webp_etag(png_etag: str) -> str:
    """The cache key (and ETag) of the WebP made from the PNG of `png_etag`, at WEBP_QUALITY."""
    return f"{png_etag}-webp{WEBP_QUALITY}"


def webp_of(png_etag: str, png: Callable[[], bytes]) -> bytes:
    """The picture of the PNG `png_etag` names (`png()` makes it) as WebP bytes, made from the
    PNG once and cached on disk beside it: a card's, the back's or a chip's."""
    return _cached(webp_etag(png_etag), lambda: _webp(png()), ext="webp")


def _cached(key: str, draw: Callable[[], bytes], ext: str = "png") -> bytes:
    from django.conf import settings

    path = Path(settings.CARD_IMAGE_CACHE) / key[:2] / f"{key}.{ext}"
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    data = draw()
    path.parent.mkdir(parents=True, exist_ok=True)
    # Write-then-rename so a concurrent reader never sees half a picture.
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=f".{ext}")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return data
