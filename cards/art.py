"""Each card's own picture: a Western scene drawn with Pillow, seeded by the card's code.

The art box of a card (`cards.images.ART_BOX`) shows a landscape (sky by time of day, a ridge
of mesas, a ground, scattered cacti, a town, a windmill, clouds) and a subject: a dude's bust
(face, hat, hair, whiskers, clothes in the faction's colours, the faction's mark), a gear's
object (chosen from the name: a revolver for "Colt", a bottle for "Whiskey"), or a fortune's
emblem (cards, dice, a coin, a storm...). Every choice comes from a `random.Random` seeded by a
SHA-256 of the card's code (never Python's `hash`, which changes from process to process), so a
card looks the same in every process and any two cards differ at a glance: the tests compare
every pair of a set's pictures.

Only Pillow: no Django, so the engine's `CardDef` renders as the catalogue's `Card` does.
"""

from __future__ import annotations

import colorsys
import hashlib
import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypedDict

from PIL import Image, ImageDraw

RGB = tuple[int, int, int]
INK: RGB = (24, 17, 12)
SS = 2  # the subject is painted at twice the size and scaled down, for smooth edges

# Faction colours: (coat, accent). Unknown factions get a hue of their own from their name.
FACTION_COLORS: dict[str, tuple[RGB, RGB]] = {
    "law dogs": ((44, 70, 120), (214, 190, 110)),
    "outlaws": ((40, 34, 34), (170, 34, 30)),
    "cavalry": ((30, 44, 92), (226, 180, 40)),
    "drifters": ((120, 84, 50), (200, 120, 60)),
    "townsfolk": ((58, 104, 70), (236, 226, 196)),
}
# Sky palettes (top, horizon) by time of day; the card's type tilts the odds.
SKIES: dict[str, tuple[RGB, RGB]] = {
    "dawn": ((120, 110, 170), (250, 196, 150)),
    "noon": ((70, 140, 204), (214, 232, 240)),
    "afternoon": ((104, 160, 200), (244, 222, 170)),
    "dusk": ((150, 60, 70), (250, 170, 90)),
    "sunset": ((214, 104, 52), (248, 214, 150)),
    "night": ((14, 20, 52), (60, 66, 120)),
    "storm": ((70, 76, 88), (160, 160, 150)),
}
SKY_ODDS = {
    "dude": ("sunset", "dusk", "afternoon", "noon", "dawn", "night"),
    "gear": ("noon", "afternoon", "dawn", "storm", "sunset"),
    "fortune": ("night", "dusk", "storm", "dawn", "sunset"),
}
GROUNDS: tuple[RGB, ...] = ((181, 120, 74), (196, 160, 104), (150, 96, 60), (128, 120, 78))
SKIN: tuple[RGB, ...] = (
    (246, 214, 184),
    (232, 188, 150),
    (206, 150, 110),
    (170, 116, 80),
    (128, 84, 56),
    (96, 62, 42),
)
HAIR: tuple[RGB, ...] = (
    (30, 24, 20),
    (84, 56, 34),
    (140, 96, 52),
    (200, 170, 110),
    (170, 170, 170),
)
FELT: tuple[RGB, ...] = ((74, 48, 32), (30, 28, 26), (150, 120, 84), (200, 184, 150), (96, 70, 60))


def seed_of(code: str) -> int:
    """A stable seed for a card: the first 8 bytes of the SHA-256 of its code."""
    return int.from_bytes(hashlib.sha256(code.encode()).digest()[:8], "big")


def faction_colors(faction: str) -> tuple[RGB, RGB]:
    """The (coat, accent) colours of a faction; unknown ones get a hue from their name."""
    known = FACTION_COLORS.get(faction.strip().casefold())
    if known:
        return known
    hue = seed_of("faction:" + faction.casefold()) % 360 / 360
    return _hsv(hue, 0.55, 0.45), _hsv((hue + 0.5) % 1, 0.6, 0.85)


def _hsv(h: float, s: float, v: float) -> RGB:
    r, g, b = colorsys.hsv_to_rgb(h, s, v)
    return (round(r * 255), round(g * 255), round(b * 255))


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _jitter(rng: random.Random, color: RGB, amount: int = 18) -> RGB:
    return tuple(max(0, min(255, c + rng.randint(-amount, amount))) for c in color)  # type: ignore[return-value]


class Stroke(TypedDict):
    """The outline every shape of a subject gets: ink, `width` pixels."""

    outline: RGB
    width: int


def _stroke(width: int) -> Stroke:
    return {"outline": INK, "width": max(1, width)}


@dataclass(frozen=True, slots=True)
class Subject:
    """What the art is of: a card's code (the seed), type, faction and name."""

    code: str
    type: str
    faction: str
    name: str


def paint(subject: Subject, size: tuple[int, int]) -> Image.Image:
    """The card's picture, `size` pixels, RGB: the same subject always gives the same pixels."""
    rng = random.Random(seed_of(subject.code))
    w, h = size
    sky_name = rng.choice(SKY_ODDS.get(subject.type, SKY_ODDS["gear"]))
    coat, accent = faction_colors(subject.faction) if subject.faction else _unaligned(rng)
    image = _landscape(rng, size, sky_name, accent if subject.faction else None)
    if subject.type == "dude":
        layer = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
        _paint_dude(
            ImageDraw.Draw(layer), rng, w * SS, h * SS, coat, accent, subject.faction.casefold()
        )
        layer = layer.resize(size, Image.Resampling.BOX)
        image.paste(layer, (0, 0), layer)
    else:
        _paint_prop(image, rng, _pick_prop(subject, rng), coat, accent)
    return image


def _unaligned(rng: random.Random) -> tuple[RGB, RGB]:
    hue = rng.random()
    return _hsv(hue, 0.5, 0.5), _hsv((hue + 0.45) % 1, 0.65, 0.9)


