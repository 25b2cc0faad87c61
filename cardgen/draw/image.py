"""``<image>``: a PNG, JPG or SVG file drawn into a box."""
from __future__ import annotations

from .attributes import ROTATE, Attr, choice, length, positive_length, text
from .context import rotated
from .images import draw_image

TAG = "image"
DOC = "An image file (PNG, JPG or SVG) in a box; `src` is relative to the set folder, then templates/."
ATTRIBUTES = {
    "x": Attr(length, "left edge", required=True),
    "y": Attr(length, "top edge", required=True),
    "w": Attr(positive_length, "width", required=True),
    "h": Attr(positive_length, "height", required=True),
    "src": Attr(text, "the image file", required=True),
    "fit": Attr(choice("contain", "stretch"), "`contain` keeps the aspect ratio, `stretch` fills the box", "contain"),
    "rotate": ROTATE,
}


def direct(attrs) -> bool:
    """An image is a resource of the document it is drawn into: never operators alone."""
    return False


def draw(canvas, element, geometry, prepared=None) -> None:
    a = element.attrs
    canvas.saveState()
    rotated(canvas, geometry, a["rotate"], a["x"] + a["w"] / 2, a["y"] + a["h"] / 2)
    draw_image(canvas, prepared, geometry.x(a["x"]), geometry.y(a["y"] + a["h"]), geometry.pt(a["w"]),
               geometry.pt(a["h"]), a["fit"])
    canvas.restoreState()
