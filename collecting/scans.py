"""Card scans: checking, re-encoding and thumbnailing an uploaded photo with Pillow.

The checks run cheapest first and before any pixel is decoded: byte size, the file's magic
number, then the pixel count from the header (Pillow's `open` reads only the header). Only
then is the image decoded, and it is written out again from its pixels alone, which drops
EXIF/XMP/ICC metadata and anything smuggled after the image data (polyglot files).
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

from config.api import DomainError

MAX_BYTES = 8 * 1024 * 1024
MAX_PIXELS = 40_000_000  # a 40-megapixel phone photo; decoding it needs ~160 MB at RGBA
THUMB_BOX = (320, 448)
CONTENT_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}
EXTENSIONS = {"PNG": "png", "JPEG": "jpg", "WEBP": "webp"}


class ScanError(DomainError):
    """An upload that is not an acceptable image; the API answers 400 (413 when too big)."""


@dataclass(frozen=True)
class ProcessedScan:
    image: bytes
    thumbnail: bytes
    format: str  # PNG, JPEG or WEBP
    width: int
    height: int

    @property
    def content_type(self) -> str:
        return CONTENT_TYPES[self.format]

    @property
    def extension(self) -> str:
        return EXTENSIONS[self.format]


def sniff(head: bytes) -> str | None:
    """The format named by the file's magic number (not by its name or declared type)."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if head.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WEBP"
    return None


def _encode(image: Image.Image, fmt: str) -> bytes:
    out = io.BytesIO()
    if fmt == "JPEG":
        image.convert("RGB").save(out, format="JPEG", quality=88, optimize=True)
    elif fmt == "WEBP":
        image.save(out, format="WEBP", quality=85)
    else:
        image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def process(data: bytes) -> ProcessedScan:
    """The re-encoded image and its thumbnail, or `ScanError` saying why not."""
    if len(data) > MAX_BYTES:
        raise ScanError(
            f"The image is over {MAX_BYTES // 2**20} MB.",
            code="file_too_large",
            attr="image",
            status=413,
        )
    fmt = sniff(data[:16])
    if fmt is None:
        raise ScanError(
            "Only PNG, JPEG and WebP images are accepted (this file is none of them).",
            code="unsupported_image",
            attr="image",
        )
    try:
        with warnings.catch_warnings():
            # Pillow warns between 1x and 2x its own limit; ours is lower, so treat it as an error
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image: Image.Image = Image.open(io.BytesIO(data), formats=[fmt])
            width, height = image.size
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise _too_many_pixels() from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise ScanError(
            f"The file claims to be {fmt} but cannot be read as one.",
            code="invalid_image",
            attr="image",
        ) from exc
    if width * height > MAX_PIXELS:
        raise _too_many_pixels(width, height)
    try:
        image.load()
        image = ImageOps.exif_transpose(image)
        if image.mode not in ("RGB", "RGBA", "L", "LA"):
            image = image.convert(
                "RGBA" if "A" in image.mode or "transparency" in image.info else "RGB"
            )
        encoded = _encode(image, fmt)
        thumb = image.copy()
        thumb.thumbnail(THUMB_BOX)
        thumbnail = _encode(thumb, fmt)
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        raise ScanError(
            f"The {fmt} image is damaged or truncated.", code="invalid_image", attr="image"
        ) from exc
    return ProcessedScan(encoded, thumbnail, fmt, image.width, image.height)


def _too_many_pixels(width: int | None = None, height: int | None = None) -> ScanError:
    size = f" ({width} x {height})" if width else ""
    return ScanError(
        f"The image has too many pixels{size}; at most {MAX_PIXELS // 1_000_000} megapixels.",
        code="too_many_pixels",
        attr="image",
    )
