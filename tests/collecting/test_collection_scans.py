"""Card scans: only real PNG/JPEG/WebP, pixel count checked before decoding, re-encoded,
thumbnailed, and served owner-only with safe headers."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image, ImageFile

from collecting import scans
from collecting.models import CardScan
from tests.collecting.collection_fixtures import *  # noqa: F403


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def picture(fmt: str = "PNG", size=(60, 84), **save) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (150, 90, 40)).save(out, format=fmt, **save)
    return out.getvalue()


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims `width` x `height` (no such pixels are allocated)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 16))
        + chunk(b"IEND", b"")
    )


@pytest.fixture
def never_decode(monkeypatch):
    """Fail the test if any image is decoded."""

    def refuse(self):
        raise AssertionError("decoded an image that should have been refused from its header")

    monkeypatch.setattr(ImageFile.ImageFile, "load", refuse)


def upload(client, binder, card, data: bytes, name="scan.png"):
    url = f"/api/v1/collections/{binder.pk}/scans/"
    return client.post(
        url, {"card": card.code, "image": SimpleUploadedFile(name, data)}, format="multipart"
    )


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "WEBP"])
def test_png_jpeg_and_webp_are_accepted_and_thumbnailed(user_client, binder, common, fmt):
    response = upload(user_client, binder, common, picture(fmt, size=(800, 1120)))
    assert response.status_code == 201, response.content
    scan = CardScan.objects.get()
    assert scan.content_type == scans.CONTENT_TYPES[fmt]
    assert (scan.width, scan.height) == (800, 1120)
    with scan.thumbnail.open("rb") as f:
        thumb = Image.open(f)
        assert thumb.format == fmt
        assert thumb.width <= scans.THUMB_BOX[0] and thumb.height <= scans.THUMB_BOX[1]


def test_metadata_and_trailing_payloads_are_stripped(user_client, binder, common):
    exif = Image.Exif()
    exif[0x010E] = "secret GPS-ish description"
    data = picture("JPEG", exif=exif.tobytes()) + b"<script>alert(1)</script>"
    assert upload(user_client, binder, common, data).status_code == 201
    with CardScan.objects.get().image.open("rb") as f:
        stored = f.read()
    assert b"secret" not in stored and b"<script>" not in stored
    assert not Image.open(io.BytesIO(stored)).getexif()


def test_a_50000_by_50000_png_is_refused_before_decoding(user_client, binder, common, never_decode):
    response = upload(user_client, binder, common, png_claiming(50_000, 50_000))
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "too_many_pixels"
    assert CardScan.objects.count() == 0


def test_our_own_pixel_limit_is_below_pillows(never_decode):
    # 7,000 x 7,000 is 49 megapixels: under Pillow's bomb limit, over ours
    with pytest.raises(scans.ScanError) as exc:
        scans.process(png_claiming(7_000, 7_000))
    assert exc.value.code == "too_many_pixels"


def test_a_file_that_claims_to_be_a_png_but_is_not(user_client, binder, common):
    fake = b"\x89PNG\r\n\x1a\n" + b"this is not really a png at all" * 10
    response = upload(user_client, binder, common, fake)
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "invalid_image"
    assert CardScan.objects.count() == 0


@pytest.mark.parametrize(
    "data", [b"GIF89a" + b"\x00" * 40, b"<svg xmlns='http://www.w3.org/2000/svg'/>", b""]
)
def test_other_formats_are_refused(user_client, binder, common, data):
    response = upload(user_client, binder, common, data, name="scan.png")
    assert response.status_code == 400
    assert CardScan.objects.count() == 0


def test_a_truncated_png_is_refused(user_client, binder, common):
    response = upload(user_client, binder, common, picture("PNG", size=(400, 400))[:300])
    assert response.status_code == 400
    assert CardScan.objects.count() == 0


def test_the_size_limit(user_client, binder, common, monkeypatch):
    monkeypatch.setattr(scans, "MAX_BYTES", 1000)
    response = upload(user_client, binder, common, picture("PNG", size=(300, 300)) + b"\0" * 2000)
    assert response.status_code == 413
    assert response.json()["errors"][0]["code"] == "file_too_large"
    assert CardScan.objects.count() == 0


def test_scans_are_served_with_safe_headers_to_their_owner_only(
    client, user, other_user, binder, common
):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(user)
    assert upload(api, binder, common, picture("WEBP")).status_code == 201
    scan = CardScan.objects.get()
    client.force_login(user)
    for which in ("image", "thumbnail"):
        response = client.get(reverse("collecting:scan-file", args=[scan.pk, which]))
        assert response.status_code == 200
        assert response["Content-Type"] == "image/webp"
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Content-Disposition"].startswith("inline; filename=")
        assert response["Content-Security-Policy"].startswith("default-src 'none'")
    client.force_login(other_user)
    assert client.get(reverse("collecting:scan-file", args=[scan.pk, "image"])).status_code == 404


def test_no_scans_into_another_users_collection(client, other_user, binder, common):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(other_user)
    assert upload(api, binder, common, picture()).status_code == 404
    assert CardScan.objects.count() == 0


def test_deleting_a_scan_removes_its_files(user_client, binder, common, media):
    upload(user_client, binder, common, picture())
    scan = CardScan.objects.get()
    paths = [scan.image.path, scan.thumbnail.path]
    response = user_client.delete(f"/api/v1/collections/{binder.pk}/scans/{scan.pk}/")
    assert response.status_code == 204
    assert not any(__import__("os").path.exists(p) for p in paths)
