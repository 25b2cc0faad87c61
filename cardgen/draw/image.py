"""``<image>``: a PNG, JPG or SVG file drawn into a box: letterboxed, stretched, or filling it
and cropped (``cover``, towards a focal point), with rounded corners if asked."""
from __future__ import annotations

from . import pdfops
from .attributes import ROTATE, Attr, choice, length, positive_length, text
from .context import rotated
from .images import draw_image


def focus(value: str) -> tuple[float, float]:
    parts = value.replace(",", " ").split()
    try:
        fx, fy = (float(p.removesuffix("%")) / (100 if p.endswith("%") else 1) for p in parts)
    except ValueError:
        raise ValueError(f'a focus is "x y", fractions of the image from its top-left such as "0.5 0.3", '
                         f'got "{value}"') from None
    if not (0 <= fx <= 1 and 0 <= fy <= 1):
        raise ValueError(f"a focus lies between 0 and 1 (or 0% and 100%), got \"{value}\"")
    return fx, fy


TAG = "image"
DOC = "An image file (PNG, JPG or SVG) in a box; `src` is relative to the set folder, then templates/."
ATTRIBUTES = {
    "x": Attr(length, "left edge", required=True),
    "y": Attr(length, "top edge", required=True),
    "w": Attr(positive_length, "width", required=True),
    "h": Attr(positive_length, "height", required=True),
    "src": Attr(text, "the image file", required=True),
    "fit": Attr(choice("contain", "cover", "stretch"),
                "`contain` keeps the aspect ratio inside the box, `cover` fills the box and crops, "
                "`stretch` fills the box", "contain"),
    "focus": Attr(focus, 'with `cover`: the point of the image kept in view, "x y" from its top-left '
                  '(0 to 1, or %)', (0.5, 0.5)),
    "r": Attr(length, "corner radius: the image is clipped to a rounded box", 0.0),
    "rotate": ROTATE,
}


def check(attrs: dict) -> None:
    half = min(attrs["w"], attrs["h"]) / 2
    if attrs["r"] < 0 or attrs["r"] > half:  # said as an attribute's problem is: which element, and the numbers
        raise ValueError(f'<{TAG}> r: must be between 0 and half the shorter side ({half:g} mm), got {attrs["r"]:g}')


def direct(attrs) -> bool:
    """An image is a resource of the document it is drawn into: never operators alone."""
    return False


def draw(canvas, element, geometry, prepared=None) -> None:
    a = element.attrs
    canvas.saveState()
    rotated(canvas, geometry, a["rotate"], a["x"] + a["w"] / 2, a["y"] + a["h"] / 2)
    x, y, w, h = geometry.x(a["x"]), geometry.y(a["y"] + a["h"]), geometry.pt(a["w"]), geometry.pt(a["h"])
    if a["fit"] == "cover" or a["r"]:
        box = pdfops.round_rect(x, y, w, h, geometry.pt(a["r"])) if a["r"] else pdfops.rect(x, y, w, h)
        canvas._code.append(f"{box} W n")
    draw_image(canvas, prepared, x, y, w, h, a["fit"], a["focus"])
    canvas.restoreState()
