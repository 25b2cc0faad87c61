"""Lengths in card markup and data: millimetres by default, also ``in`` and ``pt``."""
from __future__ import annotations

import math
import re

from .spelled import spelled

MM_PER_INCH = 25.4
MM_PER_PT = MM_PER_INCH / 72.0
PT_PER_MM = 72.0 / MM_PER_INCH

# an exponent too: a template's arithmetic prints a float near 0 as "1.4e-15" ({{ w - 63.5 }})
_LENGTH = re.compile(r"^\s*(-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*(mm|in|pt|cm)?\s*$")
MAX_LENGTH = 100_000.0  # mm: 100 m, far beyond any paper, still exact in PDF's numbers
_FACTOR = {None: 1.0, "mm": 1.0, "cm": 10.0, "in": MM_PER_INCH, "pt": MM_PER_PT}


def parse_length(value: object) -> float:
    """Return the length in millimetres; raise ValueError with a readable reason."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):  # null, a date, a list
        raise ValueError(f"expected a length, got {spelled(value)}")
    if isinstance(value, (int, float)):
        try:
            length = float(value)
        except OverflowError:  # an int beyond any float
            length = math.inf
    else:
        match = _LENGTH.match(str(value))
        if not match:
            raise ValueError(f'expected a length such as "12", "12mm", "0.5in" or "10pt", got "{value}"')
        length = float(match.group(1)) * _FACTOR[match.group(2)]
    if math.isnan(length):  # nan passes every comparison that would stop it later
        raise ValueError(f"expected a length, got {_shown(value)}")
    if abs(length) > MAX_LENGTH:
        raise ValueError(f"expected a length of at most {MAX_LENGTH:g} mm (100 m), got {_shown(value)}")
    return length


def parse_number(value: str) -> float:
    """A plain number, finite: "nan", "inf" and "1e999" pass every comparison meant to stop a
    bad value later, and fail deep inside the drawing."""
    try:
        result = float(value)
    except ValueError:
        raise ValueError(f'expected a number, got "{_shown(value)}"') from None
    if not math.isfinite(result):
        raise ValueError(f'expected a finite number, got "{_shown(value)}"')
    return result


MAX_ANGLE = 3600.0  # degrees: ten turns, past any turn a layout counts out (45 * loop.index)


def parse_angle(value: str) -> float:
    """Degrees, finite and within ten turns: at 1e308 degrees a float no longer holds the turn's
    fraction, and the element was drawn at an angle nobody wrote."""
    result = parse_number(value)
    if abs(result) > MAX_ANGLE:
        raise ValueError(f'expected an angle from -{MAX_ANGLE:g} to {MAX_ANGLE:g} degrees (ten turns), '
                         f'got "{_shown(value)}"')
    return result


def _shown(value: object) -> str:
    text = str(value)
    return text if len(text) <= 24 else f"{text[:12]}...({len(text)} characters)"


def mm_to_pt(mm: float) -> float:
    return mm * PT_PER_MM
