"""Lengths in card markup and data: millimetres by default, also ``in`` and ``pt``."""
from __future__ import annotations

import re

MM_PER_INCH = 25.4
MM_PER_PT = MM_PER_INCH / 72.0
PT_PER_MM = 72.0 / MM_PER_INCH

_LENGTH = re.compile(r"^\s*(-?(?:\d+(?:\.\d*)?|\.\d+))\s*(mm|in|pt|cm)?\s*$")
_FACTOR = {None: 1.0, "mm": 1.0, "cm": 10.0, "in": MM_PER_INCH, "pt": MM_PER_PT}


def parse_length(value: object) -> float:
    """Return the length in millimetres; raise ValueError with a readable reason."""
    if isinstance(value, bool):
        raise ValueError(f"expected a length, got {value!r}")
    if isinstance(value, (int, float)):
        return float(value)
    match = _LENGTH.match(str(value))
    if not match:
        raise ValueError(f'expected a length such as "12", "12mm", "0.5in" or "10pt", got "{value}"')
    return float(match.group(1)) * _FACTOR[match.group(2)]


def mm_to_pt(mm: float) -> float:
    return mm * PT_PER_MM