# --- The landscape ---------------------------------------------------------------------------
def _landscape(
    rng: random.Random, size: tuple[int, int], sky_name: str, tint: RGB | None
) -> Image.Image:
    w, h = size
    top, bottom = SKIES[sky_name]
    if tint is not None:  # the faction's colour washes the sky a little
        top, bottom = _mix(top, tint, 0.18), _mix(bottom, tint, 0.12)
    top, bottom = _jitter(rng, top, 14), _jitter(rng, bottom, 14)
    horizon = int(h * rng.uniform(0.58, 0.78))
    # A vertical gradient built from one column, stretched: far cheaper than per-pixel drawing.
    column = Image.new("RGB", (1, horizon))
    column.putdata([_mix(top, bottom, y / max(1, horizon - 1)) for y in range(horizon)])
    image = Image.new("RGB", size, bottom)
    image.paste(column.resize((w, horizon)), (0, 0))
    draw = ImageDraw.Draw(image)
    night = sky_name == "night"
    if night:
        for _ in range(rng.randint(25, 60)):
            x, y = rng.randrange(w), rng.randrange(max(1, horizon - 20))
            r = rng.choice((1, 1, 1, 2))
            draw.ellipse((x - r, y - r, x + r, y + r), fill=(240, 236, 210))
    # Sun or moon somewhere in the sky.
    r = rng.randint(18, 40)
    cx, cy = rng.randint(r + 10, w - r - 10), rng.randint(r + 6, max(r + 7, horizon - r - 20))
    orb = (236, 232, 214) if night else _mix((255, 236, 170), bottom, 0.2)
    if sky_name != "storm":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=orb)
        if night:  # a crescent: the sky bites the moon
            d = r * 0.6
            draw.ellipse(
                (cx - r + d, cy - r - 4, cx + r + d, cy + r - 4),
                fill=_mix(top, bottom, cy / horizon),
            )
    for _ in range(rng.randint(0, 4) if sky_name != "storm" else rng.randint(5, 8)):
        _cloud(draw, rng, w, horizon, (90, 94, 104) if sky_name == "storm" else (250, 246, 236))
    far = _mix(bottom, (90, 70, 90) if not night else (20, 20, 40), 0.55)
    near = _mix(_jitter(rng, (132, 78, 44), 20), (10, 10, 20), 0.5 if night else 0.0)
    draw.polygon(_ridge(rng, w, horizon, h * 0.22, 7), fill=far)
    draw.polygon(_mesas(rng, w, horizon, h * 0.30), fill=near)
    ground = _jitter(rng, rng.choice(GROUNDS), 12)
    if night:
        ground = _mix(ground, (20, 20, 40), 0.55)
    draw.rectangle((0, horizon, w, h), fill=ground)
    # Furrows of the ground: a few darker streaks converging on the horizon.
    streak = _mix(ground, INK, 0.18)
    for _ in range(rng.randint(3, 7)):
        y = rng.randint(horizon + 6, h - 2)
        x0 = rng.randint(0, w - 40)
        draw.line((x0, y, x0 + rng.randint(30, 140), y), fill=streak, width=2)
    scenery: list[Callable[[ImageDraw.ImageDraw, random.Random, int, int, RGB], None]] = [
        _cactus,
        _cactus,
        _town,
        _windmill,
        _fence,
        _cactus,
    ]
    for item in rng.sample(scenery, rng.randint(1, 3)):
        item(draw, rng, w, horizon, _mix(near, INK, 0.35))
    return image


