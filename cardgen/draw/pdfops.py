"""PDF operators written directly, for the few operations every face repeats.

reportlab's canvas formats every number through a general routine that costs more than the
rest of drawing a rectangle; these write the same operators with plain formatting.
"""
from __future__ import annotations


def color(value, stroke: bool = False) -> str:
    """The operator that sets an RGB fill (``rg``) or stroke (``RG``) colour."""
    return f"{value.red:.4g} {value.green:.4g} {value.blue:.4g} {'RG' if stroke else 'rg'}"


def rect(x: float, y: float, w: float, h: float) -> str:
    return f"{x:.3f} {y:.3f} {w:.3f} {h:.3f} re"


def paint(fill: bool, stroke: bool) -> str:
    """Fill (non-zero), stroke, or both, and end the path."""
    return "B" if fill and stroke else "f" if fill else "S"


def translate(x: float, y: float) -> str:
    return f"1 0 0 1 {x:.3f} {y:.3f} cm"
