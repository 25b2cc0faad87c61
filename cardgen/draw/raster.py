"""Raster image files (PNG, JPG, ...) decoded, checked against the pixel limit, downsampled and
turned into PDF image streams: a JPEG small enough is embedded as its own bytes, any other
picture as Flate-compressed pixels (with a soft mask for its transparency)."""
from __future__ import annotations

import io
import re
import warnings
import zlib
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import without_python_objects
from ..limits import IMAGE_PIXELS, limit, limit_message

JPEG_QUALITY = 92  # a downsampled JPEG is written again at this quality


@dataclass(frozen=True)
class Raster:
    """A raster image as PDF image streams, made once: ``name`` identifies it in a document."""

    name: str
    width: int  # pixels, as embedded
    height: int
    stream: bytes
    filters: tuple[str, ...]
    color_space: str
    cmyk_inverted: bool = False  # an Adobe CMYK JPEG: its values are stored inverted
    alpha: bytes | None = None  # Flate-compressed 8-bit soft mask
    # the picture's own pixels, upright, before any downsampling: its true proportions, which a
    # downsampled copy rounded to whole pixels loses (100000 x 1 kept as 2242 x 1 px)
    picture_width: int = 0
    picture_height: int = 0


def _open(path: Path):
    from PIL import Image

    previous = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = None  # cardgen's own limit is checked below, with its own message
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return Image.open(path)
    finally:
        Image.MAX_IMAGE_PIXELS = previous


def load_raster(path: Path, most: int | None) -> Raster:
    """Decode, check, downsample and compress an image file: once per build."""
    with opened(path) as image:
        return raster_from(path, most, image)


def opened(path: Path):
    try:
        return _open(path)
    except Exception as exc:  # Pillow raises several kinds for a broken or unknown file
        raise ValueError(f'cannot read image "{path.name}": {_reason(exc)}') from None


def check_pixels(path: Path, width: int, height: int) -> None:
    if width * height > limit(IMAGE_PIXELS):
        raise ValueError(limit_message(IMAGE_PIXELS, f'image "{path.name}" has {width} x {height} = '
                                                     f"{width * height:,} pixels"))


# Files Pillow reads by running another program on them: an EPS is a PostScript program, which
# Pillow has Ghostscript run (where it is installed): a set's file is never run
_PROGRAMS = frozenset({"EPS"})


def raster_from(path: Path, most: int | None, image) -> Raster:
    from ..text.fonts import file_digest

    if image.format in _PROGRAMS:
        raise ValueError(f'cannot read image "{path.name}": an {image.format} file is a PostScript program, which '
                         "cardgen does not run: save it as SVG, PNG or JPG")
    width, height = image.size
    check_pixels(path, width, height)
    _check_one_picture(path, image)
    if image.mode == "F":  # Pillow's floats: 0-1, 0-255 or any range; printing one would be a guess
        raise ValueError(f'cannot read image "{path.name}": its pixels are floating-point numbers, '
                         "with no set black and white (save it with 8 or 16 bits a channel)")
    try:
        image, turned_jpeg = _upright(image)
        image, converted = _in_srgb(image)
        turned_jpeg = turned_jpeg or (converted and image.format == "JPEG")
        width, height = image.size
        scale = min(1.0, most / max(width, height)) if most else 1.0
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        name = f"img{file_digest(path)[:32]}x{size[0]}"
        if image.mode in ("L", "RGB", "CMYK") and (turned_jpeg or image.format == "JPEG"):
            raster = _jpeg(path, image, size, name, as_stored=not turned_jpeg)
        else:
            raster = _flate(image, size, name)
        return replace(raster, picture_width=width, picture_height=height)
    except Exception as exc:  # a file broken past its header: truncated, bad data
        raise ValueError(f'cannot read image "{path.name}": {_reason(exc)}') from None


# Files that hold more than one picture but print as their first: a camera's MPO holds the photo
# and its depth map or preview; a Photoshop file its flattened picture and then each layer.
_FIRST_IS_THE_PICTURE = frozenset({"MPO", "PSD"})
_PAGED = frozenset({"TIFF", "DCX"})  # their pictures are pages, not frames of an animation


def _check_one_picture(path: Path, image) -> None:
    """An animation or a file of pages would print its first picture without a word: the
    designer who meant another frame, or all of them, would never know."""
    if image.format in _FIRST_IS_THE_PICTURE or not getattr(image, "is_animated", False):
        return
    count = image.n_frames
    if image.format in _PAGED:
        held = f"it holds {count} pages, and a card prints one picture: save the page to print as an image of its own"
    else:
        held = (f"it is animated ({count} frames), and a card prints one picture: save the frame to print as "
                "a still image (PNG)")
    raise ValueError(f'cannot read image "{path.name}": {held}')


def _reason(exc: Exception) -> str:
    """Pillow's reason, without the path or objects it may name."""
    from PIL import UnidentifiedImageError

    if isinstance(exc, UnidentifiedImageError):
        return "not an image file (PNG, JPG, GIF, ... or SVG)"
    if "MAX_TEXT_CHUNK" in str(exc) or "MAX_TEXT_MEMORY" in str(exc) or "text chunks" in str(exc):
        # Pillow's guard against a chunk that decompresses to gigabytes, said in its own variables' names
        return ("its metadata (a text or colour-profile chunk) decompresses to more than Pillow reads (over a "
                "megabyte): save the picture again without its metadata")
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    text = re.sub(r" \(\d+ bytes not processed\)$", "", str(exc).split("\n")[0])  # Pillow's count, of no use
    text = without_python_objects(text)
    return text.split(" '/")[0].split(' "/')[0] or type(exc).__name__


