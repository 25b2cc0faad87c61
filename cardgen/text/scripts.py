"""Scripts cardgen cannot lay out: those written right to left (Hebrew, Arabic, Syriac, Thaana,
N'Ko, Adlam...) and those whose letters are joined or reordered as they are written (Arabic,
the Indic scripts, Tibetan, Myanmar, Khmer, Mongolian). cardgen places text left to right, a
glyph a character (reportlab has no shaping): a font that has these characters printed "مرحبا"
as "ابحرم", letters apart, without a word. A font's coverage leaves them out, so text holding
one is refused at its card, as a missing character is, and said as this module names it."""
from __future__ import annotations

import unicodedata
from itertools import chain, starmap

_RANGES = (
    (0x0590, 0x08FF),  # Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic, Arabic supplements
    (0x0900, 0x0DFF),  # Devanagari to Sinhala
    (0x0F00, 0x0FFF),  # Tibetan
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x18AF),  # Khmer, Mongolian
    (0xFB1D, 0xFDFF),  # Hebrew and Arabic presentation forms (FB00-FB1C: Latin ligatures, drawn)
    (0xFE70, 0xFEFE),  # Arabic presentation forms B (not FEFF, the byte order mark)
    (0x10800, 0x10FFF),  # historic scripts written right to left
    (0x1E800, 0x1EFFF),  # Mende Kikakui, Adlam, Arabic mathematical letters
)
_UNSHAPED: frozenset[int] | None = None


def unshaped() -> frozenset[int]:
    """The code points of the scripts above (made when a font is first loaded)."""
    global _UNSHAPED
    if _UNSHAPED is None:
        _UNSHAPED = frozenset(chain.from_iterable(starmap(range, ((low, high + 1) for low, high in _RANGES))))
    return _UNSHAPED


def script_problem(char: str) -> str | None:
    """Why ``char`` cannot be laid out, or None if it is not of these scripts."""
    code = ord(char)
    if not any(low <= code <= high for low, high in _RANGES):
        return None
    script = unicodedata.name(char, "").split(" ")[0].capitalize() or "this"
    return (f"U+{code:04X} ({char}) is {script} script, written right to left or with its letters joined: "
            f"cardgen lays text out left to right, a letter at a time, and would misprint it")
