"""Text to PDF string operands for reportlab's subset fonts, one writer per document.

reportlab's own path (``splitString`` then ``escape``) walks every character twice in Python.
Here, once every character of a text has its code in the document's first subset, the text is
turned into its escaped string by one ``str.translate``; new characters go through reportlab,
so its subsets stay the single source of codes.
"""
from __future__ import annotations

from typing import Callable

_ESCAPED = [chr(b) if 32 <= b < 127 else f"\\{b:03o}" for b in range(256)]
_ESCAPED[40], _ESCAPED[41], _ESCAPED[92] = "\\(", "\\)", "\\\\"


class _Font:
    """One font in one document: the characters coded in subset 0, and their escaped codes."""

    __slots__ = ("ttf", "chars", "table", "name")

    def __init__(self, ttf):
        self.ttf = ttf
        self.chars: set[str] = set()
        self.table: dict[int, str] = {}
        self.name: str | None = None  # subset 0's font resource name, once it is used


class TextWriter:
    """Writes text runs of a document's fonts as ``Tf`` and ``Tj`` operators."""

    def __init__(self, doc, face_named: Callable):
        self.doc = doc
        self.face_named = face_named  # PDF name -> FontFace
        self.fonts: dict[str, _Font] = {}

    @classmethod
    def of(cls, canvas, face_named: Callable) -> "TextWriter":
        """The canvas's writer (one per document)."""
        writer = getattr(canvas, "_cardgen_text", None)
        if writer is None:
            writer = canvas._cardgen_text = cls(canvas._doc, face_named)
        return writer

    def show(self, code: list[str], font_name: str, size: str, text: str, current: tuple | None) -> tuple:
        """Append the operators that show ``text``; ``current`` is the (font, size) in force,
        and the one in force after is returned."""
        font = self.fonts.get(font_name)
        if font is None:
            font = self.fonts[font_name] = _Font(self.face_named(font_name).ttf)
        if font.name is not None and font.chars.issuperset(text):
            if current != (font.name, size):
                current = (font.name, size)
                code.append(f"{font.name} {size} Tf")
            code.append(f"({text.translate(font.table)}) Tj")
            return current
        ttf, doc = font.ttf, self.doc
        for subset, chunk in ttf.splitString(text, doc):
            name = ttf.getSubsetInternalName(subset, doc)
            if current != (name, size):
                current = (name, size)
                code.append(f"{name} {size} Tf")
            code.append(f"({''.join([_ESCAPED[b] for b in chunk])}) Tj")
        assignments = ttf.state[doc].assignments
        for char in set(text):
            number = assignments.get(ord(char))
            if number is not None and number < 256:  # U+00A0 has none: reportlab prints it as a space
                font.chars.add(char)
                font.table[ord(char)] = _ESCAPED[number]
        if font.name is None and font.chars:
            font.name = ttf.getSubsetInternalName(0, doc)
        return current
