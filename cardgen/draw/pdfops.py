"""PDF operators written directly, for the few operations every face repeats.

reportlab's canvas formats every number through a general routine that costs more than the
rest of drawing a rectangle; these write the same operators with plain formatting.
"""
from __future__ import annotations

from reportlab.lib.colors import CMYKColor


def number(value: float) -> str:
    """``value`` to 4 significant digits, as a PDF number: Python's ``g`` writes 0.00001 as
    "1e-05" and 12345 as "1.234e+04", which PDF does not read as numbers (a colour of
    cmyk(0.001,0,0,0) or a 0.00001 pt text size made a content stream readers reject)."""
    text = f"{value:.4g}"
    if "e" in text:
        text = f"{float(text):.12f}".rstrip("0").rstrip(".")
        if text in ("", "-0"):
            text = "0"
    return text


def color(value, stroke: bool = False) -> str:
    """The operator that sets a fill or stroke colour: ``rg``/``RG`` for RGB, ``k``/``K`` for a
    ``cmyk()`` colour, whose inks reach the PDF unchanged."""
    if value.__class__ is CMYKColor:
        return (f"{number(value.cyan)} {number(value.magenta)} {number(value.yellow)} {number(value.black)} "
                f"{'K' if stroke else 'k'}")
    return f"{number(value.red)} {number(value.green)} {number(value.blue)} {'RG' if stroke else 'rg'}"


def rect(x: float, y: float, w: float, h: float) -> str:
    return f"{x:.3f} {y:.3f} {w:.3f} {h:.3f} re"


def paint(fill: bool, stroke: bool) -> str:
    """Fill (non-zero), stroke, or both, and end the path."""
    return "B" if fill and stroke else "f" if fill else "S"


def translate(x: float, y: float) -> str:
    return f"1 0 0 1 {x:.3f} {y:.3f} cm"


KAPPA = 0.5522847498  # control-point distance of a quarter circle drawn as one Bezier curve


def round_rect(x: float, y: float, w: float, h: float, r: float) -> str:
    """A closed rectangle path with corners rounded to radius ``r``."""
    c = r * (1 - KAPPA)
    x1, y1 = x + w, y + h
    return (f"{x + r:.3f} {y:.3f} m {x1 - r:.3f} {y:.3f} l "
            f"{x1 - c:.3f} {y:.3f} {x1:.3f} {y + c:.3f} {x1:.3f} {y + r:.3f} c "
            f"{x1:.3f} {y1 - r:.3f} l {x1:.3f} {y1 - c:.3f} {x1 - c:.3f} {y1:.3f} {x1 - r:.3f} {y1:.3f} c "
            f"{x + r:.3f} {y1:.3f} l {x + c:.3f} {y1:.3f} {x:.3f} {y1 - c:.3f} {x:.3f} {y1 - r:.3f} c "
            f"{x:.3f} {y + r:.3f} l {x:.3f} {y + c:.3f} {x + c:.3f} {y:.3f} {x + r:.3f} {y:.3f} c h")


def ellipse(cx: float, cy: float, rx: float, ry: float) -> str:
    """A closed ellipse path: four Bezier quarter arcs."""
    kx, ky = rx * KAPPA, ry * KAPPA
    return (f"{cx + rx:.3f} {cy:.3f} m "
            f"{cx + rx:.3f} {cy + ky:.3f} {cx + kx:.3f} {cy + ry:.3f} {cx:.3f} {cy + ry:.3f} c "
            f"{cx - kx:.3f} {cy + ry:.3f} {cx - rx:.3f} {cy + ky:.3f} {cx - rx:.3f} {cy:.3f} c "
            f"{cx - rx:.3f} {cy - ky:.3f} {cx - kx:.3f} {cy - ry:.3f} {cx:.3f} {cy - ry:.3f} c "
            f"{cx + kx:.3f} {cy - ry:.3f} {cx + rx:.3f} {cy - ky:.3f} {cx + rx:.3f} {cy:.3f} c h")


def dash(pattern_pt) -> str:
    return f"[{' '.join(f'{d:.3f}' for d in pattern_pt)}] 0 d"


def painted(path: str, fill, stroke, stroke_width_pt: float, dash_pt=None) -> str:
    """``path`` filled and/or stroked inside its own graphics state."""
    ops = ["q"]
    if fill is not None:
        ops.append(color(fill))
    if stroke is not None:
        ops.append(color(stroke, stroke=True))
        ops.append(f"{stroke_width_pt:.3f} w")
        if dash_pt:
            ops.append(dash(dash_pt))
    ops.append(path)
    ops.append(paint(fill is not None, stroke is not None))
    ops.append("Q")
    return " ".join(ops)