def _cloud(draw: ImageDraw.ImageDraw, rng: random.Random, w: int, horizon: int, color: RGB) -> None:
    cx, cy = rng.randint(0, w), rng.randint(8, max(9, horizon // 2))
    for _ in range(rng.randint(3, 5)):
        rx, ry = rng.randint(16, 40), rng.randint(8, 16)
        x, y = cx + rng.randint(-40, 40), cy + rng.randint(-6, 6)
        draw.ellipse((x - rx, y - ry, x + rx, y + ry), fill=color)


def _ridge(
    rng: random.Random, w: int, base: int, height: float, steps: int
) -> list[tuple[float, float]]:
    points = [(0.0, float(base))]
    for i in range(steps + 1):
        points.append((w * i / steps, base - height * rng.uniform(0.25, 1.0)))
    points.append((float(w), float(base)))
    return points


def _mesas(rng: random.Random, w: int, base: int, height: float) -> list[tuple[float, float]]:
    """Flat-topped mesas and buttes with sloping sides, left to right."""
    points: list[tuple[float, float]] = [(0.0, float(base))]
    x = rng.uniform(-40, 60)
    while x < w:
        width = rng.uniform(40, 160)
        top = base - height * rng.uniform(0.3, 1.0)
        slope = rng.uniform(8, 24)
        points += [(x, base), (x + slope, top), (x + width - slope, top), (x + width, base)]
        x += width + rng.uniform(20, 160)
    points.append((float(w), float(base)))
    return points


def _cactus(
    draw: ImageDraw.ImageDraw, rng: random.Random, w: int, horizon: int, color: RGB
) -> None:
    green = _mix((46, 96, 52), color, 0.3)
    x, base = rng.randint(10, w - 10), horizon + rng.randint(4, 40)
    tall, arm = rng.randint(30, 70), rng.randint(5, 8)
    draw.rounded_rectangle((x - arm, base - tall, x + arm, base), radius=arm, fill=green)
    for side in (-1, 1):
        if rng.random() < 0.7:
            y = base - tall * rng.uniform(0.35, 0.7)
            ax = x + side * arm * 2.6
            draw.rounded_rectangle(
                (min(x, ax) - 3, y - 5, max(x, ax) + 3, y + 5), radius=5, fill=green
            )
            draw.rounded_rectangle((ax - 5, y - tall * 0.35, ax + 5, y + 4), radius=5, fill=green)


def _town(draw: ImageDraw.ImageDraw, rng: random.Random, w: int, horizon: int, color: RGB) -> None:
    x = rng.randint(0, w - 160)
    for _ in range(rng.randint(3, 6)):
        bw, bh = rng.randint(18, 40), rng.randint(16, 42)
        draw.rectangle((x, horizon - bh, x + bw, horizon + 2), fill=color)
        if rng.random() < 0.5:  # a false front
            draw.rectangle((x + 3, horizon - bh - 8, x + bw - 3, horizon - bh), fill=color)
        x += bw + rng.randint(0, 6)


def _windmill(
    draw: ImageDraw.ImageDraw, rng: random.Random, w: int, horizon: int, color: RGB
) -> None:
    x, tall = rng.randint(20, w - 20), rng.randint(50, 90)
    top = horizon - tall
    draw.polygon([(x - 10, horizon), (x - 2, top), (x + 2, top), (x + 10, horizon)], fill=color)
    turn = rng.uniform(0, math.pi)
    for i in range(8):
        a = turn + i * math.pi / 4
        draw.line((x, top, x + 22 * math.cos(a), top + 22 * math.sin(a)), fill=color, width=3)


def _fence(draw: ImageDraw.ImageDraw, rng: random.Random, w: int, horizon: int, color: RGB) -> None:
    y = horizon + rng.randint(10, 30)
    x0 = rng.randint(0, w // 2)
    x1 = min(w, x0 + rng.randint(120, 300))
    for x in range(x0, x1, rng.randint(22, 34)):
        draw.rectangle((x, y - 18, x + 3, y), fill=color)
    draw.line((x0, y - 13, x1, y - 13), fill=color, width=2)
    draw.line((x0, y - 6, x1, y - 6), fill=color, width=2)


# --- Dudes: a bust with a face, a hat and the faction's clothes ----------------------------
@dataclass(frozen=True, slots=True)
class _Bust:
    """Where a dude's parts go: the head's centre and size, one unit (a hundredth of the art's
    height), the top of the shoulders and their half-width, and the outline everything gets."""

    cx: float
    cy: float
    head_w: float
    head_r: float
    u: float
    top: float
    shoulders: float
    line: Stroke


def _paint_dude(
    draw: ImageDraw.ImageDraw,
    rng: random.Random,
    w: int,
    h: int,
    coat: RGB,
    accent: RGB,
    faction: str,
) -> None:
    """A bust, back to front: clothes, neckwear, the faction's marks, the head and its face,
    whiskers, an outlaw's bandana, the hat. Every draw from `rng` keeps its order (the same
    card, the same picture), so the parts are painted in the order they take their draws."""
    u = h / 100  # one unit: a hundredth of the art's height
    cx = w / 2 + rng.uniform(-0.22, 0.22) * w
    head_r = u * rng.uniform(15, 19)
    head_w = head_r * rng.uniform(0.78, 0.95)
    cy = h * rng.uniform(0.42, 0.5)
    skin = _jitter(rng, rng.choice(SKIN), 8)
    hair = rng.choice(HAIR)
    coat = _jitter(rng, coat, 16)
    line = _stroke(max(2, round(u * 0.8)))
    shoulders = head_w * rng.uniform(2.3, 2.9)
    bust = _Bust(cx, cy, head_w, head_r, u, cy + head_r * 1.05, shoulders, line)
    _coat_and_shirt(draw, rng, bust, h, coat, skin)
    _neckwear(draw, rng, bust, accent, faction)
    _faction_marks(draw, bust, h, accent, faction)
    _head(draw, rng, bust, skin, hair)
    _eyes_and_nose(draw, rng, bust, skin, hair)
    _mouth_and_whiskers(draw, rng, bust, skin, hair)
    if faction == "outlaws" and rng.random() < 0.6:
        _bandana(draw, bust, accent)
    _hat(draw, rng, bust, faction, accent)


def _coat_and_shirt(
    draw: ImageDraw.ImageDraw, rng: random.Random, b: _Bust, h: int, coat: RGB, skin: RGB
) -> None:
    """Shoulders and coat, the shirt's V with its lapel lines, the neck."""
    cx, top, head_w, head_r, u, line = b.cx, b.top, b.head_w, b.head_r, b.u, b.line
    draw.rounded_rectangle(
        (cx - b.shoulders, top, cx + b.shoulders, h + 20 * u),
        radius=int(head_r),
        fill=coat,
        **line,
    )
    shirt = _jitter(
        rng, rng.choice(((236, 228, 208), (200, 190, 160), (150, 60, 50), (90, 110, 140))), 10
    )
    draw.polygon(
        [(cx - head_w * 0.6, top), (cx + head_w * 0.6, top), (cx, top + head_r * 1.5)], fill=shirt
    )
    draw.line(
        [(cx - head_w * 0.6, top), (cx, top + head_r * 1.5), (cx + head_w * 0.6, top)],
        fill=INK,
        width=line["width"],
    )
    draw.rectangle(
        (cx - head_w * 0.38, b.cy + head_r * 0.6, cx + head_w * 0.38, top + 2 * u),
        fill=_mix(skin, INK, 0.12),
    )


def _neckwear(
    draw: ImageDraw.ImageDraw, rng: random.Random, b: _Bust, accent: RGB, faction: str
) -> None:
    """A kerchief (always, for the cavalry and drifters), a bow tie, a string tie or none."""
    cx, top, head_w, head_r, u, line = b.cx, b.top, b.head_w, b.head_r, b.u, b.line
    neckwear = (
        rng.choice(("kerchief", "bowtie", "string", "none"))
        if faction not in ("cavalry", "drifters")
        else "kerchief"
    )
    if neckwear == "kerchief":
        draw.polygon(
            [(cx - head_w * 0.7, top - u), (cx + head_w * 0.7, top - u), (cx, top + head_r * 0.9)],
            fill=accent,
            **line,
        )
    elif neckwear == "bowtie":
        k = head_w * 0.35
        draw.polygon(
            [(cx, top + u), (cx - k, top - k * 0.5), (cx - k, top + k * 0.7)], fill=accent, **line
        )
        draw.polygon(
            [(cx, top + u), (cx + k, top - k * 0.5), (cx + k, top + k * 0.7)], fill=accent, **line
        )
    elif neckwear == "string":
        draw.line([(cx, top + u), (cx - 2 * u, top + 12 * u)], fill=INK, width=line["width"])
        draw.line([(cx, top + u), (cx + 2 * u, top + 12 * u)], fill=INK, width=line["width"])


def _faction_marks(draw: ImageDraw.ImageDraw, b: _Bust, h: int, accent: RGB, faction: str) -> None:
    """What the faction wears: a drifter's serape, a law dog's badge, cavalry shoulder boards,
    a townsman's waistcoat buttons."""
    cx, top, shoulders, head_r, u = b.cx, b.top, b.shoulders, b.head_r, b.u
    if faction == "drifters":  # a serape over one shoulder
        for i in range(4):
            color = (accent, (236, 214, 160), (120, 40, 36), (40, 90, 110))[i]
            off = i * 4 * u
            draw.line(
                [(cx - shoulders + off, top + 4 * u), (cx + shoulders * 0.6 + off, h + 10 * u)],
                fill=color,
                width=int(3.5 * u),
            )
    if faction in ("law dogs",):  # the badge on the chest
        bx, by = cx + shoulders * 0.5, top + head_r * 0.9
        _star(draw, bx, by, 6 * u, 6, (222, 186, 70))
    if faction == "cavalry":  # shoulder boards
        for side in (-1, 1):
            x = cx + side * shoulders * 0.75
            draw.rectangle((x - 7 * u, top + u, x + 7 * u, top + 4 * u), fill=accent, outline=INK)
    if faction == "townsfolk":  # a waistcoat's buttons
        for i in range(3):
            y = top + head_r * (1.7 + i * 0.45)
            draw.ellipse((cx - u, y - u, cx + u, y + u), fill=accent, outline=INK)


def _head(draw: ImageDraw.ImageDraw, rng: random.Random, b: _Bust, skin: RGB, hair: RGB) -> None:
    """Hair behind the head, then the ears and the head."""
    cx, cy, head_w, head_r, u, line = b.cx, b.cy, b.head_w, b.head_r, b.u, b.line
    hair_len = rng.choice((0.4, 0.8, 1.2))
    draw.rounded_rectangle(
        (cx - head_w * 1.08, cy - head_r * 0.8, cx + head_w * 1.08, cy + head_r * hair_len),
        radius=int(head_w * 0.6),
        fill=hair,
    )
    for side in (-1, 1):
        ex = cx + side * head_w * 0.98
        draw.ellipse((ex - 3 * u, cy - 3 * u, ex + 3 * u, cy + 4 * u), fill=skin, **line)
    draw.ellipse((cx - head_w, cy - head_r, cx + head_w, cy + head_r), fill=skin, **line)


def _eyes_and_nose(
    draw: ImageDraw.ImageDraw, rng: random.Random, b: _Bust, skin: RGB, hair: RGB
) -> None:
    """Two eyes (open or squinting) under tilted brows, and a nose."""
    cx, cy, head_w, head_r, u = b.cx, b.cy, b.head_w, b.head_r, b.u
    eye_y = cy - head_r * rng.uniform(0.02, 0.14)
    gap = head_w * rng.uniform(0.34, 0.46)
    er = u * rng.uniform(1.3, 2.0)
    squint = rng.random() < 0.35
    for side in (-1, 1):
        ex = cx + side * gap
        if squint:
            draw.line((ex - er * 1.6, eye_y, ex + er * 1.6, eye_y), fill=INK, width=int(u))
        else:
            draw.ellipse((ex - er, eye_y - er, ex + er, eye_y + er), fill=INK)
        tilt = rng.uniform(-2, 2) * u * side
        draw.line(
            (ex - er * 2.2, eye_y - er * 2.6 + tilt, ex + er * 2.2, eye_y - er * 2.6 - tilt),
            fill=_mix(hair, INK, 0.4),
            width=int(1.4 * u),
        )
    nose = head_r * rng.uniform(0.22, 0.36)
    draw.line(
        [(cx, eye_y + u), (cx + u * rng.choice((-2, 2)), eye_y + nose), (cx, eye_y + nose + u)],
        fill=_mix(skin, INK, 0.45),
        width=int(u),
    )


def _mouth_and_whiskers(
    draw: ImageDraw.ImageDraw, rng: random.Random, b: _Bust, skin: RGB, hair: RGB
) -> None:
    """The whiskers on the chin (beard, goatee, stubble), the mouth, then any moustache."""
    cx, cy, head_w, head_r, u = b.cx, b.cy, b.head_w, b.head_r, b.u
    mouth_y = cy + head_r * rng.uniform(0.42, 0.55)
    mw = head_w * rng.uniform(0.25, 0.45)
    whiskers = rng.choice(("none", "moustache", "handlebar", "beard", "goatee", "stubble"))
    beard = _mix(hair, INK, 0.15)
    if whiskers == "beard":
        draw.chord(
            (cx - head_w * 0.98, cy - head_r * 0.3, cx + head_w * 0.98, cy + head_r * 1.25),
            0,
            180,
            fill=beard,
        )
    elif whiskers == "goatee":
        draw.polygon(
            [(cx - mw * 0.6, mouth_y + u), (cx + mw * 0.6, mouth_y + u), (cx, cy + head_r * 1.1)],
            fill=beard,
        )
    elif whiskers == "stubble":
        for _ in range(40):
            a = rng.uniform(0.15, 0.85) * math.pi
            rr = rng.uniform(0.55, 0.92)
            x, y = cx + math.cos(a) * head_w * rr, cy + math.sin(a) * head_r * rr
            draw.point((x, y), fill=_mix(skin, INK, 0.5))
    draw.line(
        (cx - mw, mouth_y, cx + mw, mouth_y + rng.uniform(-1.5, 1.5) * u),
        fill=_mix(skin, INK, 0.6),
        width=int(1.2 * u),
    )
    if whiskers in ("moustache", "handlebar", "beard"):
        _moustache(draw, cx, mouth_y - 2.2 * u, mw, u, beard, handlebar=whiskers == "handlebar")


def _moustache(
    draw: ImageDraw.ImageDraw,
    cx: float,
    my: float,
    mw: float,
    u: float,
    beard: RGB,
    *,
    handlebar: bool,
) -> None:
    draw.ellipse((cx - mw * 1.15, my - 2.2 * u, cx + mw * 1.15, my + 1.8 * u), fill=beard)
    if handlebar:
        for side in (-1, 1):
            x = cx + side * mw * 1.15
            draw.arc(
                (x - 4 * u, my - 7 * u, x + 4 * u, my + 1 * u),
                0 if side > 0 else 90,
                90 if side > 0 else 180,
                fill=beard,
                width=int(1.5 * u),
            )


def _bandana(draw: ImageDraw.ImageDraw, b: _Bust, accent: RGB) -> None:
    """An outlaw's bandana over the lower face."""
    cx, cy, head_w, head_r, line = b.cx, b.cy, b.head_w, b.head_r, b.line
    draw.chord(
        (cx - head_w * 1.02, cy - head_r * 0.55, cx + head_w * 1.02, cy + head_r * 1.02),
        0,
        180,
        fill=accent,
        **line,
    )
    draw.polygon(
        [
            (cx - head_w * 0.4, cy + head_r * 0.9),
            (cx + head_w * 0.4, cy + head_r * 0.9),
            (cx, cy + head_r * 1.6),
        ],
        fill=accent,
        **line,
    )


# --- Hats: a style (the cavalry's kepi most often), a felt, a band, a brim ---------------------
HAT_BRIM = {
    "stetson": 1.9,
    "flat": 1.7,
    "bowler": 1.35,
    "top": 1.35,
    "sombrero": 2.9,
    "derby-brim": 1.55,
}
HAT_CROWN = {
    "stetson": 0.9,
    "flat": 0.55,
    "bowler": 0.75,
    "top": 1.35,
    "sombrero": 1.0,
    "derby-brim": 0.7,
}


def _hat(
    draw: ImageDraw.ImageDraw, rng: random.Random, b: _Bust, faction: str, accent: RGB
) -> None:
    """A hat on the head (or none: "bare"): its crown, band and brim, and a law dog's star."""
    cx, cy, hw, hr, u, line = b.cx, b.cy, b.head_w, b.head_r, b.u, b.line
    styles = ["stetson", "flat", "bowler", "top", "sombrero", "derby-brim", "bare"]
    style = "kepi" if faction == "cavalry" and rng.random() < 0.8 else rng.choice(styles)
    felt = _jitter(rng, rng.choice(FELT), 10)
    band = rng.choice((accent, INK, (200, 160, 40), (150, 40, 30)))
    brim_y = cy - hr * rng.uniform(0.5, 0.62)
    if style == "bare":
        return
    if style == "kepi":
        _kepi(draw, b, brim_y, _mix((34, 48, 96), felt, 0.15), accent)
        return
    crown_w = hw * (0.92 if style != "sombrero" else 0.8)
    ch = hr * HAT_CROWN[style]
    _crown(draw, style, cx, brim_y, crown_w, ch, felt, line)
    draw.rectangle(
        (cx - crown_w * 0.98, brim_y - ch * 0.32, cx + crown_w * 0.98, brim_y - u), fill=band
    )
    brim = HAT_BRIM[style]
    curl = hr * (0.28 if style in ("stetson", "sombrero") else 0.14)
    tilt = rng.uniform(-0.08, 0.08) * hr
    draw.chord(
        (cx - hw * brim, brim_y - curl + tilt, cx + hw * brim, brim_y + curl * 1.2 - tilt),
        0 if style != "bowler" else -10,
        180 if style != "bowler" else 190,
        fill=_mix(felt, INK, 0.15),
        **line,
    )
    draw.line(
        (cx - hw * brim, brim_y + tilt, cx + hw * brim, brim_y - tilt), fill=felt, width=int(3 * u)
    )
    if faction == "law dogs" and rng.random() < 0.5:
        _star(draw, cx, brim_y - ch * 0.16, 3.2 * u, 5, (222, 186, 70))


def _kepi(draw: ImageDraw.ImageDraw, b: _Bust, brim_y: float, felt: RGB, accent: RGB) -> None:
    """The cavalry's cap: a tall slanted crown, a black peak, a band of the faction's colour."""
    cx, hw, hr, u = b.cx, b.head_w, b.head_r, b.u
    draw.polygon(
        [
            (cx - hw * 1.0, brim_y),
            (cx - hw * 0.85, brim_y - hr * 0.9),
            (cx + hw * 0.85, brim_y - hr * 1.05),
            (cx + hw * 1.0, brim_y),
        ],
        fill=felt,
        **b.line,
    )
    draw.chord((cx - hw * 1.1, brim_y - 3 * u, cx + hw * 0.5, brim_y + 5 * u), 0, 180, fill=INK)
    draw.rectangle((cx - hw, brim_y - 4 * u, cx + hw, brim_y - 1.5 * u), fill=accent)


def _crown(
    draw: ImageDraw.ImageDraw,
    style: str,
    cx: float,
    brim_y: float,
    crown_w: float,
    ch: float,
    felt: RGB,
    line: Stroke,
) -> None:
    """A hat's crown, `ch` high: a bowler's dome, a sombrero's cone, else a crown (dented on
    top for a stetson)."""
    if style in ("bowler",):
        draw.chord(
            (cx - crown_w, brim_y - ch * 1.6, cx + crown_w, brim_y + ch * 0.4),
            180,
            360,
            fill=felt,
            **line,
        )
    elif style == "sombrero":
        draw.polygon(
            [
                (cx - crown_w, brim_y),
                (cx - crown_w * 0.5, brim_y - ch),
                (cx + crown_w * 0.5, brim_y - ch),
                (cx + crown_w, brim_y),
            ],
            fill=felt,
            **line,
        )
    else:
        dent = ch * (0.18 if style == "stetson" else 0.0)
        draw.polygon(
            [
                (cx - crown_w, brim_y),
                (cx - crown_w * 0.9, brim_y - ch),
                (cx, brim_y - ch + dent),
                (cx + crown_w * 0.9, brim_y - ch),
                (cx + crown_w, brim_y),
            ],
            fill=felt,
            **line,
        )


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, tips: int, fill: RGB) -> None:
    points = []
    for i in range(tips * 2):
        rr = r if i % 2 == 0 else r * 0.5
        a = math.pi * i / tips - math.pi / 2
        points.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    draw.polygon(points, fill=fill, outline=INK, width=max(1, int(r / 6)))


# --- Gear and fortunes: one object or emblem, chosen by name when the name says --------------
Prop = Callable[[Image.Image, random.Random, float, RGB, RGB], None]


def _paint_prop(
    image: Image.Image, rng: random.Random, painter: Prop, coat: RGB, accent: RGB
) -> None:
    """The object painted at twice the size on its own layer, shrunk (smooth edges), turned,
    moved, and laid on the picture over its shadow."""
    w, h = image.size
    span = int(h * 0.9) * SS
    layer = Image.new("RGBA", (span, span), (0, 0, 0, 0))
    painter(layer, rng, span / 100, coat, accent)
    side = int(span * rng.uniform(0.95, 1.15) / SS)
    # Turned after shrinking: a quarter of the pixels to turn. expand: a turned long gun keeps
    # its muzzle and stock.
    layer = layer.resize((side, side), Image.Resampling.BOX)
    layer = layer.rotate(rng.uniform(-24, 24), resample=Image.Resampling.BICUBIC, expand=True)
    x = int(w / 2 - layer.width / 2 + rng.uniform(-0.2, 0.2) * w)
    y = int(h * 0.5 - layer.height / 2)
    shade = layer.getchannel("A").point(lambda a: a * 90 // 255)
    image.paste((20, 14, 10), (max(0, x + int(h * 0.03)), max(0, y + int(h * 0.04))), shade)
    image.paste(layer, (max(0, x), max(0, y)), layer)


def _revolver(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    steel = _jitter(rng, rng.choice(((150, 156, 166), (90, 94, 104), (214, 180, 70))), 10)
    grip = _jitter(rng, rng.choice(((110, 66, 36), (236, 228, 210), (60, 40, 30))), 10)
    lw = _stroke(int(1.2 * u))
    barrel = rng.uniform(32, 48)
    d.rectangle((30 * u, 34 * u, (30 + barrel + 12) * u, 42 * u), fill=steel, **lw)
    d.rounded_rectangle((18 * u, 32 * u, 40 * u, 52 * u), radius=int(3 * u), fill=steel, **lw)
    d.ellipse((24 * u, 36 * u, 38 * u, 50 * u), fill=_mix(steel, INK, 0.3), **lw)
    d.polygon(
        [(18 * u, 40 * u), (26 * u, 48 * u), (18 * u, 78 * u), (6 * u, 74 * u)], fill=grip, **lw
    )
    d.arc((22 * u, 46 * u, 36 * u, 62 * u), 0, 180, fill=INK, width=int(1.5 * u))
    d.polygon([(16 * u, 32 * u), (12 * u, 26 * u), (20 * u, 30 * u)], fill=steel, **lw)


def _long_gun(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    steel = _jitter(rng, (100, 104, 112), 14)
    wood = _jitter(rng, rng.choice(((128, 76, 38), (160, 104, 56), (90, 56, 30))), 10)
    lw = _stroke(int(1.1 * u))
    length = rng.uniform(60, 80)
    d.rectangle((20 * u, 44 * u, (20 + length) * u, 49 * u), fill=steel, **lw)
    if rng.random() < 0.5:  # double barrel
        d.rectangle((30 * u, 49 * u, (20 + length) * u, 53 * u), fill=steel, **lw)
    d.polygon(
        [(4 * u, 52 * u), (26 * u, 44 * u), (38 * u, 50 * u), (10 * u, 66 * u)], fill=wood, **lw
    )
    d.rectangle((38 * u, 49 * u, 62 * u, 55 * u), fill=wood, **lw)
    d.arc((24 * u, 48 * u, 36 * u, 60 * u), 0, 180, fill=INK, width=int(1.4 * u))


def _blade(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    steel = _jitter(rng, (200, 206, 214), 12)
    lw = _stroke(int(1.1 * u))
    length = rng.uniform(50, 70)
    d.polygon(
        [
            (30 * u, 46 * u),
            ((30 + length) * u, 40 * u),
            ((36 + length) * u, 44 * u),
            (30 * u, 52 * u),
        ],
        fill=steel,
        **lw,
    )
    d.rectangle((26 * u, 38 * u, 30 * u, 60 * u), fill=accent, **lw)
    d.rounded_rectangle(
        (10 * u, 44 * u, 27 * u, 54 * u), radius=int(3 * u), fill=_jitter(rng, (90, 56, 30)), **lw
    )


def _badge(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    metal = _jitter(rng, rng.choice(((222, 186, 70), (196, 200, 208))), 12)
    _star(d, 50 * u, 50 * u, 34 * u, rng.choice((5, 6, 7)), metal)
    d.ellipse(
        (40 * u, 40 * u, 60 * u, 60 * u), fill=_mix(metal, INK, 0.3), outline=INK, width=int(u)
    )


def _bottle(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    glass = _jitter(rng, rng.choice(((120, 70, 30), (40, 90, 50), (150, 150, 160))), 12)
    lw = _stroke(int(1.2 * u))
    d.rounded_rectangle((34 * u, 40 * u, 66 * u, 90 * u), radius=int(8 * u), fill=glass, **lw)
    d.rectangle((44 * u, 18 * u, 56 * u, 42 * u), fill=glass, **lw)
    d.rectangle((43 * u, 12 * u, 57 * u, 20 * u), fill=(150, 110, 70), **lw)
    d.rectangle((36 * u, 54 * u, 64 * u, 74 * u), fill=(240, 226, 190), **lw)
    d.line((40 * u, 64 * u, 60 * u, 64 * u), fill=accent, width=int(2 * u))


def _watch(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    gold = _jitter(rng, rng.choice(((214, 176, 60), (196, 200, 208))), 12)
    lw = _stroke(int(1.3 * u))
    d.ellipse((20 * u, 24 * u, 80 * u, 84 * u), fill=gold, **lw)
    d.ellipse((27 * u, 31 * u, 73 * u, 77 * u), fill=(246, 240, 222), **lw)
    d.ellipse((45 * u, 12 * u, 55 * u, 24 * u), outline=gold, width=int(2.5 * u))
    for i in range(12):
        a = i * math.pi / 6
        d.line(
            (
                50 * u + 20 * u * math.cos(a),
                54 * u + 20 * u * math.sin(a),
                50 * u + 17 * u * math.cos(a),
                54 * u + 17 * u * math.sin(a),
            ),
            fill=INK,
            width=int(u),
        )
    for length, turn in ((14, rng.uniform(0, 2 * math.pi)), (10, rng.uniform(0, 2 * math.pi))):
        d.line(
            (
                50 * u,
                54 * u,
                50 * u + length * u * math.cos(turn),
                54 * u + length * u * math.sin(turn),
            ),
            fill=INK,
            width=int(1.5 * u),
        )


def _coin(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    metal = _jitter(rng, rng.choice(((214, 176, 60), (200, 204, 210))), 12)
    for i in range(rng.randint(1, 4)):
        x, y = 28 * u + i * 8 * u, 30 * u + i * 6 * u
        d.ellipse((x, y, x + 44 * u, y + 44 * u), fill=metal, outline=INK, width=int(1.3 * u))
        d.ellipse(
            (x + 6 * u, y + 6 * u, x + 38 * u, y + 38 * u),
            outline=_mix(metal, INK, 0.4),
            width=int(u),
        )
    _star(d, x + 22 * u, y + 22 * u, 10 * u, 5, _mix(metal, INK, 0.2))


def _bag(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    leather = _jitter(rng, rng.choice(((140, 90, 50), (110, 70, 40), (170, 130, 80))), 12)
    lw = _stroke(int(1.3 * u))
    d.rounded_rectangle((18 * u, 34 * u, 82 * u, 84 * u), radius=int(10 * u), fill=leather, **lw)
    d.chord((18 * u, 22 * u, 82 * u, 58 * u), 180, 360, fill=_mix(leather, INK, 0.2), **lw)
    d.rectangle((18 * u, 38 * u, 82 * u, 44 * u), fill=_mix(leather, INK, 0.2))
    d.rounded_rectangle((44 * u, 38 * u, 56 * u, 56 * u), radius=int(2 * u), fill=accent, **lw)
    for i in range(rng.randint(0, 4)):
        d.line(
            (24 * u + i * 14 * u, 66 * u, 30 * u + i * 14 * u, 80 * u),
            fill=_mix(leather, INK, 0.4),
            width=int(u),
        )


def _paper(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    paper = _jitter(rng, (236, 222, 180), 10)
    lw = _stroke(int(1.2 * u))
    d.polygon(
        [(22 * u, 12 * u), (78 * u, 14 * u), (80 * u, 88 * u), (20 * u, 86 * u)], fill=paper, **lw
    )
    d.rectangle((30 * u, 20 * u, 70 * u, 28 * u), fill=INK)
    if rng.random() < 0.5:  # a portrait, as on a poster
        d.ellipse((38 * u, 34 * u, 62 * u, 58 * u), fill=_mix(paper, INK, 0.4))
    for i in range(rng.randint(3, 6)):
        y = (62 + i * 4) * u
        d.line(
            (30 * u, y, (30 + rng.uniform(20, 40)) * u, y),
            fill=_mix(paper, INK, 0.6),
            width=int(1.3 * u),
        )
    d.ellipse((60 * u, 70 * u, 72 * u, 82 * u), fill=accent, **lw)


def _spyglass(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    brass = _jitter(rng, (190, 150, 70), 12)
    lw = _stroke(int(1.3 * u))
    for x in (18, 54):
        d.ellipse((x * u, 34 * u, (x + 28) * u, 62 * u), fill=brass, **lw)
        d.ellipse(((x + 5) * u, 39 * u, (x + 23) * u, 57 * u), fill=(120, 170, 200), **lw)
    d.arc((36 * u, 30 * u, 64 * u, 50 * u), 200, 340, fill=INK, width=int(2 * u))


def _dynamite(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    red = _jitter(rng, (176, 40, 34), 14)
    lw = _stroke(int(1.2 * u))
    for i in range(rng.randint(2, 4)):
        x = 26 * u + i * 13 * u
        d.rounded_rectangle((x, 36 * u, x + 12 * u, 86 * u), radius=int(3 * u), fill=red, **lw)
    d.rectangle(
        (22 * u, 58 * u, 22 * u + (rng.randint(2, 4) * 13 + 8) * u, 64 * u), fill=(60, 40, 30)
    )
    d.line((36 * u, 36 * u, 44 * u, 20 * u, 52 * u, 16 * u), fill=INK, width=int(1.4 * u))
    _star(d, 54 * u, 14 * u, 6 * u, 8, (250, 200, 60))


def _horseshoe(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    iron = _jitter(rng, rng.choice(((150, 156, 164), (214, 176, 60))), 12)
    d.arc((22 * u, 26 * u, 78 * u, 82 * u), 330, 210, fill=INK, width=int(16 * u))
    d.arc((24 * u, 28 * u, 76 * u, 80 * u), 335, 205, fill=iron, width=int(12 * u))


def _cards_fan(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    n = rng.randint(3, 5)
    suits = [rng.choice(((170, 30, 30), INK)) for _ in range(n)]
    for i in range(n):
        a = (i - (n - 1) / 2) * 0.28
        cx, cy = 50 * u + math.sin(a) * 30 * u, 60 * u - math.cos(a) * 6 * u
        card = Image.new("RGBA", (int(30 * u), int(44 * u)), (0, 0, 0, 0))
        cd = ImageDraw.Draw(card)
        cd.rounded_rectangle(
            (0, 0, card.width - 1, card.height - 1),
            radius=int(3 * u),
            fill=(250, 246, 236),
            outline=INK,
            width=int(u),
        )
        cd.polygon(_polygon(card.width / 2, card.height / 2, 7 * u, 4), fill=suits[i])
        card = card.rotate(-math.degrees(a), expand=True, resample=Image.Resampling.BICUBIC)
        img.alpha_composite(card, (int(cx - card.width / 2), int(cy - card.height / 2)))


def _dice(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    ivory = _jitter(rng, (244, 238, 220), 8)
    for x, y in ((16, 30), (52, 44)):
        d.rounded_rectangle(
            (x * u, y * u, (x + 32) * u, (y + 32) * u),
            radius=int(5 * u),
            fill=ivory,
            outline=INK,
            width=int(1.3 * u),
        )
        pips = rng.randint(1, 6)
        spots = {
            1: [(0, 0)],
            2: [(-1, -1), (1, 1)],
            3: [(-1, -1), (0, 0), (1, 1)],
            4: [(-1, -1), (1, 1), (-1, 1), (1, -1)],
        }
        spots[5] = spots[4] + [(0, 0)]
        spots[6] = spots[4] + [(-1, 0), (1, 0)]
        for px, py in spots[pips]:
            sx, sy = (x + 16 + px * 8) * u, (y + 16 + py * 8) * u
            d.ellipse(
                (sx - 3 * u, sy - 3 * u, sx + 3 * u, sy + 3 * u),
                fill=(170, 30, 30) if pips == 1 else INK,
            )


def _storm(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    dust = _jitter(rng, (200, 170, 120), 16)
    for i in range(rng.randint(4, 7)):
        r = (10 + i * 6) * u
        d.arc(
            (50 * u - r, 50 * u - r, 50 * u + r, 50 * u + r),
            rng.randint(0, 180),
            rng.randint(200, 350),
            fill=_mix(dust, INK, i * 0.05),
            width=int(3 * u),
        )
    x = rng.uniform(30, 60)
    d.line(
        [(x * u, 10 * u), ((x - 8) * u, 40 * u), ((x + 4) * u, 42 * u), ((x - 6) * u, 80 * u)],
        fill=(250, 230, 110),
        width=int(3 * u),
    )


def _clock(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    """High noon: a watch with its minute hand at twelve, drawn in the faction's accent."""
    d = ImageDraw.Draw(img)
    _watch(img, rng, u, coat, accent)
    d.line((50 * u, 54 * u, 50 * u, 36 * u), fill=accent, width=int(2.5 * u))


def _crossed_guns(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    for flip in (False, True):
        layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
        _revolver(layer, rng, u, coat, accent)
        if flip:
            layer = layer.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        layer = layer.rotate(28 if flip else -28, resample=Image.Resampling.BICUBIC)
        img.alpha_composite(layer)
    d.ellipse((38 * u, 8 * u, 62 * u, 32 * u), fill=(236, 228, 210, 200))


def _flag(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    lw = _stroke(int(1.2 * u))
    d.rectangle((20 * u, 8 * u, 24 * u, 92 * u), fill=(110, 80, 50), **lw)
    wave = rng.uniform(3, 7)
    top = [(24 * u + i * 6 * u, 12 * u + math.sin(i * 0.9) * wave * u) for i in range(10)]
    bottom = [(x, y + 34 * u) for x, y in reversed(top)]
    d.polygon(top + bottom, fill=coat, **lw)
    for i in range(1, 3):
        stripe = [(x, y + i * 11 * u) for x, y in top]
        d.line(stripe, fill=accent, width=int(3 * u))
    _star(d, 36 * u, 24 * u, 5 * u, 5, (246, 236, 200))


def _spur(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    metal = _jitter(rng, (196, 200, 208), 12)
    d.arc((14 * u, 30 * u, 66 * u, 76 * u), 90, 270, fill=metal, width=int(7 * u))
    d.line((40 * u, 53 * u, 66 * u, 53 * u), fill=metal, width=int(5 * u))
    _star(d, 74 * u, 53 * u, 14 * u, 8, metal)


def _chain(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    iron = _jitter(rng, (110, 114, 120), 12)
    for x in (14, 56):
        d.ellipse((x * u, 34 * u, (x + 30) * u, 64 * u), outline=INK, width=int(8 * u))
        d.ellipse(((x + 1) * u, 35 * u, (x + 29) * u, 63 * u), outline=iron, width=int(5 * u))
    for i in range(4):
        x = 42 + i * 4
        d.ellipse((x * u, 44 * u, (x + 6) * u, 54 * u), outline=iron, width=int(2 * u))


def _horn(img: Image.Image, rng: random.Random, u: float, coat: RGB, accent: RGB) -> None:
    d = ImageDraw.Draw(img)
    brass = _jitter(rng, (214, 176, 60), 12)
    lw = _stroke(int(1.2 * u))
    d.polygon(
        [
            (14 * u, 48 * u),
            (60 * u, 44 * u),
            (86 * u, 28 * u),
            (86 * u, 72 * u),
            (60 * u, 56 * u),
            (14 * u, 52 * u),
        ],
        fill=brass,
        **lw,
    )
    d.arc((24 * u, 44 * u, 60 * u, 74 * u), 0, 180, fill=brass, width=int(3 * u))
    d.line((40 * u, 58 * u, 40 * u, 84 * u), fill=accent, width=int(2 * u))


def _polygon(cx: float, cy: float, r: float, sides: int) -> list[tuple[float, float]]:
    return [
        (cx + r * math.sin(2 * math.pi * i / sides), cy - r * math.cos(2 * math.pi * i / sides))
        for i in range(sides)
    ]


# Words in a card's name and the object they call for, checked in order.
PROP_WORDS: tuple[tuple[tuple[str, ...], Prop], ...] = (
    (("dynamite", "powder"), _dynamite),
    (("shackles", "chain"), _chain),
    (("dice", "snake eyes"), _dice),
    (("rifle", "shotgun", "coach gun", "gatling", "sharps", "carbine"), _long_gun),
    (
        (
            "colt",
            "derringer",
            "pistol",
            "six-shooter",
            "iron",
            "holster",
            "sleeve gun",
            "pair",
            "ringer",
        ),
        _revolver,
    ),
    (("saber", "knife", "pick", "blade", "bowie"), _blade),
    (("star", "badge", "law and order"), _badge),
    (("whiskey", "flask", "bottle"), _bottle),
    (("watch",), _watch),
    (("high noon", "quick draw", "standoff"), _clock),
    (("dollar", "coin", "strike", "bargain", "gold", "money", "ante"), _coin),
    (("saddle", "bag", "belt", "bandolier", "pouch", "pickpocket"), _bag),
    (("ticket", "poster", "deed", "telegram", "claim", "wanted"), _paper),
    (("glasses", "spectacles", "wits", "eyes"), _spyglass),
    (("horseshoe", "luck", "rabbit", "break"), _horseshoe),
    (
        (
            "deck",
            "card",
            "faro",
            "house",
            "bluff",
            "aces",
            "hand",
            "deal",
            "game",
            "seat",
            "roller",
            "trick",
            "switcheroo",
        ),
        _cards_fan,
    ),
    (("dust", "storm", "squall", "whirl"), _storm),
    (
        ("ambush", "bushwhack", "covered", "shot", "holdup", "agents", "outnumbered", "jammed"),
        _crossed_guns,
    ),
    (("colors", "fort", "stand", "reinforcements", "charge", "grit", "court"), _flag),
    (("spurs",), _spur),
    (("bugle",), _horn),
)
ANY_PROP: tuple[Prop, ...] = tuple(dict.fromkeys(p for _, p in PROP_WORDS))


def _pick_prop(subject: Subject, rng: random.Random) -> Prop:
    # Words match at the start of a word of the name: "ante" is not in "Wanted".
    name = " " + " ".join(re.split(r"[^a-z0-9'-]+", subject.name.casefold())) + " "
    for words, painter in PROP_WORDS:
        if any(" " + word in name for word in words):
            return painter
    return rng.choice(ANY_PROP)
