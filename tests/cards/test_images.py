"""Card and kicker-chip images: sizes, determinism, what each card type shows, the disk cache."""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from PIL import Image, ImageChops, ImageStat

from cards import art, images
from simulator.engine.drifter.cards import Ability, CardDef, Effect, KickerChipDef

LONG_TEXT = (
    "Showdown: if skill is contested and you are the challenger, this dude gets +2 skill "
    "for each gear card attached to him, and each opponent discards a card. "
) * 40


def dude(**overrides) -> SimpleNamespace:
    fields = {
        "code": "HSD-012",
        "name": "Doc Hollister",
        "type": "dude",
        "is_copy": False,
        "faction": "Clanton Gang",
        "rarity": "rare",
        "cost": 4,
        "smarts": 3,
        "skill": 2,
        "luck": 1,
        "kicker_limit": 10,
        "text": "Showdown: if skill is contested, Doc gets +2 skill.",
    }
    return SimpleNamespace(**{**fields, **overrides})


def gear(**overrides) -> SimpleNamespace:
    fields = {
        "type": "gear",
        "code": "HSD-101",
        "name": "Colt Peacemaker",
        "faction": "",
        "rarity": "common",
        "cost": 2,
        "smarts": None,
        "skill": None,
        "luck": None,
        "kicker_limit": None,
        "text": "Dude gets +1 skill.",
    }
    return dude(**{**fields, **overrides})


def fortune(**overrides) -> SimpleNamespace:
    return gear(**{"type": "fortune", "code": "HSD-150", "name": "Ace in the Hole", **overrides})


def chip(**overrides) -> SimpleNamespace:
    fields = {"code": "HSD-K03", "color": "red", "value": 5, "sides": [("luck", 2), ("skill", -1)]}
    return SimpleNamespace(**{**fields, **overrides})


def png_image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


@pytest.fixture
def image_cache(settings, tmp_path):
    settings.CARD_IMAGE_CACHE = tmp_path / "card-images"
    return settings.CARD_IMAGE_CACHE


# --- The card face ---------------------------------------------------------------------------
def test_card_face_is_63_by_88_mm_at_254_dpi():
    assert images.render_card(dude()).size == (630, 880)


def test_full_and_thumb_pngs_have_their_sizes(image_cache):
    assert png_image(images.card_png(dude(), "full")).size == (630, 880)
    assert png_image(images.card_png(dude(), "thumb")).size == (252, 352)


def test_rendering_twice_gives_identical_png_bytes(settings, tmp_path):
    settings.CARD_IMAGE_CACHE = tmp_path / "first"
    first = images.card_png(dude())
    settings.CARD_IMAGE_CACHE = tmp_path / "second"
    assert images.card_png(dude()) == first
    assert images.render_card(dude()).tobytes() == images.render_card(dude()).tobytes()


@pytest.mark.parametrize(
    "change",
    [
        {"name": "Kid Calloway"},
        {"cost": 5},
        {"skill": 3},
        {"kicker_limit": 5},
        {"faction": "Law Dogs"},
        {"rarity": "promo"},
        {"text": "Once per turn: draw a card."},
        {"code": "HSD-013"},
    ],
)
def test_a_card_that_prints_differently_renders_differently(change):
    assert images.render_card(dude()).tobytes() != images.render_card(dude(**change)).tobytes()


def test_frame_colour_tells_dude_gear_and_fortune_apart():
    frames = {
        card.type: images.render_card(card).getpixel(images.FRAME_SAMPLE)
        for card in (dude(), gear(), fortune())
    }
    assert frames == images.FRAME_COLORS


def test_copy_card_gets_its_own_accent():
    rule = (19, 440)  # on the inner rule around the panels
    assert images.render_card(fortune()).getpixel(rule) == images.ACCENT
    assert images.render_card(fortune(is_copy=True)).getpixel(rule) == images.COPY_ACCENT


def _stat_headers(image: Image.Image) -> list[tuple[int, int, int]]:
    # Left end of each header band: clear of the rounded corner and the centred label.
    return [image.getpixel((x0 + 8, y0 + 16)) for x0, y0, _, _ in images.STAT_BOXES]


def test_dude_shows_smarts_skill_luck_and_kicker_limit_boxes():
    assert _stat_headers(images.render_card(dude())) == [
        images.STAT_COLORS[stat] for stat in ("smarts", "skill", "luck", "kicker")
    ]