_ORIENTATION = 0x0112  # the EXIF tag: how a camera held sideways says to turn the stored pixels


def _upright(image):
    """The picture as every viewer shows it, and whether it is a JPEG turned (written again as a
    JPEG): a phone's photo is stored as the sensor read it, with an EXIF orientation, which PDF
    ignores: it printed on its side."""
    if image.format not in ("JPEG", "MPO", "TIFF", "PNG", "WEBP") or image.getexif().get(_ORIENTATION, 1) in (0, 1):
        return image, False
    from PIL import ImageOps  # for a picture to turn alone: an upright one's build does without it

    return ImageOps.exif_transpose(image), image.format in ("JPEG", "MPO")


def _in_srgb(image):
    """An RGB picture tagged with a colour profile other than sRGB (Adobe RGB, Display P3, ...),
    with its colours converted to sRGB, the space cardgen's PDFs and their CMYK conversion take
    RGB in; and whether it was. The PDF's DeviceRGB drops the file's profile: an Adobe RGB green
    printed as the sRGB numbers, duller than the designer saw it."""
    profile = image.info.get("icc_profile")
    if not profile or image.mode not in ("RGB", "RGBA"):
        return image, False
    from PIL import ImageCms

    try:
        own = ImageCms.ImageCmsProfile(io.BytesIO(profile))
        if _is_srgb(bytes(profile), own):
            return image, False
        alpha = image.getchannel("A") if image.mode == "RGBA" else None
        converted = ImageCms.profileToProfile(image.convert("RGB"), own, ImageCms.createProfile("sRGB"),
                                              renderingIntent=ImageCms.Intent.PERCEPTUAL, outputMode="RGB")
    except (ImageCms.PyCMSError, OSError, ValueError):  # a profile littleCMS cannot use: the numbers as they are
        return image, False
    if alpha is not None:
        converted.putalpha(alpha)
    converted.format = image.format  # a JPEG is written again as one
    return converted, True


_SRGB_LIKE: dict[bytes, bool] = {}


def _is_srgb(profile: bytes, own) -> bool:
    """Whether a profile maps colours as sRGB does (within one step of 255), judged by its numbers:
    its description is free text ("Wide gamut RGB, not sRGB", "sRGB linear"). Remembered per
    profile: most tagged pictures carry one of a few sRGB profiles."""
    if profile not in _SRGB_LIKE:
        from PIL import Image, ImageChops, ImageCms

        steps = (0, 51, 102, 153, 204, 255)
        probe = Image.new("RGB", (len(steps) ** 3, 1))
        probe.putdata([(r, g, b) for r in steps for g in steps for b in steps])
        seen = ImageCms.profileToProfile(probe, own, ImageCms.createProfile("sRGB"), outputMode="RGB",
                                         renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
        if len(_SRGB_LIKE) >= 64:
            _SRGB_LIKE.clear()
        _SRGB_LIKE[profile] = max(high for _, high in ImageChops.difference(probe, seen).getextrema()) <= 1
    return _SRGB_LIKE[profile]


def _jpeg(path: Path, image, size: tuple[int, int], name: str, as_stored: bool = True) -> Raster:
    from PIL import Image

    if size == image.size and as_stored:
        data = path.read_bytes()  # embedded as it is: the printer decodes it
        _check_whole(image)
    else:
        image.draft(image.mode, size)  # decodes at 1/2, 1/4 or 1/8 scale where that is enough
        smaller = image.resize(size, Image.Resampling.LANCZOS)
        out = io.BytesIO()
        smaller.save(out, "JPEG", quality=JPEG_QUALITY, subsampling=0)
        data = out.getvalue()
    from reportlab.pdfbase.pdfdoc import PDFImageXObject

    probe = PDFImageXObject(name)
    if not probe.loadImageFromJPEG(io.BytesIO(data)):
        raise ValueError("not a JPEG reportlab can embed")
    return Raster(name, probe.width, probe.height, data, ("DCTDecode",), probe.colorSpace,
                  cmyk_inverted=bool(getattr(probe, "_dotrans", 0)))


def _check_whole(image) -> None:
    """A JPEG cut short, embedded as it is, prints grey from where it stops, without a word:
    decoded once to be sure, at an eighth of its size (its own fast path)."""
    image.draft(image.mode, (max(1, image.size[0] // 8), max(1, image.size[1] // 8)))
    image.load()


def _flate(image, size: tuple[int, int], name: str) -> Raster:
    from PIL import Image

    has_alpha = image.mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in image.info
    gray = image.mode in ("1", "L", "LA", "La", "I", "I;16") and "transparency" not in image.info
    if image.mode in ("I", "I;16"):
        image = image.point(lambda v: v / 256)
    picture = image.convert(("LA" if gray else "RGBA") if has_alpha else ("L" if gray else "RGB"))
    if picture.size != size:
        picture = picture.resize(size, Image.Resampling.LANCZOS)
    alpha = None
    if has_alpha:
        channel = picture.getchannel("A")
        if channel.getextrema() != (255, 255):
            alpha = zlib.compress(channel.tobytes(), 6)
        picture = picture.convert("L" if gray else "RGB")
    return Raster(name, size[0], size[1], zlib.compress(picture.tobytes(), 6), ("FlateDecode",),
                  "DeviceGray" if gray else "DeviceRGB", alpha=alpha)
