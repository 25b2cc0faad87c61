"""``<line>``: a straight line, solid or dashed."""
from __future__ import annotations

from . import pdfops
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


def direct(attrs) -> bool:
    """Whether the line is drawn with PDF operators alone (see draw/__init__.py)."""
    return attrs["opacity"] >= 1


def draw(canvas, element, geometry, prepared=None) -> None:
    a = element.attrs
    if a["stroke"] is None:
        return
    x1, y1, x2, y2 = geometry.x(a["x1"]), geometry.y(a["y1"]), geometry.x(a["x2"]), geometry.y(a["y2"])
    if direct(a):  # written directly: reportlab's colour setters also touch transparency
        ops = ["q", pdfops.color(a["stroke"], stroke=True), f"{geometry.pt(a['stroke-width']):.3f} w"]
        if a["dash"]:
            ops.append(f"[{' '.join(f'{geometry.pt(d):.3f}' for d in a['dash'])}] 0 d")
        ops.append(f"{x1:.3f} {y1:.3f} m {x2:.3f} {y2:.3f} l S Q")
        canvas._code.append(" ".join(ops))
        return
    canvas.saveState()
    canvas.setStrokeColor(a["stroke"])
    canvas.setLineWidth(geometry.pt(a["stroke-width"]))
    canvas.setStrokeAlpha(a["opacity"])
    if a["dash"]:
        canvas.setDash([geometry.pt(d) for d in a["dash"]])
    canvas.line(x1, y1, x2, y2)
    canvas.restoreState()
