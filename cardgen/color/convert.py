"""The one RGB -> CMYK conversion of a CMYK build.

Without a profile (the default), the formula, per colour with r, g, b from 0 to 1:

    k = 1 - max(r, g, b);  c = (1 - r - k) / (1 - k);  m = (1 - g - k) / (1 - k);  y = (1 - b - k) / (1 - k)

(full grey-component replacement: a neutral grey, black included, is black ink alone, never
four-colour black). Then the total ink is capped: when c + m + y + k passes ``ink_limit`` (300%
by default, the SWOP limit), c, m and y shrink in proportion until it does not. Text and lines
whose colour is within 15% of black (k at least 0.85, c, m and y at most 0.15) become 100% K:
small type and hairlines in four inks mis-register on a press.

With a profile (``color: {mode: cmyk, profile: x.icc}``), colours and images go from sRGB to the
profile through Pillow's ImageCms (littleCMS), perceptual intent; the ink cap and the black rule
apply to the result as well.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageMath

from .settings import ColorSettings

NEAR_BLACK_K = 0.85
NEAR_BLACK_CMY = 0.15



def formula(r: float, g: float, b: float) -> tuple[float, float, float, float]:
    top = max(r, g, b)
    k = 1 - top
    if top <= 0:
        return 0.0, 0.0, 0.0, 1.0
    return (top - r) / top, (top - g) / top, (top - b) / top, k


def capped(inks: tuple[float, float, float, float], limit: float) -> tuple[float, float, float, float]:
    c, m, y, k = inks
    total = c + m + y + k
    if total * 100 <= limit + 1e-9 or c + m + y <= 0:
        return inks
    scale = max(0.0, limit / 100 - k) / (c + m + y)
    return c * scale, m * scale, y * scale, k


def near_black(inks: tuple[float, float, float, float]) -> bool:
    c, m, y, k = inks
    return k >= NEAR_BLACK_K and max(c, m, y) <= NEAR_BLACK_CMY


class Converter:
    """Converts colours (``cmyk(r, g, b, line)``) and images (``image(pil)``) for one build."""

    def __init__(self, settings: ColorSettings):
        self.settings = settings
        self.limit = settings.ink_limit
        self._transform = None
        if settings.profile is not None:
            from PIL import ImageCms

            self._transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"),
                                                      ImageCms.getOpenProfile(str(settings.profile)), "RGB", "CMYK",
                                                      renderingIntent=ImageCms.Intent.PERCEPTUAL)
        self.cmyk = lru_cache(maxsize=4096)(self._cmyk)

    def _cmyk(self, r: float, g: float, b: float, line: bool = False) -> tuple[float, float, float, float]:
        """The inks for an RGB colour; ``line``: text or a stroke (the black rule applies)."""
        if self._transform is None:
            inks = formula(r, g, b)
        else:
            pixel = Image.new("RGB", (1, 1), tuple(round(v * 255) for v in (r, g, b)))
            inks = tuple(v / 255 for v in _transformed(self._transform, pixel).getpixel((0, 0)))
        inks = capped(inks, self.limit)
        if line and near_black(inks):
            return 0.0, 0.0, 0.0, 1.0
        return inks

    def image(self, image: Image.Image) -> Image.Image:
        """An RGB (or grey) image as CMYK, by the same conversion."""
        if image.mode == "CMYK":
            return image
        image = image.convert("RGB")
        if self._transform is not None:
            converted = _transformed(self._transform, image)
        else:
            r, g, b = image.split()
            top = ImageChops.lighter(ImageChops.lighter(r, g), b)
            k = ImageChops.invert(top)

            def ink(channel):
                return _math(lambda a: (a["t"] - a["c"]) * 255 / a["max"](a["t"], 1), t=top, c=channel)

            converted = Image.merge("CMYK", (ink(r), ink(g), ink(b), k))
        return self._cap_image(converted)

    def _cap_image(self, image: Image.Image) -> Image.Image:
        c, m, y, k = image.split()
        limit = self.limit / 100 * 255
        cmy = _math(lambda a: a["c"] + a["m"] + a["y"], c=c, m=m, y=y, mode="F")
        scale = _math(lambda a: a["min"](a["max"](limit - a["k"], 0) / a["max"](a["s"], 1), 1),
                      k=k, s=cmy, mode="F")
        return Image.merge("CMYK", tuple(_math(lambda a: a["ch"] * a["sc"], ch=channel, sc=scale) for channel in (c, m, y))
                           + (k,))


def _transformed(transform, image: Image.Image) -> Image.Image:
    """``image`` through an ImageCms transform, without what ``transform.apply`` adds: a copy of
    the whole output profile in the result's info, made for every colour (a 60 MB profile took
    0.35 s a colour, a 10-card build 13 s)."""
    result = Image.new(transform.output_mode, image.size)
    try:
        transform.transform.apply(image.getim(), result.getim())
    except AttributeError:  # a Pillow without these: its own apply, profile copy and all
        return transform.apply(image)
    return result


def _math(function, mode: str = "L", **images):
    """``function(names)`` over float images (ImageMath); "L" results are clipped to 8 bits."""
    floats = {name: (im if im.mode == "F" else im.convert("F")) for name, im in images.items()}
    result = ImageMath.lambda_eval(function, **floats)
    return result if mode == "F" else result.convert("L")


def profile_name(path: Path | None) -> str:
    return path.name if path is not None else "formula"