@pytest.mark.parametrize("card", [gear(), fortune()], ids=["gear", "fortune"])
def test_gear_and_fortune_have_no_stat_boxes_only_text_box(card):
    assert _stat_headers(images.render_card(card)) == [images.PARCHMENT] * 4


def test_each_rarity_has_its_own_mark():
    renders = {images.render_card(dude(rarity=r)).tobytes() for r in images.RARITY_MARKS}
    assert len(renders) == len(images.RARITY_MARKS)


def test_engine_carddef_renders_the_same_as_the_catalogue_card():
    card_def = CardDef(
        id=11,
        code="HSD-012",
        set_code="HSD",
        number=12,
        name="Doc Hollister",
        type="dude",
        faction="Clanton Gang",
        rarity="rare",
        cost=4,
        smarts=3,
        skill=2,
        luck=1,
        kicker_limit=10,
        text="Showdown: if skill is contested, Doc gets +2 skill.",
    )
    assert images.card_etag(card_def) == images.card_etag(dude())
    assert images.render_card(card_def).tobytes() == images.render_card(dude()).tobytes()


def test_engine_copy_card_is_drawn_as_a_copy():
    copy = CardDef(
        id=1,
        code="HSD-150",
        set_code="HSD",
        number=150,
        name="Mirror Image",
        type="gear",
        faction="",
        rarity="uncommon",
        cost=2,
        text="This card becomes a copy of any card in the saloon or street.",
        abilities=(Ability(timing="on_play", effects=(Effect(kind="copy", of="any"),)),),
    )
    assert images.card_face(copy).is_copy
    assert images.render_card(copy).getpixel((19, 440)) == images.COPY_ACCENT


# --- Each card its own art ------------------------------------------------------------------
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "sets"


def set_subjects(code: str) -> list[art.Subject]:
    data = json.loads((FIXTURES / f"{code}.json").read_text())
    return [
        art.Subject(f"{code}-{c['number']:03}", c["type"], c["faction"], c["name"])
        for c in data["cards"]
    ]


def glance(picture: Image.Image) -> Image.Image:
    """What an eye takes in of a thumbnail at a glance: the picture at 48 x 24 pixels."""
    return picture.resize((48, 24), Image.Resampling.BOX)


def difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel, 0-255."""
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def test_every_two_cards_of_the_set_differ_at_a_glance():
    """Every pair of High Stakes Drifter's 171 pictures, shrunk to 48 x 24, differs by at
    least 10 levels in 255 on average per pixel and channel (the closest pair measured 12.8;
    the old art gave every gear the same picture: 0)."""
    x0, y0, x1, y1 = images.ART_BOX
    subjects = set_subjects("HSD")
    small = [glance(art.paint(s, (x1 - x0, y1 - y0))) for s in subjects]
    closest = min(
        (difference(a, b), subjects[i].name, subjects[j].name)
        for (i, a), (j, b) in itertools.combinations(enumerate(small), 2)
    )
    assert closest[0] >= 10, closest


def test_cards_of_the_same_type_and_faction_get_different_pictures():
    a, b = images.render_card(gear()), images.render_card(gear(code="HSD-102"))
    box = images.ART_BOX
    assert difference(glance(a.crop(box)), glance(b.crop(box))) >= 10
    assert a.crop(images.NAME_BAR).tobytes() == b.crop(images.NAME_BAR).tobytes()


def test_a_dude_wears_his_factions_colours():
    assert art.faction_colors("law dogs") == art.FACTION_COLORS["law dogs"]
    assert art.faction_colors("Outlaws")[0] != art.faction_colors("Law Dogs")[0]
    # An unknown faction still gets colours of its own, the same every time (in any process):
    # the hue is SHA-256("faction:pinkertons") mod 360 = 327 degrees, worked out beside the code.
    assert art.faction_colors("Pinkertons") == ((115, 52, 86), (87, 217, 145))
    assert art.faction_colors("Pinkertons") != art.faction_colors("Rangers")


def test_gear_is_drawn_as_what_its_name_says():
    def prop(name: str) -> str:
        return art._pick_prop(art.Subject("HSD-001", "gear", "", name), None).__name__  # type: ignore[arg-type]

    assert prop("Colt Peacemaker") == "_revolver"
    assert prop("Winchester Rifle") == "_long_gun"
    assert prop("Whiskey Flask") == "_bottle"
    assert prop("Wanted Poster") == "_paper"  # not a coin for the "ante" inside "Wanted"
    assert prop("Snake Eyes") == "_dice"


def test_the_seed_is_a_stable_hash_of_the_code_not_pythons_hash():
    assert art.seed_of("HSD-001") == int.from_bytes(hashlib.sha256(b"HSD-001").digest()[:8], "big")


def test_a_card_renders_identically_in_another_process_with_another_hash_seed():
    here = hashlib.sha256(images.render_card(dude()).tobytes()).hexdigest()
    script = (
        "import hashlib, sys; sys.path.insert(0, 'tests/cards'); "
        "from cards import images; from test_images import dude; "
        "print(hashlib.sha256(images.render_card(dude()).tobytes()).hexdigest())"
    )
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    there = subprocess.run(
        [sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True
    )
    assert there.returncode == 0, there.stderr
    assert there.stdout.strip() == here


def test_the_card_back_is_one_image_for_every_card(image_cache):
    full, thumb = images.back_png("full"), images.back_png("thumb")
    assert png_image(full).size == (630, 880)
    assert png_image(thumb).size == (252, 352)
    assert images.back_etag("full") != images.back_etag("thumb")
    assert images.render_back().getpixel((60, 440)) != images.FRAME_COLORS["dude"]


# --- Ability text: wrapped, shrunk, never overflowing ----------------------------------------
def test_wrapped_lines_each_fit_the_width():
    fnt = images.font(24)
    lines = images.wrap_text(LONG_TEXT + " " + "Hornswoggle" * 20, fnt, 300)
    assert len(lines) > 10
    assert all(fnt.getlength(line) <= 300 for line in lines)


def test_long_text_shrinks_the_font_and_stays_inside_the_box():
    x0, y0, x1, y1 = images.text_area(images.TEXT_BOX_DUDE)
    short_font, _ = images.fit_text("Dude gets +1 skill.", x1 - x0, y1 - y0)
    fnt, lines = images.fit_text(LONG_TEXT[:600], x1 - x0, y1 - y0)
    assert fnt.size < short_font.size
    assert all(fnt.getlength(line) <= x1 - x0 for line in lines)
    assert len(lines) * images.line_height(int(fnt.size)) <= y1 - y0


def test_text_too_long_for_the_smallest_font_is_cut_with_an_ellipsis():
    x0, y0, x1, y1 = images.text_area(images.TEXT_BOX_DUDE)
    fnt, lines = images.fit_text(LONG_TEXT, x1 - x0, y1 - y0)
    assert lines[-1].endswith("…")
    assert all(fnt.getlength(line) <= x1 - x0 for line in lines)
    assert len(lines) * images.line_height(int(fnt.size)) <= y1 - y0


@pytest.mark.parametrize("card", [dude(text=LONG_TEXT), gear(text="Hornswoggle" * 200)])
def test_very_long_text_renders_without_spilling_out_of_its_box(card):
    image = images.render_card(card)
    below = images.TEXT_BOX_DUDE[3] + 5
    frame = images.FRAME_COLORS[card.type]
    assert {image.getpixel((x, below)) for x in range(40, 590)} == {frame}


def colours(image: Image.Image) -> set[tuple[int, int, int]]:
    return {colour for _count, colour in image.getcolors(maxcolors=1 << 20)}


def _inks(image: Image.Image, box: images.Box) -> set[tuple[int, int, int]]:
    return colours(image.crop(images.text_area(box)))


def test_flavor_text_prints_in_muted_ink_under_the_ability_text():
    plain = images.render_card(dude())
    flavored = images.render_card(dude(flavor="Measures every stranger twice."))
    assert images.FLAVOR_INK not in _inks(plain, images.TEXT_BOX_DUDE)
    assert images.FLAVOR_INK in _inks(flavored, images.TEXT_BOX_DUDE)
    # The ability text is still there, in ink, above it.
    x0, y0, x1, y1 = images.text_area(images.TEXT_BOX_DUDE)
    top_half = flavored.crop((x0, y0, x1, (y0 + y1) // 2))
    assert images.INK in colours(top_half)


def test_a_vanilla_dude_shows_its_flavor_text_in_the_middle_of_the_box():
    image = images.render_card(dude(text="", flavor="Quiet as a church mouse."))
    x0, y0, x1, y1 = images.text_area(images.TEXT_BOX_DUDE)
    middle = image.crop((x0, (y0 + y1) // 2 - 20, x1, (y0 + y1) // 2 + 20))
    assert images.FLAVOR_INK in colours(middle)


@pytest.mark.parametrize("text", [LONG_TEXT, ""])
def test_very_long_flavor_text_stays_inside_the_box(text):
    image = images.render_card(dude(text=text, flavor=LONG_TEXT))
    below = images.TEXT_BOX_DUDE[3] + 5
    assert {image.getpixel((x, below)) for x in range(40, 590)} == {images.FRAME_COLORS["dude"]}


def test_long_names_and_factions_shrink_to_fit():
    card = dude(name="Reverend Bartholomew Hezekiah Goodnight III", faction="Society " * 10)
    assert images.render_card(card).size == (630, 880)


def test_text_is_folded_onto_the_glyphs_of_the_bundled_font():
    assert images.printable("−1 skill — Café") == "-1 skill - Cafe"
    assert images.printable("plain ASCII, “quoted”") == "plain ASCII, “quoted”"


# --- Kicker chips ----------------------------------------------------------------------------
def test_chip_sides_are_round_300_px_and_differ():
    side_a, side_b = images.render_chip(chip(), 0), images.render_chip(chip(), 1)
    assert side_a.size == side_b.size == (300, 300)
    assert side_a.getpixel((2, 2))[3] == 0  # transparent outside the disc
    assert side_a.getpixel((150, 150))[3] == 255
    assert side_a.tobytes() != side_b.tobytes()


def test_chip_body_is_the_chips_colour():
    for color, (body, _) in images.CHIP_COLORS.items():
        image = images.render_chip(chip(color=color), 0)
        assert image.getpixel((150, 53))[:3] == body  # between the dashed ring and the centre


def test_engine_kicker_chip_def_renders_like_the_model():
    chip_def = KickerChipDef(
        id=3,
        code="HSD-K03",
        set_code="HSD",
        color="red",
        value=5,
        sides=(("luck", 2), ("skill", -1)),
    )
    for side in (0, 1):
        assert images.chip_etag(chip_def, side) == images.chip_etag(chip(), side)


def test_chip_has_only_two_sides():
    with pytest.raises(ValueError):
        images.render_chip(chip(), 2)


def test_chip_pngs_for_both_sides(image_cache):
    side_a, side_b = images.chip_png(chip(), 0), images.chip_png(chip(), 1)
    assert png_image(side_a).size == png_image(side_b).size == (300, 300)
    assert side_a != side_b


# --- The disk cache and ETags ----------------------------------------------------------------
def test_second_request_is_served_from_the_disk_cache(image_cache, monkeypatch):
    first = images.card_png(dude(), "thumb")
    chip_first = images.chip_png(chip(), 1)

    def no_rendering(*args, **kwargs):
        raise AssertionError("rendered again instead of reading the cache")

    monkeypatch.setattr(images, "render_card", no_rendering)
    monkeypatch.setattr(images, "render_chip", no_rendering)
    assert images.card_png(dude(), "thumb") == first
    assert images.chip_png(chip(), 1) == chip_first
    cached = sorted(p.name for p in image_cache.rglob("*") if p.is_file())
    assert cached == sorted(
        [f"{images.card_etag(dude(), 'thumb')}.png", f"{images.chip_etag(chip(), 1)}.png"]
    )  # and no temp files left behind


def test_cache_key_follows_what_the_card_shows():
    key = images.card_etag(dude())
    assert len(key) == 64
    assert images.card_etag(dude()) == key
    assert images.card_etag(dude(name="Doc Holliday")) != key
    assert images.card_etag(dude(), "thumb") != key
    assert images.chip_etag(chip(), 0) != images.chip_etag(chip(), 1)


def test_cache_key_changes_with_the_render_version(monkeypatch):
    key = images.card_etag(dude())
    monkeypatch.setattr(images, "RENDER_VERSION", images.RENDER_VERSION + "-next")
    assert images.card_etag(dude()) != key


def test_unknown_size_is_refused():
    with pytest.raises(ValueError):
        images.card_etag(dude(), "huge")
