"""``<line>``: a straight line, solid or dashed."""
from __future__ import annotations

from .attributes import OPACITY, STROKE_WIDTH, Attr, color, dash, length

TAG = "line"
DOC = "A line from (`x1`, `y1`) to (`x2`, `y2`)."
ATTRIBUTES = {
    "x1": Attr(length, "start, from the left", required=True),
    "y1": Attr(length, "start, from the top", required=True),
    "x2": Attr(length, "end, from the left", required=True),
    "y2": Attr(length, "end, from the top", required=True),
    "stroke": Attr(color, "line colour", color("#000000")),
    "stroke-width": STROKE_WIDTH,
    "dash": Attr(dash, 'dash pattern, lengths on and off such as "1 0.5"', None),
    "opacity": OPACITY,
}


def draw(canvas, element, geometry, prepared=None) -> None:
    a = element.attrs
    if a["stroke"] is None:
        return
    canvas.saveState()
    canvas.setStrokeColor(a["stroke"])
    canvas.setLineWidth(geometry.pt(a["stroke-width"]))
    if a["opacity"] < 1:
        canvas.setStrokeAlpha(a["opacity"])
    if a["dash"]:
        canvas.setDash([geometry.pt(d) for d in a["dash"]])
    canvas.line(geometry.x(a["x1"]), geometry.y(a["y1"]), geometry.x(a["x2"]), geometry.y(a["y2"]))
    canvas.restoreState()
