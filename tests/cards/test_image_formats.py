"""Card pictures as WebP to the browsers that accept it, PNG to everyone else, at the same
addresses (cards.views.card_image, card_back, chip_image)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageStat

from cards import images
from cards.models import Card, KickerChip

pytestmark = pytest.mark.django_db

# What Chromium sends for an <img>; Firefox and Safari name image/webp too.
BROWSER_ACCEPT = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"


@pytest.fixture
def image_cache(settings, tmp_path):
    settings.CARD_IMAGE_CACHE = tmp_path / "card-images"
    return settings.CARD_IMAGE_CACHE


def is_webp(data: bytes) -> bool:
    return data[:4] == b"RIFF" and data[8:12] == b"WEBP"


def varies_on_accept(response) -> bool:
    return "accept" in {v.strip().lower() for v in response.get("Vary", "").split(",")}


def decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize("size", ["thumb", "full"])
def test_a_browser_that_accepts_webp_gets_webp(client, catalogue, image_cache, size):
    response = client.get(f"/cards/HSD-012/{size}.png", HTTP_ACCEPT=BROWSER_ACCEPT)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/webp"
    assert is_webp(response.content)
    assert decoded(response.content).format == "WEBP"
    assert varies_on_accept(response)
    assert response["Cache-Control"] == "public, max-age=86400"
    assert response["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("accept", [None, "*/*", "image/png,image/*;q=0.8", "image/webp;q=0"])
def test_a_client_that_does_not_name_webp_gets_png(client, catalogue, image_cache, accept):
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    response = client.get("/cards/HSD-012/thumb.png", **headers)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert varies_on_accept(response)
    assert response["Cache-Control"] == "public, max-age=86400"


@pytest.mark.parametrize("size", ["thumb", "full"])
def test_the_webp_and_the_png_are_the_same_picture(client, catalogue, image_cache, size):
    png = decoded(client.get(f"/cards/HSD-012/{size}.png").content)
    webp = decoded(client.get(f"/cards/HSD-012/{size}.png", HTTP_ACCEPT="image/webp").content)
    assert webp.size == png.size == images.SIZES[size]
    # Lossy, but close: the mean difference per channel stays within a few levels of 255.
    difference = ImageStat.Stat(ImageChops.difference(png.convert("RGB"), webp.convert("RGB")))
    assert max(difference.mean) < 4


def test_the_webp_is_smaller_and_cached_on_disk_beside_the_png(client, catalogue, image_cache):
    card = Card.objects.get(code="HSD-012")
    png = client.get("/cards/HSD-012/thumb.png").content
    webp = client.get("/cards/HSD-012/thumb.png", HTTP_ACCEPT=BROWSER_ACCEPT).content
    assert len(webp) < len(png) / 2
    key = images.card_etag(card, "thumb")
    folder = image_cache / key[:2]
    assert sorted(p.name for p in folder.iterdir()) == [f"{key}-webp85.webp", f"{key}.png"]
    assert (folder / f"{key}-webp85.webp").read_bytes() == webp


def test_each_format_has_its_own_etag_and_revalidates(client, catalogue, image_cache):
    png = client.get("/cards/HSD-012/thumb.png")
    webp = client.get("/cards/HSD-012/thumb.png", HTTP_ACCEPT=BROWSER_ACCEPT)
    assert png["ETag"] != webp["ETag"]
    again = client.get(
        "/cards/HSD-012/thumb.png", HTTP_ACCEPT=BROWSER_ACCEPT, HTTP_IF_NONE_MATCH=webp["ETag"]
    )
    assert again.status_code == 304
    assert again["ETag"] == webp["ETag"] and varies_on_accept(again)
    # The PNG's ETag does not stand for the WebP, nor the other way round.
    assert (
        client.get(
            "/cards/HSD-012/thumb.png", HTTP_ACCEPT=BROWSER_ACCEPT, HTTP_IF_NONE_MATCH=png["ETag"]
        ).status_code
        == 200
    )
    assert (
        client.get("/cards/HSD-012/thumb.png", HTTP_IF_NONE_MATCH=webp["ETag"]).status_code == 200
    )
    # GZipMiddleware weakens the ETag of what it compresses: a weak match still counts.
    weak = client.get("/cards/HSD-012/thumb.png", HTTP_IF_NONE_MATCH="W/" + png["ETag"])
    assert weak.status_code == 304


def test_the_card_back_and_kicker_chips_come_as_webp_too(client, catalogue, image_cache):
    chip = KickerChip.objects.first()
    for url, size in [
        ("/cards/back/thumb.png", images.THUMB_SIZE),
        (f"/kicker-chips/{chip.code}/0.png", None),
    ]:
        png = client.get(url)
        webp = client.get(url, HTTP_ACCEPT=BROWSER_ACCEPT)
        assert png["Content-Type"] == "image/png" and webp["Content-Type"] == "image/webp"
        assert is_webp(webp.content)
        assert decoded(webp.content).size == decoded(png.content).size == (size or images.CHIP_SIZE)
        assert varies_on_accept(png) and varies_on_accept(webp)


def test_pictures_are_never_gzipped_and_their_etags_stay_strong_while_pages_are(
    client, catalogue, image_cache
):
    picture = client.get(
        "/cards/HSD-012/thumb.png", HTTP_ACCEPT=BROWSER_ACCEPT, HTTP_ACCEPT_ENCODING="gzip"
    )
    assert picture.status_code == 200 and "Content-Encoding" not in picture
    assert is_webp(picture.content) and not picture["ETag"].startswith("W/")
    page = client.get("/cards/HSD-012/", HTTP_ACCEPT_ENCODING="gzip")
    assert page.status_code == 200 and page["Content-Encoding"] == "gzip"
